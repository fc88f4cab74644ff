import * as z from '../shared/schemas/zod';
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

export const storedSessionSchema = z.object({
  id: z.string().check(z.minLength(1)),
  /** Google's stable account id (`sub`). */
  accountId: z.string().check(z.minLength(1)),
  /** What VS Code shows for the account: the email address. */
  label: z.string().check(z.minLength(1)),
  name: z.optional(z.string()),
  scopes: z.array(z.string()),
  refreshToken: z.string().check(z.minLength(1)),
  accessToken: z.string().check(z.minLength(1)),
  /** Epoch milliseconds. */
  expiresAt: z.number(),
});
export type StoredSession = z.infer<typeof storedSessionSchema>;

/** Read leniently: one damaged session is dropped, the others survive. */
const storedSessionsSchema = z.object({
  version: z.literal(1),
  backends: z.record(z.string(), z.array(z.unknown())),
});
interface StoredSessions {
  version: 1;
  backends: Record<string, StoredSession[]>;
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
      else delete all.backends[backend];
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
    const parsed = storedSessionsSchema.safeParse(json);
    if (!parsed.success) return empty;
    const backends: Record<string, StoredSession[]> = {};
    for (const [backend, entries] of Object.entries(parsed.data.backends)) {
      const sessions = entries.flatMap((entry) => {
        const session = storedSessionSchema.safeParse(entry);
        return session.success ? [session.data] : [];
      });
      if (sessions.length > 0) backends[backend] = sessions;
    }
    return { version: 1, backends };
  }
}
