/**
 * Drive metadata changes made while Drive cannot be reached: rename, move, trash, new folder and new file are kept in
 * Desk's write queue as what the user meant, shown in the view at once, and sent once when Drive is back. A move and a
 * trash land the same when repeated; a rename is checked against the name it was made on (a name changed elsewhere
 * asks Overwrite or Cancel); a new folder whose first send may have landed is looked for in its parent before it is
 * made; a new file gets an id reserved with generateIds, written into the queue before its first send, so a repeat
 * meets that id (409) and never makes a second file. Anything about a file deleted on Drive meanwhile says so.
 */
import { GoogleApiError } from '../../api/errors';
import type { DeskContext } from '../../core/deskContext';
import type { DisposableLike } from '../../core/disposable';
import { ReplayTable } from '../../core/offline/replayTable';
import type { QueuedChange, ReplayOutcome } from '../../core/offline/writeQueue';
import { FOLDER_MIME_TYPE } from '../../shared/schemas/drive/files';
import { type DriveApi, type DriveItem, quoteQuery } from './port';

/** Ids of folders and files made offline start with this (never one of Drive's) until their insert is replayed. */
export const LOCAL_FOLDER_PREFIX = 'desk-local-folder-';
export const LOCAL_FILE_PREFIX = 'desk-local-file-';

/** How far before the queued moment a folder whose insert may have landed is looked for (clocks differ a little). */
const LOOK_BACK_MS = 5 * 60_000;

interface RenameIntent { readonly fileId: string; readonly title: string; readonly baseTitle: string }
interface MoveIntent { readonly fileId: string; readonly title: string; readonly addParents: readonly string[]; readonly removeParents: readonly string[] }
interface TrashIntent { readonly fileId: string; readonly title: string }
interface NewFolderIntent { readonly localId: string; readonly title: string; readonly parentId: string }
/** `fileId`: the id reserved with generateIds at the first replay, kept in the queue before the insert is sent. */
interface NewFileIntent { readonly localId: string; readonly title: string; readonly parentId: string; readonly fileId?: string }

/** Each kind of Drive metadata change and its intent (queued as `drive.<kind>`). */
interface DriveIntents { rename: RenameIntent; move: MoveIntent; trash: TrashIntent; newFolder: NewFolderIntent; newFile: NewFileIntent }

export interface DriveOfflineChangesHost {
  readonly desk: Pick<DeskContext, 'vs' | 'offlineQueue' | 'log'>;
  readonly api: () => Pick<DriveApi, 'getFile' | 'patchFile' | 'trashFile' | 'insertFolder' | 'listFiles' | 'insertEmptyFile' | 'generateIds'>;
  /** Shows files as they now are (or, removed, takes them away) in the loaded listings, without a request. */
  readonly show: (changes: readonly { fileId: string; item?: DriveItem; removed: boolean }[]) => Promise<void>;
  readonly now?: () => number;
}

export class DriveOfflineChanges {
  private counter = 0;
  /** Folders and files made offline → the ids Drive gave them once replayed (changes queued after name the local id). */
  private readonly folderIds = new Map<string, string>();
  private readonly changes: ReplayTable<DriveIntents>;

  constructor(private readonly host: DriveOfflineChangesHost) {
    this.changes = new ReplayTable<DriveIntents>(() => host.desk.offlineQueue, 'drive', {
      rename: (intent, change) => this.replayRename(intent, change),
      move: (intent, change) => this.replayMove(intent, change),
      trash: (intent) => this.replayTrash(intent),
      newFolder: (intent, change) => this.replayNewFolder(intent, change),
      newFile: (intent, change) => this.replayNewFile(intent, change),
    });
  }

  private get t(): DeskContext['vs']['l10n']['t'] {
    return this.host.desk.vs.l10n.t;
  }

  private now(): number {
    return this.host.now?.() ?? Date.now();
  }

  register(): DisposableLike[] {
    return this.changes.register();
  }

  // ---- keeping

  async rename(item: DriveItem, title: string): Promise<void> {
    const intent: RenameIntent = { fileId: item.id, title, baseTitle: item.title ?? '' };
    await this.changes.keep('rename', this.t('Rename “{0}” to “{1}”', item.title ?? item.id, title), intent);
    await this.host.show([{ fileId: item.id, item: { ...item, title }, removed: false }]);
  }

  async move(item: DriveItem, addParents: readonly string[], removeParents: readonly string[], targetTitle: string): Promise<void> {
    const intent: MoveIntent = { fileId: item.id, title: item.title ?? item.id, addParents, removeParents };
    await this.changes.keep('move', this.t('Move “{0}” to “{1}”', intent.title, targetTitle), intent);
    const parents = [...(item.parents ?? []).filter((parent) => !removeParents.includes(parent.id)), ...addParents.map((id) => ({ id }))];
    await this.host.show([{ fileId: item.id, item: { ...item, parents }, removed: false }]);
  }

  async trash(item: DriveItem): Promise<void> {
    const intent: TrashIntent = { fileId: item.id, title: item.title ?? item.id };
    await this.changes.keep('trash', this.t('Move “{0}” to the trash', intent.title), intent);
    await this.host.show([{ fileId: item.id, item: { ...item, labels: { ...item.labels, trashed: true } }, removed: false }]);
  }

  /** `mayHaveLanded`: the failed insert may have reached Drive: the replay looks for it first. */
  async newFolder(title: string, parentId: string, parentTitle: string, mayHaveLanded: boolean): Promise<DriveItem> {
    const localId = `${LOCAL_FOLDER_PREFIX}${this.now().toString(36)}-${(this.counter++).toString(36)}`;
    const intent: NewFolderIntent = { localId, title, parentId };
    await this.changes.keep('newFolder', this.t('New folder “{0}” in “{1}”', title, parentTitle), intent, { attempted: mayHaveLanded });
    const local = { kind: 'drive#file', id: localId, title, mimeType: FOLDER_MIME_TYPE, parents: [{ id: parentId }], labels: { trashed: false } } as DriveItem;
    await this.host.show([{ fileId: localId, item: local, removed: false }]);
    return local;
  }

  /** A new empty file (New File), shown at once; made when Drive is back under an id reserved then. */
  async newFile(title: string, parentId: string, parentTitle: string): Promise<DriveItem> {
    const localId = `${LOCAL_FILE_PREFIX}${this.now().toString(36)}-${(this.counter++).toString(36)}`;
    const intent: NewFileIntent = { localId, title, parentId };
    await this.changes.keep('newFile', this.t('New file “{0}” in “{1}”', title, parentTitle), intent);
    const local = { kind: 'drive#file', id: localId, title, mimeType: 'text/plain', fileSize: '0', parents: [{ id: parentId }], labels: { trashed: false } } as DriveItem;
    await this.host.show([{ fileId: localId, item: local, removed: false }]);
    return local;
  }

  // ---- replaying

  /** A file named by a local id: the id Drive gave it (undefined when its insert was discarded). */
  private fileIdOf(id: string): string | undefined {
    return id.startsWith(LOCAL_FOLDER_PREFIX) || id.startsWith(LOCAL_FILE_PREFIX) ? this.folderIds.get(id) : id;
  }

  private deletedOnDrive(change: QueuedChange): 'applied' {
    void this.host.desk.vs.window.showWarningMessage(this.t('“{0}” could not be sent: the file was deleted on Drive.', change.summary));
    return 'applied';
  }

  private async replayRename(intent: RenameIntent, change: QueuedChange): Promise<ReplayOutcome> {
    const fileId = this.fileIdOf(intent.fileId);
    if (fileId === undefined) return 'applied';
    const api = this.host.api();
    let current: DriveItem;
    try {
      current = await api.getFile(fileId);
    } catch (error) {
      if (isNotFound(error)) return this.deletedOnDrive(change);
      throw error;
    }
    // Sent already (its answer was lost), or renamed so elsewhere: nothing to send.
    if (current.title === intent.title) return 'applied';
    if (current.title !== intent.baseTitle) {
      const vs = this.host.desk.vs;
      const overwrite = this.t('Overwrite');
      const choice = await vs.window.showWarningMessage(
        this.t('“{0}” was renamed on Drive to “{1}” while you were offline.', intent.baseTitle, current.title ?? ''),
        { modal: true, detail: this.t('Overwrite renames it to “{0}” as you did; Cancel keeps the name it has on Drive.', intent.title) },
        overwrite,
      );
      this.host.desk.log.info(`Drive: replayed rename of ${fileId} met a rename elsewhere: ${choice ?? 'cancel'}`);
      if (choice !== overwrite) return 'applied';
    }
    const renamed = await api.patchFile(fileId, { title: intent.title });
    await this.host.show([{ fileId, item: renamed, removed: false }]);
    return 'applied';
  }

  /** files.patch with addParents/removeParents: the same move again changes nothing. */
  private async replayMove(intent: MoveIntent, change: QueuedChange): Promise<ReplayOutcome> {
    const fileId = this.fileIdOf(intent.fileId);
    if (fileId === undefined) return 'applied';
    const ids = (list: readonly string[]): string[] => list.flatMap((id) => this.fileIdOf(id) ?? []);
    try {
      const moved = await this.host.api().patchFile(fileId, {}, { addParents: ids(intent.addParents), removeParents: ids(intent.removeParents) });
      await this.host.show([{ fileId, item: moved, removed: false }]);
    } catch (error) {
      if (isNotFound(error)) return this.deletedOnDrive(change);
      throw error;
    }
    return 'applied';
  }

  /** A trash repeated finds the file trashed and leaves it so; a file deleted meanwhile is gone as the user wanted. */
  private async replayTrash(intent: TrashIntent): Promise<ReplayOutcome> {
    const fileId = this.fileIdOf(intent.fileId);
    if (fileId === undefined) return 'applied';
    try {
      await this.host.api().trashFile(fileId);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      this.host.desk.log.info(`Drive: ${fileId} was gone already`);
    }
    return 'applied';
  }

  private async replayNewFolder(intent: NewFolderIntent, change: QueuedChange): Promise<ReplayOutcome> {
    const api = this.host.api();
    const parentId = this.fileIdOf(intent.parentId) ?? 'root';
    const landed = change.attempted ? await this.findLanded(intent, parentId, change.queuedAt) : undefined;
    const folder = landed ?? (await api.insertFolder(intent.title, parentId));
    this.folderIds.set(intent.localId, folder.id);
    // The changes waiting after it name Drive's id from now on (they survive a reload; the map does not).
    await this.host.desk.offlineQueue.rewrite((queued) => (queued.id === change.id ? queued : { ...queued, intent: replaceId(queued.intent, intent.localId, folder.id) }));
    await this.host.show([{ fileId: intent.localId, removed: true }, { fileId: folder.id, item: folder, removed: false }]);
    return 'applied';
  }

  /**
   * The id is reserved first and written into the waiting change before the insert is sent: a reload or a lost answer
   * then repeats the insert under the same id, which Drive answers 409 (the file exists) instead of making another.
   */
  private async replayNewFile(intent: NewFileIntent, change: QueuedChange): Promise<ReplayOutcome> {
    const api = this.host.api();
    let fileId = intent.fileId;
    if (fileId === undefined) {
      const reserved = (await api.generateIds(1)).at(0);
      if (reserved === undefined) throw new Error('Drive reserved no id for the new file');
      fileId = reserved;
      await this.host.desk.offlineQueue.rewrite((queued) => (queued.id === change.id ? { ...queued, intent: { ...queued.intent, fileId } } : queued));
    }
    const parentId = this.fileIdOf(intent.parentId) ?? 'root';
    let file: DriveItem;
    try {
      file = await api.insertEmptyFile(intent.title, parentId, { id: fileId });
    } catch (error) {
      if (!(error instanceof GoogleApiError && error.status === 409)) throw error;
      this.host.desk.log.info(`Drive: the new file ${fileId} had been made already`);
      file = await api.getFile(fileId);
    }
    this.folderIds.set(intent.localId, file.id);
    await this.host.desk.offlineQueue.rewrite((queued) => (queued.id === change.id ? queued : { ...queued, intent: replaceId(queued.intent, intent.localId, file.id) }));
    await this.host.show([{ fileId: intent.localId, removed: true }, { fileId: file.id, item: file, removed: false }]);
    return 'applied';
  }

  private async findLanded(intent: NewFolderIntent, parentId: string, queuedAt: number): Promise<DriveItem | undefined> {
    const q = `title = ${quoteQuery(intent.title)} and ${quoteQuery(parentId)} in parents and mimeType = '${FOLDER_MIME_TYPE}' and trashed = false`;
    const page = await this.host.api().listFiles({ q, maxResults: 100 });
    const since = queuedAt - LOOK_BACK_MS;
    return page.items.find((item) => item.createdDate === undefined || Date.parse(item.createdDate) >= since);
  }
}

function isNotFound(error: unknown): boolean {
  return error instanceof GoogleApiError && error.isNotFound;
}

/** An intent with every field (or list entry) that names `from` naming `to`. */
function replaceId(intent: Readonly<Record<string, unknown>>, from: string, to: string): Readonly<Record<string, unknown>> {
  return Object.fromEntries(Object.entries(intent).map(([key, value]) => [key, value === from ? to : Array.isArray(value) ? value.map((entry: unknown) => (entry === from ? to : entry)) : value]));
}
