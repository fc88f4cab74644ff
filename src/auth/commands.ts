/** The authentication provider's commands (sign out, OAuth client configuration) and the signed-in context key. */
import { AUTH_COMMAND } from '../config/commandIds';
import { registerCommands } from '../core/commands';
import type { DeskContext } from '../core/deskContext';
import { readStoredClientConfig, storeClientConfig } from './clientConfig';
import type { DeskAuthenticationProvider } from './provider';

/** Context key for `when` clauses (views' welcome content, menus). */
export const SIGNED_IN_CONTEXT_KEY = 'desk:signedIn';

/** Registers the provider's own commands, behind the one wrapper: sign out (revoking the grant) and configure the Google OAuth client. */
export function registerAuthCommands(desk: DeskContext, provider: DeskAuthenticationProvider): void {
  const { vs } = desk;
  const secrets = desk.extensionContext.secrets;
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
      const current = await readStoredClientConfig(secrets);
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
      await storeClientConfig(secrets, { clientId: clientId.trim(), clientSecret: clientSecret.trim() || undefined });
      void vs.window.showInformationMessage(vs.l10n.t('Desk: Google OAuth client saved. Run "Desk: Sign In" to connect your account.'));
    },
  });
  for (const command of commands) desk.register(command);
}
