/** The OAuth clients the emulator knows as confidential (registered with a secret), and the check of their secret. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Collection, Store } from '../store/store';

interface ClientRecord {
  /** SHA-256 of the secret, hex: the store (a plain folder) never holds a usable secret. */
  secretSha256: string;
  createdAt: number;
}

export interface RegisteredClient {
  clientId: string;
  clientSecret: string;
}

export type ClientCheck = { ok: true } | { ok: false; description: string };

/**
 * Google checks `client_secret` for clients that have one. In the emulator a client has one only once it
 * is registered (POST /emulator/v1/clients); any other client id stands for an installed app registered
 * without a secret (the extension's EMULATOR_CLIENT_ID, the tests' ad-hoc ids) and needs none.
 */
export class ClientRegistry {
  private readonly clients: Collection<ClientRecord>;

  constructor(store: Store, private readonly now: () => number = Date.now) {
    this.clients = store.collection('oauth.clients');
  }

  /** Registers (or re-keys) a confidential client; missing parts are generated like Google's console does. */
  register(clientId?: string, clientSecret?: string): RegisteredClient {
    const id = clientId || `${randomBytes(9).toString('hex')}.apps.emulator`;
    const secret = clientSecret || `GOCSPX-${randomBytes(21).toString('base64url')}`;
    this.clients.set(id, { secretSha256: sha256(secret), createdAt: this.now() });
    return { clientId: id, clientSecret: secret };
  }

  isConfidential(clientId: string): boolean {
    return this.clients.has(clientId);
  }

  /** Whether the presented secret authenticates the client (always true for a client without one). */
  check(clientId: string, presentedSecret: string | undefined): ClientCheck {
    const record = this.clients.get(clientId);
    if (!record) return { ok: true };
    if (!presentedSecret) return { ok: false, description: 'client_secret is missing.' };
    const expected = Buffer.from(record.secretSha256, 'hex');
    const actual = Buffer.from(sha256(presentedSecret), 'hex');
    return timingSafeEqual(expected, actual) ? { ok: true } : { ok: false, description: 'Unauthorized' };
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
