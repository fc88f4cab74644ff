/**
 * The built-in notification receiver in the extension: started with a certificate from the emulator's CA (emulator
 * only), counted in the status bar, its notifications recorded on their channels and handed to Desk's push feeds
 * first; when its server fails it is as if stopped (push falls back to polling) and the user is told.
 */
import type * as vscode from 'vscode';
import { emulatorReceiverCertificate } from '../../../api/channels';
import type { DeskContext } from '../../../core/deskContext';
import { Disposable, toDisposable } from '../../../core/disposable';
import type { LivePush } from '../livePush';
import type { ChannelBook } from '../model';
import type { ChannelOperations } from '../operations';
import { receiverTooltip } from '../tree/presentation';
import type { ChannelsTreeProvider } from '../tree/treeProvider';
import type { Translate } from '../validation';
import type { ReceivedNotification } from './check';
import { ChannelReceiver } from './server';
import { CHANNELS_TREE_VIEW } from '../../../config/treeViews';

export const RECEIVER_CONTEXT_KEY = 'desk:channelsReceiver';

export interface BuiltInReceiverOptions {
  readonly desk: DeskContext;
  readonly book: ChannelBook;
  readonly operations: ChannelOperations;
  readonly tree: ChannelsTreeProvider;
  readonly livePush: () => LivePush;
}

export class BuiltInReceiver extends Disposable {
  private receiver: ChannelReceiver | undefined;
  private received = 0;
  private readonly statusItem: vscode.StatusBarItem;
  private readonly receiveEmitter: vscode.EventEmitter<ReceivedNotification>;
  /** Fires for every notification the receiver accepts. */
  readonly onDidReceive: vscode.Event<ReceivedNotification>;
  private readonly t: Translate;

  constructor(private readonly options: BuiltInReceiverOptions) {
    super();
    const { vs } = options.desk;
    this.t = (message, ...args) => vs.l10n.t(message, ...args);
    this.receiveEmitter = this._register(new vs.EventEmitter<ReceivedNotification>());
    this.onDidReceive = this.receiveEmitter.event;
    this.statusItem = this._register(vs.window.createStatusBarItem('desk.channels.receiver', vs.StatusBarAlignment.Left, 40));
    this.statusItem.name = this.t('Desk Channels Receiver');
    this.statusItem.command = `${CHANNELS_TREE_VIEW.id}.focus`;
    this._register(toDisposable(() => void this.receiver?.stop()));
  }

  /** The receiver's address while it runs. */
  get address(): string | undefined {
    return this.receiver?.address;
  }

  /** Notifications accepted since it started (the status bar's count). */
  get count(): number {
    return this.received;
  }

  /** Starts it: with the emulator as backend, a certificate from the emulator's CA. */
  async start(): Promise<string> {
    const { desk, book, operations } = this.options;
    if (this.receiver?.address) return this.receiver.address;
    if (desk.backend.expected.kind !== 'emulator') {
      throw new Error(this.t('The built-in receiver works with the local emulator only: Google delivers notifications only to a public HTTPS address with a certificate from a public authority.'));
    }
    await desk.backend.ensure();
    const endpoints = desk.backend.current;
    if (!endpoints) throw new Error(this.t('The local emulator is not running.'));
    const issued = await emulatorReceiverCertificate(endpoints.directory, ['127.0.0.1']);
    const receiver = new ChannelReceiver({
      cert: issued.cert,
      key: issued.key,
      lookup: (channelId) => book.findAnywhere(channelId) ?? operations.pendingChannel(channelId),
      onNotification: (notification) => void this.onNotification(notification),
      onRefused: (status, reason) => { desk.log.warn(`Channels receiver: ${status} (${reason})`); },
      onFailed: (error) => void this.failed(receiver, error),
    });
    const address = await receiver.start();
    this.receiver = receiver;
    this.received = 0;
    this.updateStatus();
    await desk.vs.commands.executeCommand('setContext', RECEIVER_CONTEXT_KEY, true);
    desk.log.info(`Channels: the built-in receiver listens at ${address}`);
    // Drive's live changes become push-driven now (when wanted): made in the background.
    void this.options.livePush().changed();
    return address;
  }

  async stop(): Promise<void> {
    const receiver = this.receiver;
    this.receiver = undefined;
    await receiver?.stop();
    this.updateStatus();
    await this.options.desk.vs.commands.executeCommand('setContext', RECEIVER_CONTEXT_KEY, false);
    await this.options.livePush().changed();
  }

  /** The server failed while running: as if stopped (push falls back to polling), and the user is told. */
  private async failed(receiver: ChannelReceiver, error: Error): Promise<void> {
    if (this.receiver !== receiver) return;
    this.options.desk.log.error(`Channels receiver failed: ${error.message}`);
    await this.stop();
    void this.options.desk.showError(error, { action: this.t('The built-in receiver stopped') });
  }

  private async onNotification(notification: ReceivedNotification): Promise<void> {
    const { book, operations, tree } = this.options;
    // First, before any storage: a change for a feed Desk pushes is fetched at once.
    this.options.livePush().noteNotification(notification.channelId, notification.resourceState);
    this.received++;
    this.updateStatus();
    tree.addNotification(notification);
    // The count goes to the channel's record in whichever scope holds it; only the current scope is shown.
    if (book.get(notification.channelId)) await book.noteMessage(notification.channelId, notification.resourceState, notification.receivedAt);
    else if (!operations.noteEarlyMessage(notification.channelId, notification.resourceState, notification.receivedAt)) tree.refresh();
    this.receiveEmitter.fire(notification);
  }

  private updateStatus(): void {
    if (!this.receiver) {
      this.statusItem.hide();
      return;
    }
    this.statusItem.text = `$(inbox) ${this.received}`;
    this.statusItem.tooltip = receiverTooltip(this.received, this.receiver.address ?? '', this.t);
    this.statusItem.show();
  }
}
