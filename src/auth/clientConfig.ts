import type * as vscode from 'vscode';
import { EMULATOR_CLIENT_ID, ServiceEndpoints } from '../config/endpoints';
import { DESK_SETTING } from '../config/settingKeys';
import { english, Translate } from '../shared/l10n';
import type { ClientConfig } from './provider';
import type { SecretStorageLike } from './sessionStore';

/** Where `desk.auth.configureClient` keeps the Google OAuth client (id and secret) of the user. */
export const CLIENT_CONFIG_SECRET_KEY = 'desk.google.oauthClient';

/** The stored value, checked by hand (read at activation, before the schema library is loaded). */
function parseClientConfig(value: unknown): ClientConfig | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { clientId, clientSecret } = value as Record<string, unknown>;
  if (typeof clientId !== 'string' || clientId === '') return undefined;
  if (clientSecret === undefined) return { clientId };
  return typeof clientSecret === 'string' && clientSecret !== '' ? { clientId, clientSecret } : undefined;
}

/**
 * The form of a Google OAuth client id: Google's project number and a key, then Google's own domain (older clients
 * have no key: `407408718192.apps.googleusercontent.com`). Anything else would only fail later, in Google's page.
 */
const GOOGLE_CLIENT_ID = /^[a-z0-9][a-z0-9-]*\.apps\.googleusercontent\.com$/i;

/** Why `value` cannot be a Google OAuth client id, or undefined when it has the form of one. */
export function clientIdProblem(value: string, t: Translate = english): string | undefined {
  const id = value.trim();
  if (id === '') return t('Paste the client ID of your OAuth client (it ends in .apps.googleusercontent.com).');
  if (!GOOGLE_CLIENT_ID.test(id)) return t('This is not a Google OAuth client ID: one looks like 123456789012-abc123.apps.googleusercontent.com (Google Cloud Console → Google Auth Platform → Clients).');
  return undefined;
}

export class MissingClientConfigError extends Error {
  constructor(t: Translate = english) {
    super(t('Signing in to Google needs your own OAuth client (type "Desktop app") from Google Cloud Console. Run "Desk: Configure Google OAuth Client" or set desk.google.clientId. To try Desk without one, use the emulator backend.'));
    this.name = 'MissingClientConfigError';
  }
}

/**
 * The OAuth client to sign in with. The emulator accepts any installed-app client, so it gets Desk's fixed id.
 * For Google: the client stored by the configure command (SecretStorage) first, then the `desk.google.clientId`
 * setting (a secret never goes into settings, which may be synced or committed).
 */
export async function readClientConfig(
  vs: Pick<typeof vscode, 'workspace' | 'l10n'>,
  secrets: SecretStorageLike,
  endpoints: ServiceEndpoints,
): Promise<ClientConfig> {
  if (endpoints.kind === 'emulator') return { clientId: EMULATOR_CLIENT_ID };
  const stored = await readStoredClientConfig(secrets);
  if (stored) return stored;
  const fromSettings = vs.workspace.getConfiguration().get<string>(DESK_SETTING.googleClientId)?.trim();
  if (fromSettings) return { clientId: fromSettings };
  throw new MissingClientConfigError(vs.l10n.t);
}

export async function readStoredClientConfig(secrets: SecretStorageLike): Promise<ClientConfig | undefined> {
  const text = await secrets.get(CLIENT_CONFIG_SECRET_KEY);
  if (!text) return undefined;
  try {
    return parseClientConfig(JSON.parse(text));
  } catch {
    return undefined;
  }
}

export async function storeClientConfig(secrets: SecretStorageLike, config: ClientConfig): Promise<void> {
  const value: ClientConfig = config.clientSecret ? { clientId: config.clientId, clientSecret: config.clientSecret } : { clientId: config.clientId };
  await secrets.store(CLIENT_CONFIG_SECRET_KEY, JSON.stringify(value));
}
