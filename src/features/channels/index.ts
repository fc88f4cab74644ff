/**
 * The Channels feature, wired as one Disposable: the channels Desk made (kept per backend and account), their view
 * and commands, the built-in HTTPS receiver (receiver/builtIn.ts), the countdown and automatic renewal (timers.ts),
 * and Desk's own channels for push-driven feeds (livePush.ts). Nothing here touches the network until a command runs.
 */
import { markViewOffline } from '../../core/offline/offlineStatus';
import { CHANNELS_TREE_VIEW } from '../../config/treeViews';
import type * as vscode from 'vscode';
import { ChannelsClient } from '../../api/channels';
import { DESK_SCOPES } from '../../config/scopes';
import type { DeskContext } from '../../core/deskContext';
import { Disposable } from '../../core/disposable';
import { DIRECTORY_SCOPES, ensureDirectoryScope } from './directoryScope';
import { ChannelsCommands } from './commands';
import { LivePush } from './livePush';
import { ChannelBook } from './model';
import { ChannelOperations } from './operations';
import type { ChannelsApi } from './port';
import { BuiltInReceiver } from './receiver/builtIn';
import type { ReceivedNotification } from './receiver/check';
import { ChannelTimers } from './timers';
import { ChannelsNode, ChannelsTreeProvider, CHANNELS_VIEW_ID } from './tree/treeProvider';

export { RECEIVER_CONTEXT_KEY } from './receiver/builtIn';

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

export function registerChannels(desk: DeskContext): ChannelsSlice {
  return desk.register(new ChannelsFeature(desk));
}

class ChannelsFeature extends Disposable implements ChannelsSlice {
  private client: ChannelsApi | undefined;
  readonly book: ChannelBook;
  readonly tree: ChannelsTreeProvider;
  readonly view: vscode.TreeView<ChannelsNode>;
  readonly commands: ChannelsCommands;
  readonly operations: ChannelOperations;
  readonly livePush: LivePush;
  private readonly receiver: BuiltInReceiver;
  private readonly timers: ChannelTimers;

  constructor(private readonly desk: DeskContext) {
    super();
    const vs = desk.vs;
    this.book = new ChannelBook(desk.extensionContext.globalState);
    this.book.use(desk.backend.expected.kind, undefined);
    this.tree = this._register(new ChannelsTreeProvider(vs, this.book, desk.clock, () => this.receiverAddress()));
    this.view = this._register(vs.window.createTreeView(CHANNELS_VIEW_ID, { treeDataProvider: this.tree, ...CHANNELS_TREE_VIEW.options }));
    this._register(markViewOffline(desk, this.view));
    this.operations = new ChannelOperations({ api: () => this.api(), book: this.book, t: vs.l10n.t, log: (message) => { desk.log.warn(message); } });
    this.receiver = this._register(new BuiltInReceiver({ desk, book: this.book, operations: this.operations, tree: this.tree, livePush: () => this.livePush }));
    this.commands = new ChannelsCommands({
      desk,
      operations: this.operations,
      book: this.book,
      tree: this.tree,
      receiverAddress: () => this.receiverAddress(),
      startReceiver: () => this.receiver.start(),
      stopReceiver: () => this.receiver.stop(),
      ensureDirectoryScope: () => ensureDirectoryScope(desk),
    });
    for (const disposable of this.commands.register()) this._register(disposable);
    this.timers = this._register(new ChannelTimers({ desk, book: this.book, operations: this.operations, tree: this.tree, view: this.view }));

    this._register(desk.session.onDidChangeSignedIn(() => void this.reload()));
    this._register(desk.onDidComeOnline(() => void this.reload()));
    this._register(desk.backend.onDidChange(() => {
      this.client = undefined;
      void this.reload();
    }));
    // Disposed before the receiver stops (reverse order), so it can still stop its channels.
    this.livePush = this._register(new LivePush({
      hub: desk.push,
      book: this.book,
      operations: this.operations,
      receiverAddress: () => this.receiverAddress(),
      // Only the emulator delivers to a loopback receiver; nothing is sent while the backend is not running.
      available: () => desk.backend.expected.kind === 'emulator' && desk.session.signedIn && desk.backend.current !== undefined,
      log: (message) => { desk.log.info(message); },
    }));
    void this.reload();
  }

  get onDidReceive(): vscode.Event<ReceivedNotification> {
    return this.receiver.onDidReceive;
  }

  /** The client, built on first use (and again after a backend switch): each service on its own root and scopes. */
  private api(): ChannelsApi {
    this.client ??= new ChannelsClient({
      drive: this.desk.httpClient((endpoints) => endpoints.drive, DESK_SCOPES),
      calendar: this.desk.httpClient((endpoints) => endpoints.calendar, DESK_SCOPES),
      // Directory watches need an administrator's scope, which sign-in never asks for (see directoryScope.ts).
      directory: this.desk.httpClient((endpoints) => endpoints.directory, DIRECTORY_SCOPES),
    });
    return this.client;
  }

  receiverAddress(): string | undefined {
    return this.receiver.address;
  }

  receivedCount(): number {
    return this.receiver.count;
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
    this.timers.reschedule();
    await this.livePush.changed();
  }
}
