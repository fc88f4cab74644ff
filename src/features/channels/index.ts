import type * as vscode from 'vscode';
import { ChannelsClient, emulatorReceiverCertificate } from '../../api/channels';
import { DESK_SCOPES, SCOPES } from '../../config/scopes';
import type { DeskContext } from '../../core/deskContext';
import { Disposable, toDisposable } from '../../core/disposable';
import { ChannelsCommands } from './commands';
import { LivePush } from './livePush';
import { ChannelBook, ChannelRecord } from './model';
import { ChannelOperations } from './operations';
import type { ChannelsApi } from './port';
import type { ReceivedNotification } from './receiver/check';
import { ChannelReceiver } from './receiver/server';
import { countdownIntervalMs, planRenewals } from './renewal';
import { ChannelsNode, ChannelsTreeProvider, CHANNELS_VIEW_ID } from './tree/treeProvider';
import type { Translate } from './validation';

export const AUTO_RENEW_SETTING = 'desk.channels.autoRenew';
export const RECEIVER_CONTEXT_KEY = 'desk:channelsReceiver';
const ADMIN_SCOPES: readonly string[] = [...DESK_SCOPES, ...SCOPES.admin];

/** The Channels slice as activate() returns it to tests. */
export interface ChannelsSlice {
  readonly book: ChannelBook;
  readonly tree: ChannelsTreeProvider;
  readonly view: vscode.TreeView<ChannelsNode>;
  readonly commands: ChannelsCommands;
  readonly operations: ChannelOperations;
  /** The built-in receiver's address while it runs. */
  receiverAddress(): string | undefined;
  /** Notifications the built-in receiver accepted since it started (the status bar's count). */
  receivedCount(): number;
  /** Fires for every notification the built-in receiver accepts. */
  readonly onDidReceive: vscode.Event<ReceivedNotification>;
  /** Re-reads the signed-in account and shows its channels. */
  reload(): Promise<void>;
  /** Desk's own channels for push-driven sync feeds (Drive's live changes). */
  readonly livePush: LivePush;
}

/**
 * Wires the Channels view: the channels this extension made (kept per backend and account), their commands, the
 * optional built-in HTTPS receiver with its status-bar count, the expiry countdown, and automatic renewal when the
 * user opts in. Nothing here touches the network until a command runs.
 */
export function registerChannels(desk: DeskContext): ChannelsSlice {
  return desk.register(new ChannelsFeature(desk));
}

class ChannelsFeature extends Disposable implements ChannelsSlice {
  private client: ChannelsApi | undefined;
  private receiver: ChannelReceiver | undefined;
  private received = 0;
  private readonly statusItem: vscode.StatusBarItem;
  private countdownTimer: NodeJS.Timeout | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private renewing = false;
  /** Channels whose automatic renewal failed: not tried again (they expire as they would have). */
  private readonly renewFailed = new Set<string>();
  private readonly receiveEmitter: vscode.EventEmitter<ReceivedNotification>;
  readonly onDidReceive: vscode.Event<ReceivedNotification>;
  readonly book: ChannelBook;
  readonly tree: ChannelsTreeProvider;
  readonly view: vscode.TreeView<ChannelsNode>;
  readonly commands: ChannelsCommands;
  readonly operations: ChannelOperations;
  readonly livePush: LivePush;
  private readonly t: Translate;

  constructor(private readonly desk: DeskContext) {
    super();
    const vs = desk.vs;
    this.t = (message, ...args) => vs.l10n.t(message, ...args);
    this.receiveEmitter = this._register(new vs.EventEmitter<ReceivedNotification>());
    this.onDidReceive = this.receiveEmitter.event;
    this.book = new ChannelBook(desk.extensionContext.globalState);
    this.book.use(desk.backend.expected.kind, undefined);
    this.tree = this._register(new ChannelsTreeProvider(vs, this.book, desk.clock));
    this.view = this._register(vs.window.createTreeView(CHANNELS_VIEW_ID, { treeDataProvider: this.tree }));
    this.operations = new ChannelOperations({ api: () => this.api(), book: this.book, t: this.t, log: (message) => desk.log.warn(message) });
    this.commands = new ChannelsCommands({
      desk,
      operations: this.operations,
      book: this.book,
      tree: this.tree,
      receiverAddress: () => this.receiverAddress(),
      startReceiver: () => this.startReceiver(),
      stopReceiver: () => this.stopReceiver(),
      ensureAdminScope: () => this.ensureAdminScope(),
    });
    for (const disposable of this.commands.register()) this._register(disposable);

    this.statusItem = this._register(vs.window.createStatusBarItem('desk.channels.receiver', vs.StatusBarAlignment.Left, 40));
    this.statusItem.name = this.t('Desk Channels Receiver');
    this.statusItem.command = 'desk.channels.focus';

    this._register(this.book.onDidChange(() => {
      this.scheduleCountdown();
      this.scheduleRenewals();
    }));
    this._register(this.view.onDidChangeVisibility(() => this.scheduleCountdown()));
    this._register(vs.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(AUTO_RENEW_SETTING)) this.scheduleRenewals();
    }));
    this._register(desk.session.onDidChangeSignedIn(() => void this.reload()));
    this._register(desk.backend.onDidChange(() => {
      this.client = undefined;
      void this.reload();
    }));
    this._register(toDisposable(() => {
      clearTimeout(this.countdownTimer);
      clearTimeout(this.renewTimer);
      void this.receiver?.stop();
    }));
    // Disposed before the receiver stops (reverse order), so it can still stop its channels.
    this.livePush = this._register(new LivePush({
      hub: desk.push,
      book: this.book,
      operations: this.operations,
      receiverAddress: () => this.receiverAddress(),
      // Only the emulator delivers to a loopback receiver; nothing is sent while the backend is not running.
      available: () => desk.backend.expected.kind === 'emulator' && desk.session.signedIn && desk.backend.current !== undefined,
      log: (message) => desk.log.info(message),
    }));
    void this.reload();
  }

  /** The client, built on first use (and again after a backend switch): each service on its own root and scopes. */
  private api(): ChannelsApi {
    this.client ??= new ChannelsClient({
      drive: this.desk.httpClient((endpoints) => endpoints.drive, DESK_SCOPES),
      calendar: this.desk.httpClient((endpoints) => endpoints.calendar, DESK_SCOPES),
      // Directory watches need an administrator's scope, which sign-in never asks for (see ensureAdminScope).
      admin: this.desk.httpClient((endpoints) => endpoints.admin, ADMIN_SCOPES),
    });
    return this.client;
  }

  receiverAddress(): string | undefined {
    return this.receiver?.address;
  }

  receivedCount(): number {
    return this.received;
  }

  async reload(): Promise<void> {
    let account: string | undefined;
    try {
      const sessions = await this.desk.auth.listSessions();
      account = sessions.find((session) => DESK_SCOPES.every((scope) => session.scopes.includes(scope)))?.account.id;
    } catch (error) {
      this.desk.log.warn(`Channels: could not read the signed-in account: ${String(error)}`);
    }
    this.book.use(this.desk.backend.expected.kind, account);
    this.tree.refresh();
    this.scheduleCountdown();
    this.scheduleRenewals();
    await this.livePush.changed();
  }

  /** A session with the admin scope, asked for (with the user's consent) only when none has it. */
  private async ensureAdminScope(): Promise<boolean> {
    const sessions = await this.desk.auth.listSessions();
    if (sessions.some((session) => ADMIN_SCOPES.every((scope) => session.scopes.includes(scope)))) return true;
    const grant = this.t('Grant Access');
    const answer = await this.desk.vs.window.showWarningMessage(
      this.t('Watching directory users needs permission to see and manage the users of your domain (an administrator\'s permission). Desk asks for it only now.'),
      { modal: true },
      grant,
    );
    if (answer !== grant) return false;
    await this.desk.auth.createSession([...ADMIN_SCOPES]);
    return true;
  }

  /** Starts the built-in receiver: with the emulator as backend, a certificate from the emulator's CA. */
  private async startReceiver(): Promise<string> {
    if (this.receiver?.address) return this.receiver.address;
    if (this.desk.backend.expected.kind !== 'emulator') {
      throw new Error(this.t('The built-in receiver works with the local emulator only: Google delivers notifications only to a public HTTPS address with a certificate from a public authority.'));
    }
    await this.desk.backend.ensure();
    const endpoints = this.desk.backend.current;
    if (!endpoints) throw new Error(this.t('The local emulator is not running.'));
    const issued = await emulatorReceiverCertificate(endpoints.admin, ['127.0.0.1']);
    const receiver = new ChannelReceiver({
      cert: issued.cert,
      key: issued.key,
      lookup: (channelId) => this.book.findAnywhere(channelId) ?? this.operations.pendingChannel(channelId),
      onNotification: (notification) => void this.onNotification(notification),
      onRefused: (status, reason) => this.desk.log.warn(`Channels receiver: ${status} (${reason})`),
      onFailed: (error) => void this.receiverFailed(receiver, error),
    });
    const address = await receiver.start();
    this.receiver = receiver;
    this.received = 0;
    this.updateStatus();
    await this.desk.vs.commands.executeCommand('setContext', RECEIVER_CONTEXT_KEY, true);
    this.desk.log.info(`Channels: the built-in receiver listens at ${address}`);
    // Drive's live changes become push-driven now (when wanted): made in the background.
    void this.livePush.changed();
    return address;
  }

  private async stopReceiver(): Promise<void> {
    const receiver = this.receiver;
    this.receiver = undefined;
    await receiver?.stop();
    this.updateStatus();
    await this.desk.vs.commands.executeCommand('setContext', RECEIVER_CONTEXT_KEY, false);
    await this.livePush.changed();
  }

  /** The receiver's server failed while running: as if stopped (push falls back to polling), and the user is told. */
  private async receiverFailed(receiver: ChannelReceiver, error: Error): Promise<void> {
    if (this.receiver !== receiver) return;
    this.desk.log.error(`Channels receiver failed: ${error.message}`);
    await this.stopReceiver();
    void this.desk.showError(error, { action: this.t('The built-in receiver stopped') });
  }

  private async onNotification(notification: ReceivedNotification): Promise<void> {
    // First, before any storage: a change for a feed Desk pushes is fetched at once.
    this.livePush.noteNotification(notification.channelId, notification.resourceState);
    this.received++;
    this.updateStatus();
    this.tree.addNotification(notification);
    // The count goes to the channel's record in whichever scope holds it; only the current scope is shown.
    if (this.book.get(notification.channelId)) await this.book.noteMessage(notification.channelId, notification.resourceState, notification.receivedAt);
    else if (!this.operations.noteEarlyMessage(notification.channelId, notification.resourceState, notification.receivedAt)) this.tree.refresh();
    this.receiveEmitter.fire(notification);
  }

  private updateStatus(): void {
    if (!this.receiver) {
      this.statusItem.hide();
      return;
    }
    this.statusItem.text = `$(radio-tower) ${this.received}`;
    this.statusItem.tooltip = this.t('Desk channels: {0} notifications received at {1}', this.received, this.receiver.address ?? '');
    this.statusItem.show();
  }

  /** Redraws the countdowns while the view is visible: each second near an expiry, else every 30 seconds. */
  private scheduleCountdown(): void {
    clearTimeout(this.countdownTimer);
    this.countdownTimer = undefined;
    const records = this.book.list();
    if (!this.view.visible || records.length === 0 || this.isDisposed) return;
    this.countdownTimer = setTimeout(() => {
      this.tree.refresh();
      this.scheduleCountdown();
    }, countdownIntervalMs(records, Date.now()));
  }

  /** Renews each channel a little before it expires (see renewal.ts): Desk's own always, the user's with `desk.channels.autoRenew`. */
  private scheduleRenewals(): void {
    clearTimeout(this.renewTimer);
    this.renewTimer = undefined;
    if (this.isDisposed) return;
    const plan = planRenewals(this.renewable(), Date.now());
    if (plan.due.length > 0) {
      void this.renewDue();
      return;
    }
    if (plan.nextAt === undefined) return;
    // setTimeout's limit is about 24.8 days; a later renewal is looked at again then.
    const delay = Math.min(Math.max(1000, plan.nextAt - Date.now()), 2 ** 31 - 1);
    this.renewTimer = setTimeout(() => this.scheduleRenewals(), delay);
  }

  /** Desk's own channels (Drive's live changes) always; the user's only with the setting on. */
  private renewable(): ChannelRecord[] {
    const all = this.autoRenew();
    return this.book.list().filter((record) => !this.renewFailed.has(record.id) && (all || record.feed !== undefined));
  }

  private autoRenew(): boolean {
    return this.desk.vs.workspace.getConfiguration().get<boolean>(AUTO_RENEW_SETTING) === true;
  }

  private async renewDue(): Promise<void> {
    if (this.renewing) return;
    this.renewing = true;
    try {
      for (const record of planRenewals(this.renewable(), Date.now()).due) {
        try {
          const renewed = await this.operations.renew(record);
          this.desk.log.info(`Channels: renewed ${record.id} as ${renewed.id}`);
        } catch (error) {
          // Not retried in a loop: the user is told once, and the channel expires as it would have.
          this.renewFailed.add(record.id);
          void this.desk.showError(error, { action: this.t('Could not renew the channel on {0}', record.id) });
        }
      }
    } finally {
      this.renewing = false;
    }
    this.scheduleRenewals();
  }
}
