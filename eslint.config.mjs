// Lint for Desk: typescript-eslint's strictTypeChecked (two house choices below: numbers in template literals, and
// require-await off in tests and benchmarks; every folder meets it),
// a switch that must name every case, the architecture's import boundaries (docs/architecture.md): what may import
// vscode, the emulator, or another feature's insides, and Desk's own rules for its house rules (build/eslint-rules,
// the plugin `desk`).
import * as fs from 'node:fs';
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import desk from './build/eslint-rules/index.js';

/** typescript-eslint's strictTypeChecked rules with the options that config gives them (to change one option only). */
const strictSettings = Object.assign({}, ...tseslint.configs.strictTypeChecked.map((config) => config.rules ?? {}));

const features = fs.readdirSync(new URL('./src/features/', import.meta.url), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);

const noVscode = { name: 'vscode', message: 'This layer runs without VS Code: take what you need as a parameter.' };
const noFeatures = { regex: '(^|/)features(/|$)', message: 'Cross-cutting layers must not depend on a feature.' };
const noCore = { regex: '(^|/)core(/|$)', message: 'auth/ is below core/: core wires the provider, not the other way (no auth <-> core cycle).' };
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
  ...tseslint.configs.strictTypeChecked,
  {
    files: ['**/*.ts'],
    // Type information from the one tsconfig.json (src, test and bench).
    languageOptions: { parserOptions: { project: ['./tsconfig.json'], tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A `default` that handles the rest is a deliberate choice; a switch without one must name every member.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // The line budget every source file meets, in lines of code (comments and blank lines are free).
      'max-lines': ['error', { max: 600, skipBlankLines: true, skipComments: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // A `let` that a closure reads before its one assignment (a controller built before the commands it calls).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // A house choice over strictTypeChecked's options: a number in a template literal is fine (its text is well defined:
      // counts, sizes, ports, indexes in messages and URLs); undefined, null, objects, booleans and any still fail.
      '@typescript-eslint/restrict-template-expressions': ['error', { ...strictSettings['@typescript-eslint/restrict-template-expressions'][1], allowNumber: true }],
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
    files: ['src/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noFeatures, noEmulator] }] },
  },
  {
    // The authentication provider is below the extension's core, which wires it (core/accounts/deskCommands.ts, core/accounts/session.ts).
    files: ['src/auth/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noFeatures, noEmulator, noCore] }] },
  },
  ...features.flatMap((name) => FEATURE_DEPTHS.map((depth) => ({
    files: [`src/features/${name}/${'*/'.repeat(depth)}*.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: [noEmulator, ...otherFeatureInsides(name, depth)] }] },
  }))),
  {
    files: ['**/*.ts'],
    plugins: { desk },
  },
  {
    // Commands are registered through registerCommands (core/commands.ts), which reports a failure with Retry.
    files: ['src/**/*.ts'],
    // lazyFeatures registers the activation stand-ins of a feature's commands and hands the feature's own
    // registrations to them (the feature's registerCommands calls reach it through its intercepting vscode).
    ignores: ['src/core/commands.ts', 'src/core/startup/lazyFeatures.ts'],
    rules: { 'desk/register-command-in-core': 'error' },
  },
  {
    // Command ids and setting keys are named through src/config/'s constants only.
    files: ['src/**/*.ts'],
    ignores: ['src/config/**'],
    rules: { 'desk/ids-from-config': 'error' },
  },
  {
    // The emulator's server reads the bearer token once and puts the user and the grant on RequestContext; no route
    // parses the Authorization header or the access token itself (issue 30: it was parsed in five places).
    files: ['src/emulator/**/*.ts'],
    // The OAuth server reads the tokens it issues and revokes; the log redacts them.
    ignores: ['src/emulator/core/server.ts', 'src/emulator/auth/oauthRoutes.ts', 'src/emulator/core/log.ts'],
    rules: { 'desk/bearer-token-in-server': 'error' },
  },
  {
    // Tests and benchmarks reach everything, and load the harness scripts (plain CommonJS beside out/) at run time.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    // require-await is off here (a house choice): a stub or fake of a promise-returning API is written `async` without an
    // await so that it behaves like the real one (a throw becomes a rejection, the value arrives a microtask later).
    rules: { 'max-lines': 'off', '@typescript-eslint/no-require-imports': 'off', '@typescript-eslint/require-await': 'off' },
  },
);
