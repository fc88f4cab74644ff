import type * as vscode from 'vscode';
import { SCOPES } from '../config/endpoints';
import { CONFIGURE_CLIENT_COMMAND, readStoredClientConfig, storeClientConfig } from './clientConfig';
import { AUTH_PROVIDER_ID, DeskAuthenticationProvider } from './provider';

export const SIGN_IN_COMMAND = 'desk.auth.signIn';
export const SIGN_OUT_COMMAND = 'desk.auth.signOut';
/** Context key for `when` clauses (views' welcome content, menus). */
export const SIGNED_IN_CONTEXT_KEY = 'desk:signedIn';

/** Every scope Desk's features use, asked for at once so one sign-in serves them all. */
export const DESK_SCOPES: readonly string[] = [...SCOPES.identity, ...SCOPES.tasks, ...SCOPES.books, ...SCOPES.drive, ...SCOPES.calendar];

/** Registers the sign-in, sign-out and client-configuration commands, and keeps `desk:signedIn` current. */
export function registerAuthCommands(
  vs: typeof vscode,
  context: Pick<vscode.ExtensionContext, 'subscriptions' | 'secrets'>,
  provider: DeskAuthenticationProvider,
  scopes: readonly string[] = DESK_SCOPES,
): void {
  const updateContextKey = async (): Promise<void> => {
    const signedIn = (await provider.listSessions()).length > 0;
    await vs.commands.executeCommand('setContext', SIGNED_IN_CONTEXT_KEY, signedIn);
  };
  void updateContextKey();

  context.subscriptions.push(
    provider.onDidChangeSessions(() => void updateContextKey()),

    vs.commands.registerCommand(SIGN_IN_COMMAND, async () => {
      const existing = await provider.listSessions();
      try {
        // With a session already there, VS Code offers its accounts plus "sign in to another account".
        const session = await vs.authentication.getSession(AUTH_PROVIDER_ID, scopes, { createIfNone: true, clearSessionPreference: existing.length > 0 });
        void vs.window.showInformationMessage(`Desk: signed in as ${session.account.label}.`);
      } catch (error) {
        void vs.window.showErrorMessage(`Desk: ${error instanceof Error ? error.message : String(error)}`);
      }
    }),

    vs.commands.registerCommand(SIGN_OUT_COMMAND, async () => {
      const sessions = await provider.listSessions();
      if (sessions.length === 0) {
        void vs.window.showInformationMessage('Desk: not signed in.');
        return;
      }
      let chosen = sessions[0];
      if (sessions.length > 1) {
        const pick = await vs.window.showQuickPick(
          sessions.map((session) => ({ label: session.account.label, description: session.scopes.length > 3 ? `${session.scopes.length} scopes` : session.scopes.join(' '), session })),
          { placeHolder: 'Sign out of which account?' },
        );
        if (!pick) return;
        chosen = pick.session;
      }
      if (!chosen) return;
      await provider.removeSession(chosen.id);
      void vs.window.showInformationMessage(`Desk: signed out ${chosen.account.label}.`);
    }),

    vs.commands.registerCommand(CONFIGURE_CLIENT_COMMAND, async () => {
      const current = await readStoredClientConfig(context.secrets);
      const clientId = await vs.window.showInputBox({
        title: 'Google OAuth client (Desktop app)',
        prompt: 'Client ID from Google Cloud Console → APIs & Services → Credentials',
        value: current?.clientId ?? '',
        ignoreFocusOut: true,
        validateInput: (value) => (value.trim() === '' ? 'A client ID is required.' : undefined),
      });
      if (clientId === undefined) return;
      const clientSecret = await vs.window.showInputBox({
        title: 'Google OAuth client (Desktop app)',
        prompt: 'Client secret (kept in the OS keychain through VS Code SecretStorage; leave empty if the client has none)',
        password: true,
        ignoreFocusOut: true,
      });
      if (clientSecret === undefined) return;
      await storeClientConfig(context.secrets, { clientId: clientId.trim(), clientSecret: clientSecret.trim() || undefined });
      void vs.window.showInformationMessage('Desk: Google OAuth client saved. Run "Desk: Sign In" to connect your account.');
    }),
  );
}
