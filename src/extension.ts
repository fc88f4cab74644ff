import * as path from 'node:path';
import * as vscode from 'vscode';
import { registerAuthCommands } from './auth/commands';
import { readClientConfig } from './auth/clientConfig';
import { AUTH_PROVIDER_ID, AUTH_PROVIDER_LABEL, DeskAuthenticationProvider } from './auth/provider';
import { Backend } from './core/backend';
import { createDeskContext, DeskContext } from './core/deskContext';
import { EmulatorLauncher } from './core/emulatorLauncher';
import { DeskSession } from './core/session';
import { openInBrowser, registerDeskCommands } from './core/deskCommands';
import { registerTasks, TasksSlice } from './features/tasks';
import { DriveFeature, registerDrive } from './features/drive';
import { BooksSlice, registerBooks } from './features/books';
import { CalendarSlice, registerCalendar } from './features/calendar';

/** What activate() returns: for the extension-host tests (and other extensions, if ever). */
export interface DeskApi {
  readonly activationTimeMs: number;
  readonly desk: DeskContext;
  readonly tasks: TasksSlice;
  readonly drive: DriveFeature;
  readonly books: BooksSlice;
  readonly calendar: CalendarSlice;
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
  const vs = vscode;
  const log = vs.window.createOutputChannel('Desk', { log: true });
  context.subscriptions.push(log);

  const backend = new Backend(vs, {
    memento: context.globalState,
    createLauncher: (seed, preferredPort) => new EmulatorLauncher({
      scriptPath: path.join(context.extensionPath, 'dist', 'emulator.js'),
      dataDir: path.join(context.globalStorageUri.fsPath, 'emulator'),
      seed,
      preferredPort,
      log: (line) => log.info(`[emulator] ${line}`),
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
  context.subscriptions.push(provider, vs.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, AUTH_PROVIDER_LABEL, provider, { supportsMultipleAccounts: true }));
  registerAuthCommands(vs, context, provider);

  const session = new DeskSession(vs, provider);
  context.subscriptions.push(session);
  const desk = createDeskContext(vs, context, backend, provider, session, log);
  registerDeskCommands(desk);

  // Each feature is one Disposable that registers its views and commands; none touches the network here.
  const tasks = registerTasks(desk);
  const drive = registerDrive(desk);
  const books = registerBooks(desk);
  const calendar = registerCalendar(desk);

  // The signed-in context key, from stored sessions only (no network), after activation returns.
  void Promise.resolve().then(() => session.check());

  const activationTimeMs = performance.now() - started;
  log.info(`Desk activated in ${activationTimeMs.toFixed(1)} ms (backend: ${backend.choice.kind})`);
  return {
    activationTimeMs,
    desk,
    tasks,
    drive,
    books,
    calendar,
    todo: tasks.todo,
    setAuthUrlOpener: (opener) => {
      authUrlOpener = opener;
    },
    emulatorUrl: () => backend.emulatorUrl(),
  };
}

export async function deactivate(): Promise<void> {
  // Stop the embedded emulator cleanly (SIGTERM lets it flush its journal).
  await activeBackend?.stopEmbeddedEmulator();
  activeBackend = undefined;
}
