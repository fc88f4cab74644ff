import type * as vscode from 'vscode';
import type { TokenSource } from '../api/http';
import { ServiceEndpoints } from '../config/endpoints';
import { SCOPES } from '../config/scopes';
import type { FetchFunction, OAuthClient } from './oauthClient';
import { backendKey, SecretStorageLike, SESSIONS_SECRET_KEY, SessionStore, StoredSession } from './sessionStore';
import { normalizeAccount } from './accountName';
import { hasMark, markInstance } from '../shared/crossBundle';
import { english, Translate } from '../shared/l10n';

export const AUTH_PROVIDER_ID = 'desk-google';
export const AUTH_PROVIDER_LABEL = 'Google (Desk)';
/** Refresh this long before expiry, so a token never dies in the middle of a request (or a slow upload). */
export const REFRESH_MARGIN_MS = 5 * 60 * 1000;

export interface ClientConfig {
  readonly clientId: string;
  readonly clientSecret?: string | undefined;
}

export interface DeskAuthenticationProviderOptions {
  /** The backend in use now (Google or an emulator); read on every call, so a settings change applies at once. */
  readonly endpoints: () => ServiceEndpoints;
  readonly clientId: () => Promise<ClientConfig>;
  /** Opens the authorization URL in a browser; tests pass a programmatic consent browser. */
  readonly openUrl?: (url: string) => Promise<boolean>;
  readonly fetch?: FetchFunction;
  readonly now?: () => number;
  /** How long createSession waits for the browser (default 5 minutes). */
  readonly signInTimeoutMs?: number;
}

/** SecretStorage as the provider needs it: the store plus its change event, for other windows' sign-ins. */
export interface ObservableSecretStorage extends SecretStorageLike {
  onDidChange(listener: (event: { readonly key: string }) => unknown): { dispose(): unknown };
}

/** A signed-in account as the views name it: its e-mail address (normalized) and, when Google gave one, its name. */
export interface SignedInAccount {
  readonly email: string;
  readonly name?: string;
}

/** There is no Desk session (never signed in, signed out, or the backend changed). */
export class NotSignedInError extends Error {
  /** Holds across feature bundles (see shared/crossBundle.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasMark(value, 'NotSignedInError');
  }

  /** `t` (vscode.l10n.t) words the message; a subclass passes its own. */
  constructor(t: Translate = english, message = t('Not signed in to Google (Desk). Run "Desk: Sign In" to connect your account.')) {
    super(message);
    this.name = 'NotSignedInError';
    markInstance(this, 'NotSignedInError');
  }
}

/** A request was made for an account that has no session here (signed out, or another account signed in). */
export class AccountNotSignedInError extends NotSignedInError {
  /** Holds across feature bundles (see shared/crossBundle.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasMark(value, 'AccountNotSignedInError');
  }

  constructor(readonly account: string, t: Translate = english) {
    super(t, t('Sign in as {0} to continue: nothing was sent.', account));
    this.name = 'AccountNotSignedInError';
    markInstance(this, 'AccountNotSignedInError');
  }
}

/** Google no longer accepts the session's refresh token (revoked, expired, password change): sign in again. */
export class SessionExpiredError extends NotSignedInError {
  /** Holds across feature bundles (see shared/crossBundle.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasMark(value, 'SessionExpiredError');
  }

  constructor(account: string, t: Translate = english) {
    super(t, t('The Google sign-in of {0} has expired or was revoked. Run "Desk: Sign In" to sign in again.', account));
    this.name = 'SessionExpiredError';
    markInstance(this, 'SessionExpiredError');
  }
}

/** Whether an access token expiring at `expiresAt` should be refreshed before use. */
export function needsRefresh(expiresAt: number, now: number, forceRefresh = false): boolean {
  return forceRefresh || expiresAt - now <= REFRESH_MARGIN_MS;
}

/** Google reports `email`/`profile` under their long names in the granted scope list. */
const SCOPE_ALIASES: Readonly<Record<string, string>> = {
  email: 'https://www.googleapis.com/auth/userinfo.email',
  profile: 'https://www.googleapis.com/auth/userinfo.profile',
};

type SessionsChangeEvent = vscode.AuthenticationProviderAuthenticationSessionsChangeEvent;

/** The OAuth client, loopback server and PKCE, loaded on first use (listing sessions needs none of them). */
function oauthFlow(): typeof import('./oauthFlow') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./oauthFlow') as typeof import('./oauthFlow');
}

/**
 * Desk's Google sign-in for VS Code: the loopback flow with PKCE S256 and offline access, several accounts,
 * sessions (with their refresh tokens) only in SecretStorage, silent refresh five minutes before expiry with
 * one refresh at a time per session, revocation on sign-out, and other windows kept in step through
 * `secrets.onDidChange`. Takes `vs` as a parameter, so it runs under plain mocha with a small fake.
 */
export class DeskAuthenticationProvider implements vscode.AuthenticationProvider, vscode.Disposable {
  readonly onDidChangeSessions: vscode.Event<SessionsChangeEvent>;
  private readonly emitter: vscode.EventEmitter<SessionsChangeEvent>;
  private readonly store: SessionStore;
  private readonly refreshes = new Map<string, Promise<StoredSession>>();
  private readonly disposables: { dispose(): unknown }[] = [];
  /** The sessions VS Code was last told about; events are the difference to what the store holds now. */
  private announced: StoredSession[] = [];
  private reconciling: Promise<void>;
  private urlOpener: ((url: string) => Promise<boolean>) | undefined;
  /** The backend of `announced`; when the settings switch backends, VS Code hears of the other accounts. */
  private announcedBackend: string;
  /**
   * The token last handed out per backend and scope set, so a burst of requests (a search asks 18 at once)
   * does not read SecretStorage twice each: every read is a round trip to the window, queued behind the others.
   * Forgotten on any change to the stored sessions (ours or another window's) and near expiry.
   */
  private readonly handedOut = new Map<string, { readonly session: StoredSession; readonly generation: number }>();
  private readonly lookingUp = new Map<string, Promise<StoredSession>>();
  /** Bumped whenever the stored sessions change; an answer looked up before a change is not remembered. */
  private generation = 0;

  constructor(
    private readonly vs: typeof vscode,
    secrets: ObservableSecretStorage,
    private readonly options: DeskAuthenticationProviderOptions,
  ) {
    this.emitter = new vs.EventEmitter<SessionsChangeEvent>();
    this.onDidChangeSessions = this.emitter.event;
    this.store = new SessionStore(secrets);
    this.announcedBackend = backendKey(options.endpoints());
    this.reconciling = this.store.list(this.announcedBackend).then(
      (sessions) => { this.announced = sessions; },
      () => undefined,
    );
    this.disposables.push(
      this.emitter,
      secrets.onDidChange((event) => {
        if (event.key !== SESSIONS_SECRET_KEY) return;
        this.forgetTokens();
        void this.refreshSessions();
      }),
    );
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }

  /** Sessions of the current backend that cover `scopes`; tokens near expiry are refreshed first. */
  async getSessions(scopes?: readonly string[], options?: vscode.AuthenticationProviderSessionOptions): Promise<vscode.AuthenticationSession[]> {
    const backend = this.backend();
    const wanted = await this.matchingSessions(backend, scopes, options?.account?.id);
    // Without scopes VS Code only lists accounts (Accounts menu, start-up): no token is used, so no network.
    if (!scopes) return wanted.map(toSession);
    const sessions: vscode.AuthenticationSession[] = [];
    for (const stored of wanted) {
      try {
        sessions.push(toSession(await this.ensureFresh(backend, stored, false)));
      } catch (error) {
        // A dead refresh token removed the session; any other failure (offline) keeps the old token, and
        // the API call that uses it reports the real problem.
        if (!(error instanceof NotSignedInError)) sessions.push(toSession(stored));
      }
    }
    return sessions;
  }

  /** Stored sessions without touching the network (for sign-out pickers and context keys). */
  async listSessions(): Promise<vscode.AuthenticationSession[]> {
    return (await this.store.list(this.backend())).map(toSession);
  }

  /** The signed-in accounts of the current backend (e-mail and name, once each), from the stored sessions: no network. */
  async listAccounts(): Promise<SignedInAccount[]> {
    const accounts = new Map<string, SignedInAccount>();
    for (const stored of await this.store.list(this.backend())) {
      const email = normalizeAccount(stored.label);
      if (!accounts.has(email)) accounts.set(email, { email, ...(stored.name ? { name: stored.name } : {}) });
    }
    return [...accounts.values()];
  }

  /** Runs the browser sign-in: loopback redirect, PKCE S256, state, offline access. */
  async createSession(scopes: readonly string[]): Promise<vscode.AuthenticationSession> {
    const endpoints = this.options.endpoints();
    const backend = backendKey(endpoints);
    const requested = normaliseScopes([...SCOPES.identity, ...scopes]);
    const client = await this.client(endpoints);
    const { LoopbackServer, SignInDeclinedError, createPkcePair, createState, randomUUID } = oauthFlow();
    const t = this.vs.l10n.t;
    const title = endpoints.kind === 'emulator' ? t('Signing in to the Desk emulator… finish in your browser') : t('Signing in to Google… finish in your browser');
    return this.vs.window.withProgress(
      { location: this.vs.ProgressLocation.Notification, title, cancellable: true },
      async (_progress, cancellation) => {
        const abort = new AbortController();
        const subscription = cancellation.onCancellationRequested(() => { abort.abort(); });
        const pkce = createPkcePair();
        const state = createState();
        const loopback = await LoopbackServer.start({ expectedState: state, signal: abort.signal, timeoutMs: this.options.signInTimeoutMs, t });
        try {
          const redirectUri = await this.redirectUriFor(loopback.redirectUri);
          const url = client.buildAuthorizationUrl({
            redirectUri,
            scopes: requested,
            state,
            codeChallenge: pkce.challenge,
            // Every sign-in is a first grant for its session: consent makes Google issue a refresh token
            // (it sends one only with consent), and select_account lets the user add a second account.
            prompt: 'select_account consent',
          });
          // VS Code answers false when the user says no to opening the external website: a cancel, not a failure.
          if (!(await this.open(url))) throw new SignInDeclinedError(t('Sign-in was cancelled.'));
          const code = await loopback.waitForCode();
          const tokens = await client.exchangeCode(code, redirectUri, pkce.verifier);
          if (!tokens.refresh_token) {
            throw new Error(t('Google did not grant offline access (no refresh token). Remove Desk at myaccount.google.com/permissions and sign in again.'));
          }
          const missing = missingScopes(requested, tokens.scope);
          if (missing.length > 0) {
            throw new Error(t('Google granted only part of the access Desk needs (missing: {0}). Sign in again and allow every item.', missing.join(', ')));
          }
          const profile = await client.userinfo(tokens.access_token);
          const session: StoredSession = {
            id: randomUUID(),
            accountId: profile.sub,
            label: profile.email ?? profile.name ?? profile.sub,
            ...(profile.name ? { name: profile.name } : {}),
            scopes: requested,
            refreshToken: tokens.refresh_token,
            accessToken: tokens.access_token,
            expiresAt: this.now() + tokens.expires_in * 1000,
          };
          // A new sign-in of the same account for the same scopes replaces the old session. Its refresh token
          // is not revoked: Google would revoke the whole grant, the new token included.
          for (const old of await this.store.list(backend)) {
            if (old.accountId === session.accountId && sameScopes(old.scopes, session.scopes)) await this.store.remove(backend, old.id);
          }
          await this.store.put(backend, session);
          await this.refreshSessions();
          return toSession(session);
        } finally {
          subscription.dispose();
          await loopback.close();
        }
      },
    );
  }

  /** Signs out: revokes the refresh token (best effort), then forgets the session. */
  async removeSession(sessionId: string): Promise<void> {
    const backend = this.backend();
    const stored = await this.store.get(backend, sessionId);
    if (!stored) return;
    const sameAccountElsewhere = (await this.store.list(backend)).some((other) => other.id !== sessionId && other.accountId === stored.accountId);
    // Google revokes a client's whole grant for the account, so revoke only when no other session still uses it.
    if (!sameAccountElsewhere) {
      try {
        await (await this.client(this.options.endpoints(), 10_000)).revoke(stored.refreshToken);
      } catch {
        // Offline or already revoked: the local sign-out must still happen; the token is forgotten below.
      }
    }
    // Requests from now on must not get the token being signed out.
    this.forgetTokens();
    await this.store.remove(backend, sessionId);
    await this.refreshSessions();
  }

  /**
   * A usable access token for a session: the stored one while it has more than five minutes left, otherwise
   * (or when `forceRefresh` after a 401) a refreshed one. Concurrent callers share one refresh.
   */
  async getAccessToken(sessionId: string, options: { forceRefresh: boolean } = { forceRefresh: false }): Promise<string> {
    const backend = this.backend();
    const stored = await this.store.get(backend, sessionId);
    if (!stored) throw new NotSignedInError(this.vs.l10n.t);
    return (await this.ensureFresh(backend, stored, options.forceRefresh)).accessToken;
  }

  /**
   * A usable access token of the first session covering `scopes`, for the HTTP pipeline: one stored-session
   * read for all requests asked together, none while the token handed out last is still fresh. `forceRefresh`
   * (after a 401) always reads the store, and refreshes unless the stored token is already another than `rejected`
   * (the one the 401 answered: another request refreshed it meanwhile). Throws NotSignedInError when no session
   * covers them.
   */
  async accessTokenFor(scopes: readonly string[], options: { forceRefresh: boolean; rejected?: string; account?: string | undefined } = { forceRefresh: false }): Promise<string> {
    const backend = this.backend();
    const account = options.account === undefined ? undefined : normalizeAccount(options.account);
    const key = `${backend}\n${normaliseScopes(scopes).join(' ')}\n${account ?? ''}`;
    if (!options.forceRefresh) {
      const known = this.handedOut.get(key);
      if (known && known.generation === this.generation && !needsRefresh(known.session.expiresAt, this.now())) return known.session.accessToken;
      const pending = this.lookingUp.get(key);
      if (pending) return (await pending).accessToken;
    }
    const generation = this.generation;
    const lookUp = (async () => {
      // A request made for one account (a document of that account) takes only that account's session.
      const stored = (await this.matchingSessions(backend, scopes, undefined)).find((session) => account === undefined || normalizeAccount(session.label) === account);
      if (!stored) throw account === undefined ? new NotSignedInError(this.vs.l10n.t) : new AccountNotSignedInError(account, this.vs.l10n.t);
      // refresh() takes the stored token when it is no longer the one the server refused.
      return this.ensureFresh(backend, options.rejected === undefined ? stored : { ...stored, accessToken: options.rejected }, options.forceRefresh);
    })();
    if (!options.forceRefresh) this.lookingUp.set(key, lookUp);
    try {
      const fresh = await lookUp;
      if (generation === this.generation) this.handedOut.set(key, { session: fresh, generation });
      return fresh.accessToken;
    } finally {
      if (this.lookingUp.get(key) === lookUp) this.lookingUp.delete(key);
    }
  }

  /**
   * Re-reads the stored sessions and tells VS Code what was added, removed or changed. Runs on every
   * SecretStorage change (other windows); call it too when the backend setting changes.
   */
  refreshSessions(): Promise<void> {
    this.forgetTokens();
    const run = this.reconciling.then(async () => {
      const backend = backendKey(this.options.endpoints());
      this.announcedBackend = backend;
      const current = await this.store.list(backend);
      const before = this.announced;
      this.announced = current;
      const added = current.filter((session) => !before.some((old) => old.id === session.id));
      const removed = before.filter((old) => !current.some((session) => session.id === old.id));
      const changed = current.filter((session) => {
        const old = before.find((candidate) => candidate.id === session.id);
        return old !== undefined && (old.accessToken !== session.accessToken || old.label !== session.label || !sameScopes(old.scopes, session.scopes));
      });
      if (added.length + removed.length + changed.length === 0) return;
      this.emitter.fire({ added: added.map(toSession), removed: removed.map(toSession), changed: changed.map(toSession) });
    });
    this.reconciling = run.catch(() => undefined);
    return run;
  }

  /** The stored sessions changed (or are about to): tokens handed out before are looked up again. */
  private forgetTokens(): void {
    this.generation++;
    this.handedOut.clear();
    this.lookingUp.clear();
  }

  private async matchingSessions(backend: string, scopes: readonly string[] | undefined, accountId: string | undefined): Promise<StoredSession[]> {
    const wanted = scopes ? normaliseScopes(scopes) : [];
    return (await this.store.list(backend)).filter(
      (session) => wanted.every((scope) => session.scopes.includes(scope)) && (accountId === undefined || session.accountId === accountId),
    );
  }

  private async ensureFresh(backend: string, stored: StoredSession, forceRefresh: boolean): Promise<StoredSession> {
    const key = `${backend}\n${stored.id}`;
    const inFlight = this.refreshes.get(key);
    if (inFlight) return inFlight;
    if (!needsRefresh(stored.expiresAt, this.now(), forceRefresh)) return stored;
    const refresh = this.refresh(backend, stored, forceRefresh).finally(() => this.refreshes.delete(key));
    this.refreshes.set(key, refresh);
    return refresh;
  }

  private async refresh(backend: string, stale: StoredSession, forceRefresh: boolean): Promise<StoredSession> {
    // Another window may have refreshed already: its token is in the store.
    const latest = await this.store.get(backend, stale.id);
    if (!latest) throw new NotSignedInError(this.vs.l10n.t);
    if (latest.accessToken !== stale.accessToken && !needsRefresh(latest.expiresAt, this.now())) return latest;
    if (!forceRefresh && !needsRefresh(latest.expiresAt, this.now())) return latest;
    const client = await this.client(this.options.endpoints());
    let tokens;
    try {
      tokens = await client.refresh(latest.refreshToken);
    } catch (error) {
      if (error instanceof oauthFlow().OAuthError && (error.isInvalidGrant || error.code === 'unauthorized_client')) {
        await this.store.remove(backend, latest.id);
        await this.refreshSessions();
        throw new SessionExpiredError(latest.label, this.vs.l10n.t);
      }
      throw error;
    }
    const change = {
      accessToken: tokens.access_token,
      expiresAt: this.now() + tokens.expires_in * 1000,
      // Google keeps the refresh token; a server that rotates it sends a new one.
      refreshToken: tokens.refresh_token ?? latest.refreshToken,
    };
    if (!(await this.store.patch(backend, latest.id, change))) throw new NotSignedInError(this.vs.l10n.t);
    await this.refreshSessions();
    return { ...latest, ...change };
  }

  /**
   * The redirect URI for the browser. On a remote extension host, `asExternalUri` forwards the loopback port
   * and answers `http://localhost:<forwarded port>/…`: still loopback, so Google accepts it, and the browser on
   * the user's machine reaches our server through the tunnel. When it answers anything else (an https proxy
   * address of a browser-hosted workbench), Google would refuse it for an installed-app client
   * (redirect_uri_mismatch), so we keep the plain loopback URI: that works whenever the browser runs on the
   * machine of the extension host (desktop, and a local serve-web).
   */
  private async redirectUriFor(loopbackUri: string): Promise<string> {
    try {
      const external = (await this.vs.env.asExternalUri(this.vs.Uri.parse(loopbackUri))).toString(true);
      const url = new URL(external);
      const loopbackHost = url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
      // A port forward keeps the callback path; a path-based proxy (code-server's /proxy/<port>/) does not, and
      // its callback would miss the loopback server's path (404): use the plain loopback URI then.
      const samePath = url.pathname === new URL(loopbackUri).pathname;
      return url.protocol === 'http:' && loopbackHost && samePath ? external : loopbackUri;
    } catch {
      return loopbackUri;
    }
  }

  /**
   * Replaces how the authorization URL is opened (undefined restores the default). For extension-host tests,
   * which get the provider from the extension's API and pass the consent browser of test/support.
   */
  setUrlOpener(openUrl: ((url: string) => Promise<boolean>) | undefined): void {
    this.urlOpener = openUrl;
  }

  private async open(url: string): Promise<boolean> {
    const opener = this.urlOpener ?? this.options.openUrl;
    if (opener) return opener(url);
    // The URL encodes spaces as %20 (not +) because Uri.parse/toString re-encodes '+' as %2B.
    return this.vs.env.openExternal(this.vs.Uri.parse(url));
  }

  private async client(endpoints: ServiceEndpoints, timeoutMs?: number): Promise<OAuthClient> {
    const config = await this.options.clientId();
    const { OAuthClient } = oauthFlow();
    return new OAuthClient({
      endpoints: endpoints.oauth,
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      ...(timeoutMs ? { timeoutMs } : {}),
      t: this.vs.l10n.t,
    });
  }

  /** The current backend's key; a change since the last announcement is announced (accounts swap in VS Code). */
  private backend(): string {
    const backend = backendKey(this.options.endpoints());
    if (backend !== this.announcedBackend) {
      this.announcedBackend = backend;
      void this.refreshSessions();
    }
    return backend;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

/**
 * The HttpClient's token source for a feature: the session VS Code picked for Desk (asked silently, never
 * prompting), refreshed as needed. Throws NotSignedInError when there is none, so the caller can offer sign-in.
 */
export function createTokenSource(
  provider: Pick<DeskAuthenticationProvider, 'getAccessToken'>,
  scopes: readonly string[],
  vs: Pick<typeof vscode, 'authentication'>,
): TokenSource {
  return async ({ forceRefresh }) => {
    const session = await vs.authentication.getSession(AUTH_PROVIDER_ID, scopes, { silent: true });
    if (!session) throw new NotSignedInError();
    return provider.getAccessToken(session.id, { forceRefresh });
  };
}

function toSession(stored: StoredSession): vscode.AuthenticationSession {
  return { id: stored.id, accessToken: stored.accessToken, account: { id: stored.accountId, label: stored.label }, scopes: stored.scopes };
}

function normaliseScopes(scopes: readonly string[]): string[] {
  return [...new Set(scopes)].sort();
}

function sameScopes(a: readonly string[], b: readonly string[]): boolean {
  const left = normaliseScopes(a);
  const right = normaliseScopes(b);
  return left.length === right.length && left.every((scope, index) => scope === right[index]);
}

/** Requested scopes the token response did not grant (granular consent lets the user untick some). */
export function missingScopes(requested: readonly string[], grantedText: string | undefined): string[] {
  if (grantedText === undefined) return [];
  const granted = new Set(grantedText.split(/\s+/).filter(Boolean));
  return requested.filter((scope) => !granted.has(scope) && !granted.has(SCOPE_ALIASES[scope] ?? scope) && scope !== 'openid');
}
