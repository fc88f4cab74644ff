/** The desk-drive: file system: Drive files opened, saved (with conflict checks) and listed as a VS Code FileSystemProvider. */
import { createHash } from 'node:crypto';
import type * as vscode from 'vscode';
import type { Readable } from 'node:stream';
import { CancelledError, errorMessage, GoogleApiError, isUnreachable, NetworkError } from '../../../api/errors';
import { AccountAction, AccountRefusedError, displayNameOf, UriAccounts } from '../../../core/accounts/accounts';
import { Disposable } from '../../../core/disposable';
import { NotSignedInError } from '../../../core/accounts/session';
import { keepUnsaved, refusingStat, savingBytes, SavesUnderWay } from '../../../core/ui/saveConflict';
import { isFolder, isNative } from '../../../shared/schemas/drive';
import { DriveApi, DriveItem, quoteQuery } from '../port';
import { DRIVE_SCHEME, driveUriParts, isReadOnlyItem, isRemoteVersion, MY_DRIVE_SEGMENT, PathLookup, PathNotFound, queryFileId, remoteVersionParts, resolveDrivePath, ResolvedPath, sanitizeTitle, SHARED_DRIVES_SEGMENT, textExportType, uriSegments } from './drivePath';

export type ConflictChoice = 'compare' | 'overwrite' | 'cancel';

export interface DriveFsOptions {
  readonly api: () => DriveApi;
  /** Whose Drive each URI names (its authority): every operation runs as that account, or is refused in Desk's words. */
  readonly accounts: UriAccounts;
  readonly exportFormats: () => Promise<readonly { source: string; targets: readonly string[] }[]>;
  /** The top folder of the user's shared drive with this name (paths under `Shared drives/`). */
  readonly findDrive?: (name: string) => Promise<DriveItem | undefined>;
  /** A file version Desk wrote (the change poller must not announce it; the tree may update its row). */
  readonly onOwnWrite?: (item: DriveItem) => void;
  readonly log?: (message: string) => void;
  /**
   * A request failed because the user is signed out, the URI's account is not the one signed in, or Drive is not
   * reachable (explorer/availability.ts says so, once).
   */
  readonly onUnavailable?: (reason: 'signedOut' | 'account' | 'unreachable', message: string) => void;
  /**
   * A save Drive cannot be reached for: kept in Desk's write queue (uploaded when Drive is back, see offlineSaves.ts).
   * False when it cannot be kept (too large): the save then fails as any other.
   */
  readonly keepOffline?: (item: DriveItem, bytes: Buffer, ifMatch: string | undefined, openedMd5: string | undefined) => Promise<boolean>;
}

/** Unpinned metadata is reused this long: stat comes in bursts (focus, save, explorer). */
const METADATA_TTL_MS = 3_000;

/**
 * The URI a file of `account`'s Drive opens at: the account in the authority, its folder path for the breadcrumb
 * and tab (`folders`, section first, as the tree shows them), its id in the query for resolution (see drivePath.ts).
 */
export function driveUri(vs: typeof vscode, account: string, item: Pick<DriveItem, 'id' | 'title'>, folders: readonly string[] = []): vscode.Uri {
  return vs.Uri.from({ scheme: DRIVE_SCHEME, ...driveUriParts(account, item, folders) });
}

/** The file id of a Desk Drive URI that names a file directly (by its id query, or the `/<id>/<title>` form). */
export function fileIdOf(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== DRIVE_SCHEME) return undefined;
  const byQuery = queryFileId(uri);
  if (byQuery) return byQuery;
  if (uri.query !== '' && !isRemoteVersion(uri)) return undefined;
  const segments = uriSegments(uri);
  return segments.length <= 2 && segments[0] !== 'root' && segments[0] !== MY_DRIVE_SEGMENT && segments[0] !== SHARED_DRIVES_SEGMENT ? segments[0] : undefined;
}

/**
 * What the file system reads of a listed file (Google's partial response): the stat's type, times, size and
 * read-only state, the version a read pins and a save's If-Match and conflict check (etag, md5Checksum), the parents
 * a move changes. Listing rows are remembered as metadata, so everything stat, readFile and writeFile use is here.
 */
export const FS_LISTING_FIELDS = 'items(id,title,mimeType,parents(id,isRoot),createdDate,modifiedDate,fileSize,md5Checksum,etag,editable,labels(trashed)),nextPageToken';

/** A Drive item's modification time and size as a FileStat reports them. */
function statTimes(item: DriveItem): { mtime: number; size: number } {
  return { mtime: Date.parse(item.modifiedDate ?? '') || 0, size: Number(item.fileSize ?? 0) || 0 };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer | string>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/**
 * Drive as a file system (`desk-drive:`). Reading pins the version the editor holds; saving sends it as
 * If-Match, so a file changed elsewhere in the meantime fails with 412, and the user chooses: compare,
 * overwrite, or cancel (the edited text stays in the editor). Native documents read as a text export,
 * read-only. Delete moves to the trash; rename and move are metadata patches.
 */
export class DriveFileSystemProvider extends Disposable implements vscode.FileSystemProvider {
  private readonly changeEmitter: vscode.EventEmitter<vscode.FileChangeEvent[]>;
  readonly onDidChangeFile: vscode.Event<vscode.FileChangeEvent[]>;
  /** The version each open file was read at: stat reports it and saves are conditional on it. */
  private readonly pinned = new Map<string, DriveItem>();
  /** The file each path-named document (an Explorer folder's file, no id in its URI) was read from: its saves need no lookup. */
  private readonly pinnedPaths = new Map<string, string>();
  /** Where each listed file or folder was last shown (Explorer folders): a change elsewhere is reported at its path. */
  private readonly listed = new Map<string, vscode.Uri>();
  private readonly metadata = new Map<string, { item: DriveItem; at: number }>();
  /** The Drive version the user chose to overwrite (or whose content is the one opened), by file id: the next write's If-Match. */
  private readonly approved = new Map<string, string>();
  /** Files this provider moved to Drive's trash, by the URI they had: VS Code's Undo of a Delete brings them back. */
  private readonly trashedAt = new Map<string, { id: string; md5: string | undefined }>();
  private readonly saves: SavesUnderWay;

  constructor(private readonly vs: typeof vscode, private readonly options: DriveFsOptions) {
    super();
    this.changeEmitter = this._register(new vs.EventEmitter<vscode.FileChangeEvent[]>());
    this.onDidChangeFile = this.changeEmitter.event;
    this.saves = this._register(new SavesUnderWay(vs, DRIVE_SCHEME));
  }

  /** Forget everything (backend or account change). */
  reset(): void {
    this.pinned.clear();
    this.pinnedPaths.clear();
    this.metadata.clear();
    this.approved.clear();
  }

  /**
   * A file's metadata as the tree lists it, given as the row is opened: the stat VS Code takes before reading needs
   * no request of its own (the change feed keeps rows current, and the read checks the version by its etag).
   */
  know(item: DriveItem): void {
    this.remember(item);
  }

  /** The version of a file an open editor holds, else the metadata last seen; undefined when Desk has none. */
  knownVersion(fileId: string): DriveItem | undefined {
    return this.pinned.get(fileId) ?? this.metadata.get(fileId)?.item;
  }

  /**
   * Another client changed a file: open editors without unsaved edits reload it; an editor with edits keeps
   * its pinned version, so the next save meets the conflict instead of silently overwriting.
   */
  notifyRemoteChange(fileId: string): void {
    this.metadata.delete(fileId);
    if (this.listed.size > 0) void this.reportListingChange(fileId);
    const openDocs = this.vs.workspace.textDocuments.filter((doc) => fileIdOf(doc.uri) === fileId && !isRemoteVersion(doc.uri));
    if (openDocs.some((doc) => doc.isDirty)) return;
    this.pinned.delete(fileId);
    const events = openDocs.map((doc) => ({ type: this.vs.FileChangeType.Changed, uri: doc.uri }));
    if (events.length > 0) this.changeEmitter.fire(events);
  }

  watch(): vscode.Disposable {
    // Changes arrive through the change poller (notifyRemoteChange), not per-file watches.
    return new this.vs.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const { checked, action, refused } = this.saves.statCheck(uri);
    return this.asAccount(checked, action, () => this.statAs(uri), refused);
  }

  private async statAs(uri: vscode.Uri): Promise<vscode.FileStat> {
    const resolved = this.pinnedAt(uri) ?? (await this.resolve(uri));
    const { FileType, FilePermission } = this.vs;
    if (resolved.kind === 'root') return { type: FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    if (resolved.kind === 'missing') throw this.vs.FileSystemError.FileNotFound(uri);
    const remote = isRemoteVersion(uri);
    const pinned = remote ? undefined : this.pinned.get(resolved.item.id);
    const item = pinned ?? resolved.item;
    const stat: vscode.FileStat = {
      type: isFolder(item) ? FileType.Directory : FileType.File,
      ctime: Date.parse(item.createdDate ?? '') || 0,
      ...statTimes(item),
    };
    if (remote || isReadOnlyItem(item)) stat.permissions = FilePermission.Readonly;
    // The stat VS Code takes right before it writes. A save the user started answers from the pinned version with no
    // request: the upload's If-Match meets a change made elsewhere, and writeFile asks (keepUnsaved keeps the text).
    // An auto save cannot be declined in writeFile (core/ui/saveConflict.ts): its conflict is settled here.
    const starter = pinned && !isReadOnlyItem(pinned) ? this.saves.take(uri) : undefined;
    if (pinned && starter === 'auto') return { ...stat, ...(await this.settleBeforeAutoSave(uri, pinned)) };
    return stat;
  }

  /**
   * Before VS Code auto-saves: if the content changed on Drive since the editor opened it, the user chooses.
   * Overwrite (or a change of metadata only) lets the save through against the current version; after Compare and
   * Cancel the save is refused here (see core/ui/saveConflict.ts).
   */
  private async settleBeforeAutoSave(uri: vscode.Uri, pinned: DriveItem): Promise<{ mtime: number; size: number }> {
    const opened = statTimes(pinned);
    let current: DriveItem;
    try {
      current = await this.options.api().getFile(pinned.id);
    } catch (error) {
      // Offline: writeFile keeps the save, and its upload is checked against the version edited from.
      if (isUnreachable(error) && this.options.keepOffline) return opened;
      throw this.toFsError(uri, error);
    }
    this.remember(current);
    if (current.etag === pinned.etag || current.etag === undefined) return opened;
    if (pinned.md5Checksum !== undefined && current.md5Checksum === pinned.md5Checksum) {
      this.approved.set(pinned.id, current.etag);
      return opened;
    }
    const choice = await this.askConflict(uri, current);
    if (choice === 'overwrite') {
      this.approved.set(pinned.id, current.etag);
      return opened;
    }
    if (choice === 'compare') await this.openComparison(uri, current);
    return refusingStat(opened, statTimes(current), savingBytes(this.vs, uri));
  }

  /**
   * The version the editor holds, for a file opened by its id or read at this path: a save needs no lookup of its
   * own (for an Explorer path, one request per folder level, twice: the stat and the write).
   */
  private pinnedAt(uri: vscode.Uri): ResolvedPath | undefined {
    const fileId = isRemoteVersion(uri) ? undefined : queryFileId(uri) ?? this.pinnedPaths.get(uri.toString());
    const pinned = fileId ? this.pinned.get(fileId) : undefined;
    return pinned ? { kind: 'item', item: pinned } : undefined;
  }

  readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    return this.asAccount(uri, 'open', () => this.readDirectoryAs(uri));
  }

  private async readDirectoryAs(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    const resolved = await this.resolve(uri);
    if (resolved.kind === 'root') return [['root', this.vs.FileType.Directory]];
    if (resolved.kind === 'missing') throw this.vs.FileSystemError.FileNotFound(uri);
    if (!isFolder(resolved.item)) throw this.vs.FileSystemError.FileNotADirectory(uri);
    const entries = new Map<string, vscode.FileType>();
    this.listed.set(resolved.item.id, uri);
    let pageToken: string | undefined;
    do {
      const page = await this.guard(uri, () => this.options.api().listFiles({ q: `${quoteQuery(resolved.item.id)} in parents and trashed = false`, orderBy: 'folder,title', maxResults: 1000, pageToken, includeItemsFromAllDrives: true, fields: FS_LISTING_FIELDS }));
      for (const child of page.items) {
        this.remember(child);
        const name = sanitizeTitle(child.title ?? child.id);
        // Drive allows equal titles in one folder; a path can name only the first of them.
        if (!entries.has(name)) {
          entries.set(name, isFolder(child) ? this.vs.FileType.Directory : this.vs.FileType.File);
          this.listed.set(child.id, this.vs.Uri.joinPath(uri.with({ query: '' }), name));
        }
      }
      pageToken = page.nextPageToken;
    } while (pageToken);
    return [...entries];
  }

  createDirectory(uri: vscode.Uri): Promise<void> {
    return this.asAccount(uri, 'create', () => this.createDirectoryAs(uri));
  }

  private async createDirectoryAs(uri: vscode.Uri): Promise<void> {
    const resolved = await this.resolve(uri);
    if (resolved.kind !== 'missing') throw this.vs.FileSystemError.FileExists(uri);
    const folder = await this.guard(uri, () => this.options.api().insertFolder(resolved.title, resolved.parentId));
    this.remember(folder);
    this.options.onOwnWrite?.(folder);
    this.changeEmitter.fire([{ type: this.vs.FileChangeType.Created, uri }]);
  }

  /**
   * The bytes, and the version they are pinned at for the next save. The metadata comes from the stat VS Code took
   * just before (one round trip less than fetching it again): the download's etag says whether it describes these
   * bytes, and only when it does not (or the answer has none) is the file's metadata read again.
   */
  readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return this.asAccount(uri, 'open', () => this.readFileAs(uri));
  }

  private async readFileAs(uri: vscode.Uri): Promise<Uint8Array> {
    const remote = isRemoteVersion(uri);
    const resolved = await this.resolve(uri);
    if (resolved.kind === 'root') throw this.vs.FileSystemError.FileIsADirectory(uri);
    if (resolved.kind === 'missing') throw this.vs.FileSystemError.FileNotFound(uri);
    const item = resolved.item;
    if (isFolder(item)) throw this.vs.FileSystemError.FileIsADirectory(uri);
    const api = this.options.api();
    if (isNative(item)) {
      const type = textExportType(item.mimeType, await this.options.exportFormats());
      if (!type) throw this.vs.FileSystemError.NoPermissions(this.vs.l10n.t('“{0}” has no text export: open it in the browser', item.title ?? item.id));
      // An export carries no etag: the metadata is read beside it (same round trip) to pin the version exported.
      const [bytes, current] = await Promise.all([this.guard(uri, () => api.exportFile(item.id, type)), this.freshItem(uri, item.id)]);
      if (!remote) this.pin(uri, current);
      return bytes;
    }
    const download = await this.guard(uri, () => api.download(item.id));
    const bytes = await readAll(download.stream);
    if (!remote) {
      const pinnedItem = download.etag !== undefined && download.etag === item.etag ? item : await this.freshItem(uri, item.id);
      this.pin(uri, { ...pinnedItem, fileSize: String(bytes.length) });
    }
    return bytes;
  }

  /** The file's metadata as Drive has it now (and remembered for the next stat). */
  private async freshItem(uri: vscode.Uri, fileId: string): Promise<DriveItem> {
    const current = await this.guard(uri, () => this.options.api().getFile(fileId));
    this.remember(current);
    return current;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array, options: { readonly create: boolean; readonly overwrite: boolean }): Promise<void> {
    return this.asAccount(uri, 'save', () => this.writeFileAs(uri, content, options));
  }

  private async writeFileAs(uri: vscode.Uri, content: Uint8Array, options: { readonly create: boolean; readonly overwrite: boolean }): Promise<void> {
    if (isRemoteVersion(uri)) throw this.vs.FileSystemError.NoPermissions(uri);
    // A save of the open document the user started (VS Code's stat came first): a declined one keeps it dirty, no error.
    const saving = this.saves.takeWrite(uri);
    const resolved = this.pinnedAt(uri) ?? (await this.resolve(uri));
    const api = this.options.api();
    const bytes = Buffer.from(content);
    if (resolved.kind === 'root') throw this.vs.FileSystemError.FileIsADirectory(uri);
    if (resolved.kind === 'missing') {
      if (!options.create) throw this.vs.FileSystemError.FileNotFound(uri);
      if (await this.restoreTrashed(uri, bytes)) return;
      const created = await this.guard(uri, () => api.uploadFile({ title: resolved.title, parents: [{ id: resolved.parentId }] }, bytes, { size: bytes.length }));
      this.afterWrite(created, bytes.length);
      this.changeEmitter.fire([{ type: this.vs.FileChangeType.Created, uri }]);
      return;
    }
    const item = resolved.item;
    if (isFolder(item)) throw this.vs.FileSystemError.FileIsADirectory(uri);
    if (isReadOnlyItem(item)) throw this.vs.FileSystemError.NoPermissions(this.vs.l10n.t('“{0}” is read-only here', item.title ?? item.id));
    if (!options.overwrite) throw this.vs.FileSystemError.FileExists(uri);
    const expected = this.approved.get(item.id) ?? this.pinned.get(item.id)?.etag;
    this.approved.delete(item.id);
    let saved: DriveItem;
    try {
      saved = await api.updateContent(item.id, bytes, { ifMatch: expected, mimeType: item.mimeType });
    } catch (error) {
      // Offline: accepted into the queue (no "Failed to save"); the editor's version is the one saved from now on.
      if (isUnreachable(error) && (await this.options.keepOffline?.(item, bytes, expected, this.pinned.get(item.id)?.md5Checksum))) {
        this.keptOffline(item, bytes.length);
        return;
      }
      if (!(error instanceof GoogleApiError && error.isConflict)) throw this.toFsError(uri, error);
      // Only the metadata changed elsewhere (renamed, moved, starred: the content is the one read at open)? Then
      // nothing of the user's is at stake: save over the new version without asking.
      const current = await this.guard(uri, () => api.getFile(item.id));
      const openedMd5 = this.pinned.get(item.id)?.md5Checksum;
      if (openedMd5 !== undefined && current.md5Checksum === openedMd5 && current.etag !== undefined) {
        saved = await this.guard(uri, () => api.updateContent(item.id, bytes, { ifMatch: current.etag, mimeType: item.mimeType }));
        this.afterWrite(saved, bytes.length);
        return;
      }
      // The content changed on Drive since the editor read it: the user chooses.
      const choice = await this.askConflict(uri, current);
      if (choice === 'compare') await this.openComparison(uri, current);
      if (choice !== 'overwrite') {
        if (saving && (await keepUnsaved(this.vs, uri))) return;
        throw this.vs.FileSystemError.Unavailable(choice === 'compare'
          ? this.vs.l10n.t('“{0}” changed on Drive since you opened it. Compare, then save again to choose.', item.title ?? item.id)
          : this.vs.l10n.t('Save cancelled: “{0}” changed on Drive since you opened it. Your text is still in the editor.', item.title ?? item.id));
      }
      saved = await this.guard(uri, () => api.updateContent(item.id, bytes, { ifMatch: undefined, mimeType: item.mimeType }));
    }
    this.afterWrite(saved, bytes.length);
  }

  delete(uri: vscode.Uri): Promise<void> {
    return this.asAccount(uri, 'delete', () => this.deleteAs(uri));
  }

  private async deleteAs(uri: vscode.Uri): Promise<void> {
    const resolved = await this.resolve(uri);
    if (resolved.kind !== 'item') throw this.vs.FileSystemError.FileNotFound(uri);
    const trashed = await this.guard(uri, () => this.options.api().trashFile(resolved.item.id));
    if (!isFolder(trashed)) this.trashedAt.set(uri.toString(), { id: trashed.id, md5: trashed.md5Checksum ?? resolved.item.md5Checksum });
    this.pinned.delete(resolved.item.id);
    this.pinnedPaths.delete(uri.toString());
    this.metadata.delete(resolved.item.id);
    this.listed.delete(resolved.item.id);
    this.options.onOwnWrite?.(trashed);
    this.changeEmitter.fire([{ type: this.vs.FileChangeType.Deleted, uri }]);
    // VS Code's own confirmation says "permanently" for a file system without a trash of its own: say where it went.
    void this.announceTrashed(uri, trashed);
  }

  /**
   * VS Code's Undo of its Delete writes the file's old content back at its path. When that content is what Desk moved to
   * Drive's trash from there, the same Drive file comes back (its history, sharing and id), as the confirmation promised
   * ("You can restore this file using the Undo command"); a new file of other content at that path is a new file.
   */
  private async restoreTrashed(uri: vscode.Uri, bytes: Buffer): Promise<boolean> {
    const trashed = this.trashedAt.get(uri.toString());
    if (!trashed || trashed.md5 === undefined || trashed.md5 !== createHash('md5').update(bytes).digest('hex')) return false;
    this.trashedAt.delete(uri.toString());
    let restored: DriveItem;
    try {
      restored = await this.options.api().untrashFile(trashed.id);
    } catch {
      // Gone from the trash meanwhile (emptied, deleted for good): the content is written as a new file.
      return false;
    }
    this.afterWrite(restored, bytes.length);
    this.changeEmitter.fire([{ type: this.vs.FileChangeType.Created, uri }]);
    return true;
  }

  private async announceTrashed(uri: vscode.Uri, item: DriveItem): Promise<void> {
    const vs = this.vs;
    const restore = vs.l10n.t('Restore');
    const choice = await vs.window.showInformationMessage(vs.l10n.t('“{0}” is in Drive\'s trash, not deleted for good: Restore (or Undo in the Explorer) brings it back; Drive keeps it there for 30 days.', item.title ?? item.id), restore);
    if (choice !== restore) return;
    try {
      // Restored in the account it was trashed in (or refused, if that account signed out meanwhile).
      const restored = await this.options.accounts.run(uri, 'delete', item.title ?? item.id, () => this.options.api().untrashFile(item.id));
      this.options.onOwnWrite?.(restored);
      void this.reportListingChange(item.id);
    } catch (error) {
      void vs.window.showErrorMessage(vs.l10n.t('Could not restore “{0}”: {1}', item.title ?? item.id, errorMessage(error, vs.l10n.t)));
    }
  }

  /** files.copy of a file into the folder of `destination` under its name (Drive copies files, not folders). */
  copy(source: vscode.Uri, destination: vscode.Uri, options: { readonly overwrite: boolean }): Promise<void> {
    return this.asAccount(source, 'copy', () => {
      this.refuseOtherAccount(source, destination);
      return this.copyAs(source, destination, options);
    });
  }

  private async copyAs(source: vscode.Uri, destination: vscode.Uri, options: { readonly overwrite: boolean }): Promise<void> {
    const from = await this.resolve(source);
    if (from.kind !== 'item') throw this.vs.FileSystemError.FileNotFound(source);
    if (isFolder(from.item)) throw this.vs.FileSystemError.NoPermissions(this.vs.l10n.t('Drive copies files, not folders: copy the files of “{0}” into a new folder', from.item.title ?? from.item.id));
    const target = await this.resolve(destination.with({ query: '' }));
    if (target.kind === 'item' && !options.overwrite) throw this.vs.FileSystemError.FileExists(destination);
    if (target.kind !== 'missing') throw this.vs.FileSystemError.NoPermissions(this.vs.l10n.t('Drive cannot replace one file by another'));
    const copied = await this.guard(destination, () => this.options.api().copyFile(from.item.id, { title: target.title, parents: [{ id: target.parentId }] }));
    this.remember(copied);
    this.options.onOwnWrite?.(copied);
    this.changeEmitter.fire([{ type: this.vs.FileChangeType.Created, uri: destination }]);
  }

  /**
   * A file changed elsewhere (the change feed): where a listing showed it, or its folder is shown, the Explorer hears
   * it was created, deleted (trashed, removed, moved away) or changed, at the paths it knows.
   */
  private async reportListingChange(fileId: string): Promise<void> {
    const before = this.listed.get(fileId);
    let current: DriveItem | undefined;
    try {
      // Looked up in the account of the listing that showed it; a listing of a signed-out account is left alone.
      current = before ? await this.options.accounts.run(before, 'open', displayNameOf(before), () => this.options.api().getFile(fileId)) : await this.options.api().getFile(fileId);
    } catch (error) {
      if (error instanceof AccountRefusedError) return;
      current = undefined; // gone for this user (deleted, or no longer shared)
    }
    const parentUri = current && !current.labels?.trashed ? (current.parents ?? []).map((parent) => this.listed.get(parent.id)).find((uri) => uri !== undefined) : undefined;
    const now = current && parentUri ? this.vs.Uri.joinPath(parentUri, sanitizeTitle(current.title ?? current.id)) : undefined;
    const { FileChangeType } = this.vs;
    const events: vscode.FileChangeEvent[] = [];
    if (before && before.toString() !== now?.toString()) events.push({ type: FileChangeType.Deleted, uri: before });
    if (now && before?.toString() !== now.toString()) events.push({ type: FileChangeType.Created, uri: now });
    if (now && before?.toString() === now.toString()) events.push({ type: FileChangeType.Changed, uri: now });
    if (current && now) {
      this.remember(current);
      this.listed.set(fileId, now);
    } else {
      this.listed.delete(fileId);
    }
    if (events.length > 0) this.changeEmitter.fire(events);
  }

  rename(oldUri: vscode.Uri, newUri: vscode.Uri, options: { readonly overwrite: boolean }): Promise<void> {
    return this.asAccount(oldUri, 'rename', () => {
      this.refuseOtherAccount(oldUri, newUri);
      return this.renameAs(oldUri, newUri, options);
    });
  }

  private async renameAs(oldUri: vscode.Uri, newUri: vscode.Uri, options: { readonly overwrite: boolean }): Promise<void> {
    const source = await this.resolve(oldUri);
    if (source.kind !== 'item') throw this.vs.FileSystemError.FileNotFound(oldUri);
    const item = source.item;
    const segments = uriSegments(newUri);
    let title: string;
    let addParents: string[] = [];
    let removeParents: string[] = [];
    if (segments.length === 2 && segments[0] === item.id) {
      title = segments[1];
    } else if (queryFileId(newUri) === item.id && sameFolderPath(oldUri, newUri)) {
      // The same file under a new name in the folder path it was opened at.
      title = segments[segments.length - 1];
    } else {
      const target = await this.resolve(newUri.with({ query: '' }));
      if (target.kind === 'item' && target.item.id !== item.id && !options.overwrite) throw this.vs.FileSystemError.FileExists(newUri);
      if (target.kind !== 'missing') throw this.vs.FileSystemError.NoPermissions(this.vs.l10n.t('Drive cannot replace one file by another'));
      title = target.title;
      const currentParents = (item.parents ?? []).map((parent) => parent.id);
      if (!currentParents.includes(target.parentId)) {
        addParents = [target.parentId];
        const oldParent = await this.parentIdOfPath(oldUri);
        removeParents = oldParent && currentParents.includes(oldParent) ? [oldParent] : currentParents.slice(0, 1);
      }
    }
    const patched = await this.guard(oldUri, () => this.options.api().patchFile(item.id, { title }, { addParents, removeParents }));
    this.remember(patched);
    if (this.pinned.has(item.id)) this.pinned.set(item.id, { ...(this.pinned.get(item.id) as DriveItem), title: patched.title, parents: patched.parents, etag: patched.etag });
    if (this.pinnedPaths.delete(oldUri.toString()) && !queryFileId(newUri)) this.pinnedPaths.set(newUri.toString(), item.id);
    this.options.onOwnWrite?.(patched);
    this.changeEmitter.fire([
      { type: this.vs.FileChangeType.Deleted, uri: oldUri },
      { type: this.vs.FileChangeType.Created, uri: newUri },
    ]);
  }

  // ---- helpers

  /**
   * Runs an operation as the URI's account (every request takes that account's token); refused, with nothing sent,
   * when that account is not signed in or the URI names none.
   */
  private async asAccount<T>(uri: vscode.Uri, action: AccountAction, work: () => Promise<T>, onRefused?: () => void): Promise<T> {
    try {
      return await this.options.accounts.run(uri, action, displayNameOf(uri, MY_DRIVE_SEGMENT), work);
    } catch (error) {
      if (!(error instanceof AccountRefusedError)) throw error;
      onRefused?.();
      // Nobody signed in is the workspace reopened signed out; another account signed in is named in the message.
      this.options.onUnavailable?.(error.nobodySignedIn ? 'signedOut' : 'account', error.message);
      // Unavailable: VS Code shows the message as it is, and a refused save keeps the editor's text.
      throw this.vs.FileSystemError.Unavailable(error.message);
    }
  }

  /** A move or copy stays in one account's Drive. */
  private refuseOtherAccount(from: vscode.Uri, to: vscode.Uri): void {
    if (this.options.accounts.accountOf(from) !== this.options.accounts.accountOf(to)) {
      throw this.vs.FileSystemError.NoPermissions(this.vs.l10n.t('Drive moves and copies files within one account: download “{0}” and upload it to the other.', displayNameOf(from)));
    }
  }

  private pin(uri: vscode.Uri, item: DriveItem): void {
    this.pinned.set(item.id, item);
    if (!queryFileId(uri)) this.pinnedPaths.set(uri.toString(), item.id);
  }

  /** A save kept offline: the stat VS Code takes after it shows the new size and time (the etag stays the one edited from). */
  private keptOffline(item: DriveItem, size: number): void {
    const pinned = this.pinned.get(item.id) ?? item;
    const local: DriveItem = { ...pinned, fileSize: String(size), modifiedDate: new Date().toISOString() };
    this.pinned.set(item.id, local);
    this.remember(local);
  }

  /** An offline save was uploaded (its replay): the next save is checked against this version. */
  uploaded(saved: DriveItem, size: number): void {
    this.afterWrite(saved, size);
  }

  private afterWrite(saved: DriveItem, size: number): void {
    const item = { ...saved, fileSize: saved.fileSize ?? String(size) };
    this.pinned.set(item.id, item);
    this.remember(item);
    this.options.onOwnWrite?.(item);
  }

  private async askConflict(uri: vscode.Uri, item: DriveItem): Promise<ConflictChoice> {
    const vs = this.vs;
    const compare = vs.l10n.t('Compare');
    const overwrite = vs.l10n.t('Overwrite');
    const choice = await vs.window.showWarningMessage(
      vs.l10n.t('“{0}” was changed on Drive since you opened it.', item.title ?? item.id),
      { modal: true, detail: vs.l10n.t('Compare the Drive version with yours, overwrite it with yours, or cancel and keep editing. Nothing is saved until you choose.') },
      compare,
      overwrite,
    );
    this.options.log?.(`Drive: save conflict on ${uri.toString()}: ${choice ?? 'cancel'}`);
    return choice === compare ? 'compare' : choice === overwrite ? 'overwrite' : 'cancel';
  }

  private async openComparison(uri: vscode.Uri, item: DriveItem): Promise<void> {
    const remote = this.vs.Uri.from({ scheme: DRIVE_SCHEME, ...remoteVersionParts(uri.authority, item) });
    const title = this.vs.l10n.t('{0} (Drive) ↔ (yours)', item.title ?? item.id);
    await this.vs.commands.executeCommand('vscode.diff', remote, uri, title);
  }

  private lookup(fresh: boolean): PathLookup {
    return {
      getFile: async (fileId) => {
        const cached = this.metadata.get(fileId);
        if (!fresh && cached && Date.now() - cached.at < METADATA_TTL_MS) return cached.item;
        const item = await this.options.api().getFile(fileId);
        this.remember(item);
        return item;
      },
      findChild: async (folderId, title) => {
        const page = await this.options.api().listFiles({ q: `${quoteQuery(folderId)} in parents and title = ${quoteQuery(title)} and trashed = false`, maxResults: 10, includeItemsFromAllDrives: true, fields: FS_LISTING_FIELDS });
        const child = page.items.find((candidate) => sanitizeTitle(candidate.title ?? candidate.id) === title) ?? page.items.at(0);
        if (child) this.remember(child);
        return child;
      },
      ...(this.options.findDrive ? { findDrive: this.options.findDrive } : {}),
    };
  }

  private async resolve(uri: vscode.Uri, options: { fresh?: boolean } = {}): Promise<ResolvedPath> {
    try {
      const lookup = this.lookup(options.fresh === true || isRemoteVersion(uri));
      // A file opened from the tree resolves by its id whatever its path says: renames and moves elsewhere keep working.
      const fileId = queryFileId(uri);
      if (fileId) return { kind: 'item', item: await lookup.getFile(fileId) };
      return await resolveDrivePath(uriSegments(uri), lookup);
    } catch (error) {
      throw this.toFsError(uri, error);
    }
  }

  private async parentIdOfPath(uri: vscode.Uri): Promise<string | undefined> {
    const segments = uriSegments(uri);
    if (segments.length <= 2 && segments[0] !== MY_DRIVE_SEGMENT) return undefined;
    const parent = await this.resolve(uri.with({ path: `/${segments.slice(0, -1).join('/')}`, query: '' }));
    return parent.kind === 'item' ? parent.item.id : undefined;
  }

  private remember(item: DriveItem): void {
    this.metadata.set(item.id, { item, at: Date.now() });
  }

  private async guard<T>(uri: vscode.Uri, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw this.toFsError(uri, error);
    }
  }

  /** VS Code understands FileSystemErrors (not found → "create file?", etc.); everything else keeps its message. */
  private toFsError(uri: vscode.Uri, error: unknown): Error {
    const { FileSystemError } = this.vs;
    if (error instanceof FileSystemError) return error;
    if (error instanceof PathNotFound) return FileSystemError.FileNotFound(uri);
    if (error instanceof NotSignedInError) {
      this.options.onUnavailable?.('signedOut', error.message);
      return FileSystemError.Unavailable(error.message);
    }
    if (error instanceof NetworkError) this.options.onUnavailable?.('unreachable', errorMessage(error, this.vs.l10n.t));
    if (error instanceof GoogleApiError) {
      if (error.status === 404) return FileSystemError.FileNotFound(uri);
      if (error.status === 403 || error.status === 401) return FileSystemError.NoPermissions(errorMessage(error, this.vs.l10n.t));
      return FileSystemError.Unavailable(errorMessage(error, this.vs.l10n.t));
    }
    if (error instanceof CancelledError) return FileSystemError.Unavailable(errorMessage(error, this.vs.l10n.t));
    return FileSystemError.Unavailable(errorMessage(error, this.vs.l10n.t));
  }
}

/** Whether two URIs name the same folder path (a rename in place, not a move). */
function sameFolderPath(a: vscode.Uri, b: vscode.Uri): boolean {
  const folder = (uri: vscode.Uri): string => uriSegments(uri).slice(0, -1).join('/');
  return folder(a) === folder(b);
}
