import type { ServiceEndpoints } from '../config/endpoints';

/**
 * Every Desk sign-in, kept as one JSON value in VS Code's SecretStorage (the OS keychain), so refresh tokens
 * never touch settings or global state. Sessions are grouped by backend: Google's accounts and each
 * emulator's accounts never mix, and switching backends never offers a token to the wrong server.
 * Takes a SecretStorage-like object, so it runs under plain mocha with an in-memory fake.
 */
export interface SecretStorageLike {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

export const SESSIONS_SECRET_KEY = 'desk.auth.sessions';

export interface StoredSession {
  readonly id: string;
  /** Google's stable account id (`sub`). */
  readonly accountId: string;
  /** What VS Code shows for the account: the email address. */
  readonly label: string;
  readonly name?: string;
  readonly scopes: string[];
  readonly refreshToken: string;
  readonly accessToken: string;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
}

interface StoredSessions {
  version: 1;
  backends: Record<string, StoredSession[]>;
}

/**
 * A stored session checked by hand, with only its known fields (no zod: the store is read at activation, and
 * the schema library is not loaded then). Anything malformed is undefined, so it is dropped alone.
 */
export function parseStoredSession(value: unknown): StoredSession | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const entry = value as Record<string, unknown>;
  const text = (key: string): string | undefined => (typeof entry[key] === 'string' && entry[key] !== '' ? entry[key] : undefined);
  const [id, accountId, label, refreshToken, accessToken] = [text('id'), text('accountId'), text('label'), text('refreshToken'), text('accessToken')];
  const { name, scopes, expiresAt } = entry;
  if (id === undefined || accountId === undefined || label === undefined || refreshToken === undefined || accessToken === undefined) return undefined;
  if (!Array.isArray(scopes) || !scopes.every((scope) => typeof scope === 'string')) return undefined;
  if (typeof expiresAt !== 'number' || Number.isNaN(expiresAt)) return undefined;
  if (name !== undefined && typeof name !== 'string') return undefined;
  return { id, accountId, label, ...(name !== undefined ? { name } : {}), scopes: [...scopes], refreshToken, accessToken, expiresAt };
}

/** One key per backend: `google`, or `emulator:<origin>` so two emulators on different ports stay apart. */
export function backendKey(endpoints: ServiceEndpoints): string {
  if (endpoints.kind === 'google') return 'google';
  let origin: string;
  try {
    origin = new URL(endpoints.oauth.token).origin;
  } catch {
    origin = endpoints.oauth.token;
  }
  return `emulator:${origin}`;
}

export class SessionStore {
  /** Read-modify-write cycles of this window run one at a time, so two updates cannot lose each other. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly secrets: SecretStorageLike, private readonly key = SESSIONS_SECRET_KEY) {}

  async list(backend: string): Promise<StoredSession[]> {
    return (await this.readAll()).backends[backend] ?? [];
  }

  async get(backend: string, sessionId: string): Promise<StoredSession | undefined> {
    return (await this.list(backend)).find((session) => session.id === sessionId);
  }

  /** Adds a session, or replaces the one with the same id. */
  async put(backend: string, session: StoredSession): Promise<void> {
    await this.update((all) => {
      const sessions = (all.backends[backend] ?? []).filter((existing) => existing.id !== session.id);
      all.backends[backend] = [...sessions, session];
    });
  }

  /** Changes a stored session in place; false when it no longer exists (removed in another window). */
  async patch(backend: string, sessionId: string, change: Partial<Omit<StoredSession, 'id'>>): Promise<boolean> {
    let found = false;
    await this.update((all) => {
      all.backends[backend] = (all.backends[backend] ?? []).map((session) => {
        if (session.id !== sessionId) return session;
        found = true;
        return { ...session, ...change };
      });
    });
    return found;
  }

  async remove(backend: string, sessionId: string): Promise<StoredSession | undefined> {
    let removed: StoredSession | undefined;
    await this.update((all) => {
      const sessions = all.backends[backend] ?? [];
      removed = sessions.find((session) => session.id === sessionId);
      const rest = sessions.filter((session) => session.id !== sessionId);
      if (rest.length > 0) all.backends[backend] = rest;
      else all.backends = Object.fromEntries(Object.entries(all.backends).filter(([name]) => name !== backend));
    });
    return removed;
  }

  private async update(change: (all: StoredSessions) => void): Promise<void> {
    const run = this.queue.then(async () => {
      const all = await this.readAll();
      change(all);
      if (Object.keys(all.backends).length === 0) await this.secrets.delete(this.key);
      else await this.secrets.store(this.key, JSON.stringify(all));
    });
    this.queue = run.catch(() => undefined);
    await run;
  }

  private async readAll(): Promise<StoredSessions> {
    const text = await this.secrets.get(this.key);
    const empty: StoredSessions = { version: 1, backends: {} };
    if (!text) return empty;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      // A damaged value (hand-edited, truncated) must not lock the user out: start over with no sessions.
      return empty;
    }
    if (typeof json !== 'object' || json === null) return empty;
    const { version, backends: stored } = json as { version?: unknown; backends?: unknown };
    if (version !== 1 || typeof stored !== 'object' || stored === null || Array.isArray(stored)) return empty;
    const backends: Record<string, StoredSession[]> = {};
    for (const [backend, entries] of Object.entries(stored)) {
      if (!Array.isArray(entries)) return empty;
      const sessions = entries.flatMap((entry: unknown) => parseStoredSession(entry) ?? []);
      if (sessions.length > 0) backends[backend] = sessions;
    }
    return { version: 1, backends };
  }
}
