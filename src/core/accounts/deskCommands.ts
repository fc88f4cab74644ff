/**
 * Desk's account commands, all in one place: sign in and out, which backend to use, the authentication provider's
 * own commands (sign out of an account, configure the Google OAuth client) and the signed-in context key. The
 * provider (auth/) knows nothing of the extension's core; this file wires the two.
 */
import type * as vscode from 'vscode';
import { clientIdProblem, MissingClientConfigError, readClientConfig, readStoredClientConfig, storeClientConfig } from '../../auth/clientConfig';
import type { DeskAuthenticationProvider } from '../../auth/provider';
import { GOOGLE_ENDPOINTS } from '../../config/endpoints';
import { registerCommands } from '../commands';
import { offlineModule } from '../lazyModules';
import type { DeskContext } from '../deskContext';
import { AUTH_COMMAND, DESK_COMMAND } from '../../config/commandIds';
import { DESK_SETTING } from '../../config/settingKeys';

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
      await vs.workspace.getConfiguration().update(DESK_SETTING.backend, 'google', vs.ConfigurationTarget.Global);
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

/** Context key for `when` clauses (views' welcome content, menus); core/accounts/session.ts sets it. */
export const SIGNED_IN_CONTEXT_KEY = 'desk:signedIn';

/** Registers the provider's own commands, behind the one wrapper: sign out (revoking the grant) and configure the Google OAuth client. */
export function registerAuthCommands(desk: DeskContext, provider: DeskAuthenticationProvider): void {
  const { vs } = desk;
  const commands = registerCommands(desk, {
    [AUTH_COMMAND.signOut]: async () => {
      const sessions = await provider.listSessions();
      if (sessions.length === 0) {
        void vs.window.showInformationMessage(vs.l10n.t('Desk: not signed in.'));
        return;
      }
      // One account can hold several sessions (one per scope set, e.g. the admin scope asked for later): signing
      // out of the account removes them all, or the user would still be signed in.
      const accounts = [...new Map(sessions.map((session) => [session.account.id, session.account])).values()];
      let chosen = accounts.at(0);
      if (accounts.length > 1) {
        const pick = await vs.window.showQuickPick(
          accounts.map((account) => ({ label: account.label, account })),
          { placeHolder: vs.l10n.t('Sign out of which account?') },
        );
        if (!pick) return;
        chosen = pick.account;
      }
      if (!chosen) return;
      for (const session of sessions) if (session.account.id === chosen.id) await provider.removeSession(session.id);
      void vs.window.showInformationMessage(vs.l10n.t('Desk: signed out {0}.', chosen.label));
    },

    [AUTH_COMMAND.configureClient]: async () => {
      if (await askForGoogleClient(desk)) void vs.window.showInformationMessage(vs.l10n.t('Desk: Google OAuth client saved. Run "Desk: Sign In" to connect your account.'));
    },
  });
  for (const command of commands) desk.register(command);
}

/** The manual's section (docs/manual.md, shipped with Desk) that walks through making a Google Cloud project and its OAuth client. */
export const GOOGLE_SETUP_HEADING = '### Using your Google account';

/**
 * The first step of "Sign in with Google" without a client: what a client is and where the steps are, in one dialog.
 * Resolves true once a client was entered and saved; false when cancelled or when the user went to read the steps.
 */
export async function setUpGoogleClient(desk: Pick<DeskContext, 'vs' | 'extensionContext'>): Promise<boolean> {
  const { vs } = desk;
  const t = vs.l10n.t;
  const enter = t('Enter Client ID…');
  const steps = t('Show the Set-up Steps');
  const choice = await vs.window.showInformationMessage(
    t('Signing in to Google needs an OAuth client of your own.'),
    {
      modal: true,
      detail: t('An OAuth client is how Google knows which app asks for your account: an ID ending in .apps.googleusercontent.com, with its secret, that you create (type "Desktop app") in a Google Cloud project of your own. Desk\'s manual lists the five steps under "Using your Google account". To try Desk without one, use the local emulator.'),
    },
    enter,
    steps,
  );
  if (choice === steps) {
    await showGoogleSetupSteps(desk);
    return false;
  }
  return choice === enter ? askForGoogleClient(desk) : false;
}

/** Asks for the client ID (checked for Google's form) and secret, and stores them; false when the user cancels. */
export async function askForGoogleClient(desk: Pick<DeskContext, 'vs' | 'extensionContext'>): Promise<boolean> {
  const { vs } = desk;
  const secrets = desk.extensionContext.secrets;
  const current = await readStoredClientConfig(secrets);
  const clientId = await vs.window.showInputBox({
    title: vs.l10n.t('Google OAuth client (Desktop app)'),
    prompt: vs.l10n.t('Client ID of your "Desktop app" client: Google Cloud Console → Google Auth Platform → Clients'),
    placeHolder: '123456789012-abc123.apps.googleusercontent.com',
    value: current?.clientId ?? '',
    ignoreFocusOut: true,
    validateInput: (value) => clientIdProblem(value, vs.l10n.t),
  });
  if (clientId === undefined || clientIdProblem(clientId) !== undefined) return false;
  const clientSecret = await vs.window.showInputBox({
    title: vs.l10n.t('Google OAuth client (Desktop app)'),
    prompt: vs.l10n.t('Client secret (kept in the OS keychain through VS Code SecretStorage; leave empty if the client has none)'),
    password: true,
    ignoreFocusOut: true,
  });
  if (clientSecret === undefined) return false;
  await storeClientConfig(secrets, { clientId: clientId.trim(), clientSecret: clientSecret.trim() || undefined });
  return true;
}

/** Opens the manual that ships with Desk at its Google set-up steps (works offline, unlike a web page). */
export async function showGoogleSetupSteps(desk: Pick<DeskContext, 'vs' | 'extensionContext'>): Promise<void> {
  const { vs } = desk;
  const document = await vs.workspace.openTextDocument(vs.Uri.joinPath(desk.extensionContext.extensionUri, 'docs', 'manual.md'));
  const line = Math.max(0, document.getText().split(/\r?\n/).findIndex((text) => text.trim() === GOOGLE_SETUP_HEADING));
  const heading = new vs.Range(line, 0, line, 0);
  const editor = await vs.window.showTextDocument(document, { selection: heading, preview: true });
  editor.revealRange(heading, vs.TextEditorRevealType.AtTop);
}
