/** The Drive feature: tree view, commands, the desk-drive: file system and the change feed, wired as one Disposable. */
import { markViewOffline } from '../../core/offline/offlineStatus';
import { DriveOfflineSaves } from './fs/offlineSaves';
import { DriveOfflineChanges } from './offlineChanges';
import { DRIVE_TREE_VIEW } from '../../config/treeViews';
import type * as vscode from 'vscode';
import type { DriveClient } from '../../api/drive';
import type { ServiceEndpoints } from '../../config/endpoints';
import type { DeskContext } from '../../core/deskContext';
import { Disposable } from '../../core/disposable';
import { DriveChangeFeed, DriveChangesState } from './changes/changeFeed';
import { sourceAs } from '../../core/sync/poller';
import type { ChangeLog } from './changes/changeLog';
import { DriveCommandHost, DriveCommands, DriveResourcesApi } from './commands/index';
import { DriveConnection } from './connection';
import { DriveComments } from './comments/controller';
import { DriveCommentsTree } from './comments/tree';
import type { DriveFileSystemProvider } from './fs/driveFileSystem';
import { DriveAboutInfo, DriveApi, DriveItem } from './port';
import { sharedDriveSource } from './sharedDrives/port';
import { AccessTooltips } from './sharing/accessTooltip';
import { registerDriveFileSystem } from './explorer/fileSystem';
import { CurrentDriveModel } from './tree/currentModel';
import { DriveNode, DriveTreeModel } from './tree/model';
import { MY_DRIVE_SNAPSHOT } from './tree/snapshot';
import { revealDriveFile } from './tree/reveal';
import { DRIVE_VIEW_ID, DriveTreeOptions, DriveTreeProvider } from './tree/treeProvider';
import { accountOfRow, accountScoped, AccountRootNode, AccountRootsProvider } from '../../core/accounts/accountRoots';

/** The push feed of Drive's changes (the Channels feature makes its channel): see changes/push.ts. */
export { DRIVE_CHANGES_FEED, type DriveChangesFeed } from './changes/push';
export type { DriveChangesState } from './changes/changeFeed';

/** The Drive slice as activate() returns it to tests. */
export interface DriveSlice {
  /** The tree of the account the operation runs as (the first account's outside one). */
  readonly provider: DriveTreeProvider;
  /** What the view shows: the first account's tree, or one root per account when several are signed in. */
  readonly roots: AccountRootsProvider<DriveNode>;
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

/** For the search (its bundle imports this index): the reader lives with the view's slot. */
export { cachedMyDriveRows } from './tree/snapshot';

export function registerDrive(desk: DeskContext): DriveSlice {
  return desk.register(new DriveFeature(desk));
}

/**
 * Nothing touches the network during activation: the client is built on first use and the change feed starts once
 * the user is signed in and the backend is up.
 */
class DriveFeature extends Disposable implements DriveSlice, DriveCommandHost {
  private readonly connection: DriveConnection;
  private readonly models: CurrentDriveModel;
  /** The tree models of the accounts after the first (several signed in), made when their root is shown. */
  private readonly otherModels = new Map<string, DriveTreeModel>();
  /** The tree of the account the operation runs as (the first account's outside one). */
  readonly provider: DriveTreeProvider;
  /** What the view shows: the first account's tree, or one root per account when several are signed in. */
  readonly roots: AccountRootsProvider<DriveNode>;
  readonly treeView: vscode.TreeView<DriveNode>;
  readonly fileSystem: DriveFileSystemProvider;
  readonly offlineChanges: DriveOfflineChanges;
  private readonly changes: DriveChangeFeed;
  /** The change feeds of the accounts after the first (several signed in), each polling as its account. */
  private readonly otherFeeds = new Map<string, DriveChangeFeed>();
  private readonly accessTooltips: AccessTooltips;
  private readonly commands: DriveCommands;
  /** Comment threads in the editor and the tree's Comments rows, over one store. */
  readonly comments: DriveComments;

  constructor(readonly desk: DeskContext) {
    super();
    const vs = desk.vs;
    // Every change Desk asks Drive for is remembered, so the change feed does not announce it as someone else's.
    this.connection = new DriveConnection(desk, (fileId) => { this.operationFeed().noteOwnAction(fileId); });
    this.models = new CurrentDriveModel({
      api: () => this.api(),
      sharedDrives: sharedDriveSource(() => this.driveClient()),
      t: vs.l10n.t,
      firstRows: desk.viewCache.slot(MY_DRIVE_SNAPSHOT),
      onFirstRowsReplaced: (myDrive) => { primary.rerender(myDrive); },
      onFirstRowsDropped: () => { primary.refresh(); },
    });
    // Saves Drive cannot be reached for wait in Desk's queue and are uploaded once when it is back.
    const offlineSaves = new DriveOfflineSaves({ desk, api: () => this.api(), onUploaded: (item, size) => { this.fileSystem.uploaded(item, size); } });
    const fileSystem = registerDriveFileSystem(desk, {
      api: () => this.api(),
      exportFormats: async () => (await this.about()).exportFormats,
      findDrive: (name) => this.connection.findSharedDrive(name),
      onOwnWrite: (item) => { this.noteOwnWrite(item); },
      // Welcome buttons (Sign In, Sign in with Google) live in the Drive and Tasks views: the Drive view stands for both.
      deskShown: () => this.treeView.visible,
      keepOffline: (item, bytes, ifMatch, openedMd5) => offlineSaves.keep(item, bytes, ifMatch, openedMd5),
    });
    for (const disposable of fileSystem.disposables) this._register(disposable);
    this.fileSystem = fileSystem.provider;
    this._register(offlineSaves.register());
    // Renames, moves, trashes and new folders Drive cannot be reached for wait in the same queue (offlineChanges.ts).
    this.offlineChanges = new DriveOfflineChanges({
      desk,
      api: () => this.api(),
      show: async (changes) => {
        const { redraw } = await this.model().applyChanges(changes);
        for (const container of redraw) this.provider.rerender(container);
      },
    });
    for (const replayer of this.offlineChanges.register()) this._register(replayer);

    this.accessTooltips = new AccessTooltips(() => this.driveClient(), vs.l10n.t, (message) => { desk.log.warn(message); }, (ms) => desk.clock.day(ms));
    this.comments = this._register(new DriveComments(vs, { api: () => this.driveClient(), isSignedIn: () => desk.session.signedIn, account: () => desk.session.viewAccount(), currentAccount: () => desk.session.currentAccount, log: (message) => { desk.log.warn(message); } }));
    const commentsTree = this._register(new DriveCommentsTree(vs, { store: this.comments.store, nodesForFile: (fileId) => this.model().nodesForFile(fileId), rerender: (node) => { this.provider.rerender(node); }, log: (message) => { desk.log.warn(message); } }));
    const treeOptions = (model: () => DriveTreeModel): DriveTreeOptions => ({
      model,
      isSignedIn: () => desk.session.isSignedIn(),
      log: (message) => { desk.log.warn(message); },
      // The commands come next: the tree calls these only once the user drops something.
      executeDrop: (plan) => this.commands.drop(plan),
      uploadUris: (uris, target) => this.commands.uploadUris(uris, target),
      rootId: () => this.model().rootId(),
      describeAccess: (item) => this.accessTooltips.describe(item),
      clock: desk.clock,
      comments: commentsTree,
    });
    const primary = this._register(new DriveTreeProvider(vs, treeOptions(() => this.models.get())));
    // Several accounts: one root per account, each account's model with its own slot (tree/snapshot.ts).
    this.roots = this._register(new AccountRootsProvider<DriveNode>(vs, {
      session: desk.session,
      primary,
      create: (account) => {
        let tree: DriveTreeProvider | undefined;
        const model = new DriveTreeModel(this.api(), {
          sharedDrives: sharedDriveSource(() => this.driveClient()),
          t: vs.l10n.t,
          cache: desk.viewCache.slot(MY_DRIVE_SNAPSHOT, account),
          onFirstRowsReplaced: (myDrive) => tree?.rerender(myDrive),
          onFirstRowsDropped: () => tree?.refresh(),
        });
        model.prefetchFirstRows();
        this.otherModels.set(account, model);
        tree = new DriveTreeProvider(vs, treeOptions(() => model));
        return tree;
      },
      onRemoved: (account) => this.otherModels.delete(account),
      icon: 'account',
    }));
    this.provider = accountScoped(primary, this.roots, desk.session, ['refresh']);
    // A drop runs as the account of the row it lands on (its folder is that account's).
    const dragAndDrop: vscode.TreeDragAndDropController<DriveNode> = {
      dragMimeTypes: primary.dragMimeTypes,
      dropMimeTypes: primary.dropMimeTypes,
      handleDrag: (sources, dataTransfer) => { primary.handleDrag(sources, dataTransfer); },
      handleDrop: (target, dataTransfer, token) => {
        const account = accountOfRow(target);
        return account ? desk.session.runAs(account, () => primary.handleDrop(target, dataTransfer, token)) : primary.handleDrop(target, dataTransfer, token);
      },
    };
    // The view's rows are DriveNode but for the account roots (several accounts), which no command acts on.
    this.treeView = this._register(vs.window.createTreeView<DriveNode | AccountRootNode>(DRIVE_VIEW_ID, { treeDataProvider: this.roots, dragAndDropController: dragAndDrop, ...DRIVE_TREE_VIEW.options })) as unknown as vscode.TreeView<DriveNode>;
    this._register(markViewOffline(desk, this.treeView));
    this.commands = new DriveCommands(this);
    for (const disposable of this.commands.register()) this._register(disposable);

    this.changes = this._register(new DriveChangeFeed({
      desk,
      provider: this.provider,
      treeView: this.treeView,
      model: () => this.model(),
      about: () => this.about(),
      changeSource: () => this.connection.changeSource(),
      fileChanged: (fileId) => {
        this.fileSystem.notifyRemoteChange(fileId);
        this.comments.fileChanged(fileId);
      },
      revealFile: (fileId, options) => this.revealFile(fileId, options),
      knownModifiedDate: (fileId) => (this.fileSystem.knownVersion(fileId) ?? this.model().nodesForFile(fileId).at(0)?.item)?.modifiedDate,
      feedOf: (account) => this.otherFeeds.get(account),
    }));
    this._register({ dispose: () => { this.stopOtherFeeds(); } });
    this._register(desk.session.onDidChangeSignedIn((signedIn) => {
      this.resetData();
      this.stopOtherFeeds();
      if (signedIn) {
        void this.changes.ensureStarted();
        this.followOtherAccounts();
      } else this.changes.stop();
    }));
    // An account added beside the first or signed out of: the changes item says whose it is (or no longer needs to),
    // the new account's feed starts, the one signed out of stops, and the others' go on.
    this._register(desk.session.onDidChangeAccounts(() => {
      this.changes.statusBar.update();
      this.followOtherAccounts();
    }));
    // Back online: the tree reloads what it shows, and the change feed polls now (or starts, if it could not).
    this._register(desk.onDidComeOnline(() => {
      this.provider.refresh();
      for (const feed of [this.changes, ...this.otherFeeds.values()]) {
        void feed.ensureStarted();
        feed.pollNow();
      }
    }));
    this._register(desk.backend.onDidChange(() => {
      this.connection.forgetBackend();
      this.changes.stop();
      this.stopOtherFeeds();
      this.resetData();
      void this.changes.ensureStarted();
      this.followOtherAccounts();
    }));
    void this.changes.ensureStarted();
    void desk.session.isSignedIn().then(() => { this.followOtherAccounts(); });
  }

  /**
   * Several accounts signed in: a change feed per account after the first, polling as that account with its own
   * status item (saying whose) and last-seen token (keyed by backend and account); one per account signed out of stops.
   */
  private followOtherAccounts(): void {
    const { desk } = this;
    const others = desk.session.signedIn ? desk.session.accounts.slice(1).map((profile) => profile.email) : [];
    for (const [account, feed] of this.otherFeeds) {
      if (others.includes(account)) continue;
      feed.dispose();
      this.otherFeeds.delete(account);
    }
    for (const account of others) {
      if (this.otherFeeds.has(account)) continue;
      // The account's tree (made on first use) takes what changed in place, as the first account's does.
      const tree = (): DriveTreeProvider => (this.roots.treeOf(account) as DriveTreeProvider | undefined) ?? this.provider;
      const model = (): DriveTreeModel => {
        tree();
        return this.otherModels.get(account) ?? this.models.get();
      };
      const feed = new DriveChangeFeed({
        desk,
        account,
        provider: { refresh: (node) => { tree().refresh(node); }, rerender: (node) => { tree().rerender(node); } },
        treeView: this.treeView,
        model,
        about: () => this.api().about(),
        // Every poll asks as bob, whoever starts it (a timer, focus, Refresh).
        changeSource: () => sourceAs(this.connection.changeSource(), account, (who, work) => desk.session.runAs(who, work)),
        fileChanged: (fileId) => {
          this.fileSystem.notifyRemoteChange(fileId);
          this.comments.fileChanged(fileId);
        },
        revealFile: (fileId, options) => this.revealFile(fileId, options),
        knownModifiedDate: (fileId) => (this.fileSystem.knownVersion(fileId) ?? model().nodesForFile(fileId).at(0)?.item)?.modifiedDate,
      });
      this.otherFeeds.set(account, feed);
      void feed.ensureStarted();
    }
  }

  private stopOtherFeeds(): void {
    for (const feed of this.otherFeeds.values()) feed.dispose();
    this.otherFeeds.clear();
  }

  get changeLog(): ChangeLog { return this.changes.changeLog; }
  api(): DriveApi { return this.connection.api(); }
  driveClient(): DriveClient { return this.connection.client(); }
  about(): Promise<DriveAboutInfo> { return this.connection.about(); }
  pollChangesNow(): void {
    for (const feed of [this.changes, ...this.otherFeeds.values()]) feed.pollNow();
  }
  changesState(): DriveChangesState { return this.changes.state(); }
  noteOwnWrite(item: DriveItem): void { this.operationFeed().noteOwnWrite(item.id, item.etag, item.version); }
  /** The change feed of the account the operation runs as (its own writes are not news there), else the first's. */
  private operationFeed(): DriveChangeFeed {
    const account = this.desk.session.operationAccount;
    return (account ? this.otherFeeds.get(account) : undefined) ?? this.changes;
  }
  // What the commands need besides the slice (commands/context.ts's DriveCommandHost).
  /** The model of the account the operation runs as (a command on another account's row), else the first account's. */
  model(): DriveTreeModel {
    const account = this.desk.session.operationAccount;
    return (account ? this.otherModels.get(account) : undefined) ?? this.models.get();
  }
  endpoints(): ServiceEndpoints | undefined { return this.desk.backend.current; }
  resources(): DriveResourcesApi { return this.driveClient(); }
  notifyFileChanged(fileId: string): void { this.fileSystem.notifyRemoteChange(fileId); }
  knowFile(item: DriveItem): void { this.fileSystem.know(item); }

  revealFile(fileId: string, options: { open?: boolean } = {}): Promise<void> {
    return revealDriveFile({ vs: this.desk.vs, model: this.model(), view: this.treeView, account: () => this.desk.session.viewAccount(), redraw: (container) => { this.provider.rerender(container); } }, fileId, options);
  }

  private resetData(): void {
    this.connection.forgetAccount();
    this.models.renew();
    for (const part of [this.fileSystem, this.commands, this.accessTooltips, this.comments, this.changes]) part.reset();
    this.provider.refresh();
  }
}
