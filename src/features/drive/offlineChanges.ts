/**
 * Drive metadata changes made while Drive cannot be reached: rename, move, trash and new folder are kept in Desk's
 * write queue as what the user meant, shown in the view at once, and sent once when Drive is back. A move and a trash
 * land the same when repeated; a rename is checked against the name it was made on (a name changed elsewhere asks
 * Overwrite or Cancel); a new folder whose first send may have landed is looked for in its parent before it is made.
 * Anything about a file deleted on Drive meanwhile says so, with the user's words in the message.
 */
import { GoogleApiError } from '../../api/errors';
import type { DeskContext } from '../../core/deskContext';
import type { DisposableLike } from '../../core/disposable';
import type { QueuedChange, ReplayOutcome } from '../../core/offline/writeQueue';
import { FOLDER_MIME_TYPE } from '../../shared/schemas/drive/files';
import { type DriveApi, type DriveItem, quoteQuery } from './port';

export const DRIVE_CHANGE = {
  rename: 'drive.rename',
  move: 'drive.move',
  trash: 'drive.trash',
  newFolder: 'drive.newFolder',
} as const;

/** Ids of folders made offline start with this (never one of Drive's) until their insert is replayed. */
export const LOCAL_FOLDER_PREFIX = 'desk-local-folder-';

/** How far before the queued moment a folder whose insert may have landed is looked for (clocks differ a little). */
const LOOK_BACK_MS = 5 * 60_000;

interface RenameIntent { readonly fileId: string; readonly title: string; readonly baseTitle: string }
interface MoveIntent { readonly fileId: string; readonly title: string; readonly addParents: readonly string[]; readonly removeParents: readonly string[] }
interface TrashIntent { readonly fileId: string; readonly title: string }
interface NewFolderIntent { readonly localId: string; readonly title: string; readonly parentId: string }

export interface DriveOfflineChangesHost {
  readonly desk: Pick<DeskContext, 'vs' | 'offlineQueue' | 'log'>;
  readonly api: () => Pick<DriveApi, 'getFile' | 'patchFile' | 'trashFile' | 'insertFolder' | 'listFiles'>;
  /** Shows files as they now are (or, removed, takes them away) in the loaded listings, without a request. */
  readonly show: (changes: readonly { fileId: string; item?: DriveItem; removed: boolean }[]) => Promise<void>;
  readonly now?: () => number;
}

export class DriveOfflineChanges {
  private counter = 0;
  /** Folders made offline → the ids Drive gave them once replayed (changes queued after name the local id). */
  private readonly folderIds = new Map<string, string>();

  constructor(private readonly host: DriveOfflineChangesHost) {}

  private get t(): DeskContext['vs']['l10n']['t'] {
    return this.host.desk.vs.l10n.t;
  }

  private now(): number {
    return this.host.now?.() ?? Date.now();
  }

  register(): DisposableLike[] {
    const queue = this.host.desk.offlineQueue;
    return [
      queue.registerReplayer(DRIVE_CHANGE.rename, (change) => this.replayRename(change)),
      queue.registerReplayer(DRIVE_CHANGE.move, (change) => this.replayMove(change)),
      queue.registerReplayer(DRIVE_CHANGE.trash, (change) => this.replayTrash(change)),
      queue.registerReplayer(DRIVE_CHANGE.newFolder, (change) => this.replayNewFolder(change)),
    ];
  }

  // ---- keeping

  async rename(item: DriveItem, title: string): Promise<void> {
    const intent: RenameIntent = { fileId: item.id, title, baseTitle: item.title ?? '' };
    await this.host.desk.offlineQueue.add({ kind: DRIVE_CHANGE.rename, summary: this.t('Rename “{0}” to “{1}”', item.title ?? item.id, title), intent: { ...intent } });
    await this.host.show([{ fileId: item.id, item: { ...item, title }, removed: false }]);
  }

  async move(item: DriveItem, addParents: readonly string[], removeParents: readonly string[], targetTitle: string): Promise<void> {
    const intent: MoveIntent = { fileId: item.id, title: item.title ?? item.id, addParents, removeParents };
    await this.host.desk.offlineQueue.add({ kind: DRIVE_CHANGE.move, summary: this.t('Move “{0}” to “{1}”', intent.title, targetTitle), intent: { ...intent } });
    const parents = [...(item.parents ?? []).filter((parent) => !removeParents.includes(parent.id ?? '')), ...addParents.map((id) => ({ id }))];
    await this.host.show([{ fileId: item.id, item: { ...item, parents }, removed: false }]);
  }

  async trash(item: DriveItem): Promise<void> {
    const intent: TrashIntent = { fileId: item.id, title: item.title ?? item.id };
    await this.host.desk.offlineQueue.add({ kind: DRIVE_CHANGE.trash, summary: this.t('Move “{0}” to the trash', intent.title), intent: { ...intent } });
    await this.host.show([{ fileId: item.id, item: { ...item, labels: { ...item.labels, trashed: true } }, removed: false }]);
  }

  /** `mayHaveLanded`: the failed insert may have reached Drive: the replay looks for it first. */
  async newFolder(title: string, parentId: string, parentTitle: string, mayHaveLanded: boolean): Promise<DriveItem> {
    const localId = `${LOCAL_FOLDER_PREFIX}${this.now().toString(36)}-${(this.counter++).toString(36)}`;
    const intent: NewFolderIntent = { localId, title, parentId };
    await this.host.desk.offlineQueue.add({ kind: DRIVE_CHANGE.newFolder, summary: this.t('New folder “{0}” in “{1}”', title, parentTitle), intent: { ...intent }, ...(mayHaveLanded ? { attempted: true } : {}) });
    const local = { kind: 'drive#file', id: localId, title, mimeType: FOLDER_MIME_TYPE, parents: [{ id: parentId }], labels: { trashed: false } } as DriveItem;
    await this.host.show([{ fileId: localId, item: local, removed: false }]);
    return local;
  }

  // ---- replaying

  /** A file named by a local id: the id Drive gave it (undefined when its insert was discarded). */
  private fileIdOf(id: string): string | undefined {
    return id.startsWith(LOCAL_FOLDER_PREFIX) ? this.folderIds.get(id) : id;
  }

  private deletedOnDrive(change: QueuedChange): 'applied' {
    void this.host.desk.vs.window.showWarningMessage(this.t('“{0}” could not be sent: the file was deleted on Drive.', change.summary));
    return 'applied';
  }

  private async replayRename(change: QueuedChange): Promise<ReplayOutcome> {
    const intent = change.intent as unknown as RenameIntent;
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
  private async replayMove(change: QueuedChange): Promise<ReplayOutcome> {
    const intent = change.intent as unknown as MoveIntent;
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
  private async replayTrash(change: QueuedChange): Promise<ReplayOutcome> {
    const intent = change.intent as unknown as TrashIntent;
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

  private async replayNewFolder(change: QueuedChange): Promise<ReplayOutcome> {
    const intent = change.intent as unknown as NewFolderIntent;
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
