/** The Drive change feed: one record per file's latest change per user, paged by change id, with waits for the long poll. */
import { EventEmitter } from 'node:events';
import { notFound, invalid } from '../../core/errors';
import type { Collection, Store } from '../../store/store';
import { lowerBound } from '../../../shared/sorted';
import { appendAll } from '../../../shared/arrays';

export interface ChangeRecord {
  id: number;
  /** The user whose feed holds the record, or a shared drive's feed (driveFeedKey). */
  userId: string;
  /** The file that changed (for a drive change, the drive's id: its top folder's). */
  fileId: string;
  /** The file was deleted for good, or the drive deleted or left (trashing is an ordinary change). */
  deleted: boolean;
  time: number;
  /** 'drive': the shared drive itself changed (created, renamed, hidden, membership, deleted). Absent: a file. */
  changeType?: 'drive';
  /** The shared drive the file is in, or the drive that changed. */
  driveId?: string;
}

/** What a record says besides who and which file. */
export interface RecordDetails {
  changeType?: 'drive';
  driveId?: string;
}

/** The feed of a shared drive's items (changes.list?driveId=): a feed of its own beside the users' feeds. */
export function driveFeedKey(driveId: string): string {
  return `drive:${driveId}`;
}

/** Records of a file and of a drive with the same id (its top folder) supersede only their own kind. */
function latestKey(userId: string, fileId: string, changeType: 'drive' | undefined): string {
  return changeType === 'drive' ? `${userId}\0drive\0${fileId}` : `${userId}\0${fileId}`;
}

export interface ChangePage {
  changes: ChangeRecord[];
  nextPageToken?: string;
  newStartPageToken?: string;
  largestChangeId: number;
}

/**
 * Change ids are global and increasing (a counter in the store); each user sees only their own records. Pure: no
 * HTTP. Per-user id lists are rebuilt from the store at startup, so paging never scans other users' changes.
 */
export class ChangeFeed {
  private readonly changes: Collection<ChangeRecord>;
  private readonly counters: Collection<{ value: number }>;
  /** Change ids per user, ascending; entries whose record was coalesced away are skipped (and compacted). */
  private readonly changeIdsByUser = new Map<string, number[]>();
  private readonly latestChange = new Map<string, number>();
  private readonly deadChangeIds = new Map<string, number>();
  /** Emits `change:<userId>` after a change is recorded (long polls wait on it). */
  private readonly events = new EventEmitter();

  constructor(store: Store, private readonly now: () => number) {
    this.changes = store.collection<ChangeRecord>('drive.changes');
    this.counters = store.collection<{ value: number }>('drive.counters');
    this.events.setMaxListeners(0);
    const records = [...this.changes.values()].sort((a, b) => a.id - b.id);
    for (const record of records) {
      this.userChangeIds(record.userId).push(record.id);
      this.latestChange.set(latestKey(record.userId, record.fileId, record.changeType), record.id);
    }
  }

  largestChangeId(): number {
    return this.counters.get('changes')?.value ?? 0;
  }

  startPageToken(): string {
    return String(this.largestChangeId() + 1);
  }

  /** A page of a feed; `include` leaves records out without ending the page early (e.g. shared-drive items). */
  list(userId: string, options: { pageToken: string | undefined; maxResults: number; includeDeleted: boolean; include?: (record: ChangeRecord) => boolean }): ChangePage {
    const largest = this.largestChangeId();
    let from = 1;
    if (options.pageToken !== undefined) {
      if (!/^\d{1,15}$/.test(options.pageToken) || Number(options.pageToken) < 1 || Number(options.pageToken) > largest + 1) {
        throw invalid(`Invalid value for pageToken: '${options.pageToken}'. Use a token from changes.getStartPageToken or a previous changes.list.`, 'pageToken');
      }
      from = Number(options.pageToken);
    }
    const ids = this.userChangeIds(userId);
    let index = lowerBound(ids, (id) => id < from);
    const changes: ChangeRecord[] = [];
    let lastSeen = from - 1;
    while (index < ids.length && changes.length < options.maxResults) {
      const record = this.changes.get(String(ids[index]));
      index++;
      if (!record) continue;
      lastSeen = record.id;
      if (record.deleted && !options.includeDeleted) continue;
      if (options.include && !options.include(record)) continue;
      changes.push(record);
    }
    // More may follow only if live records remain after the last one returned.
    let more = false;
    for (let probe = index; probe < ids.length; probe++) {
      if (this.changes.has(String(ids[probe]))) {
        more = true;
        break;
      }
    }
    if (more) return { changes, nextPageToken: String(lastSeen + 1), largestChangeId: largest };
    return { changes, newStartPageToken: String(largest + 1), largestChangeId: largest };
  }

  get(userId: string, changeId: string): ChangeRecord {
    const record = /^\d{1,15}$/.test(changeId) ? this.changes.get(String(Number(changeId))) : undefined;
    if (!record || record.userId !== userId) throw notFound(`Change not found: ${changeId}`);
    return record;
  }

  /** Resolves after a change for `userId` is recorded, or after `ms`, or on abort; true when a change came. */
  waitForChange(userId: string, ms: number, signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const event = `change:${userId}`;
      const finish = (changed: boolean): void => {
        clearTimeout(timer);
        this.events.off(event, onChange);
        signal.removeEventListener('abort', onAbort);
        resolve(changed);
      };
      const onChange = (): void => { finish(true); };
      const onAbort = (): void => { finish(false); };
      const timer = setTimeout(() => { finish(false); }, ms);
      timer.unref();
      this.events.on(event, onChange);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Records that `fileId` changed for `userId`; an older change of the same file is superseded. */
  record(userId: string, fileId: string, deleted: boolean, details: RecordDetails = {}): void {
    const id = this.largestChangeId() + 1;
    this.counters.set('changes', { value: id });
    const key = latestKey(userId, fileId, details.changeType);
    // Drive reports only a file's latest state, so an older change of the same file is superseded.
    const previous = this.latestChange.get(key);
    if (previous !== undefined && this.changes.delete(String(previous))) this.deadChangeIds.set(userId, (this.deadChangeIds.get(userId) ?? 0) + 1);
    const record: ChangeRecord = { id, userId, fileId, deleted, time: this.now() };
    if (details.changeType !== undefined) record.changeType = details.changeType;
    if (details.driveId !== undefined) record.driveId = details.driveId;
    this.changes.set(String(id), record);
    this.latestChange.set(key, id);
    const ids = this.userChangeIds(userId);
    ids.push(id);
    // Compact the id list when superseded entries dominate, so long histories stay cheap to page.
    const dead = this.deadChangeIds.get(userId) ?? 0;
    if (dead > 1024 && dead * 2 > ids.length) {
      const live = ids.filter((changeId) => this.changes.has(String(changeId)));
      ids.length = 0;
      appendAll(ids, live);
      this.deadChangeIds.set(userId, 0);
    }
    this.events.emit(`change:${userId}`);
    // Channels hear every feed: a user's, and a shared drive's (changes.watch with driveId).
    this.events.emit('record', { ...record });
  }

  /** Calls `listener` after each recorded change (the channels of watched files and change feeds hear of it). */
  onRecord(listener: (record: ChangeRecord) => void): void {
    this.events.on('record', listener);
  }

  private userChangeIds(userId: string): number[] {
    let ids = this.changeIdsByUser.get(userId);
    if (!ids) {
      ids = [];
      this.changeIdsByUser.set(userId, ids);
    }
    return ids;
  }
}
