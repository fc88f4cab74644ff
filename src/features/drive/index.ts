/** The Drive feature: tree view, commands, the desk-drive: file system and the change poller, as one Disposable. */
import type * as vscode from 'vscode';
import { DriveClient } from '../../api/drive';
import { errorMessage } from '../../api/errors';
import { ChangeEntry, ChangeLog, fileChangedBy } from './changes/changeLog';
import type { TokenStore } from '../../core/sync/poller';
import { ChangePoller, PollOutcome } from './changes/poller';
import { ChangesStatusBar } from './changes/statusBar';
import { DrivePushLink, PUSH_CHANGES_SETTING } from './changes/push';
import { APP_DETAILS_SCHEME, appDocument, executeDropPlan, PROPERTIES_SCHEME, propertiesDocument, registerDriveCommands } from './commands/index';
import type { ServiceEndpoints } from '../../config/endpoints';
import { attempt, registerCommands } from '../../core/commands';
import type { DeskContext } from '../../core/deskContext';
import { Disposable } from '../../core/disposable';
import { DESK_SCOPES } from '../../config/scopes';
import { DriveFileSystemProvider, driveUri } from './fs/driveFileSystem';
import { DRIVE_SCHEME, sanitizeTitle } from './fs/drivePath';
import { sharedDriveSource } from './sharedDrives/port';
import { adaptDriveClient, changeSourceFor, isInvalidPageToken, isSignedOut } from './driveAdapter';
import { isFolder } from '../../shared/schemas/drive';
import { DriveAboutInfo, DriveApi, DriveItem } from './port';
import { DriveNode, DriveTreeModel, folderTitles } from './tree/treeModel';
import { DRIVE_VIEW_ID, DriveTreeProvider } from './tree/treeProvider';
import { AccessTooltips } from './sharing/accessTooltip';
import { RevisionDocuments } from './revisions/documents';
import { REVISION_SCHEME } from './revisions/history';
import { DriveComments } from './comments/controller';
import { DriveCommentsTree } from './comments/tree';
import { DRIVE_COMMAND } from '../../config/commandIds';

const TOKEN_KEY_PREFIX = 'desk.drive.changes.pageToken/';

/** The push feed of Drive's changes (the Channels feature makes its channel): see changes/push.ts. */
export { DRIVE_CHANGES_FEED, type DriveChangesFeed } from './changes/push';

/** What the extension-host tests read through the hidden `desk.drive.changesState` command. */
export interface DriveChangesState {
  readonly polling: boolean;
  readonly pollerState: string;
  readonly usesLongPoll: boolean;
  /** Push notifications work: polls follow them, the timer keeps only a slow safety net. */
  readonly push: boolean;
  /** Polls started by a notification. */
  readonly pushPolls: number;
  /** How long until the next scheduled poll (undefined while a poll runs or none is scheduled). */
  readonly nextPollInMs: number | undefined;
  readonly unseen: number;
  readonly statusText: string;
  readonly entries: readonly ChangeEntry[];
}

/**
 * The Drive slice: tree view, commands, the `desk-drive:` file system, and the change poller with its
 * status-bar item. Nothing touches the network during activation: the client is built on first use and
 * the poller starts once the user is signed in and the backend is up.
 */
export class DriveFeature extends Disposable {
  private client: DriveClient | undefined;
  private apiValue: DriveApi | undefined;
  private modelValue: DriveTreeModel;
  private aboutValue: Promise<DriveAboutInfo> | undefined;
  private poller: ChangePoller | undefined;
  private pollerStarting: Promise<void> | undefined;
  private generation = 0;
  private pollerRetry: ReturnType<typeof setTimeout> | undefined;
  private readonly pushLink: DrivePushLink;
  readonly provider: DriveTreeProvider;
  readonly treeView: vscode.TreeView<DriveNode>;
  readonly fileSystem: DriveFileSystemProvider;
  readonly changeLog = new ChangeLog();
  readonly statusBar: ChangesStatusBar;
  private readonly accessTooltips: AccessTooltips;
  private readonly revisionDocuments: RevisionDocuments;
  /** Comment threads in the editor and the tree's Comments rows, over one store. */
  readonly comments: DriveComments;

  constructor(private readonly desk: DeskContext) {
    super();
    const vs = desk.vs;
    this.modelValue = this.newTreeModel();
    this.fileSystem = this._register(new DriveFileSystemProvider(vs, {
      api: () => this.api(),
      exportFormats: async () => (await this.about()).exportFormats,
      findDrive: (name) => this.findSharedDrive(name),
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
      isSignedIn: () => desk.session.signedIn,
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

    // Old versions open read-only (commands/revisions.ts).
    this.revisionDocuments = new RevisionDocuments(vs, () => this.driveClient());
    this._register(vs.workspace.registerTextDocumentContentProvider(REVISION_SCHEME, this.revisionDocuments));

    this._register(vs.workspace.registerTextDocumentContentProvider(PROPERTIES_SCHEME, {
      provideTextDocumentContent: async (uri) => {
        const fileId = uri.path.split('/').filter(Boolean)[0] ?? '';
        try {
          return await propertiesDocument(this.api(), fileId, vs.l10n.t('My Drive'));
        } catch (error) {
          return `// ${errorMessage(error, vs.l10n.t)}\n`;
        }
      },
    }));

    this._register(vs.workspace.registerTextDocumentContentProvider(APP_DETAILS_SCHEME, {
      provideTextDocumentContent: async (uri) => {
        try {
          return await appDocument(this.api(), uri.path.split('/').filter(Boolean)[0] ?? '');
        } catch (error) {
          return `// ${errorMessage(error, vs.l10n.t)}\n`;
        }
      },
    }));

    this.statusBar = this._register(new ChangesStatusBar(vs, this.changeLog, (entry) => this.showChange(entry)));
    for (const disposable of registerCommands(desk, {
      [DRIVE_COMMAND.showChanges]: () => this.statusBar.showQuickPick(),
      [DRIVE_COMMAND.changesState]: () => this.changesState(),
    })) this._register(disposable);

    this.pushLink = this._register(new DrivePushLink(desk.push, () => this.poller, () => vs.workspace.getConfiguration().get<boolean>(PUSH_CHANGES_SETTING) !== false));
    this._register(vs.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(PUSH_CHANGES_SETTING)) this.pushLink.settingChanged();
    }));

    // Focus and activity steer the poll interval.
    const activity = (): void => this.poller?.noteActivity();
    this._register(vs.window.onDidChangeWindowState((state) => this.poller?.setFocused(state.focused)));
    this._register(vs.window.onDidChangeActiveTextEditor(activity));
    this._register(vs.window.onDidChangeTextEditorSelection(activity));
    this._register(this.treeView.onDidChangeSelection(activity));
    this._register(this.treeView.onDidExpandElement(activity));
    this._register(this.treeView.onDidChangeVisibility(activity));

    this._register(desk.session.onDidChangeSignedIn((signedIn) => {
      this.resetData();
      if (signedIn) void this.ensurePoller();
      else this.stopPoller();
    }));
    this._register(desk.backend.onDidChange(() => {
      this.client = undefined;
      this.apiValue = undefined;
      this.stopPoller();
      this.resetData();
      void this.ensurePoller();
    }));
    void this.ensurePoller();
  }

  api(): DriveApi {
    if (!this.apiValue) {
      // Every change Desk asks Drive for is remembered, so the change poller does not announce it as someone else's.
      this.client = new DriveClient(this.desk.httpClient((endpoints) => endpoints.drive, DESK_SCOPES, (request) => {
        const fileId = fileChangedBy(request.method, request.path);
        if (fileId) this.changeLog.noteOwnAction(fileId);
      }));
      this.apiValue = adaptDriveClient(this.client);
    }
    return this.apiValue;
  }

  /** The client behind the port (built with it), for the resources the port leaves out: permissions, properties. */
  driveClient(): DriveClient {
    this.api();
    return this.client as DriveClient;
  }

  about(): Promise<DriveAboutInfo> {
    this.aboutValue ??= this.api().about();
    this.aboutValue.catch(() => { this.aboutValue = undefined; });
    return this.aboutValue;
  }

  /** Asks for changes now instead of at the next scheduled poll (after Refresh; tests). */
  pollChangesNow(): void {
    this.poller?.pollNow();
  }

  /** The poller's state, for the hidden `desk.drive.changesState` command and the tests. */
  changesState(): DriveChangesState {
    return {
      polling: this.poller !== undefined,
      pollerState: this.poller?.state ?? 'stopped',
      usesLongPoll: this.poller?.usesLongPoll ?? false,
      push: this.poller?.pushed ?? false,
      pushPolls: this.poller?.pushPolls ?? 0,
      nextPollInMs: this.poller?.nextPollTime === undefined ? undefined : this.poller.nextPollTime - Date.now(),
      unseen: this.changeLog.count,
      statusText: this.changeLog.count > 0 ? this.statusBar.text : '',
      entries: this.changeLog.entries(),
    };
  }

  noteOwnWrite(item: DriveItem): void {
    this.changeLog.noteOwnWrite(item.id, item.etag);
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

  override dispose(): void {
    this.stopPoller();
    super.dispose();
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
      client: () => this.driveClient(),
      notifyFileChanged: (fileId: string) => this.fileSystem.notifyRemoteChange(fileId),
      comments: () => this.comments,
    };
  }

  private resetData(): void {
    this.aboutValue = undefined;
    this.modelValue = this.newTreeModel();
    this.fileSystem.reset();
    this.revisionDocuments.reset();
    this.accessTooltips.reset();
    this.comments.reset();
    this.changeLog.markSeen();
    this.statusBar.update();
    this.provider.refresh();
  }

  private async showChange(entry: ChangeEntry): Promise<void> {
    if (entry.kind === 'removed') {
      void this.desk.vs.window.showInformationMessage(this.desk.vs.l10n.t('“{0}” was removed from Drive.', entry.title));
      return;
    }
    await attempt(this.desk, () => this.revealFile(entry.fileId, { open: entry.kind !== 'trashed' }));
  }

  private stopPoller(): void {
    this.generation++;
    clearTimeout(this.pollerRetry);
    this.poller?.stop();
    this.poller = undefined;
    this.pollerStarting = undefined;
    this.pushLink.detach();
  }

  /** Starts the poller once signed in with a running backend; the token key names backend and account. */
  private ensurePoller(): Promise<void> {
    if (this.poller || !this.desk.session.signedIn || !this.desk.backend.current) return Promise.resolve();
    this.pollerStarting ??= this.startPoller().finally(() => {
      this.pollerStarting = undefined;
    });
    return this.pollerStarting;
  }

  private async startPoller(): Promise<void> {
    const generation = this.generation;
    const endpoints = this.desk.backend.current;
    if (!endpoints) return;
    let account: string;
    try {
      const about = await this.about();
      account = about.userEmail ?? about.userName ?? 'unknown';
    } catch (error) {
      this.desk.log.warn(`Drive: change notifications wait until Drive answers: ${errorMessage(error)}`);
      // Offline at sign-in is not forever: try again in a minute (unless signed out or switched meanwhile).
      clearTimeout(this.pollerRetry);
      this.pollerRetry = setTimeout(() => {
        if (generation === this.generation) void this.ensurePoller();
      }, 60_000);
      return;
    }
    if (generation !== this.generation || this.poller || !this.client) return;
    const state = this.desk.extensionContext.globalState;
    const tokens: TokenStore = {
      get: (key) => state.get<string>(`${TOKEN_KEY_PREFIX}${key}`),
      set: async (key, value) => { await state.update(`${TOKEN_KEY_PREFIX}${key}`, value); },
    };
    const poller = new ChangePoller({
      source: changeSourceFor(this.client),
      tokens,
      // The emulator's port changes between runs; its data (and tokens) belong to its root URL.
      tokenKey: `${endpoints.kind}|${endpoints.kind === 'emulator' ? endpoints.drive : 'google'}|${account}`,
      onChanges: (outcome) => void this.applyChanges(outcome),
      onError: (error) => this.desk.log.warn(`Drive: polling for changes failed: ${errorMessage(error)}`),
      isInvalidToken: isInvalidPageToken,
      isSignedOutError: isSignedOut,
    });
    this.poller = poller;
    poller.setFocused(this.desk.vs.window.state.focused);
    poller.setSignedIn(true);
    this.pushLink.attach(poller);
    poller.start();
  }

  /** A fresh tree model; the choice to show hidden shared drives carries over. */
  private newTreeModel(): DriveTreeModel {
    const model = new DriveTreeModel(this.api(), { sharedDrives: sharedDriveSource(() => this.driveClient()), t: this.desk.vs.l10n.t });
    model.showHiddenDrives = (this.modelValue as DriveTreeModel | undefined)?.showHiddenDrives ?? false;
    return model;
  }

  /** The top folder of the user's shared drive with this name, for `desk-drive:/Shared drives/<name>/…` paths. */
  private async findSharedDrive(name: string): Promise<DriveItem | undefined> {
    for await (const drive of this.driveClient().allDrives()) {
      if (sanitizeTitle(drive.name ?? drive.id) === name) return this.api().getFile(drive.id);
    }
    return undefined;
  }

  private async applyChanges(outcome: PollOutcome): Promise<void> {
    if (outcome.tokenReset) {
      // Changes were lost with the old token: reload what is shown.
      this.provider.refresh();
      return;
    }
    // A shared drive was created, renamed, hidden, left or deleted: its section reloads.
    if (outcome.changes.some((change) => change.changeType === 'drive')) this.provider.refresh(this.modelValue.section('sharedDrives'));
    const news = this.changeLog.add(outcome.changes);
    this.statusBar.update();
    const changed = outcome.changes.flatMap((change) => {
      const fileId = change.fileId ?? change.file?.id;
      return fileId ? [{ fileId, item: change.file, removed: change.deleted === true || !change.file }] : [];
    });
    try {
      for (const container of await this.modelValue.containersAffectedBy(changed)) this.provider.refresh(container);
    } catch (error) {
      this.desk.log.warn(`Drive: could not refresh after changes: ${errorMessage(error)}`);
    }
    for (const entry of news) {
      this.fileSystem.notifyRemoteChange(entry.fileId);
      this.comments.fileChanged(entry.fileId);
    }
  }
}

export function registerDrive(desk: DeskContext): DriveFeature {
  return desk.register(new DriveFeature(desk));
}
