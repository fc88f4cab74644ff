/** What every Drive command part shares: the host the feature hands in, the selection helpers and the one per-file mutation loop. */
import type * as vscode from 'vscode';
import type { DriveOfflineChanges } from '../offlineChanges';
import type { BatchResult } from '../../../api/batch';
import { errorMessage, isUnreachable } from '../../../api/errors';
import { settleAll } from '../../../core/bulk';
import type { ServiceEndpoints } from '../../../config/endpoints';
import type { DeskContext } from '../../../core/deskContext';
import { Draft, Drafts } from '../../../core/ui/drafts';
import { emailsProblem, parseEmails } from '../sharing/emails';
import type { DriveComments } from '../comments/controller';
import type { LabelsApi } from '../labels/port';
import type { PropertiesApi } from '../properties/port';
import type { RevisionsApi } from '../revisions/port';
import type { SharedDrivesApi } from '../sharedDrives/port';
import type { SharingApi } from '../sharing/port';
import { FOLDER_MIME_TYPE } from '../../../shared/schemas/drive';
import type { DriveAboutInfo, DriveApi, DriveItem } from '../port';
import { fileIdOf } from '../fs/driveFileSystem';
import { folderIdOf } from '../tree/dragAndDrop';
import { ContainerNode, DriveNode, DriveTreeModel, FileNode, listingOf, sectionOf } from '../tree/model';
import type { DriveTreeProvider } from '../tree/treeProvider';
import { nameInMessage } from '../../../core/text/names';

/** What the commands need from the Drive feature (index.ts builds it). */
export interface DriveCommandHost {
  readonly desk: DeskContext;
  api(): DriveApi;
  model(): DriveTreeModel;
  readonly provider: DriveTreeProvider;
  readonly treeView: vscode.TreeView<DriveNode>;
  about(): Promise<DriveAboutInfo>;
  endpoints(): ServiceEndpoints | undefined;
  /** Records versions Desk wrote, so the change poller does not announce them as news. */
  noteOwnWrite(item: DriveItem): void;
  /** Asks the change poller to look now (Refresh). */
  pollChangesNow(): void;
  /** Reveals (and for files, opens) a file by id. */
  revealFile(fileId: string, options?: { open?: boolean }): Promise<void>;
  /** The resources the narrow port leaves out (permissions, properties, revisions, shared drives, labels), each its own Pick of the client. */
  resources(): DriveResourcesApi;
  /** The row of a file being opened: its metadata spares the editor's first stat a request. */
  knowFile(item: DriveItem): void;
  /** Desk replaced a file's content (a restored version): open editors without edits reload it. */
  notifyFileChanged(fileId: string): void;
  /** The comment threads and their store (comments/controller.ts). */
  readonly comments: DriveComments;
  /** Renames, moves, trashes and new folders Drive cannot be reached for, kept and sent later (../offlineChanges.ts). */
  readonly offlineChanges?: DriveOfflineChanges;
}

/** What the command files reach beyond DriveApi: the union of the resource ports, not the whole client. */
export type DriveResourcesApi = SharingApi & PropertiesApi & RevisionsApi & SharedDrivesApi & LabelsApi;

type ListingHost = Pick<DriveCommandHost, 'model' | 'provider'>;

/** How the result of a mutation is shown: reload listings, or re-render the changed rows (or their parents) in place. */
export type ShowChanges =
  | { readonly refresh: readonly ContainerNode[]; readonly refreshOnFailure?: boolean }
  | { readonly rerender: 'row' | 'parent' };

/** Reloads the listings a set of files now appears in or just left, plus `extra`. */
export async function refreshFor(host: ListingHost, items: readonly DriveItem[], extra: readonly ContainerNode[] = []): Promise<void> {
  const model = host.model();
  const containers = new Map<string, ContainerNode>();
  for (const container of extra) containers.set(container.id, container);
  for (const container of await model.containersAffectedBy(items.map((item) => ({ fileId: item.id, item, removed: false })))) containers.set(container.id, container);
  // The rows hold Drive's answer at once: a command run before the listings come back (add to a folder right after
  // removing it from one) must not decide from the version before the write.
  for (const item of items) model.updateItem(item);
  for (const container of containers.values()) host.provider.refresh(container);
}

/**
 * The per-file mutation loop: for each target in turn, one call to Drive (undefined skips the target), the answer
 * recorded as Desk's own write and collected; then the change is shown. Sequential on purpose: a failure stops at
 * the file that failed, and the ones before it are done.
 */
export async function changeEach<T>(
  host: ListingHost & Pick<DriveCommandHost, 'noteOwnWrite'>,
  targets: readonly T[],
  call: (target: T) => Promise<DriveItem | undefined>,
  show: ShowChanges,
): Promise<DriveItem[]> {
  const changed: DriveItem[] = [];
  try {
    for (const target of targets) {
      const item = await call(target);
      if (!item) continue;
      host.noteOwnWrite(item);
      changed.push(item);
      if ('rerender' in show) for (const updated of host.model().updateItem(item)) host.provider.rerender(show.rerender === 'row' ? updated : updated.parent);
    }
  } catch (error) {
    if ('refresh' in show && show.refreshOnFailure) await refreshFor(host, changed, show.refresh);
    throw error;
  }
  if ('refresh' in show) await refreshFor(host, changed, show.refresh);
  return changed;
}

/**
 * The batched mutation: one call to Drive for all the targets (a batch request), each success recorded as Desk's own
 * write, the listings refreshed for what changed; the targets that failed are named in one BulkFailure, whose Retry
 * sends only those again.
 */
export async function changeAll<T, R>(
  host: ListingHost & Pick<DriveCommandHost, 'noteOwnWrite' | 'desk'>,
  targets: readonly T[],
  run: (targets: readonly T[]) => Promise<readonly BatchResult<R>[]>,
  refresh: readonly ContainerNode[] | ((done: readonly T[]) => readonly ContainerNode[]),
  nameOf: (target: T) => string,
): Promise<{ item: T; value: R }[]> {
  const t = host.desk.vs.l10n.t;
  return settleAll({
    items: targets,
    run,
    nameOf,
    describe: (error) => errorMessage(error, t),
    t,
    onDone: async (done) => {
      const items = done.flatMap(({ value }) => (isItem(value) ? [value] : []));
      items.forEach((item) => { host.noteOwnWrite(item); });
      await refreshFor(host, items, typeof refresh === 'function' ? refresh(done.map(({ item }) => item)) : refresh);
    },
  });
}

/** A batch result's value: the changed item, or nothing (a delete). */
function isItem(value: unknown): value is DriveItem {
  return typeof value === 'object' && value !== null;
}

/**
 * What every Drive command part shares (each part is a class over it, like the other features' parts): the host,
 * and the helpers that find what a command acts on and show what it changed.
 */
export class DriveCommandContext {
  readonly vs: typeof vscode;
  readonly t: typeof vscode.l10n.t;
  /** What the user typed in Drive's dialogs and did not send (Escape on a later step, a failed request): offered again next time. */
  readonly drafts = new Drafts();

  constructor(readonly host: DriveCommandHost) {
    this.vs = host.desk.vs;
    this.t = this.vs.l10n.t;
  }

  /** The files a command acts on: the clicked rows of a multi-selection, the clicked row, or the view's selection. */
  fileNodes(node?: DriveNode, nodes?: readonly DriveNode[]): FileNode[] {
    const chosen = nodes && nodes.length > 0 ? nodes : node ? [node] : this.host.treeView.selection;
    return chosen.filter((candidate): candidate is FileNode => candidate.kind === 'file');
  }

  /** Like fileNodes, but says so and gives undefined when no file is selected. */
  requireFiles(node?: DriveNode, nodes?: readonly DriveNode[]): FileNode[] | undefined {
    const files = this.fileNodes(node, nodes);
    if (files.length === 0) void this.vs.window.showInformationMessage(this.t('Select a file in the Drive view first.'));
    return files.length > 0 ? files : undefined;
  }

  /**
   * The one file a sharing, properties or labels command acts on: the row clicked, the view's selection, or (from
   * the palette, with no row) the active editor's `desk-drive:` file. Undefined (after saying so) when there is neither.
   */
  async targetFile(node?: DriveNode): Promise<DriveItem | undefined> {
    const row = this.fileNodes(node).at(0);
    if (row) return row.item;
    const uri = this.vs.window.activeTextEditor?.document.uri;
    const fileId = uri ? fileIdOf(uri) : undefined;
    if (fileId) return this.host.api().getFile(fileId);
    void this.vs.window.showInformationMessage(this.t('Select a file in the Drive view, or open one from Drive, first.'));
    return undefined;
  }

  /**
   * The addresses step of Add People and Add Members: starts with the draft's `emails` (the text left unsaved last
   * time, the prompt saying so) and keeps what is typed. Undefined when cancelled; throws when the addresses are wrong.
   */
  async askEmails(title: string, draft: Draft): Promise<string[] | undefined> {
    const text = await draft.ask('emails', this.t('E-mail addresses, separated by commas'), this.t, (box) => this.vs.window.showInputBox({ title, placeHolder: 'bob@example.com, carol@example.com', ignoreFocusOut: true, ...box }), (value) => emailsProblem(value, this.t));
    if (text === undefined) return undefined;
    const problem = emailsProblem(text, this.t);
    if (problem) throw new Error(problem);
    return parseEmails(text).emails;
  }

  /** The folder a "new folder"/"upload" goes into: the folder clicked, the folder of the file clicked, or My Drive. */
  targetContainer(node?: DriveNode): ContainerNode {
    const candidate = node ?? this.host.treeView.selection.at(0);
    const model = this.host.model();
    if (!candidate) return model.section('myDrive');
    if (candidate.kind === 'section') return candidate.section === 'myDrive' ? candidate : model.section('myDrive');
    if (candidate.kind === 'file' && model.isContainer(candidate) && sectionOf(candidate) !== 'trash') return candidate;
    const parent = listingOf(candidate);
    return parent.kind === 'section' && parent.section !== 'myDrive' ? model.section('myDrive') : parent;
  }

  async folderIdFor(container: ContainerNode): Promise<string> {
    // Offline before My Drive's id was ever read: Drive's own alias for it, so New Folder / New File can still be kept.
    const rootId = await this.host.model().rootId().catch((error: unknown) => {
      if (isUnreachable(error)) return 'root';
      throw error;
    });
    return folderIdOf(container, rootId) ?? rootId;
  }

  refreshFor(items: readonly DriveItem[], extra?: readonly ContainerNode[]): Promise<void> {
    return refreshFor(this.host, items, extra);
  }

  changeEach<T>(targets: readonly T[], call: (target: T) => Promise<DriveItem | undefined>, show: ShowChanges): Promise<DriveItem[]> {
    return changeEach(this.host, targets, call, show);
  }

  /** The batched mutation (changeAll above) over file rows. */
  changeAll<R>(targets: readonly FileNode[], run: (targets: readonly FileNode[]) => Promise<readonly BatchResult<R>[]>, refresh: readonly ContainerNode[] | ((done: readonly FileNode[]) => readonly ContainerNode[])): Promise<{ item: FileNode; value: R }[]> {
    return changeAll(this.host, targets, run, refresh, (target) => target.item.title ?? target.item.id);
  }

  /** A quick pick over My Drive and every folder (up to 5000), minus `exclude`. */
  async pickFolder(placeHolder: string, exclude: ReadonlySet<string> = new Set()): Promise<{ id: string; title: string } | undefined> {
    const rootId = await this.host.model().rootId();
    const folders: { id: string; title: string }[] = [{ id: rootId, title: this.t('My Drive') }];
    let pageToken: string | undefined;
    try {
      do {
        const page = await this.host.api().listFiles({ q: `mimeType = '${FOLDER_MIME_TYPE}' and trashed = false`, orderBy: 'title', maxResults: 1000, pageToken });
        for (const item of page.items) folders.push({ id: item.id, title: item.title ?? item.id });
        pageToken = page.nextPageToken;
      } while (pageToken && folders.length < 5000);
    } catch (error) {
      // Offline: the folders the view has loaded (a move made then is kept and sent later).
      if (!isUnreachable(error)) throw error;
      for (const item of this.host.model().loadedFolders()) folders.push({ id: item.id, title: item.title ?? item.id });
    }
    const picked = await this.vs.window.showQuickPick(
      folders.filter((folder) => !exclude.has(folder.id)).map((folder) => ({ label: `$(folder) ${folder.title}`, folder })),
      { placeHolder, matchOnDescription: true },
    );
    return picked?.folder;
  }
}

/** What every Drive command part is: a class over the context, with short names for what each part uses. */
export abstract class DriveCommandPart {
  constructor(protected readonly context: DriveCommandContext) {}

  protected get host(): DriveCommandHost {
    return this.context.host;
  }

  protected get vs(): typeof vscode {
    return this.context.vs;
  }

  protected get t(): typeof vscode.l10n.t {
    return this.context.t;
  }

  protected get desk(): DeskContext {
    return this.context.host.desk;
  }

  /** A file's name as the messages say it (a very long one cut). */
  protected titleOf(file: DriveItem): string {
    return nameInMessage(file.title || file.id);
  }
}
