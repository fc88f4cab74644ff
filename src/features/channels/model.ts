/** The channels this extension made, as the Channels view keeps them: what was watched, the channel's identity and expiry, and what arrived on it (no vscode). */
import type { Channel, DirectoryUserEvent } from '../../api/channels';
import { updateDurably } from '../../core/storage/durableMemento';

/** What a channel watches; `service` follows from it (the service that must stop the channel). */
export type WatchTarget =
  | { readonly kind: 'driveChanges' }
  | { readonly kind: 'driveFile'; readonly fileId: string; readonly title?: string }
  | { readonly kind: 'calendarEvents'; readonly calendarId: string }
  | { readonly kind: 'calendarAcl'; readonly calendarId: string }
  | { readonly kind: 'calendarList' }
  | { readonly kind: 'calendarSettings' }
  | { readonly kind: 'directoryUsers'; readonly domain?: string; readonly customer?: string; readonly event?: DirectoryUserEvent };

export type ChannelService = 'drive' | 'calendar' | 'directory';

export function serviceOf(target: WatchTarget): ChannelService {
  switch (target.kind) {
    case 'driveChanges':
    case 'driveFile':
      return 'drive';
    case 'calendarEvents':
    case 'calendarAcl':
    case 'calendarList':
    case 'calendarSettings':
      return 'calendar';
    case 'directoryUsers':
      return 'directory';
  }
}

/** One channel, as stored in globalState (plain JSON). */
export interface ChannelRecord {
  readonly id: string;
  readonly resourceId: string;
  readonly resourceUri?: string;
  readonly target: WatchTarget;
  readonly address: string;
  readonly token?: string;
  /** Epoch ms, as the watch answered it. */
  readonly expiration: number;
  /** Epoch ms, when the watch was answered. */
  readonly created: number;
  /** Notifications the built-in receiver accepted for this channel. */
  readonly messages: number;
  readonly lastState?: string;
  readonly lastMessageAt?: number;
  /** The life asked for at the watch (ms), asked again at each renewal; absent: the service's default. */
  readonly requestedLifeMs?: number;
  /** Set on channels Desk made itself to push a sync feed (e.g. "drive.changes"): see livePush.ts. */
  readonly feed?: string;
}

/** What a watch is asked for besides its target. */
export interface WatchRequest {
  readonly address: string;
  readonly token?: string | undefined;
  /** How long the channel should live (the service may answer less). */
  readonly lifeMs?: number | undefined;
  /** The sync feed this channel serves, when Desk makes it for itself. */
  readonly feed?: string | undefined;
}

/** A channel's record from a watch's answer; a channel without an expiration gets `fallbackExpiration`. */
export function recordOf(channel: Channel, target: WatchTarget, request: WatchRequest, now: number, fallbackExpiration: number): ChannelRecord {
  const expiration = channel.expiration !== undefined && Number.isFinite(channel.expiration) ? channel.expiration : fallbackExpiration;
  return {
    id: channel.id,
    resourceId: channel.resourceId,
    ...(channel.resourceUri !== undefined ? { resourceUri: channel.resourceUri } : {}),
    target,
    address: request.address,
    ...(request.token !== undefined && request.token !== '' ? { token: request.token } : {}),
    expiration,
    created: now,
    messages: 0,
    ...(request.lifeMs !== undefined ? { requestedLifeMs: request.lifeMs } : {}),
    ...(request.feed !== undefined ? { feed: request.feed } : {}),
  };
}

/** The longest life each kind of channel may have (Google's published maxima), used when an answer has no expiration. */
export function maxLifeMs(target: WatchTarget): number {
  const HOUR = 60 * 60 * 1000;
  switch (target.kind) {
    case 'driveFile':
      return 24 * HOUR;
    case 'driveChanges':
    case 'calendarEvents':
    case 'calendarAcl':
    case 'calendarList':
    case 'calendarSettings':
      return 7 * 24 * HOUR;
    case 'directoryUsers':
      return 6 * HOUR;
  }
}

/** The part of a Memento the book uses (globalState in the extension, a map in tests). */
export interface RecordMemento {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

const STORAGE_KEY = 'desk.channels.records';

/**
 * The channels per backend and account: the view lists the current scope's only. Every change is written through to
 * the memento, so a channel made before a reload can still be stopped or renewed after it.
 */
export class ChannelBook {
  private scope = '';
  private readonly listeners = new Set<() => void>();

  constructor(private readonly memento: RecordMemento) {}

  /** Switches to a backend's account ("emulator", "alice-id"); an unknown account has a scope of its own. */
  use(backend: string, account: string | undefined): void {
    const scope = `${backend}|${account ?? ''}`;
    if (scope === this.scope) return;
    this.scope = scope;
    this.fire();
  }

  get scopeKey(): string {
    return this.scope;
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  list(): ChannelRecord[] {
    return [...(this.all()[this.scope] ?? [])];
  }

  get(id: string): ChannelRecord | undefined {
    return this.list().find((record) => record.id === id);
  }

  add(record: ChannelRecord): Promise<void> {
    return this.serially(() => this.write([...this.list().filter((existing) => existing.id !== record.id), record]));
  }

  remove(id: string): Promise<void> {
    return this.serially(() => this.write(this.list().filter((record) => record.id !== id)));
  }

  /** A notification the receiver accepted: the count and the last state. */
  noteMessage(id: string, state: string, at: number): Promise<ChannelRecord | undefined> {
    return this.serially(async () => {
      let updated: ChannelRecord | undefined;
      const records = this.list().map((record) => {
        if (record.id !== id) return record;
        updated = { ...record, messages: record.messages + 1, lastState: state, lastMessageAt: at };
        return updated;
      });
      if (updated) await this.write(records);
      return updated;
    });
  }

  /**
   * Changes run one after another: each reads the stored list and writes it back, and notifications arrive
   * concurrently (a sync and a change a few milliseconds apart), so overlapping read-modify-writes would lose counts.
   */
  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.pendingWrite.then(work, work);
    this.pendingWrite = next.catch(() => undefined);
    return next;
  }

  /** Looks a channel up in every scope: the receiver accepts messages whichever account is shown. */
  findAnywhere(id: string): ChannelRecord | undefined {
    for (const records of Object.values(this.all())) {
      const found = records.find((record) => record.id === id);
      if (found) return found;
    }
    return undefined;
  }

  private pendingWrite: Promise<unknown> = Promise.resolve();

  /**
   * What this window wrote, per scope: globalState's in-memory copy can lose a write for a moment or for good
   * (durableMemento.ts), and a count read back from it then starts again lower. Other scopes come from the memento.
   */
  private readonly written = new Map<string, ChannelRecord[]>();

  private all(): Record<string, ChannelRecord[]> {
    const all = new Map(Object.entries((this.memento.get(STORAGE_KEY) as Record<string, ChannelRecord[]> | undefined) ?? {}));
    for (const [scope, records] of this.written) {
      if (records.length === 0) all.delete(scope);
      else all.set(scope, records);
    }
    return Object.fromEntries(all);
  }

  private async write(records: ChannelRecord[]): Promise<void> {
    this.written.set(this.scope, records);
    await updateDurably(this.memento, STORAGE_KEY, this.all());
    this.fire();
  }

  private fire(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
