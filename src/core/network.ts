/**
 * What reaches beyond the extension host: the HTTP pipeline (node-fetch, zod), the OAuth flow, the embedded
 * emulator's process. Activation needs none of it; the first API call, sign-in or emulator start `require`s it
 * through `network()` (lazyModules.ts). The production build makes it a bundle of its own (dist/network.js, see esbuild.js), so
 * dist/extension.js stays small and every feature bundle shares this one copy.
 */
export { HttpClient } from '../api/http';
export { CancelledError, errorMessage } from '../api/errors';
export * from '../auth/oauthFlow';
export { EmulatorLauncher } from './emulatorLauncher';

