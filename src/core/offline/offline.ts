/**
 * The offline mechanism as one bundle of its own (dist/offline.js, esbuild.js): whether the service answers, the
 * queue of writes made offline, and what the user sees of both. Activation loads none of it; the desk context builds
 * the parts on their first use and extension.ts shows the status item in a macrotask after activation.
 */
import type * as vscode from 'vscode';
import type { DeskAuthenticationProvider } from '../../auth/provider';
import { backendKey } from '../../auth/sessionStore';
import { hasMark } from '../../shared/crossBundle';
import type { Backend } from '../backend/backend';
import type { ShowErrorOptions } from '../deskContext';
import { network } from '../lazyModules';
import type { DeskSession } from '../accounts/session';
import { Connectivity } from './connectivity';
import { QueueFile } from './queueFile';
import { WRITE_QUEUE_KEY, WriteQueue } from './writeQueue';
import { nodeTimers } from '../timers';

export { Connectivity } from './connectivity';
export { WriteQueue } from './writeQueue';
export { markViewOffline, OfflineStatusItem, registerOfflineStatus, showWaitingChanges, showWaitingChangesOf, SHOW_WAITING_COMMAND } from './offlineStatus';

export interface OfflineParts {
  readonly connectivity: Connectivity;
  readonly offlineQueue: WriteQueue;
}

export interface OfflinePartsOptions {
  readonly vs: typeof vscode;
  /** VS Code's global state: where the queue was kept before it moved into a file (its changes move once). */
  readonly memento: vscode.Memento;
  /** The extension's global storage folder: the queue's file lives there, beside the extension host. */
  readonly storageDirectory: string;
  readonly backend: Backend;
  readonly auth: DeskAuthenticationProvider;
  readonly session: DeskSession;
  readonly log: vscode.LogOutputChannel;
  /** Told when the service is back and the waiting changes were replayed: views refresh, pollers poll now. */
  readonly onlineListeners: ReadonlySet<() => void>;
  readonly showError: (error: unknown, options?: ShowErrorOptions) => Promise<void>;
}

/** The connectivity and the write queue of one window, wired to the backend, the sessions and each other. */
export function createOfflineParts(options: OfflinePartsOptions): OfflineParts {
  const { vs, backend, auth, session, log, onlineListeners } = options;
  const connectivity = new Connectivity({
    timers: nodeTimers,
    now: () => Date.now(),
    log: (message) => { log.info(message); },
    // A cheap GET of the service's root, no token: any answer of the service means it is back.
    probe: () => {
      const endpoints = backend.current;
      return endpoints ? network().probeService(endpoints.tasks) : Promise.resolve(false);
    },
  });
  // The queue's account: the backend with the account id, looked up without network whenever the sessions change.
  let queueAccount: string | undefined;
  let accountLookup: Promise<void> | undefined;
  const lookUpAccount = (): Promise<void> => {
    accountLookup = session.account().then((account) => {
      const next = account === undefined ? undefined : `${backendKey(backend.expected)} ${account}`;
      if (next === queueAccount) return;
      queueAccount = next;
      offlineQueue.accountChanged();
    });
    return accountLookup;
  };
  // A file, not the global state: in a browser workbench that state lives in the browser and a reload can lose it.
  const queueFile = new QueueFile({ directory: options.storageDirectory, legacy: options.memento, log: (message) => { log.info(message); } });
  void queueFile.adopt(WRITE_QUEUE_KEY).catch((error: unknown) => { log.warn(`Offline queue: the changes kept in the global state could not be moved: ${String(error)}`); });
  const offlineQueue = new WriteQueue({
    memento: queueFile,
    account: () => queueAccount,
    accountReady: () => accountLookup ?? lookUpAccount(),
    now: () => Date.now(),
    log: (message) => { log.info(message); },
    isOffline: (error) => hasMark(error, 'ServiceUnreachableError'),
    exclusive: (work) => queueFile.exclusive(work),
    onFailed: (change, error) => void options.showError(error, { action: vs.l10n.t('Could not send “{0}” (kept in the waiting changes)', change.summary) }),
  });
  auth.onDidChangeSessions(() => void lookUpAccount());
  backend.onDidChange(() => void lookUpAccount());
  connectivity.onDidChange((event) => {
    if (!event.online) return;
    // The waiting changes first, so the views' refresh shows them applied.
    void offlineQueue.replay().finally(() => {
      for (const listener of [...onlineListeners]) {
        try {
          listener();
        } catch (error) {
          log.warn(`Back online: a listener failed: ${String(error)}`);
        }
      }
    });
  });
  return { connectivity, offlineQueue };
}
