/** The Drive feature: tree view, commands, the desk-drive: file system and the change feed, wired as one Disposable. */
import type * as vscode from 'vscode';
import type { DriveClient } from '../../api/drive';
import type { ServiceEndpoints } from '../../config/endpoints';
import type { DeskContext } from '../../core/deskContext';
import { Disposable } from '../../core/disposable';
import { isFolder } from '../../shared/schemas/drive';
import { DriveChangeFeed, DriveChangesState } from './changes/changeFeed';
import type { ChangeLog } from './changes/changeLog';
import { executeDropPlan, registerDriveCommands, registerInfoDocuments } from './commands/index';
import { DriveConnection } from './connection';
import { DriveComments } from './comments/controller';
import { DriveCommentsTree } from './comments/tree';
import { DriveFileSystemProvider, driveUri } from './fs/driveFileSystem';
import { DRIVE_SCHEME } from './fs/drivePath';
import { DriveAboutInfo, DriveApi, DriveItem } from './port';
import { RevisionDocuments } from './revisions/documents';
import { REVISION_SCHEME } from './revisions/history';
import { sharedDriveSource } from './sharedDrives/port';
import { AccessTooltips } from './sharing/accessTooltip';
import { DriveNode, DriveTreeModel, folderTitles, isMyDriveSnapshot } from './tree/model';
import { FirstRowsFromCache } from '../../core/viewCache';
import { addToWorkspace } from './explorer/workspaceFolders';
import { registerCommands } from '../../core/commands';
import { DRIVE_COMMAND } from '../../config/commandIds';
import { DRIVE_VIEW_ID, DriveTreeProvider } from './tree/treeProvider';

/** The push feed of Drive's changes (the Channels feature makes its channel): see changes/push.ts. */
export { DRIVE_CHANGES_FEED, type DriveChangesFeed } from './changes/push';
export type { DriveChangesState } from './changes/changeFeed';

/** The Drive slice as activate() returns it to tests. */
export interface DriveSlice {
  readonly provider: DriveTreeProvider;
  readonly treeView: vscode.TreeView<DriveNode>;
  readonly fileSystem: DriveFileSystemProvider;
  /** What changed on Drive that the user has not seen (the status bar's count). */
  readonly changeLog: ChangeLog;
  /** Comment threads in the editor and the tree's Comments rows, over one store. */
  readonly comments: DriveComments;
  api(): DriveApi;
  /** The client behind the port, for tests that check what Drive holds. */
  driveClient(): DriveClient;
  about(): Promise<DriveAboutInfo>;
  /** Asks for changes now instead of at the next scheduled poll (after Refresh; tests). */
  pollChangesNow(): void;
  changesState(): DriveChangesState;
  noteOwnWrite(item: DriveItem): void;
  revealFile(fileId: string, options?: { open?: boolean }): Promise<void>;
}

export function registerDrive(desk: DeskContext): DriveSlice {
  return desk.register(new DriveFeature(desk));
}

/**
 * Nothing touches the network during activation: the client is built on first use and the change feed starts once
 * the user is signed in and the backend is up.
 */
class DriveFeature extends Disposable implements DriveSlice {
  private readonly connection: DriveConnection;
  private modelValue: DriveTreeModel;
  /** My Drive's first rows of the last session, shown at the first start (shared by the models of one session). */
  private readonly firstRows: FirstRowsFromCache<DriveItem[]>;
  readonly provider: DriveTreeProvider;
  readonly treeView: vscode.TreeView<DriveNode>;
  readonly fileSystem: DriveFileSystemProvider;
  private readonly changes: DriveChangeFeed;
  private readonly accessTooltips: AccessTooltips;
  private readonly revisionDocuments: RevisionDocuments;
  /** Comment threads in the editor and the tree's Comments rows, over one store. */
  readonly comments: DriveComments;

  constructor(private readonly desk: DeskContext) {
    super();
    const vs = desk.vs;
    // Every change Desk asks Drive for is remembered, so the change feed does not announce it as someone else's.
    this.connection = new DriveConnection(desk, (fileId) => this.changes.noteOwnAction(fileId));
    this.firstRows = new FirstRowsFromCache(desk.viewCache.view('drive-my-drive', isMyDriveSnapshot), () => this.provider.rerender(this.modelValue.section('myDrive')));
    this.modelValue = this.newTreeModel();
    this.fileSystem = this._register(new DriveFileSystemProvider(vs, {
      api: () => this.api(),
      exportFormats: async () => (await this.about()).exportFormats,
      findDrive: (name) => this.connection.findSharedDrive(name),
      onOwnWrite: (item) => this.noteOwnWrite(item),
      log: (message) => desk.log.info(message),
    }));
    this._register(vs.workspace.registerFileSystemProvider(DRIVE_SCHEME, this.fileSystem, { isCaseSensitive: true }));

    let commands: ReturnType<typeof registerDriveCommands> | undefined;
    this.accessTooltips = new AccessTooltips(() => this.driveClient(), vs.l10n.t, (message) => desk.log.warn(message));
    this.comments = this._register(new DriveComments(vs, { api: () => this.driveClient(), isSignedIn: () => desk.session.signedIn, log: (message) => desk.log.warn(message) }));
    const commentsTree = this._register(new DriveCommentsTree(vs, {
      store: this.comments.store,
      nodesForFile: (fileId) => this.modelValue.nodesForFile(fileId),
      rerender: (node) => this.provider.rerender(node),
      log: (message) => desk.log.warn(message),
    }));
    this.provider = this._register(new DriveTreeProvider(vs, {
      model: () => this.modelValue,
      isSignedIn: () => desk.session.isSignedIn(),
      log: (message) => desk.log.warn(message),
      executeDrop: (plan) => executeDropPlan(this.commandHost(), plan),
      uploadUris: async (uris, target) => commands?.uploadUris(uris, target),
      rootId: () => this.modelValue.rootId(),
      describeAccess: (item) => this.accessTooltips.describe(item),
      comments: commentsTree,
    }));
    this.treeView = this._register(vs.window.createTreeView(DRIVE_VIEW_ID, {
      treeDataProvider: this.provider,
      dragAndDropController: this.provider,
      canSelectMany: true,
      showCollapseAll: true,
    }));

    commands = registerDriveCommands(this.commandHost());
    for (const disposable of commands.disposables) this._register(disposable);
    for (const disposable of registerCommands(desk, { [DRIVE_COMMAND.addToWorkspace]: (node?: DriveNode) => addToWorkspace(vs, node) })) this._register(disposable);

    // Old versions open read-only (commands/revisions.ts); properties and app details too (commands/info.ts).
    this.revisionDocuments = new RevisionDocuments(vs, () => this.driveClient());
    this._register(vs.workspace.registerTextDocumentContentProvider(REVISION_SCHEME, this.revisionDocuments));
    for (const disposable of registerInfoDocuments(vs, () => this.api())) this._register(disposable);

    this.changes = this._register(new DriveChangeFeed({
      desk,
      provider: this.provider,
      treeView: this.treeView,
      model: () => this.modelValue,
      about: () => this.about(),
      changeSource: () => this.connection.changeSource(),
      fileChanged: (fileId) => {
        this.fileSystem.notifyRemoteChange(fileId);
        this.comments.fileChanged(fileId);
      },
      revealFile: (fileId, options) => this.revealFile(fileId, options),
    }));
    this._register(desk.session.onDidChangeSignedIn((signedIn) => {
      this.resetData();
      if (signedIn) void this.changes.ensureStarted();
      else this.changes.stop();
    }));
    this._register(desk.backend.onDidChange(() => {
      this.connection.forgetBackend();
      this.changes.stop();
      this.resetData();
      void this.changes.ensureStarted();
    }));
    void this.changes.ensureStarted();
  }

  get changeLog(): ChangeLog {
    return this.changes.changeLog;
  }

  api(): DriveApi {
    return this.connection.api();
  }

  driveClient(): DriveClient {
    return this.connection.client();
  }

  about(): Promise<DriveAboutInfo> {
    return this.connection.about();
  }

  pollChangesNow(): void {
    this.changes.pollNow();
  }

  changesState(): DriveChangesState {
    return this.changes.state();
  }

  noteOwnWrite(item: DriveItem): void {
    this.changes.noteOwnWrite(item.id, item.etag);
  }

  async revealFile(fileId: string, options: { open?: boolean } = {}): Promise<void> {
    const node = await this.modelValue.findNode(fileId);
    if (!node) {
      void this.desk.vs.window.showInformationMessage(this.desk.vs.l10n.t('That file is not in My Drive, Shared with me or the trash any more.'));
      return;
    }
    await this.treeView.reveal(node, { select: true, focus: true, expand: isFolder(node.item) });
    if (options.open && !isFolder(node.item)) await this.desk.vs.commands.executeCommand('vscode.open', driveUri(this.desk.vs, node.item, folderTitles(node)), { preview: true });
  }

  private commandHost() {
    return {
      desk: this.desk,
      api: () => this.api(),
      model: () => this.modelValue,
      provider: this.provider,
      treeView: this.treeView,
      about: () => this.about(),
      endpoints: (): ServiceEndpoints | undefined => this.desk.backend.current,
      noteOwnWrite: (item: DriveItem) => this.noteOwnWrite(item),
      revealFile: (fileId: string, options?: { open?: boolean }) => this.revealFile(fileId, options),
      pollChangesNow: () => this.pollChangesNow(),
      resources: () => this.driveClient(),
      notifyFileChanged: (fileId: string) => this.fileSystem.notifyRemoteChange(fileId),
      comments: () => this.comments,
    };
  }

  private resetData(): void {
    this.connection.forgetAccount();
    this.modelValue = this.newTreeModel();
    this.fileSystem.reset();
    this.revisionDocuments.reset();
    this.accessTooltips.reset();
    this.comments.reset();
    this.changes.reset();
    this.provider.refresh();
  }

  /** A fresh tree model; the choice to show hidden shared drives carries over. */
  private newTreeModel(): DriveTreeModel {
    const model = new DriveTreeModel(this.api(), { sharedDrives: sharedDriveSource(() => this.driveClient()), t: this.desk.vs.l10n.t, cache: this.firstRows });
    model.showHiddenDrives = (this.modelValue as DriveTreeModel | undefined)?.showHiddenDrives ?? false;
    return model;
  }
}
