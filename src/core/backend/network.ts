/**
 * What reaches beyond the extension host: the HTTP pipeline (node-fetch, zod), the OAuth flow, the embedded
 * emulator's process. Activation needs none of it: the first API client, sign-in, error notification or emulator
 * start `require`s it through `network()` (lazyModules.ts), and esbuild.js builds it into a bundle of its own
 * (dist/network.js), so dist/extension.js stays small.
 */
export { HttpClient, SharedReads, probeService } from '../../api/http';
export { CancelledError, disabledServiceOfError, errorMessage, isUnreachable } from '../../api/errors';
export * from '../../auth/oauthFlow';
export { EmulatorLauncher } from './emulatorLauncher';

