/** The authentication provider's commands (sign out, OAuth client configuration) and the signed-in context key. */
import { AUTH_COMMAND } from '../config/commandIds';
import { registerCommands } from '../core/commands';
import type { DeskContext } from '../core/deskContext';
import { clientIdProblem, readStoredClientConfig, storeClientConfig } from './clientConfig';
import type { DeskAuthenticationProvider } from './provider';

/** Context key for `when` clauses (views' welcome content, menus). */
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
      let chosen = accounts[0];
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
