/**
 * Incremental sync for Calendar listings (events, calendarList, acl, settings): every change takes the next number of
 * one counter, a change log per scope finds what changed after a number in O(log n), and sync tokens carry the scope
 * and number. A token that does not decode, belongs to another scope, or predates purged deletions is Google's 410
 * `fullSyncRequired`.
 */
import { ApiError } from '../core/errors';
import type { Collection } from '../store/store';
import { decodePageToken, encodePageToken, invalidPageToken } from '../core/paging';

export function fullSyncRequired(): ApiError {
  return new ApiError(410, 'fullSyncRequired', 'Sync token is no longer valid, a full sync is required.');
}

export function encodeSyncToken(scope: string, seq: number): string {
  return `CS${Buffer.from(JSON.stringify({ k: scope, s: seq }), 'utf8').toString('base64url')}`;
}

/** The change number a token was issued at; 410 for a token of another scope, an undecodable one, or one older than `floor`. */
export function decodeSyncToken(token: string, scope: string, floor: number, current: number): number {
  let seq: number | undefined;
  try {
    if (token.startsWith('CS')) {
      const parsed: unknown = JSON.parse(Buffer.from(token.slice(2), 'base64url').toString('utf8'));
      if (typeof parsed === 'object' && parsed !== null) {
        const { k, s } = parsed as { k?: unknown; s?: unknown };
        if (k === scope && typeof s === 'number' && Number.isSafeInteger(s)) seq = s;
      }
    }
  } catch {
    seq = undefined;
  }
  if (seq === undefined || seq < floor || seq > current) throw fullSyncRequired();
  return seq;
}

interface LogEntry {
  seq: number;
  key: string;
}

/**
 * The keys of one scope in the order they last changed. Entries made stale by a later change of the same key are
 * skipped on read (the caller says what a key's current number is) and dropped once they outnumber the live ones.
 */
export class ChangeLog {
  private entries: LogEntry[] = [];
  private readonly latest = new Map<string, number>();

  record(key: string, seq: number): void {
    this.entries.push({ seq, key });
    this.latest.set(key, seq);
    if (this.entries.length > 64 && this.entries.length > 2 * this.latest.size) {
      this.entries = this.entries.filter((entry) => this.latest.get(entry.key) === entry.seq);
    }
  }

  forget(key: string): void {
    this.latest.delete(key);
  }

  /** Keys changed after `seq`, oldest change first. */
  changedSince(seq: number): string[] {
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.entries[middle]).seq <= seq) low = middle + 1;
      else high = middle;
    }
    const keys: string[] = [];
    for (let index = low; index < this.entries.length; index++) {
      const entry = this.entries[index];
      if (this.latest.get(entry.key) === entry.seq) keys.push(entry.key);
    }
    return keys;
  }

  /** Loads entries at startup; they may arrive in any order. */
  static fromEntries(entries: Iterable<LogEntry>): ChangeLog {
    const log = new ChangeLog();
    const sorted = [...entries].sort((a, b) => a.seq - b.seq);
    for (const entry of sorted) log.record(entry.key, entry.seq);
    return log;
  }
}

/**
 * One page of a small listing that also issues sync tokens: the cursor carries the offset and the change number the
 * listing started at, so the last page's nextSyncToken misses nothing that changed while the client paged.
 */
export function syncedPage<T>(items: readonly T[], options: { scope: string; pageToken?: string; maxResults: number; currentSeq: number }): { items: T[]; nextPageToken?: string; nextSyncToken?: string } {
  let start = 0;
  let startedAt = options.currentSeq;
  if (options.pageToken !== undefined) {
    const cursor = decodePageToken(options.pageToken, options.scope);
    if (!Array.isArray(cursor) || cursor.length !== 2 || typeof cursor[0] !== 'number' || typeof cursor[1] !== 'number') throw invalidPageToken(options.pageToken);
    [start, startedAt] = cursor as [number, number];
  }
  const end = start + options.maxResults;
  const page = items.slice(start, end);
  if (end < items.length) return { items: page, nextPageToken: encodePageToken(options.scope, [end, startedAt]) };
  return { items: page, nextSyncToken: encodeSyncToken(options.scope.split('|')[0], startedAt) };
}

/**
 * Documents grouped by an owner (a calendar's ACL rules, a user's calendar list), each group with its change log
 * for sync tokens. The store keeps the documents; the groups and logs are in-memory indexes built on first use.
 */
export class SyncedGroups<T extends { seq: number }> {
  private groups?: Map<string, Map<string, T>>;
  private readonly logs = new Map<string, ChangeLog>();

  constructor(
    private readonly documents: Collection<T>,
    private readonly groupOf: (document: T) => string,
    private readonly idOf: (document: T) => string,
  ) {}

  /** Stores a document under its group with a new sequence number, and records the change for sync. */
  write(document: T, seq: number): void {
    document.seq = seq;
    const group = this.groupOf(document);
    const id = this.idOf(document);
    this.documents.set(storageKey(group, id), document);
    let members = this.indexed().get(group);
    if (!members) {
      members = new Map();
      this.indexed().set(group, members);
    }
    members.set(id, document);
    this.logOf(group).record(id, seq);
  }

  /** The documents of a group, by id. */
  group(group: string): Map<string, T> {
    return this.indexed().get(group) ?? new Map<string, T>();
  }

  /** Every group's documents (for lookups across owners). */
  allGroups(): IterableIterator<Map<string, T>> {
    return this.indexed().values();
  }

  /** Ids changed in a group after `seq`, oldest change first. */
  changedSince(group: string, seq: number): string[] {
    return this.logOf(group).changedSince(seq);
  }

  /** Forgets a whole group (its owner is gone): documents, index and log. */
  dropGroup(group: string): void {
    for (const id of this.group(group).keys()) this.documents.delete(storageKey(group, id));
    this.groups?.delete(group);
    this.logs.delete(group);
  }

  private logOf(group: string): ChangeLog {
    let log = this.logs.get(group);
    if (!log) {
      log = ChangeLog.fromEntries([...this.group(group).values()].map((document) => ({ key: this.idOf(document), seq: document.seq })));
      this.logs.set(group, log);
    }
    return log;
  }

  private indexed(): Map<string, Map<string, T>> {
    if (!this.groups) {
      this.groups = new Map();
      for (const document of this.documents.values()) {
        const group = this.groupOf(document);
        let members = this.groups.get(group);
        if (!members) {
          members = new Map();
          this.groups.set(group, members);
        }
        members.set(this.idOf(document), document);
      }
    }
    return this.groups;
  }
}

/** The store key of a grouped document. */
export function storageKey(group: string, id: string): string {
  return `${group}\n${id}`;
}
