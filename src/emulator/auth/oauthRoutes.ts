/** The emulator's OAuth 2.0 authorization server (consent page, codes with PKCE, tokens, revocation) and userinfo endpoints. */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as z from '../../shared/schemas/zod';
import type { Reply, RequestContext, Route } from '../core/router';
import { ServiceDeps, ServiceModule } from '../core/server';
import { Collection } from '../store/store';
import { ClientRegistry } from '../identity/clients';
import { DEV_CLIENT_ID } from '../identity/devToken';
import { EmulatorUser, findUser } from '../identity/users';
import { requireUser } from '../core/context';
import { consentBody, errorPage, htmlPage } from './render';

/**
 * Google's OAuth 2.0 endpoints for installed apps, as the emulator serves them: the authorization endpoint
 * with a consent page (pick a demo account), the token endpoint (authorization_code with PKCE, refresh_token),
 * revocation and userinfo. Errors of the token and revocation endpoints use the OAuth format
 * (`{error, error_description}`), not Google's API error format, because that is what Google answers there.
 * Everything is kept in the store, so a code or refresh token survives an emulator restart.
 */
export const AUTHORIZATION_PATH = '/o/oauth2/v2/auth';
export const APPROVAL_PATH = '/o/oauth2/v2/auth/approve';
/**
 * The consent form posts relative to the consent page, so the page also works behind a path prefix (a
 * browser-hosted VS Code reaches the emulator through its /proxy/<port>/ path).
 */
const RELATIVE_APPROVAL_PATH = 'auth/approve';

const CODE_LIFETIME_MS = 10 * 60 * 1000;
/** How long the consent page stays valid, like Google's sign-in pages. */
const PENDING_LIFETIME_MS = 60 * 60 * 1000;
const MAX_PARAMETER_LENGTH = 2048;

interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state?: string;
  codeChallenge?: string;
  codeChallengeMethod?: 'S256' | 'plain';
  accessType: 'online' | 'offline';
  prompt: string[];
  loginHint?: string;
  nonce?: string;
}

interface PendingAuthorization {
  request: AuthorizationRequest;
  expiresAt: number;
}

interface AuthorizationCodeRecord {
  request: AuthorizationRequest;
  userId: string;
  /** Whether this grant gets a refresh token (offline, and consent was given now). */
  issueRefreshToken: boolean;
  expiresAt: number;
  /** Set once redeemed: a second redemption revokes what the first one issued (RFC 6749 §4.1.2). */
  redeemed?: { refreshToken?: string };
}

interface GrantRecord {
  scopes: string[];
}

class OAuthFailure extends Error {
  constructor(readonly status: number, readonly error: string, description: string) {
    super(description);
  }
}

/** A form or JSON body of the token and revocation endpoints, as string fields. */
const formFieldsSchema = z.record(z.string(), z.pipe(z.union([z.string(), z.number(), z.boolean()]), z.transform(String)));

/** The OAuth 2.0 endpoints (authorization with its consent page, token, revocation) and the userinfo endpoints. */
export function oauthRoutes(deps: ServiceDeps): readonly Route[] {
  const pending = deps.store.collection<PendingAuthorization>('oauth.pendingAuthorizations');
  const codes = deps.store.collection<AuthorizationCodeRecord>('oauth.codes');
  const grants = deps.store.collection<GrantRecord>('oauth.grants');
  const state = { pending, codes, grants, deps, clients: new ClientRegistry(deps.store, deps.now) };
  return [
    { id: 'oauth.authorize', method: 'GET', path: AUTHORIZATION_PATH, auth: false, handle: (context) => authorize(state, context) },
    { id: 'oauth.approve', method: 'POST', path: APPROVAL_PATH, auth: false, handle: (context) => approve(state, context) },
    { id: 'oauth.token', method: 'POST', path: '/token', auth: false, handle: (context) => oauthJson(() => token(state, context)) },
    { id: 'oauth.revoke', method: 'POST', path: '/revoke', auth: false, handle: (context) => oauthJson(() => revoke(state, context)) },
    // OpenID Connect's userinfo, at both of Google's addresses for it; then the older OAuth2 v2 form.
    { id: 'oauth.userinfo', method: 'GET', path: '/v1/userinfo', handle: (context) => ({ json: openIdUserInfo(context) }) },
    { id: 'oauth.userinfo', method: 'GET', path: '/oauth2/v3/userinfo', handle: (context) => ({ json: openIdUserInfo(context) }) },
    { id: 'oauth.userinfo.v2', method: 'GET', path: '/oauth2/v2/userinfo', handle: (context) => ({ json: legacyUserInfo(context) }) },
  ];
}

export const oauthModule: ServiceModule = {
  name: 'oauth',
  register(router, deps) {
    router.addAll(oauthRoutes(deps));
  },
};

interface OAuthState {
  pending: Collection<PendingAuthorization>;
  codes: Collection<AuthorizationCodeRecord>;
  grants: Collection<GrantRecord>;
  deps: ServiceDeps;
  clients: ClientRegistry;
}

// ---------------------------------------------------------------------------------------------------------
// Authorization endpoint and consent page

async function authorize(state: OAuthState, context: RequestContext): Promise<Reply> {
  const parsed = parseAuthorizationRequest(context);
  if (parsed.kind === 'page') return parsed.reply;
  if (parsed.kind === 'redirect') return parsed.reply;
  const request = parsed.request;

  if (request.prompt.includes('none')) {
    // No browser session exists in the emulator: a silent request succeeds only for a hinted account that
    // already granted these scopes to this client, as Google's does for a signed-in user.
    const user = request.loginHint ? findUser(request.loginHint) : undefined;
    if (!user) return redirectWith(request, { error: 'login_required' });
    const grant = state.grants.get(grantKey(request.clientId, user.id));
    if (!grant || !request.scopes.every((scope) => grant.scopes.includes(scope))) {
      return redirectWith(request, { error: 'interaction_required' });
    }
    const reply = issueCode(state, request, user);
    await state.deps.store.flush();
    return reply;
  }

  const id = randomBytes(24).toString('base64url');
  state.pending.set(id, { request, expiresAt: state.deps.now() + PENDING_LIFETIME_MS });
  pruneExpired(state.pending, state.deps.now());
  // GET requests are not flushed by the server; the consent page must survive a restart like a code does.
  await state.deps.store.flush();
  return htmlPage(200, 'Sign in – Desk emulator', consentBody(id, request, RELATIVE_APPROVAL_PATH));
}

type ParsedAuthorization =
  | { kind: 'request'; request: AuthorizationRequest }
  | { kind: 'page'; reply: Reply }
  | { kind: 'redirect'; reply: Reply };

function parseAuthorizationRequest(context: RequestContext): ParsedAuthorization {
  const read = (name: string): string | undefined => {
    const values = context.query.all(name);
    const value = values[0];
    return value === undefined || value === '' ? undefined : value.slice(0, MAX_PARAMETER_LENGTH);
  };
  const fail = (error: string, description: string): ParsedAuthorization => ({ kind: 'page', reply: errorPage(400, error, description) });

  const clientId = read('client_id');
  if (!clientId) return fail('invalid_request', 'Missing required parameter: client_id');
  const redirectUri = read('redirect_uri');
  if (!redirectUri) return fail('invalid_request', 'Missing required parameter: redirect_uri');
  if (!isLoopbackRedirect(redirectUri)) {
    return fail(
      'redirect_uri_mismatch',
      `The redirect URI in the request, ${redirectUri}, is not allowed for an installed app. Use a loopback address: http://127.0.0.1:PORT, http://[::1]:PORT or http://localhost:PORT.`,
    );
  }
  const stateParameter = read('state');
  const redirectError = (error: string, description: string): ParsedAuthorization => ({
    kind: 'redirect',
    reply: redirectTo(redirectUri, { error, error_description: description, state: stateParameter }),
  });

  const responseType = read('response_type');
  if (!responseType) return fail('invalid_request', 'Missing required parameter: response_type');
  if (responseType !== 'code') return redirectError('unsupported_response_type', `Unsupported response_type: ${responseType}`);

  const scopeText = read('scope');
  if (!scopeText) return fail('invalid_request', 'Missing required parameter: scope');
  const scopes = [...new Set(scopeText.split(/[\s]+/).filter(Boolean))];
  const invalidScopes = scopes.filter((scope) => !isKnownScope(scope));
  if (invalidScopes.length > 0) return fail('invalid_scope', `Some requested scopes were invalid: ${invalidScopes.join(', ')}`);

  const codeChallenge = read('code_challenge');
  const methodText = read('code_challenge_method');
  let codeChallengeMethod: 'S256' | 'plain' | undefined;
  if (methodText !== undefined || codeChallenge !== undefined) {
    if (!codeChallenge) return fail('invalid_request', 'Missing required parameter: code_challenge');
    // Google's default method is plain when only the challenge is given (RFC 7636 §4.3).
    const method = methodText ?? 'plain';
    if (method !== 'S256' && method !== 'plain') return fail('invalid_request', `Invalid code_challenge_method: ${method}`);
    if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(codeChallenge)) return fail('invalid_request', 'Invalid code_challenge: it must be 43 to 128 characters of [A-Z a-z 0-9 - . _ ~]');
    codeChallengeMethod = method;
  }

  const accessType = read('access_type') ?? 'online';
  if (accessType !== 'online' && accessType !== 'offline') return fail('invalid_request', `Invalid access_type: ${accessType}`);

  const prompt = (read('prompt') ?? '').split(/\s+/).filter(Boolean);
  const invalidPrompt = prompt.find((value) => !['none', 'consent', 'select_account'].includes(value));
  if (invalidPrompt) return fail('invalid_request', `Invalid prompt: ${invalidPrompt}`);
  if (prompt.includes('none') && prompt.length > 1) return fail('invalid_request', 'prompt=none cannot be combined with other values');

  const request: AuthorizationRequest = { clientId, redirectUri, scopes, accessType, prompt };
  if (stateParameter !== undefined) request.state = stateParameter;
  if (codeChallenge !== undefined && codeChallengeMethod !== undefined) {
    request.codeChallenge = codeChallenge;
    request.codeChallengeMethod = codeChallengeMethod;
  }
  const loginHint = read('login_hint');
  if (loginHint !== undefined) request.loginHint = loginHint;
  const nonce = read('nonce');
  if (nonce !== undefined) request.nonce = nonce;
  return { kind: 'request', request };
}

/** Installed apps may only redirect to this machine (Google's rule for the loopback flow). */
export function isLoopbackRedirect(candidate: string): boolean {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' || url.username || url.password || url.hash) return false;
  return url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
}

function isKnownScope(scope: string): boolean {
  return ['openid', 'email', 'profile'].includes(scope) || /^https:\/\/www\.googleapis\.com\/auth\/[a-z0-9._-]+$/.test(scope);
}

async function approve(state: OAuthState, context: RequestContext): Promise<Reply> {
  const fields = await readFields(context).catch(() => undefined);
  const id = fields?.['request'];
  const record = id ? state.pending.get(id) : undefined;
  if (!id || !record || record.expiresAt <= state.deps.now()) {
    if (id) state.pending.delete(id);
    return errorPage(400, 'invalid_request', 'This sign-in request has expired or was already used. Start the sign-in again from the app.');
  }
  // Single use: a consent page cannot be submitted twice (back button, double click).
  state.pending.delete(id);
  const { request } = record;
  if (fields['action'] === 'cancel') return redirectWith(request, { error: 'access_denied' });
  const user = fields['account'] ? findUser(fields['account']) : undefined;
  if (!user) return errorPage(400, 'invalid_request', 'Choose one of the listed accounts.');
  return issueCode(state, request, user);
}

function issueCode(state: OAuthState, request: AuthorizationRequest, user: EmulatorUser): Reply {
  const key = grantKey(request.clientId, user.id);
  const previous = state.grants.get(key);
  // Google hands out a refresh token with the first consent only, or again when prompt=consent asks for it.
  const issueRefreshToken = request.accessType === 'offline' && (!previous || request.prompt.includes('consent'));
  state.grants.set(key, { scopes: [...new Set([...(previous?.scopes ?? []), ...request.scopes])] });

  const code = `4/0emu-${randomBytes(24).toString('base64url')}`;
  state.codes.set(code, { request, userId: user.id, issueRefreshToken, expiresAt: state.deps.now() + CODE_LIFETIME_MS });
  pruneExpired(state.codes, state.deps.now() - CODE_LIFETIME_MS);
  return redirectWith(request, { code, scope: request.scopes.join(' '), authuser: '0', prompt: 'consent' });
}

function redirectWith(request: AuthorizationRequest, parameters: Record<string, string | undefined>): Reply {
  return redirectTo(request.redirectUri, { state: request.state, ...parameters });
}

function redirectTo(redirectUri: string, parameters: Record<string, string | undefined>): Reply {
  const target = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) if (value !== undefined) target.searchParams.set(name, value);
  return { status: 302, headers: { Location: target.toString(), 'Cache-Control': 'no-store' }, empty: true };
}

function grantKey(clientId: string, userId: string): string {
  return `${clientId}\n${userId}`;
}

function pruneExpired<T extends { expiresAt: number }>(collection: Collection<T>, before: number): void {
  if (collection.size < 200) return;
  for (const [key, record] of [...collection.entries()]) if (record.expiresAt <= before) collection.delete(key);
}

// ---------------------------------------------------------------------------------------------------------
// Token and revocation endpoints

async function oauthJson(run: () => Promise<Reply>): Promise<Reply> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof OAuthFailure) {
      return { status: error.status, headers: { 'Cache-Control': 'no-store' }, json: { error: error.error, error_description: error.message } };
    }
    throw error;
  }
}

async function token(state: OAuthState, context: RequestContext): Promise<Reply> {
  const fields = await readFields(context);
  const { clientId, clientSecret } = clientCredentialsOf(context, fields);
  const grantType = fields['grant_type'];
  if (!grantType) throw new OAuthFailure(400, 'invalid_request', 'Missing required parameter: grant_type');
  if (clientId) {
    // Before any grant is looked at, so a wrong secret cannot burn (or probe) a code or refresh token.
    const checked = state.clients.check(clientId, clientSecret);
    if (!checked.ok) throw new OAuthFailure(401, 'invalid_client', checked.description);
  }
  if (grantType === 'authorization_code') {
    if (!clientId) throw new OAuthFailure(400, 'invalid_request', 'Could not determine client ID from request.');
    return { headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' }, json: redeemCode(state, clientId, fields) };
  }
  if (grantType === 'refresh_token') {
    if (!clientId) throw new OAuthFailure(400, 'invalid_request', 'Could not determine client ID from request.');
    return { headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' }, json: redeemRefreshToken(state, clientId, fields) };
  }
  throw new OAuthFailure(400, 'unsupported_grant_type', `Invalid grant_type: ${grantType.slice(0, 100)}`);
}

function redeemCode(state: OAuthState, clientId: string, fields: Record<string, string>): Record<string, unknown> {
  const code = fields['code'];
  if (!code) throw new OAuthFailure(400, 'invalid_request', 'Missing required parameter: code');
  const record = state.codes.get(code);
  if (!record) throw new OAuthFailure(400, 'invalid_grant', 'Malformed auth code.');
  if (record.redeemed) {
    // A replayed code means it leaked: end what the first redemption issued.
    if (record.redeemed.refreshToken) state.deps.tokens.revoke(record.redeemed.refreshToken);
    state.codes.delete(code);
    throw new OAuthFailure(400, 'invalid_grant', 'The authorization code was already used.');
  }
  const rejectCode: (status: number, error: string, description: string) => never = (status, error, description) => {
    // Any failed redemption burns the code, so a guessed verifier cannot be retried.
    state.codes.delete(code);
    throw new OAuthFailure(status, error, description);
  };
  const { request } = record;
  if (record.expiresAt <= state.deps.now()) rejectCode(400, 'invalid_grant', 'The authorization code has expired.');
  if (request.clientId !== clientId) rejectCode(400, 'invalid_grant', 'The authorization code was issued to another client.');
  const redirectUri = fields['redirect_uri'];
  if (!redirectUri) rejectCode(400, 'invalid_request', 'Missing required parameter: redirect_uri');
  if (redirectUri !== request.redirectUri) rejectCode(400, 'redirect_uri_mismatch', 'The redirect_uri does not match the one of the authorization request.');
  if (request.codeChallenge) {
    const verifier = fields['code_verifier'];
    if (!verifier) rejectCode(400, 'invalid_grant', 'Missing code verifier.');
    else if (!verifierMatches(verifier, request.codeChallenge, request.codeChallengeMethod ?? 'plain')) rejectCode(400, 'invalid_grant', 'Invalid code verifier.');
  }

  const user = findUser(record.userId);
  if (!user) rejectCode(400, 'invalid_grant', 'The account of this authorization code no longer exists.');
  const userId = record.userId;
  const issued = record.issueRefreshToken
    ? state.deps.tokens.issue(userId, clientId, request.scopes)
    : { ...state.deps.tokens.issueAccessOnly(userId, clientId, request.scopes), refreshToken: undefined };
  record.redeemed = issued.refreshToken ? { refreshToken: issued.refreshToken } : {};
  state.codes.set(code, record);

  const body: Record<string, unknown> = {
    access_token: issued.accessToken,
    expires_in: issued.expiresIn,
    scope: issued.scopes.join(' '),
    token_type: 'Bearer',
  };
  if (issued.refreshToken) body['refresh_token'] = issued.refreshToken;
  if (user && request.scopes.includes('openid')) body['id_token'] = idToken(state, user, clientId, request.scopes, request.nonce);
  return body;
}

function redeemRefreshToken(state: OAuthState, clientId: string, fields: Record<string, string>): Record<string, unknown> {
  const refreshToken = fields['refresh_token'];
  if (!refreshToken) throw new OAuthFailure(400, 'invalid_request', 'Missing required parameter: refresh_token');
  const record = state.deps.tokens.describeRefreshToken(refreshToken);
  if (!record) throw new OAuthFailure(400, 'invalid_grant', 'Token has been expired or revoked.');
  if (record.clientId !== clientId) throw new OAuthFailure(401, 'unauthorized_client', 'Unauthorized');
  const issued = state.deps.tokens.refresh(refreshToken, clientId);
  if (!issued) throw new OAuthFailure(400, 'invalid_grant', 'Token has been expired or revoked.');
  const body: Record<string, unknown> = {
    access_token: issued.accessToken,
    expires_in: issued.expiresIn,
    scope: issued.scopes.join(' '),
    token_type: 'Bearer',
  };
  const user = findUser(record.userId);
  if (user && record.scopes.includes('openid')) body['id_token'] = idToken(state, user, clientId, record.scopes, undefined);
  return body;
}

async function revoke(state: OAuthState, context: RequestContext): Promise<Reply> {
  const fields = await readFields(context);
  const tokenToRevoke = context.query.string('token') ?? fields['token'];
  if (!tokenToRevoke) throw new OAuthFailure(400, 'invalid_request', 'Missing required parameter: token');
  const record = state.deps.tokens.describeRefreshToken(tokenToRevoke) ?? state.deps.tokens.describe(tokenToRevoke);
  if (!record) throw new OAuthFailure(400, 'invalid_token', 'Token expired or revoked');
  // Like Google, revoking either token of a grant withdraws the whole consent: every token of that user for
  // this client ends, and the next sign-in gets a new refresh token.
  state.deps.tokens.revokeGrant(record.userId, record.clientId);
  state.grants.delete(grantKey(record.clientId, record.userId));
  return { json: {} };
}

/** The S256 / plain check of RFC 7636 §4.6, written independently of the extension's PKCE code on purpose. */
function verifierMatches(verifier: string, challenge: string, method: 'S256' | 'plain'): boolean {
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) return false;
  const expected = method === 'S256' ? createHash('sha256').update(verifier, 'ascii').digest('base64url') : verifier;
  const a = Buffer.from(expected);
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The client id and secret of a token request: HTTP Basic authentication, else the body (both are Google's). */
function clientCredentialsOf(context: RequestContext, fields: Record<string, string>): { clientId: string | undefined; clientSecret: string | undefined } {
  const header = context.headers.authorization;
  if (typeof header === 'string') {
    const basic = /^Basic\s+(\S+)$/i.exec(header.trim());
    if (basic?.[1]) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const separator = decoded.indexOf(':');
      const encodedId = separator >= 0 ? decoded.slice(0, separator) : decoded;
      const encodedSecret = separator >= 0 ? decoded.slice(separator + 1) : '';
      let id: string;
      let secret: string;
      try {
        // RFC 6749 §2.3.1: both parts are form-urlencoded before they are joined.
        id = decodeURIComponent(encodedId.replace(/\+/g, ' '));
        secret = decodeURIComponent(encodedSecret.replace(/\+/g, ' '));
      } catch {
        throw new OAuthFailure(401, 'invalid_client', 'The client credentials in the Authorization header are malformed.');
      }
      if (id) return { clientId: id, clientSecret: secret || undefined };
    }
  }
  return { clientId: fields['client_id'] || undefined, clientSecret: fields['client_secret'] || undefined };
}

async function readFields(context: RequestContext): Promise<Record<string, string>> {
  const contentType = (context.headers['content-type'] ?? '').toLowerCase();
  if (contentType.includes('application/json')) {
    let body: unknown;
    try {
      body = await context.json();
    } catch {
      throw new OAuthFailure(400, 'invalid_request', 'The request body is not valid JSON.');
    }
    const parsed = formFieldsSchema.safeParse(body);
    if (!parsed.success) throw new OAuthFailure(400, 'invalid_request', 'The request body must be an object of string fields.');
    return parsed.data;
  }
  const text = await context.text();
  return Object.fromEntries(new URLSearchParams(text));
}

function idToken(state: OAuthState, user: EmulatorUser, clientId: string, scopes: string[], nonce: string | undefined): string {
  const now = Math.floor(state.deps.now() / 1000);
  const claims: Record<string, unknown> = {
    iss: 'https://accounts.google.com',
    azp: clientId,
    aud: clientId,
    sub: user.id,
    iat: now,
    exp: now + 3600,
  };
  if (scopes.includes('email')) Object.assign(claims, { email: user.email, email_verified: true });
  if (scopes.includes('profile')) Object.assign(claims, { name: user.name, given_name: user.givenName });
  if (nonce) claims['nonce'] = nonce;
  const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT', kid: 'desk-emulator' })}.${encode(claims)}`;
  return `${unsigned}.${createHmac('sha256', idTokenKey(state)).update(unsigned).digest('base64url')}`;
}

function idTokenKey(state: OAuthState): string {
  // The emulator is not an identity provider anyone should trust: the key only keeps the token well-formed.
  const meta = state.deps.store.collection<{ key: string }>('oauth.meta');
  let record = meta.get('idTokenKey');
  if (!record) {
    record = { key: randomBytes(32).toString('base64url') };
    meta.set('idTokenKey', record);
  }
  return record.key;
}

// ---------------------------------------------------------------------------------------------------------
// Userinfo

function grantedScopes(context: RequestContext): Set<string> {
  const grant = context.grant;
  // Developer tokens stand for a signed-in developer: they see the whole profile.
  if (!grant || grant.clientId === DEV_CLIENT_ID) return new Set(['openid', 'email', 'profile']);
  return new Set(grant.scopes);
}


function openIdUserInfo(context: RequestContext): Record<string, unknown> {
  const user = requireUser(context);
  const scopes = grantedScopes(context);
  const info: Record<string, unknown> = { sub: user.id };
  if (scopes.has('profile') || scopes.has('https://www.googleapis.com/auth/userinfo.profile')) {
    Object.assign(info, { name: user.name, given_name: user.givenName, family_name: familyName(user) });
    if (user.picture) info['picture'] = user.picture;
  }
  if (scopes.has('email') || scopes.has('https://www.googleapis.com/auth/userinfo.email')) {
    Object.assign(info, { email: user.email, email_verified: true });
  }
  return info;
}

function legacyUserInfo(context: RequestContext): Record<string, unknown> {
  const openId = openIdUserInfo(context);
  const { sub, email_verified: verified, ...rest } = openId;
  return { id: sub, ...rest, ...(verified === undefined ? {} : { verified_email: verified }) };
}

function familyName(user: EmulatorUser): string | undefined {
  const rest = user.name.slice(user.givenName.length).trim();
  return rest || undefined;
}
