/** Drive's file records in the store and the in-memory indexes over them (by owner, parent and title), kept in step on every write. */
import { addTo, removeFrom } from '../../core/multimap';
import type { Collection, Store } from '../../store/store';
import type { StoredFile } from './records';

/** Another index kept in step with the records (the grant index of permissions/access.ts). */
export interface FileIndex {
  index(file: StoredFile): void;
  unindex(file: StoredFile): void;
}

const EMPTY: ReadonlySet<string> = new Set();

/**
 * The `drive.files` collection behind one door: every save, in-place change and removal updates the indexes, which
 * are rebuilt from the store at startup so that listing a folder or a user's files never scans every record.
 * Shared-drive items are indexed under their drive's owner key (see driveOwnerId), so a drive's items are one bucket.
 */
export class FileTable {
  private readonly records: Collection<StoredFile>;
  private readonly byOwner = new Map<string, Set<string>>();
  private readonly byParent = new Map<string, Set<string>>();
  private readonly byTitle = new Map<string, Set<string>>();
  private readonly indexes: FileIndex[] = [];
  private writes = 0;

  constructor(store: Store) {
    this.records = store.collection<StoredFile>('drive.files');
    for (const file of this.records.values()) this.indexOwn(file);
  }

  /** Adds an index and fills it from the records already stored. */
  addIndex(index: FileIndex): void {
    this.indexes.push(index);
    for (const file of this.records.values()) index.index(file);
  }

  /** Grows with every save and removal: what was read from the table is still right while it stays the same. */
  get version(): number {
    return this.writes;
  }

  get(id: string): StoredFile | undefined {
    return this.records.get(id);
  }

  has(id: string): boolean {
    return this.records.has(id);
  }

  values(): IterableIterator<StoredFile> {
    return this.records.values();
  }

  /** Stores a new record (or one whose indexed fields were changed through `mutate`). */
  save(file: StoredFile): void {
    this.writes++;
    this.records.set(file.id, file);
    this.indexOwn(file);
    for (const index of this.indexes) index.index(file);
  }

  /** Changes a stored record in place, keeping every index right. */
  mutate(file: StoredFile, change: (file: StoredFile) => void): void {
    this.unindex(file);
    change(file);
    this.save(file);
  }

  remove(file: StoredFile): void {
    this.writes++;
    this.unindex(file);
    this.records.delete(file.id);
  }

  childIds(parentId: string): ReadonlySet<string> {
    return this.byParent.get(parentId) ?? EMPTY;
  }

  /** Ids of the files an owner key owns (a user id, or a shared drive's owner key). */
  ownedBy(ownerId: string): ReadonlySet<string> {
    return this.byOwner.get(ownerId) ?? EMPTY;
  }

  /** Ids of an owner's files with exactly this title. */
  titled(ownerId: string, title: string): ReadonlySet<string> {
    return this.byTitle.get(`${ownerId}\0${title}`) ?? EMPTY;
  }

  /** Every file reachable below `folderId`, each once, nearest first. */
  descendants(folderId: string): StoredFile[] {
    const result: StoredFile[] = [];
    const seen = new Set<string>([folderId]);
    const queue = [folderId];
    while (queue.length > 0) {
      const current = queue.shift() as string;
      for (const childId of this.childIds(current)) {
        if (seen.has(childId)) continue;
        seen.add(childId);
        const child = this.records.get(childId);
        if (!child) continue;
        result.push(child);
        queue.push(childId);
      }
    }
    return result;
  }

  private indexOwn(file: StoredFile): void {
    addTo(this.byOwner, file.ownerId, file.id);
    for (const parentId of file.parents) addTo(this.byParent, parentId, file.id);
    addTo(this.byTitle, `${file.ownerId}\0${file.title}`, file.id);
  }

  private unindex(file: StoredFile): void {
    for (const index of this.indexes) index.unindex(file);
    removeFrom(this.byOwner, file.ownerId, file.id);
    for (const parentId of file.parents) removeFrom(this.byParent, parentId, file.id);
    removeFrom(this.byTitle, `${file.ownerId}\0${file.title}`, file.id);
  }
}
