// Lint for Desk: typescript-eslint's recommended rules, the type-aware rules that catch what async code gets wrong
// (a floating promise, a promise where a void callback is expected, awaiting a non-promise, a switch that misses a
// case), plus the architecture's import boundaries (docs/architecture.md): what may import vscode, the emulator,
// or another feature's insides.
import * as fs from 'node:fs';
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

const features = fs.readdirSync(new URL('./src/features/', import.meta.url), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);

const noVscode = { name: 'vscode', message: 'This layer runs without VS Code: take what you need as a parameter.' };
const noFeatures = { regex: '(^|/)features(/|$)', message: 'Cross-cutting layers must not depend on a feature.' };
const noEmulator = { regex: '(^|/)emulator(/|$)', message: 'Only the emulator (and tests) may import the emulator; the extension starts it as a process.' };

/**
 * A feature reaches another only through that feature's index. The pattern depends on the importing file's depth
 * (`depth` folders below src/features/<self>/), so that a feature's own subfolder that shares another feature's name
 * (books/search beside the search feature) is not mistaken for it.
 */
const otherFeatureInsides = (self, depth) =>
  features.filter((name) => name !== self).map((name) => ({
    regex: `^((\\.\\./){${depth + 1}}|(\\.\\./)+features/)${name}/(?!index$).+`,
    message: `Import the ${name} feature through its index only.`,
  }));
/** How deep below a feature's folder its files go, for the import rule above. */
const FEATURE_DEPTHS = [0, 1, 2, 3, 4];

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', '.desk-data/**', 'test-results/**', '**/*.js', '**/*.mjs'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    // Type information from the one tsconfig.json (src, test and bench).
    languageOptions: { parserOptions: { project: ['./tsconfig.json'], tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // A `default` that handles the rest is a deliberate choice; a switch without one must name every member.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
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
  ...features.flatMap((name) => FEATURE_DEPTHS.map((depth) => ({
    files: [`src/features/${name}/${'*/'.repeat(depth)}*.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: [noEmulator, ...otherFeatureInsides(name, depth)] }] },
  }))),
  {
    // The emulator's server reads the bearer token once and puts the user and the grant on RequestContext; no route
    // parses the Authorization header or the access token itself (issue 30: it was parsed in five places).
    files: ['src/emulator/**/*.ts'],
    // The OAuth server reads the tokens it issues and revokes; the log redacts them.
    ignores: ['src/emulator/core/server.ts', 'src/emulator/auth/oauthRoutes.ts', 'src/emulator/core/log.ts'],
    rules: {
      'no-restricted-syntax': ['error',
        { selector: 'Literal[regex.pattern=/Bearer/]', message: 'Read context.user and context.grant: the server parses the bearer token (core/server.ts).' },
        { selector: 'CallExpression[callee.property.name="describe"][callee.object.property.name="tokens"]', message: 'Read context.grant: the server looks the token up (core/server.ts).' },
      ],
    },
  },
  {
    // Tests and benchmarks reach everything, and load the harness scripts (plain CommonJS beside out/) at run time.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { 'max-lines': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
);
