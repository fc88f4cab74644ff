/** Renders the Drive tree model for VS Code: tree items, lazy tooltips, context values and drag and drop. */
import { DRIVE_TREE_MIME, DRIVE_TREE_VIEW, URI_LIST_MIME } from '../../../config/treeViews';
import type * as vscode from 'vscode';
import { errorMessage } from '../../../api/errors';
import { Disposable } from '../../../core/disposable';
import { escapeMarkdown } from '../../../core/text/markdown';
import { NotSignedInError } from '../../../core/accounts/session';
import { isFolder, isNative } from '../../../shared/schemas/drive';
import type { DriveItem } from '../port';
import { DropPlan, planDrop } from './dragAndDrop';
import { descriptionFor, iconIdFor, tooltipMarkdown } from './presentation';
import { commentRowContextValue, type CommentNode, type CommentsNode } from '../comments/nodes';
import { driveTooltipLines, driveTrashContextValue, isSharedDriveRow, sharedDriveContextValue } from '../sharedDrives/nodes';
import { ContainerNode, DriveNode, DriveTreeModel, FileNode, listingOf, MessageNode, sectionOf } from './model';
import { DRIVE_COMMAND } from '../../../config/commandIds';

export const DRIVE_VIEW_ID = DRIVE_TREE_VIEW.id;
export { DRIVE_TREE_MIME };

/** The words menus match on (`viewItem =~ /\bfolder\b/`). */
export function contextValueFor(node: DriveNode): string {
  if (node.kind === 'section') return node.parent ? driveTrashContextValue(node.parent) : `driveSection ${node.section}`;
  if (node.kind === 'loadMore') return 'driveLoadMore';
  if (node.kind === 'message') return 'driveMessage';
  if (node.kind === 'comments' || node.kind === 'comment') return commentRowContextValue(node);
  if (isSharedDriveRow(node)) return sharedDriveContextValue(node.item);
  const item = node.item;
  const words = ['driveEntry', isFolder(item) ? 'folder' : isNative(item) ? 'native file' : 'file'];
  words.push(item.labels?.trashed || sectionOf(node) === 'trash' ? 'trashed' : 'live');
  words.push(item.labels?.starred ? 'starred' : 'unstarred');
  // What the user may do, as Drive says (a shared drive's contributor trashes nothing; a viewer deletes nothing).
  // An unknown capability offers the action: the service then answers, and its refusal is shown.
  const can: Partial<Record<string, boolean>> = item.capabilities ?? {};
  if (can.canTrash !== false) words.push('mayTrash');
  if (can.canUntrash !== false) words.push('mayUntrash');
  if (can.canDelete !== false) words.push('mayDelete');
  if (node.parent.kind === 'file' || node.parent.section === 'myDrive') words.push('inFolder');
  return words.join(' ');
}

export interface DriveTreeOptions {
  readonly model: () => DriveTreeModel;
  /**
   * Looked up, not a flag: after a window reload the view asks for its rows before the session's first check has
   * ended, and an answer of "signed out" then left My Drive empty until the next sign-in.
   */
  readonly isSignedIn: () => Promise<boolean>;
  readonly log: (message: string) => void;
  /** Runs a drop plan (the commands module owns the API calls and notifications). */
  readonly executeDrop: (plan: DropPlan) => Promise<void>;
  /** Uploads dropped files from the OS or the Explorer into a folder. */
  readonly uploadUris: (uris: vscode.Uri[], target: ContainerNode) => Promise<void>;
  readonly rootId: () => Promise<string>;
  /** Extra tooltip lines fetched on hover (who has access); plain text. */
  readonly describeAccess?: (item: DriveItem) => Promise<readonly string[]>;
  /** How moments read in hovers (core/text/clock.ts: the Calendar zone, 24-hour). */
  readonly clock: { dateTime(ms: number): string };
  /** The comment rows under files (comments/tree.ts). */
  readonly comments?: DriveTreeComments;
}

/** What the tree asks of the comments feature: whether a file expands to its comments, the rows, how they look. */
export interface DriveTreeComments {
  /** Whether the file is known to have comments (then it expands to them). */
  expandable(node: FileNode): boolean;
  /** "2 comments", or nothing while none are known. */
  describe(node: FileNode): string | undefined;
  /** Learns the file's comments lazily (on hover), without a request per row. */
  prime(node: FileNode): void;
  children(node: FileNode | CommentsNode): Promise<DriveNode[]>;
  treeItem(node: CommentsNode | CommentNode): vscode.TreeItem;
  /** Reloads a file's comments (Refresh on a comment row). */
  refresh(node: CommentsNode | CommentNode): void;
}

/**
 * Renders the Drive tree model: sections, folders (expand lazily), files (click opens), "Load more…" rows.
 * Tooltips are built in resolveTreeItem, only when hovered. Also the drag-and-drop controller: moves inside
 * the tree, uploads for files dropped from outside.
 */
export class DriveTreeProvider extends Disposable implements vscode.TreeDataProvider<DriveNode>, vscode.TreeDragAndDropController<DriveNode> {
  private readonly changeEmitter: vscode.EventEmitter<DriveNode | undefined>;
  readonly onDidChangeTreeData: vscode.Event<DriveNode | undefined>;
  readonly dragMimeTypes = DRIVE_TREE_VIEW.dragAndDrop.dragMimeTypes;
  readonly dropMimeTypes = DRIVE_TREE_VIEW.dragAndDrop.dropMimeTypes;

  constructor(private readonly vs: typeof vscode, private readonly options: DriveTreeOptions) {
    super();
    this.changeEmitter = this._register(new vs.EventEmitter<DriveNode | undefined>());
    this.onDidChangeTreeData = this.changeEmitter.event;
  }

  private get model(): DriveTreeModel {
    return this.options.model();
  }

  /** Re-renders one container (its listing reloads) or, without one, the whole tree. */
  refresh(container?: ContainerNode | CommentsNode | CommentNode): void {
    if (container?.kind === 'comments' || container?.kind === 'comment') {
      this.options.comments?.refresh(container);
    } else if (container) {
      this.model.invalidate(container);
      this.changeEmitter.fire(container);
    } else {
      this.model.reset();
      this.changeEmitter.fire(undefined);
    }
  }

  /** Re-renders a node whose metadata changed (rename, star) without reloading its folder. */
  rerender(node: DriveNode): void {
    this.changeEmitter.fire(node);
  }

  getTreeItem(node: DriveNode): vscode.TreeItem {
    const vs = this.vs;
    const { TreeItemCollapsibleState: State, ThemeIcon } = vs;
    switch (node.kind) {
      case 'section': {
        const item = new vs.TreeItem(node.label, node.section === 'myDrive' ? State.Expanded : State.Collapsed);
        item.id = node.id;
        item.iconPath = new ThemeIcon(node.section === 'myDrive' ? 'root-folder' : node.section === 'trash' ? 'trash' : node.section === 'sharedDrives' ? 'folder-library' : 'organization');
        item.contextValue = contextValueFor(node);
        if (node.section === 'myDrive' && node.driveId === undefined && this.model.refreshing) item.description = vs.l10n.t('refreshing…');
        return item;
      }
      case 'loadMore': {
        const item = new vs.TreeItem(vs.l10n.t('Load more…'), State.None);
        item.id = node.id;
        item.iconPath = new ThemeIcon('ellipsis');
        item.contextValue = contextValueFor(node);
        item.command = { command: DRIVE_COMMAND.loadMore, title: vs.l10n.t('Load more'), arguments: [node] };
        return item;
      }
      case 'message': {
        const item = new vs.TreeItem(node.text, State.None);
        item.id = node.id;
        item.contextValue = contextValueFor(node);
        if (node.id.endsWith('…error')) item.iconPath = new ThemeIcon('warning');
        return item;
      }
      case 'comments':
      case 'comment':
        return this.options.comments?.treeItem(node) ?? new vs.TreeItem(node.label, State.None);
      case 'file': {
        const file = node.item;
        const container = this.model.isContainer(node);
        const expandable = container || this.options.comments?.expandable(node) === true;
        const item = new vs.TreeItem(file.title ?? file.id, expandable ? State.Collapsed : State.None);
        item.id = node.id;
        item.iconPath = new ThemeIcon(isSharedDriveRow(node) ? 'library' : iconIdFor(file));
        // In Shared with me, whose file it is matters most.
        const owner = sectionOf(node) === 'shared' && file.ownedByMe === false ? file.owners?.[0]?.displayName ?? file.ownerNames?.[0] : undefined;
        const comments = container ? undefined : this.options.comments?.describe(node);
        const description = [owner, descriptionFor(file, vs.l10n.t), comments].filter(Boolean).join(' · ') || undefined;
        item.description = file.labels?.starred ? `★${description ? ` ${description}` : ''}` : description;
        if (isSharedDriveRow(node) && file.labels?.hidden) item.description = vs.l10n.t('hidden');
        item.contextValue = contextValueFor(node);
        if (!isFolder(file)) item.command = { command: DRIVE_COMMAND.open, title: vs.l10n.t('Open'), arguments: [node] };
        return item;
      }
    }
  }

  async resolveTreeItem(item: vscode.TreeItem, node: DriveNode): Promise<vscode.TreeItem> {
    if (node.kind !== 'file') return item;
    if (isSharedDriveRow(node)) {
      item.tooltip = new this.vs.MarkdownString([`**${escapeMarkdown(node.item.title ?? node.item.id)}**`, '', ...driveTooltipLines(node.item, this.vs.l10n.t, (ms) => this.options.clock.dateTime(ms)).map(escapeMarkdown)].join('  \n'));
      return item;
    }
    if (!this.model.isContainer(node)) this.options.comments?.prime(node);
    const access = (await this.options.describeAccess?.(node.item).catch(() => undefined)) ?? [];
    item.tooltip = new this.vs.MarkdownString([tooltipMarkdown(node.item, (ms) => this.options.clock.dateTime(ms), this.vs.l10n.t), ...access.map(escapeMarkdown)].join('  \n'));
    return item;
  }

  async getChildren(node?: DriveNode): Promise<DriveNode[]> {
    // My Drive's cached rows show without waiting for the signed-in check (the welcome view when signed out).
    if (!node) return (await this.model.startsFromCache()) || (await this.options.isSignedIn()) ? [...this.model.sections] : [];
    if (node.kind === 'comments' || (node.kind === 'file' && !this.model.isContainer(node) && this.options.comments?.expandable(node))) {
      return this.options.comments?.children(node) ?? [];
    }
    if (node.kind !== 'section' && node.kind !== 'file') return [];
    if (!this.model.isContainer(node)) return [];
    try {
      const refreshingBefore = this.model.refreshing;
      const children = await this.model.children(node);
      // The cache was read for these rows, after My Drive's own row was drawn: redraw it to say "refreshing…".
      // After this answer is in: a change of the row while VS Code waits for its children loses them.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the refresh may have started during the await
      if (!refreshingBefore && this.model.refreshing) setTimeout(() => { this.changeEmitter.fire(node); }, 0);
      return children;
    } catch (error) {
      if (error instanceof NotSignedInError) return [];
      this.options.log(`Drive: could not list ${node.kind === 'file' ? String(node.item.title) : node.label}: ${errorMessage(error)}`);
      const message: MessageNode = { kind: 'message', id: `${node.id}/…error`, parent: node, text: this.vs.l10n.t('Could not load: {0}', errorMessage(error, this.vs.l10n.t)) };
      return [message];
    }
  }

  getParent(node: DriveNode): DriveNode | undefined {
    return this.model.parentOf(node);
  }

  // ---- drag and drop

  handleDrag(sources: readonly DriveNode[], dataTransfer: vscode.DataTransfer): void {
    const files = sources.filter((node): node is FileNode => node.kind === 'file');
    if (files.length > 0) dataTransfer.set(DRIVE_TREE_MIME, new this.vs.DataTransferItem(files));
  }

  async handleDrop(target: DriveNode | undefined, dataTransfer: vscode.DataTransfer, token: vscode.CancellationToken): Promise<void> {
    const internal = dataTransfer.get(DRIVE_TREE_MIME);
    if (internal) {
      const sources = (internal.value as readonly DriveNode[]).filter((node): node is FileNode => node.kind === 'file');
      const plan = planDrop(sources, target, await this.options.rootId(), this.vs.l10n.t);
      if (!token.isCancellationRequested) await this.options.executeDrop(plan);
      return;
    }
    const uriList = dataTransfer.get(URI_LIST_MIME);
    if (!uriList || !target) return;
    const container = target.kind === 'section' || (target.kind === 'file' && this.model.isContainer(target)) ? target : listingOf(target);
    if (sectionOf(container) !== 'myDrive' && container.kind === 'section') return;
    const text = await uriList.asString();
    const uris = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line && !line.startsWith('#')).map((line) => this.vs.Uri.parse(line));
    if (uris.length > 0 && !token.isCancellationRequested) await this.options.uploadUris(uris, container);
  }
}
