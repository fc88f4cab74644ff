import type * as vscode from 'vscode';
import * as z from '../shared/schemas/zod';
import { EMULATOR_CLIENT_ID, ServiceEndpoints } from '../config/endpoints';
import type { ClientConfig } from './provider';
import type { SecretStorageLike } from './sessionStore';

/** Where `desk.auth.configureClient` keeps the Google OAuth client (id and secret) of the user. */
export const CLIENT_CONFIG_SECRET_KEY = 'desk.google.oauthClient';
export const CONFIGURE_CLIENT_COMMAND = 'desk.auth.configureClient';

const clientConfigSchema = z.object({ clientId: z.string().check(z.minLength(1)), clientSecret: z.optional(z.string().check(z.minLength(1))) });

export class MissingClientConfigError extends Error {
  constructor() {
    super(
      'Signing in to Google needs your own OAuth client (type "Desktop app") from Google Cloud Console. ' +
        'Run "Desk: Configure Google OAuth Client" or set desk.google.clientId. To try Desk without one, use the emulator backend.',
    );
    this.name = 'MissingClientConfigError';
  }
}

/**
 * The OAuth client to sign in with. The emulator accepts any installed-app client, so it gets Desk's fixed id.
 * For Google: the client stored by the configure command (SecretStorage) first, then the `desk.google.clientId`
 * setting (a secret never goes into settings, which may be synced or committed).
 */
export async function readClientConfig(
  vs: Pick<typeof vscode, 'workspace'>,
  secrets: SecretStorageLike,
  endpoints: ServiceEndpoints,
): Promise<ClientConfig> {
  if (endpoints.kind === 'emulator') return { clientId: EMULATOR_CLIENT_ID };
  const stored = await readStoredClientConfig(secrets);
  if (stored) return stored;
  const fromSettings = vs.workspace.getConfiguration('desk.google').get<string>('clientId')?.trim();
  if (fromSettings) return { clientId: fromSettings };
  throw new MissingClientConfigError();
}

export async function readStoredClientConfig(secrets: SecretStorageLike): Promise<ClientConfig | undefined> {
  const text = await secrets.get(CLIENT_CONFIG_SECRET_KEY);
  if (!text) return undefined;
  try {
    const parsed = clientConfigSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function storeClientConfig(secrets: SecretStorageLike, config: ClientConfig): Promise<void> {
  const value: ClientConfig = config.clientSecret ? { clientId: config.clientId, clientSecret: config.clientSecret } : { clientId: config.clientId };
  await secrets.store(CLIENT_CONFIG_SECRET_KEY, JSON.stringify(value));
}
