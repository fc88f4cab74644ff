import * as path from 'node:path';
import type * as vscode from 'vscode';
import type { HttpClient, RequestOptions, SharedReads, TokenSource } from '../api/http';
import type { DeskAuthenticationProvider } from '../auth/provider';
import type { ServiceEndpoints } from '../config/endpoints';
import type { Backend } from './backend/backend';
import type { DisposableLike } from './disposable';
import { backendKey } from '../auth/sessionStore';
import { DeskClock } from './text/clock';
import { updateDurably } from './storage/durableMemento';
import { madeOnFirstUse, network, offlineModule } from './lazyModules';
import { DeskSession, NotSignedInError } from './accounts/session';
import { readDeskSettings, DeskSettings } from './settings';
import { PushHub } from './sync/push';
import type { Connectivity } from './offline/connectivity';
import type { WriteQueue } from './offline/writeQueue';
import type { OfflineParts } from './offline/offline';
import { ViewCache } from './storage/viewCache';

/** The view cache's account as the last check answered (global state): whose cached rows a reload shows at once. */
export const REMEMBERED_ACCOUNT_KEY = 'desk.viewCache.account';
export interface RememberedAccount {
  readonly backend: string;
  readonly account: string;
}

export interface ShowErrorOptions {
  /** What Desk was doing, e.g. "Could not rename the list". */
  readonly action?: string;
  /** Offers a "Retry" button that runs this again (with the user's input kept). */
  readonly retry?: () => unknown;
}

/**
 * What every service slice (`registerTasks(desk)`, `registerDrive(desk)`, …) gets from activate(): the
 * vscode API, the backend and session, HTTP clients bound to both, logging and error reporting. A slice
 * never builds URLs or reads tokens itself.
 */
export interface DeskContext {
  readonly vs: typeof vscode;
  readonly extensionContext: vscode.ExtensionContext;
  readonly backend: Backend;
  readonly auth: DeskAuthenticationProvider;
  readonly session: DeskSession;
  readonly log: vscode.LogOutputChannel;
  /** Push hints between features: a receiver of change notifications tells a feed's poller to fetch now. */
  readonly push: PushHub;
  /** What each view showed last, per account: its first rows after a window reload (emptied at sign-out, account change). */
  readonly viewCache: ViewCache;
  /** How every view writes a moment: the user's locale and Calendar time zone, 24-hour. */
  readonly clock: DeskClock;
  /** Whether the service can be reached (one notion of offline for every feature; fed by every HTTP client). */
  readonly connectivity: Connectivity;
  /** Writes made offline, per account, replayed in order when the service is back (see sync/writeQueue.ts). */
  readonly offlineQueue: WriteQueue;
  /** Back online and the waiting changes replayed: views refresh, pollers poll now. */
  onDidComeOnline(listener: () => void): DisposableLike;
  settings(): DeskSettings;
  tokenSource(scopes?: readonly string[]): TokenSource;
  /** A client for one service: `rootOf` picks the service's root from the current endpoints. */
  httpClient(rootOf: (endpoints: ServiceEndpoints) => string, scopes?: readonly string[], onRequest?: (request: RequestOptions) => void): HttpClient;
  /** A clear notification for any error the API layer throws (never a token, never a stack). */
  showError(error: unknown, options?: ShowErrorOptions): Promise<void>;
  /** Keeps a disposable until deactivation. */
  register<T extends DisposableLike>(disposable: T): T;
}

export function createDeskContext(
  vs: typeof vscode,
  extensionContext: vscode.ExtensionContext,
  backend: Backend,
  auth: DeskAuthenticationProvider,
  session: DeskSession,
  log: vscode.LogOutputChannel,
): DeskContext {
  let clock: DeskClock | undefined;
  let viewCache: ViewCache | undefined;
  /** One for every feature's clients: a listing two views ask for at once (the task lists at a reload) is sent once. */
  let sharedReads: SharedReads | undefined;
  const onlineListeners = new Set<() => void>();
  /** Built on first use (the first HTTP client, the offline status): activation reads no session for it. */
  let offlineParts: OfflineParts | undefined;
  const offline = (): OfflineParts => {
    offlineParts ??= createOfflineParts();
    return offlineParts;
  };
  const createOfflineParts = (): OfflineParts => offlineModule().createOfflineParts({
    vs,
    memento: extensionContext.globalState,
    backend,
    auth,
    session,
    log,
    onlineListeners,
    showError: (error, options) => desk.showError(error, options),
  });
  const desk: DeskContext = {
    vs,
    extensionContext,
    backend,
    auth,
    session,
    log,
    push: new PushHub(),
    get connectivity(): Connectivity {
      return offline().connectivity;
    },
    get offlineQueue(): WriteQueue {
      return offline().offlineQueue;
    },
    onDidComeOnline(listener) {
      onlineListeners.add(listener);
      return { dispose: () => void onlineListeners.delete(listener) };
    },
    get viewCache(): ViewCache {
      // The account is remembered with its backend: after a switch of backend, nothing shows before the check.
      const remembered = (): RememberedAccount | undefined => extensionContext.globalState.get<RememberedAccount>(REMEMBERED_ACCOUNT_KEY);
      viewCache ??= new ViewCache({
        directory: path.join(extensionContext.globalStorageUri.fsPath, 'view-cache'),
        account: () => session.account(),
        remembered: () => {
          const saved = remembered();
          return saved?.backend === backendKey(backend.expected) ? saved.account : undefined;
        },
        // Called only when the check answers other than `remembered` (so never with what is already kept).
        remember: (account) => {
          const backendNow = backendKey(backend.expected);
          // Durably: a write lost to the global state's echo would leave the next start waiting for the check again.
          void updateDurably(extensionContext.globalState, REMEMBERED_ACCOUNT_KEY, account === undefined ? undefined : { backend: backendNow, account });
        },
        log: (message) => log.info(message),
      });
      return viewCache;
    },
    // Built on first use: the locale and the remembered zone are read only by a feature that shows a time.
    get clock(): DeskClock {
      clock ??= new DeskClock(vs.env.language, extensionContext.globalState);
      return clock;
    },
    settings: () => readDeskSettings(vs.workspace.getConfiguration()),
    tokenSource: (scopes) => session.tokenSource(scopes),
    httpClient(rootOf, scopes, onRequest) {
      const tokens = session.tokenSource(scopes);
      // Features make their clients as they load, right after activation: dist/network.js waits for the first request.
      return madeOnFirstUse(() => {
        const { HttpClient, SharedReads } = network();
        sharedReads ??= new SharedReads();
        return new HttpClient({
          ...(onRequest ? { onRequest } : {}),
          sharedReads,
          reachability: offline().connectivity,
          // The token is fetched before the URL is built (http.ts), and ensure() runs first here, so the
          // embedded emulator is running by the time rootUrl() is read.
          token: async (options) => {
            await backend.ensure();
            return tokens(options);
          },
          rootUrl: () => {
            const endpoints = backend.current;
            if (!endpoints) throw new Error(vs.l10n.t('The local emulator is not running'));
            return rootOf(endpoints);
          },
        });
      });
    },
    async showError(error, options = {}) {
      const { CancelledError, disabledServiceOfError, errorMessage } = network();
      if (error instanceof CancelledError) return;
      const message = error instanceof NotSignedInError ? error.message : errorMessage(error, vs.l10n.t);
      const text = options.action ? vs.l10n.t('{0}. {1}', options.action, message) : message;
      log.error(text);
      const retry = vs.l10n.t('Retry');
      // An API the Cloud project has not enabled: the one thing to do is enable it, one click away.
      const disabled = disabledServiceOfError(error);
      const enable = disabled ? vs.l10n.t('Enable {0}', disabled.title) : undefined;
      const actions = [...(enable ? [enable] : []), ...(options.retry ? [retry] : [])];
      const choice = await vs.window.showErrorMessage(text, ...actions);
      if (choice === enable && disabled) await vs.env.openExternal(vs.Uri.parse(disabled.activationUrl));
      if (choice === retry && options.retry) await options.retry();
    },
    register(disposable) {
      extensionContext.subscriptions.push({ dispose: () => void disposable.dispose() });
      return disposable;
    },
  };
  return desk;
}
