/**
 * The Books catalogue's text when the emulator runs from its bundle: esbuild.js replaces this module with the
 * contents of data/catalogue.jsonl, so `dist/emulator.js` (the CLI, and the extension's child process) carries the
 * catalogue inside it and the packaged extension needs no extra file. Compiled by tsc (tests, benchmarks) it stays
 * undefined and catalogue.ts reads the file from the source tree instead.
 */
export const EMBEDDED_CATALOGUE: string | undefined = undefined;
