// Lint for Desk: typescript-eslint's recommended rules, plus the architecture's import boundaries
// (../shared/architecture.md): what may import vscode, the emulator, or another feature's insides.
import * as fs from 'node:fs';
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

const features = fs.readdirSync(new URL('./src/features/', import.meta.url), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);

const noVscode = { name: 'vscode', message: 'This layer runs without VS Code: take what you need as a parameter.' };
const noFeatures = { regex: '(^|/)features(/|$)', message: 'Cross-cutting layers must not depend on a feature.' };
const noEmulator = { regex: '(^|/)emulator(/|$)', message: 'Only the emulator (and tests) may import the emulator; the extension starts it as a process.' };

/** A feature reaches another only through that feature's index. */
const otherFeatureInsides = (self) =>
  features.filter((name) => name !== self).map((name) => ({
    regex: `^(\\.\\./)+(features/)?${name}/(?!index$).+`,
    message: `Import the ${name} feature through its index only.`,
  }));

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', '.desk-data/**', 'test-results/**', '**/*.js', '**/*.mjs'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      'max-lines': ['warn', { max: 500, skipBlankLines: true, skipComments: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // A `let` that a closure reads before its one assignment (a controller built before the commands it calls).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: ['src/api/**/*.ts', 'src/shared/**/*.ts', 'src/config/**/*.ts', 'src/emulator/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode], patterns: [noFeatures] }] },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/emulator/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noEmulator] }] },
  },
  {
    files: ['src/api/**/*.ts', 'src/shared/**/*.ts', 'src/config/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode], patterns: [noFeatures, noEmulator] }] },
  },
  {
    // The extension's cross-cutting layers serve every feature and know none.
    files: ['src/core/**/*.ts', 'src/auth/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noFeatures, noEmulator] }] },
  },
  ...features.map((name) => ({
    files: [`src/features/${name}/**/*.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: [noEmulator, ...otherFeatureInsides(name)] }] },
  })),
  {
    // Tests and benchmarks reach everything, and load the harness scripts (plain CommonJS beside out/) at run time.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { 'max-lines': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
);
