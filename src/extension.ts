import * as path from 'node:path';
import * as vscode from 'vscode';
import { registerAuthCommands, SIGN_OUT_COMMAND } from './auth/commands';
import { CONFIGURE_CLIENT_COMMAND, MissingClientConfigError, readClientConfig } from './auth/clientConfig';
import { GOOGLE_ENDPOINTS } from './config/endpoints';
import { AUTH_PROVIDER_ID, AUTH_PROVIDER_LABEL, DeskAuthenticationProvider } from './auth/provider';
import { Backend } from './core/backend';
import { createDeskContext, DeskContext } from './core/deskContext';
import { EmulatorLauncher } from './core/emulatorLauncher';
import { DeskSession } from './core/session';
import { registerTasks, TasksSlice } from './features/tasks';
import { DriveFeature, registerDrive } from './features/drive';
import { registerTodoTracking, TodoTracking } from './features/tasks/todo/todoTasks';

/** What activate() returns: for the extension-host tests (and other extensions, if ever). */
export interface DeskApi {
  readonly activationTimeMs: number;
  readonly desk: DeskContext;
  readonly tasks: TasksSlice;
  readonly drive: DriveFeature;
  readonly todo: TodoTracking;
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

  const tasks = registerTasks(desk);
  const drive = registerDrive(desk);
  const todo = registerTodoTracking(desk, tasks);
  // Further slices plug in the same way: registerBooks(desk), …

  // The signed-in context key, from stored sessions only (no network), after activation returns.
  void Promise.resolve().then(() => session.check());

  const activationTimeMs = performance.now() - started;
  log.info(`Desk activated in ${activationTimeMs.toFixed(1)} ms (backend: ${backend.choice.kind})`);
  return {
    activationTimeMs,
    desk,
    tasks,
    drive,
    todo,
    setAuthUrlOpener: (opener) => {
      authUrlOpener = opener;
    },
    emulatorUrl: () => backend.emulatorUrl(),
  };
}

/** Backend and sign-in commands shared by every view's welcome content. */
function registerDeskCommands(desk: DeskContext): void {
  const { vs, backend, session } = desk;
  const signIn = async (): Promise<void> => {
    // The provider needs the emulator's address before it opens the consent page.
    if (backend.choice.kind === 'emulator' && !backend.current) {
      await vs.window.withProgress({ location: vs.ProgressLocation.Notification, title: vs.l10n.t('Desk: starting the local emulator…') }, () => backend.ensure());
    }
    const account = await session.signIn();
    void vs.window.showInformationMessage(vs.l10n.t('Desk: signed in as {0}.', account));
  };
  const guarded = (run: () => Promise<void>) => async (): Promise<void> => {
    try {
      await run();
    } catch (error) {
      void desk.showError(error);
    }
  };
  desk.register(vs.commands.registerCommand('desk.signIn', guarded(signIn)));
  desk.register(vs.commands.registerCommand('desk.signOut', guarded(async () => {
    await vs.commands.executeCommand(SIGN_OUT_COMMAND);
    await session.check();
  })));
  desk.register(vs.commands.registerCommand('desk.useEmulator', guarded(async () => {
    const title = backend.current ? vs.l10n.t('Desk: connecting to the emulator…') : vs.l10n.t('Desk: starting the local emulator…');
    await vs.window.withProgress({ location: vs.ProgressLocation.Notification, title }, () => backend.useEmulator());
    await session.check();
    if (!session.signedIn) await signIn();
  })));
  desk.register(vs.commands.registerCommand('desk.useGoogle', guarded(async () => {
    // Google needs the user's own OAuth client: ask for it first, and stay on the current backend if they cancel.
    if (!(await hasGoogleClient(desk))) {
      await vs.commands.executeCommand(CONFIGURE_CLIENT_COMMAND);
      if (!(await hasGoogleClient(desk))) return;
    }
    await vs.workspace.getConfiguration().update('desk.backend', 'google', vs.ConfigurationTarget.Global);
    await session.check();
    if (!session.signedIn) await signIn();
  })));
}

async function hasGoogleClient(desk: DeskContext): Promise<boolean> {
  try {
    await readClientConfig(desk.vs, desk.extensionContext.secrets, GOOGLE_ENDPOINTS);
    return true;
  } catch (error) {
    if (error instanceof MissingClientConfigError) return false;
    throw error;
  }
}

/**
 * Opens a sign-in page in the user's browser. A browser-hosted workbench (code-server) maps a localhost
 * address to its `/proxy/<port>/` path but drops the path and query of the address on the way; the
 * emulator's consent page needs both, so they are put back onto the mapped address.
 */
async function openInBrowser(vs: typeof vscode, url: string): Promise<boolean> {
  const uri = vs.Uri.parse(url);
  const loopback = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/i.test(uri.authority);
  if (vs.env.uiKind === vs.UIKind.Web && loopback) {
    try {
      const external = await vs.env.asExternalUri(uri);
      if (external.authority !== uri.authority && external.path !== uri.path) {
        const mapped = external.with({ path: `${external.path.replace(/\/+$/, '')}${uri.path}`, query: uri.query });
        return await vs.env.openExternal(mapped);
      }
    } catch {
      // Fall through to the plain address.
    }
  }
  return vs.env.openExternal(uri);
}

export async function deactivate(): Promise<void> {
  // Stop the embedded emulator cleanly (SIGTERM lets it flush its journal).
  await activeBackend?.stopEmbeddedEmulator();
  activeBackend = undefined;
}
