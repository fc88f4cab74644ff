/**
 * Loaders of the modules activation must not load. Each is a plain `require` inside a function, so nothing runs
 * until the first call; the production build turns it into a `require` of that module's own bundle (esbuild.js).
 */

/** The HTTP pipeline, the OAuth flow and the emulator's process (core/network.ts). */
export function network(): typeof import('./network') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./network') as typeof import('./network');
}
