/** The authentication provider's commands (sign out, OAuth client configuration) and the signed-in context key. */
import type * as vscode from 'vscode';
import { CONFIGURE_CLIENT_COMMAND, readStoredClientConfig, storeClientConfig } from './clientConfig';
import { DeskAuthenticationProvider } from './provider';

export const SIGN_OUT_COMMAND = 'desk.auth.signOut';
/** Context key for `when` clauses (views' welcome content, menus). */
export const SIGNED_IN_CONTEXT_KEY = 'desk:signedIn';

/** Registers the provider's own commands: sign out (revoking the grant) and configure the Google OAuth client. */
export function registerAuthCommands(
  vs: typeof vscode,
  context: Pick<vscode.ExtensionContext, 'subscriptions' | 'secrets'>,
  provider: DeskAuthenticationProvider,
): void {
  context.subscriptions.push(
    vs.commands.registerCommand(SIGN_OUT_COMMAND, async () => {
      const sessions = await provider.listSessions();
      if (sessions.length === 0) {
        void vs.window.showInformationMessage(vs.l10n.t('Desk: not signed in.'));
        return;
      }
      let chosen = sessions[0];
      if (sessions.length > 1) {
        const pick = await vs.window.showQuickPick(
          sessions.map((session) => ({ label: session.account.label, description: session.scopes.length > 3 ? vs.l10n.t('{0} scopes', session.scopes.length) : session.scopes.join(' '), session })),
          { placeHolder: vs.l10n.t('Sign out of which account?') },
        );
        if (!pick) return;
        chosen = pick.session;
      }
      if (!chosen) return;
      await provider.removeSession(chosen.id);
      void vs.window.showInformationMessage(vs.l10n.t('Desk: signed out {0}.', chosen.account.label));
    }),

    vs.commands.registerCommand(CONFIGURE_CLIENT_COMMAND, async () => {
      const current = await readStoredClientConfig(context.secrets);
      const clientId = await vs.window.showInputBox({
        title: vs.l10n.t('Google OAuth client (Desktop app)'),
        prompt: vs.l10n.t('Client ID from Google Cloud Console → APIs & Services → Credentials'),
        value: current?.clientId ?? '',
        ignoreFocusOut: true,
        validateInput: (value) => (value.trim() === '' ? vs.l10n.t('A client ID is required.') : undefined),
      });
      if (clientId === undefined) return;
      const clientSecret = await vs.window.showInputBox({
        title: vs.l10n.t('Google OAuth client (Desktop app)'),
        prompt: vs.l10n.t('Client secret (kept in the OS keychain through VS Code SecretStorage; leave empty if the client has none)'),
        password: true,
        ignoreFocusOut: true,
      });
      if (clientSecret === undefined) return;
      await storeClientConfig(context.secrets, { clientId: clientId.trim(), clientSecret: clientSecret.trim() || undefined });
      void vs.window.showInformationMessage(vs.l10n.t('Desk: Google OAuth client saved. Run "Desk: Sign In" to connect your account.'));
    }),
  );
}
