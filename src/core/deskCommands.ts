/** Desk's own commands, shared by every view's welcome content: sign in and out, and which backend to use. */
import type * as vscode from 'vscode';
import { MissingClientConfigError, readClientConfig } from '../auth/clientConfig';
import { setUpGoogleClient } from '../auth/commands';
import { GOOGLE_ENDPOINTS } from '../config/endpoints';
import { registerCommands } from './commands';
import { offlineModule } from './lazyModules';
import type { DeskContext } from './deskContext';
import { AUTH_COMMAND, DESK_COMMAND } from '../config/commandIds';

/** Backend and sign-in commands shared by every view's welcome content. */
export function registerDeskCommands(desk: DeskContext): void {
  const { vs, backend, session } = desk;
  const signIn = async (): Promise<string | undefined> => {
    // Google without a client: first what a client is and where to make one, rather than an error.
    if (backend.choice.kind === 'google' && !(await hasGoogleClient(desk)) && !(await setUpGoogleClient(desk))) return;
    // The provider needs the emulator's address before it opens the consent page.
    if (backend.choice.kind === 'emulator' && !backend.current) {
      await vs.window.withProgress({ location: vs.ProgressLocation.Notification, title: vs.l10n.t('Desk: starting the local emulator…') }, () => backend.ensure());
    }
    const before = await session.signedInAccounts();
    const account = await session.signIn();
    const others = before.filter((email) => email !== account.toLowerCase());
    void vs.window.showInformationMessage(others.length === 0 || before.includes(account.toLowerCase())
      ? vs.l10n.t('Desk: signed in as {0}.', account)
      : vs.l10n.t('Desk: signed in as {0} beside {1}. Each view shows one root per account.', account, others.join(', ')));
    return account;
  };
  const commands = registerCommands(desk, {
    [DESK_COMMAND.signIn]: signIn,
    // The same browser sign-in: the consent page (Google's account chooser, the emulator's list of users) picks
    // another account, which joins the signed-in ones instead of replacing them.
    [DESK_COMMAND.addAccount]: signIn,
    [DESK_COMMAND.signOut]: async () => {
      if (!(await settleWaitingChanges(desk))) return;
      await vs.commands.executeCommand(AUTH_COMMAND.signOut);
      await session.check();
    },
    [DESK_COMMAND.useEmulator]: async () => {
      const title = backend.current ? vs.l10n.t('Desk: connecting to the emulator…') : vs.l10n.t('Desk: starting the local emulator…');
      await vs.window.withProgress({ location: vs.ProgressLocation.Notification, title }, () => backend.useEmulator());
      await session.check();
      if (!session.signedIn) await signIn();
    },
    [DESK_COMMAND.useGoogle]: async () => {
      // Google needs the user's own OAuth client: say what it is and ask for it first (one dialog at a time, no
      // "saved" notice: the sign-in follows at once), and stay on the current backend if they cancel.
      if (!(await hasGoogleClient(desk)) && !(await setUpGoogleClient(desk))) return;
      await vs.workspace.getConfiguration().update('desk.backend', 'google', vs.ConfigurationTarget.Global);
      await session.check();
      if (!session.signedIn) await signIn();
    },
    // Its module (dist/offline.js) loads when the command runs, or in a macrotask after activation (extension.ts).
    [DESK_COMMAND.showWaitingChanges]: () => offlineModule().showWaitingChangesOf(desk),
  });
  for (const command of commands) desk.register(command);
}

/**
 * Sign-out with changes waiting to be sent: they can be kept for the next sign-in of this account (the queue is per
 * account) or discarded; closing the question cancels the sign-out. True when the sign-out goes on.
 */
async function settleWaitingChanges(desk: DeskContext): Promise<boolean> {
  const { vs } = desk;
  const waiting = desk.offlineQueue.size;
  if (waiting === 0) return true;
  const keep = vs.l10n.t('Keep Them for Next Sign-In');
  const discard = vs.l10n.t('Discard Them');
  const choice = await vs.window.showWarningMessage(
    waiting === 1 ? vs.l10n.t('1 change made offline has not been sent yet.') : vs.l10n.t('{0} changes made offline have not been sent yet.', waiting),
    { modal: true, detail: vs.l10n.t('Kept, they are sent when this account signs in again and the service can be reached. Discarded, they are lost.') },
    keep,
    discard,
  );
  if (choice === discard) await desk.offlineQueue.clear();
  return choice === keep || choice === discard;
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
export async function openInBrowser(vs: typeof vscode, url: string): Promise<boolean> {
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
