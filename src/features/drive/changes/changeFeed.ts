/**
 * The life cycle of Drive's change feed in the extension: the poller starts once signed in with a running backend
 * (retrying a minute later when Drive does not answer yet), stops on sign-out or a backend switch, follows window
 * focus and activity, takes push hints (push.ts), and applies what changed to the tree, the open editors and the
 * status bar. The feature's index only wires it.
 */
import type * as vscode from 'vscode';
import { errorMessage } from '../../../api/errors';
import { DRIVE_COMMAND } from '../../../config/commandIds';
import { attempt, registerCommands } from '../../../core/commands';
import type { DeskContext } from '../../../core/deskContext';
import { Disposable } from '../../../core/disposable';
import { updateDurably } from '../../../core/storage/durableMemento';
import type { TokenStore } from '../../../core/sync/poller';
import { isInvalidPageToken, isSignedOut } from '../driveAdapter';
import type { DriveAboutInfo } from '../port';
import type { DriveNode, DriveTreeModel } from '../tree/model';
import type { DriveTreeProvider } from '../tree/treeProvider';
import { ChangeEntry, ChangeLog } from './changeLog';
import { ChangePoller, ChangeSource, PollOutcome } from './poller';
import { DrivePushLink } from './push';
import { DRIVE_SETTING } from '../../../config/settingKeys';
import { ChangesStatusBar } from './statusBar';

const TOKEN_KEY_PREFIX = 'desk.drive.changes.pageToken/';

/** What the extension-host tests read through the hidden `desk.drive.changesState` command. */
export interface DriveChangesState {
  /** The other signed-in account the feed follows (several accounts); undefined for the first account's feed. */
  readonly account: string | undefined;
  readonly polling: boolean;
  /** The feed holds its page token: a change made from now on is reported (one made while it starts is before it). */
  readonly following: boolean;
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

/** What the feed needs from the Drive feature. */
export interface DriveChangeFeedHost {
  readonly desk: DeskContext;
  readonly provider: Pick<DriveTreeProvider, 'refresh' | 'rerender'>;
  readonly treeView: vscode.TreeView<DriveNode>;
  model(): DriveTreeModel;
  about(): Promise<DriveAboutInfo>;
  /** The change feed of the current backend's Drive. */
  changeSource(): ChangeSource;
  /** A file changed elsewhere: open editors and comment threads catch up. */
  fileChanged(fileId: string): void;
  revealFile(fileId: string, options: { open?: boolean }): Promise<void>;
  /** The modification date of the version Desk shows of a file (open editor, tree row), if it shows one. */
  knownModifiedDate(fileId: string): string | undefined;
  /**
   * Another signed-in account's feed (several accounts): it polls as that account, its status item and messages say
   * whose, and it registers no commands and takes no push (the first account's feed does both).
   */
  readonly account?: string;
  /** The feed of another signed-in account (the first account's feed answers the commands for it). */
  feedOf?(account: string): DriveChangeFeed | undefined;
}

export class DriveChangeFeed extends Disposable {
  readonly changeLog: ChangeLog;
  readonly statusBar: ChangesStatusBar;
  private poller: ChangePoller | undefined;
  private pollerStarting: Promise<void> | undefined;
  /** Counts stops, so a start that was waiting for Drive gives up when a stop came meanwhile. */
  private generation = 0;
  private pollerRetry: ReturnType<typeof setTimeout> | undefined;
  private readonly pushLink: DrivePushLink | undefined;

  constructor(private readonly host: DriveChangeFeedHost) {
    super();
    const { vs } = host.desk;
    const account = host.account;
    this.changeLog = new ChangeLog(Date.now, undefined, (fileId) => host.knownModifiedDate(fileId));
    this.statusBar = this._register(new ChangesStatusBar(vs, this.changeLog, (entry) => this.showChange(entry), host.desk.clock, () => host.desk.session.whose(this.whoseAccount()), account));
    // Push channels are the first account's (the Channels feature makes them): another account's feed polls only.
    const pushLink = account === undefined ? new DrivePushLink(host.desk.push, () => this.poller, () => vs.workspace.getConfiguration().get<boolean>(DRIVE_SETTING.pushChanges) !== false) : undefined;
    this.pushLink = pushLink ? this._register(pushLink) : undefined;
    if (pushLink) {
      this._register(vs.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(DRIVE_SETTING.pushChanges)) pushLink.settingChanged();
      }));
    }

    // Focus and activity steer the poll interval.
    const activity = (): void => this.poller?.noteActivity();
    this._register(vs.window.onDidChangeWindowState((state) => this.poller?.setFocused(state.focused)));
    this._register(vs.window.onDidChangeActiveTextEditor(activity));
    this._register(vs.window.onDidChangeTextEditorSelection(activity));
    this._register(host.treeView.onDidChangeSelection(activity));
    this._register(host.treeView.onDidExpandElement(activity));
    this._register(host.treeView.onDidChangeVisibility(activity));

    if (account !== undefined) return;
    // The status item of another account's feed passes its account.
    const feedOf = (other: unknown): DriveChangeFeed => (typeof other === 'string' ? host.feedOf?.(other) : undefined) ?? this;
    for (const disposable of registerCommands(host.desk, {
      [DRIVE_COMMAND.showChanges]: (other?: unknown) => feedOf(other).statusBar.showQuickPick(),
      [DRIVE_COMMAND.changesState]: (other?: unknown) => feedOf(other).state(),
    })) this._register(disposable);
  }

  /** Whose Drive this feed follows: its own account, else the first signed in. */
  private whoseAccount(): string | undefined {
    return this.host.account ?? this.host.desk.session.currentAccount;
  }

  /** Asks for changes now instead of at the next scheduled poll (after Refresh; tests). */
  pollNow(): void {
    this.poller?.pollNow();
  }

  /** Records a version Desk wrote, so it is not announced as news. */
  noteOwnWrite(fileId: string, etag: string | undefined, version?: string): void {
    this.changeLog.noteOwnWrite(fileId, etag, version);
  }

  /** Desk itself is changing this file (a request on its way): its next change is not news. */
  noteOwnAction(fileId: string): void {
    this.changeLog.noteOwnAction(fileId);
  }

  /** The account or backend changed: what was unseen is forgotten. */
  reset(): void {
    this.changeLog.markSeen();
    this.statusBar.update();
  }

  /** The poller's state, for the hidden `desk.drive.changesState` command and the tests. */
  state(): DriveChangesState {
    return {
      account: this.host.account,
      polling: this.poller !== undefined,
      following: this.poller?.pageToken !== undefined,
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

  /** Starts the poller once signed in with a running backend; the token key names backend and account. */
  ensureStarted(): Promise<void> {
    const { desk } = this.host;
    if (this.poller || !desk.backend.current) return Promise.resolve();
    // Another account's feed starts as that account: its poller's timers, and so every poll, keep the account.
    const account = this.host.account;
    this.pollerStarting ??= (account === undefined ? this.start() : desk.session.runAs(account, () => this.start())).finally(() => {
      this.pollerStarting = undefined;
    });
    return this.pollerStarting;
  }

  stop(): void {
    this.generation++;
    clearTimeout(this.pollerRetry);
    this.poller?.stop();
    this.poller = undefined;
    this.pollerStarting = undefined;
    this.pushLink?.detach();
  }

  override dispose(): void {
    this.stop();
    super.dispose();
  }

  private async start(): Promise<void> {
    const { desk } = this.host;
    const generation = this.generation;
    // Not `session.signedIn`: while a reloaded window's first session lookup runs it reads false, and a session
    // restored from storage fires no "signed in" event afterwards, so the feed would never start (issue 33).
    if (!(await desk.session.isSignedIn()) || generation !== this.generation) return;
    const endpoints = desk.backend.current;
    if (!endpoints) return;
    let account: string;
    try {
      const about = await this.host.about();
      account = about.userEmail ?? about.userName ?? 'unknown';
    } catch (error) {
      desk.log.warn(`Drive: change notifications wait until Drive answers: ${errorMessage(error)}`);
      // Offline at sign-in is not forever: try again in a minute (unless signed out or switched meanwhile).
      clearTimeout(this.pollerRetry);
      this.pollerRetry = setTimeout(() => {
        if (generation === this.generation) void this.ensureStarted();
      }, 60_000);
      return;
    }
    if (generation !== this.generation || this.poller) return;
    const state = desk.extensionContext.globalState;
    const tokens: TokenStore = {
      get: (key) => state.get<string>(`${TOKEN_KEY_PREFIX}${key}`),
      set: (key, value) => updateDurably(state, `${TOKEN_KEY_PREFIX}${key}`, value),
    };
    const poller = new ChangePoller({
      source: this.host.changeSource(),
      tokens,
      // The emulator's port changes between runs; its data (and tokens) belong to its root URL.
      tokenKey: `${endpoints.kind}|${endpoints.kind === 'emulator' ? endpoints.drive : 'google'}|${account}`,
      onChanges: (outcome) => void this.apply(outcome),
      onError: (error) => { desk.log.warn(`Drive: polling for changes failed: ${errorMessage(error)}`); },
      isInvalidToken: isInvalidPageToken,
      isSignedOutError: isSignedOut,
    });
    this.poller = poller;
    poller.setFocused(desk.vs.window.state.focused);
    poller.setSignedIn(true);
    this.pushLink?.attach(poller);
    poller.start();
  }

  private async apply(outcome: PollOutcome): Promise<void> {
    const { provider } = this.host;
    if (outcome.tokenReset) {
      // Changes were lost with the old token: reload what is shown.
      provider.refresh();
      return;
    }
    const model = this.host.model();
    // A shared drive was created, renamed, hidden, left or deleted: its section reloads.
    if (outcome.changes.some((change) => change.changeType === 'drive')) provider.refresh(model.section('sharedDrives'));
    const news = this.changeLog.add(outcome.changes);
    this.statusBar.update();
    const changed = outcome.changes.flatMap((change) => {
      const fileId = change.fileId ?? change.file?.id;
      return fileId ? [{ fileId, item: change.file, removed: change.deleted === true || !change.file }] : [];
    });
    try {
      // Folders and My Drive take the changed files in place (no request, nothing collapses); the rest reloads.
      const { redraw, reload } = await model.applyChanges(changed);
      for (const container of reload) provider.refresh(container);
      for (const container of redraw) provider.rerender(container);
    } catch (error) {
      this.host.desk.log.warn(`Drive: could not refresh after changes: ${errorMessage(error)}`);
    }
    for (const entry of news) this.host.fileChanged(entry.fileId);
  }

  private async showChange(entry: ChangeEntry): Promise<void> {
    const { vs } = this.host.desk;
    if (entry.kind === 'removed') {
      // With several accounts signed in, the message says whose Drive it was removed from.
      const whose = this.host.desk.session.whose(this.whoseAccount());
      void vs.window.showInformationMessage(whose ? vs.l10n.t('“{0}” was removed from the Drive of {1}.', entry.title, whose) : vs.l10n.t('“{0}” was removed from Drive.', entry.title));
      return;
    }
    const account = this.host.account;
    const reveal = (): Promise<void> => this.host.revealFile(entry.fileId, { open: entry.kind !== 'trashed' });
    await attempt(this.host.desk, () => (account === undefined ? reveal() : this.host.desk.session.runAs(account, reveal)));
  }
}
