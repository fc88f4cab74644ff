import * as path from 'node:path';
import * as vscode from 'vscode';
import { readClientConfig } from './auth/clientConfig';
import { AUTH_PROVIDER_ID, AUTH_PROVIDER_LABEL, DeskAuthenticationProvider } from './auth/provider';
import { Backend } from './core/backend/backend';
import { createDeskContext, DeskContext } from './core/deskContext';
import { startViewCache } from './core/storage/viewCache';
import { markStartup } from './core/startup/startupMarks';
import { BOOKS_TREE_VIEW, CALENDAR_TREE_VIEW, CHANNELS_TREE_VIEW, DRIVE_TREE_VIEW, TASKS_TREE_VIEW } from './config/treeViews';
import { network, offlineModule } from './core/lazyModules';
import { DeskSession } from './core/accounts/session';
import { openInBrowser, registerAuthCommands, registerDeskCommands } from './core/accounts/deskCommands';
import { DEFERRED_LOAD_MS, LazyFeatures, LazyFeatureSpec } from './core/startup/lazyFeatures';
import { BundleLoader } from './core/startup/bundleLoader';
import type { TasksSlice } from './features/tasks';

/** When this bundle was evaluated: with activate()'s start, where a window reload's time goes before Desk runs. */
const bundleEvaluatedAt = Date.now();
import type { DriveSlice } from './features/drive';
import type { BooksSlice } from './features/books';
import type { CalendarSlice } from './features/calendar';
import type { ChannelsSlice } from './features/channels';
import type { SearchSlice } from './features/search';

/**
 * The features, each in its own bundle (dist/features/<name>.js, see esbuild.js), loaded after activation or
 * when one of their commands runs first. The bundles are required by a computed path so this bundle stays small.
 */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the bundle's module type, as with require
function featureModule<T>(name: string): T {
  const file = path.join(__dirname, 'features', `${name}.js`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (bundles ? bundles.load(file) : require(file)) as T;
}

/** The feature bundles' loader with V8's code cache (core/startup/bundleLoader.ts), set up by activate(). */
let bundles: BundleLoader | undefined;
/** When the bundles' code cache is written: after the deferred features have loaded, off the start's path. */
const CODE_CACHE_SAVE_MS = DEFERRED_LOAD_MS + 2000;

const FEATURES = {
  tasks: {
    name: 'tasks',
    treeViews: [TASKS_TREE_VIEW],
    commandPrefixes: ['desk.tasks.', 'desk.todo.'],
    fileSystems: [{ scheme: 'desk-tasks', options: { isCaseSensitive: true } }],
    load: (desk: DeskContext) => featureModule<typeof import('./features/tasks')>('tasks').registerTasks(desk),
  } satisfies LazyFeatureSpec<TasksSlice>,
  drive: {
    name: 'drive',
    treeViews: [DRIVE_TREE_VIEW],
    commandPrefixes: ['desk.drive.'],
    fileSystems: [{ scheme: 'desk-drive', options: { isCaseSensitive: true } }],
    load: (desk: DeskContext) => featureModule<typeof import('./features/drive')>('drive').registerDrive(desk),
  } satisfies LazyFeatureSpec<DriveSlice>,
  calendar: {
    name: 'calendar',
    treeViews: [CALENDAR_TREE_VIEW],
    commandPrefixes: ['desk.calendar.'],
    fileSystems: [],
    load: (desk: DeskContext) => featureModule<typeof import('./features/calendar')>('calendar').registerCalendar(desk),
  } satisfies LazyFeatureSpec<CalendarSlice>,
  books: {
    name: 'books',
    treeViews: [BOOKS_TREE_VIEW],
    commandPrefixes: ['desk.books.'],
    fileSystems: [],
    load: (desk: DeskContext) => featureModule<typeof import('./features/books')>('books').registerBooks(desk),
  } satisfies LazyFeatureSpec<BooksSlice>,
  channels: {
    name: 'channels',
    treeViews: [CHANNELS_TREE_VIEW],
    commandPrefixes: ['desk.channels.'],
    fileSystems: [],
    load: (desk: DeskContext) => featureModule<typeof import('./features/channels')>('channels').registerChannels(desk),
    deferred: true,
  } satisfies LazyFeatureSpec<ChannelsSlice>,
  search: {
    name: 'search',
    commandPrefixes: ['desk.search.'],
    fileSystems: [],
    load: (desk: DeskContext) => featureModule<typeof import('./features/search')>('search').registerSearch(desk),
    deferred: true,
  } satisfies LazyFeatureSpec<SearchSlice>,
};

/** What activate() returns: for the extension-host tests (and other extensions, if ever). */
export interface DeskApi {
  readonly activationTimeMs: number;
  readonly desk: DeskContext;
  readonly tasks: TasksSlice;
  readonly drive: DriveSlice;
  readonly books: BooksSlice;
  readonly calendar: CalendarSlice;
  readonly channels: ChannelsSlice;
  readonly search: SearchSlice;
  readonly todo: TasksSlice['todo'];
  /** Replaces how the sign-in URL is opened (tests complete consent programmatically); undefined restores the browser. */
  setAuthUrlOpener(opener: ((url: string) => Promise<boolean>) | undefined): void;
  /** The emulator in use, if any (the embedded one only once started). */
  emulatorUrl(): string | undefined;
}

let activeBackend: Backend | undefined;

/**
 * Wires settings → backend → auth → service slices. No network and no heavy work here: the embedded
 * emulator starts only when the user picks it or a view first needs it, and trees load on first expansion.
 */
export function activate(context: vscode.ExtensionContext): DeskApi {
  const started = performance.now();
  const activateCalledAt = Date.now();
  markStartup('bundle', bundleEvaluatedAt);
  markStartup('activate', activateCalledAt);
  const vs = vscode;
  const log = vs.window.createOutputChannel('Desk', { log: true });
  context.subscriptions.push(log);

  const backend = new Backend(vs, {
    memento: context.globalState,
    createLauncher: (seed, preferredPort) => new (network().EmulatorLauncher)({
      scriptPath: path.join(context.extensionPath, 'dist', 'emulator.js'),
      dataDir: path.join(context.globalStorageUri.fsPath, 'emulator'),
      seed,
      preferredPort,
      log: (line) => { log.info(`[emulator] ${line}`); },
      t: vs.l10n.t,
    }),
  });
  activeBackend = backend;
  context.subscriptions.push(backend);

  let authUrlOpener: ((url: string) => Promise<boolean>) | undefined;
  const provider = new DeskAuthenticationProvider(vs, context.secrets, {
    endpoints: () => backend.expected,
    clientId: () => readClientConfig(vs, context.secrets, backend.expected),
    openUrl: (url) => (authUrlOpener ? authUrlOpener(url) : openInBrowser(vs, url)),
  });
  context.subscriptions.push(provider, vs.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, vs.l10n.t(AUTH_PROVIDER_LABEL), provider, { supportsMultipleAccounts: true }));

  const session = new DeskSession(vs, provider);
  context.subscriptions.push(session);
  const desk = createDeskContext(vs, context, backend, provider, session, log);
  registerAuthCommands(desk, provider);
  registerDeskCommands(desk);
  // The offline status item (and the waiting changes' replay) right after activation, with its module of its own.
  const offlineStart = setTimeout(() => { offlineModule().registerOfflineStatus(desk); }, 0);
  context.subscriptions.push({ dispose: () => { clearTimeout(offlineStart); } });

  // Only stubs here: each feature (one Disposable that registers its views and commands) loads after activation
  // returns, or when one of its commands runs first. None touches the network when it loads.
  const contributed = ((context.extension.packageJSON as { contributes?: { commands?: { command: string }[] } }).contributes?.commands ?? []).map((entry) => entry.command);
  bundles = new BundleLoader(path.join(context.globalStorageUri.fsPath, 'code-cache'));
  const features = desk.register(new LazyFeatures(desk, contributed, Object.values(FEATURES)));
  features.loadAllSoon();
  warmNetworkForSignedInStart(desk);
  const loader = bundles;
  const saveCaches = setTimeout(() => void loader.saveCaches((message) => { log.warn(message); }), CODE_CACHE_SAVE_MS);
  context.subscriptions.push({ dispose: () => { clearTimeout(saveCaches); } });

  // The signed-in context key, from stored sessions only (no network), after activation returns.
  void Promise.resolve().then(() => session.check());
  // The views' cached rows are read while the features load, and an account's go at its sign-out (core/storage/viewCache.ts).
  context.subscriptions.push(startViewCache(desk.viewCache, (listener) => provider.onDidChangeSessions(listener)));

  const activationTimeMs = performance.now() - started;
  markStartup('activated');
  log.info(`Desk activated in ${activationTimeMs.toFixed(1)} ms (backend: ${backend.choice.kind})`);
  // Wall-clock times (the log's own are when lines were flushed): the extension host's start, Desk's bundle, activate().
  const at = (ms: number): string => new Date(ms).toISOString();
  log.info(`Desk timeline: extension host up since ${at(activateCalledAt - process.uptime() * 1000)}, bundle evaluated at ${at(bundleEvaluatedAt)}, activate() at ${at(activateCalledAt)}`);
  return {
    activationTimeMs,
    desk,
    // A test (or another extension) that asks for a feature gets it loaded.
    get tasks() { return features.ensure('tasks') as TasksSlice; },
    get drive() { return features.ensure('drive') as DriveSlice; },
    get books() { return features.ensure('books') as BooksSlice; },
    get calendar() { return features.ensure('calendar') as CalendarSlice; },
    get channels() { return features.ensure('channels') as ChannelsSlice; },
    get search() { return features.ensure('search') as SearchSlice; },
    get todo() { return (features.ensure('tasks') as TasksSlice).todo; },
    setAuthUrlOpener: (opener) => {
      authUrlOpener = opener;
    },
    emulatorUrl: () => backend.emulatorUrl(),
  };
}

/**
 * Activation never loads dist/network.js (the HTTP pipeline and OAuth, 70 KB): a window without a Desk account never
 * does. A start with the account remembered from the last one sends requests at once (each view shown refreshes its
 * cached rows, the Drive poller and the Calendar status bar start), and the first would load it inside a view's
 * answer of its first rows; so it loads in a macrotask of its own after the first feature, off the answers' path.
 */
function warmNetworkForSignedInStart(desk: DeskContext): void {
  if (desk.viewCache.rememberedAccount() === undefined) return;
  const timer = setTimeout(() => {
    try {
      network();
    } catch (error) {
      desk.log.warn(`Desk: could not load its network module ahead of the first request: ${error instanceof Error ? error.message : String(error)}`);
    }
  }, 0);
  desk.register({ dispose: () => { clearTimeout(timer); } });
}

export async function deactivate(): Promise<void> {
  // Stop the embedded emulator cleanly (SIGTERM lets it flush its journal).
  await activeBackend?.stopEmbeddedEmulator();
  activeBackend = undefined;
}
