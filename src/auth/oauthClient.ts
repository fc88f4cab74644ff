import nodeFetch, { RequestInit, Response } from 'node-fetch';
import * as z from '../shared/schemas/zod';
import type { OAuthEndpoints } from '../config/endpoints';
import { english, Translate } from '../shared/l10n';

/**
 * The OAuth 2.0 calls of an installed app (RFC 6749, RFC 7636, RFC 7009) against Google or the emulator:
 * the authorization URL, code exchange, refresh, revocation and userinfo. Every answer is parsed with zod.
 * Tokens travel only in request bodies and headers, never in URLs, and never appear in an error message.
 */
export type FetchFunction = (url: string, init?: RequestInit) => Promise<Response>;

export interface OAuthClientConfig {
  readonly endpoints: OAuthEndpoints;
  readonly clientId: string;
  /** Google's "Desktop app" clients have a secret (not confidential by Google's own account); the emulator needs none. */
  readonly clientSecret?: string | undefined;
  readonly fetch?: FetchFunction;
  readonly timeoutMs?: number;
  /** Words the error messages (vscode.l10n.t). */
  readonly t?: Translate;
}

export interface AuthorizationUrlParameters {
  readonly redirectUri: string;
  readonly scopes: readonly string[];
  readonly state: string;
  readonly codeChallenge: string;
  /** Space-separated prompt values, e.g. "select_account consent". */
  readonly prompt?: string;
  readonly loginHint?: string;
}

export const tokenResponseSchema = z.object({
  access_token: z.string().check(z.minLength(1)),
  expires_in: z.coerce.number().check(z.positive()),
  refresh_token: z.optional(z.string().check(z.minLength(1))),
  scope: z.optional(z.string()),
  token_type: z.string(),
  id_token: z.optional(z.string()),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const userInfoSchema = z.object({
  sub: z.string().check(z.minLength(1)),
  email: z.optional(z.string()),
  email_verified: z.optional(z.union([z.boolean(), z.pipe(z.string(), z.transform((value) => value === 'true'))])),
  name: z.optional(z.string()),
  given_name: z.optional(z.string()),
  picture: z.optional(z.string()),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

const oauthErrorSchema = z.object({ error: z.string(), error_description: z.optional(z.string()) });
const googleApiErrorSchema = z.object({ error: z.object({ message: z.string(), status: z.optional(z.string()) }) });

/** The authorization server said no (invalid_grant, invalid_client…), or could not be reached. */
export class OAuthError extends Error {
  constructor(
    message: string,
    /** The OAuth error code (`invalid_grant`, …), `network` or `invalid_response`. */
    readonly code: string,
    readonly status: number | undefined,
  ) {
    super(message);
    this.name = 'OAuthError';
  }

  /** The refresh token or code is dead (expired, revoked, reused): only a new sign-in helps. */
  get isInvalidGrant(): boolean {
    return this.code === 'invalid_grant';
  }
}

const DEFAULT_TIMEOUT_MS = 30_000;

export class OAuthClient {
  private readonly fetch: FetchFunction;
  private readonly t: Translate;

  constructor(private readonly config: OAuthClientConfig) {
    this.fetch = config.fetch ?? nodeFetch;
    this.t = config.t ?? english;
  }

  /** Google's authorization URL for the loopback flow: code + PKCE S256 + offline access. */
  buildAuthorizationUrl(parameters: AuthorizationUrlParameters): string {
    const url = new URL(this.config.endpoints.authorization);
    const query: Record<string, string | undefined> = {
      client_id: this.config.clientId,
      redirect_uri: parameters.redirectUri,
      response_type: 'code',
      scope: parameters.scopes.join(' '),
      state: parameters.state,
      code_challenge: parameters.codeChallenge,
      code_challenge_method: 'S256',
      access_type: 'offline',
      include_granted_scopes: 'true',
      prompt: parameters.prompt,
      login_hint: parameters.loginHint,
    };
    // Encoded by hand: URLSearchParams writes spaces as '+', which vscode.Uri.parse/toString (openExternal)
    // re-encodes as %2B, so Google would read one scope "openid+email+…". %20 survives the round trip.
    url.search = Object.entries(query)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
      .join('&');
    return url.toString();
  }

  async exchangeCode(code: string, redirectUri: string, codeVerifier: string): Promise<TokenResponse> {
    const fields = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: codeVerifier };
    return this.postForToken(this.t('Signing in to Google'), fields, [code, codeVerifier]);
  }

  async refresh(refreshToken: string): Promise<TokenResponse> {
    return this.postForToken(this.t('Refreshing the Google sign-in'), { grant_type: 'refresh_token', refresh_token: refreshToken }, [refreshToken]);
  }

  /** Revokes a token (RFC 7009). An already invalid token counts as revoked: the goal is reached either way. */
  async revoke(token: string): Promise<void> {
    const label = this.t('Signing out of Google');
    const response = await this.send(label, this.config.endpoints.revocation, formRequest({ token }), [token]);
    if (response.ok) return;
    const text = await response.text().catch(() => '');
    const error = oauthErrorSchema.safeParse(parseJson(text));
    if (response.status === 400 && error.success && error.data.error === 'invalid_token') return;
    throw errorFromResponse(label, response.status, text, [token], this.t);
  }

  async userinfo(accessToken: string): Promise<UserInfo> {
    const label = this.t('Reading your Google account');
    const response = await this.send(label, this.config.endpoints.userinfo, {
      method: 'GET',
      headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' },
    }, [accessToken]);
    const text = await response.text();
    if (!response.ok) throw errorFromResponse(label, response.status, text, [accessToken], this.t);
    return parseWith(userInfoSchema, text, label, this.t);
  }

  private async postForToken(label: string, fields: Record<string, string>, secrets: string[]): Promise<TokenResponse> {
    const body = { ...fields, client_id: this.config.clientId, ...(this.config.clientSecret ? { client_secret: this.config.clientSecret } : {}) };
    const allSecrets = this.config.clientSecret ? [...secrets, this.config.clientSecret] : secrets;
    const response = await this.send(label, this.config.endpoints.token, formRequest(body), allSecrets);
    const text = await response.text();
    if (!response.ok) throw errorFromResponse(label, response.status, text, allSecrets, this.t);
    return parseWith(tokenResponseSchema, text, label, this.t);
  }

  private async send(label: string, url: string, init: RequestInit, secrets: string[]): Promise<Response> {
    const controller = new AbortController();
    const timer = setTimeout(() => { controller.abort(); }, this.config.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    try {
      return await this.fetch(url, { ...init, signal: controller.signal });
    } catch (error) {
      const t = this.t;
      const reason = controller.signal.aborted ? t('no answer in time') : error instanceof Error ? error.message : String(error);
      throw new OAuthError(t('{0} failed: could not reach {1} ({2})', label, hostOf(url) ?? t('the sign-in server'), redact(reason, secrets)), 'network', undefined);
    } finally {
      clearTimeout(timer);
    }
  }
}

function formRequest(fields: Record<string, string>): RequestInit {
  return {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams(fields).toString(),
  };
}

function errorFromResponse(label: string, status: number, text: string, secrets: string[], t: Translate): OAuthError {
  const body = parseJson(text);
  const oauth = oauthErrorSchema.safeParse(body);
  if (oauth.success) {
    const description = oauth.data.error_description ? `${oauth.data.error_description} ` : '';
    return new OAuthError(redact(t('{0} failed: {1}({2})', label, description, oauth.data.error), secrets), oauth.data.error, status);
  }
  const google = googleApiErrorSchema.safeParse(body);
  if (google.success) {
    const code = status === 401 ? 'invalid_token' : google.data.error.status ?? 'http_error';
    return new OAuthError(redact(t('{0} failed: {1} (HTTP {2})', label, google.data.error.message, status), secrets), code, status);
  }
  const snippet = text.trim().slice(0, 120) || t('no details');
  return new OAuthError(redact(t('{0} failed: HTTP {1} ({2})', label, status, snippet), secrets), 'http_error', status);
}

function parseWith<T>(schema: z.ZodMiniType<T>, text: string, label: string, t: Translate): T {
  const result = schema.safeParse(parseJson(text));
  if (result.success) return result.data;
  // The issue paths name fields, never values, so no token can end up in this message.
  const fields = result.error.issues.map((issue) => issue.path.join('.') || '(body)').join(', ');
  throw new OAuthError(t("{0} failed: the server's answer is not understood (fields: {1})", label, fields), 'invalid_response', undefined);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

/** Removes every secret we sent from a text that may echo it (error descriptions, network errors). */
export function redact(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) if (secret.length >= 6) result = result.split(secret).join('[redacted]');
  return result;
}
