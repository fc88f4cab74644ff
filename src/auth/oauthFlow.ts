/**
 * The network half of the sign-in: the OAuth client (node-fetch, zod), the loopback server (http) and PKCE
 * (crypto). The provider registered at activation needs none of it until a sign-in, a token refresh or a
 * sign-out, so it `require`s this module then; the production build keeps it out of dist/extension.js (in
 * dist/network.js, see esbuild.js).
 */
export { randomUUID } from 'node:crypto';
export { LoopbackServer, SignInCancelledError, SignInDeclinedError } from './loopbackServer';
export { OAuthClient, OAuthError } from './oauthClient';
export { createPkcePair, createState } from './pkce';
