/** Renders the Channels view: one row per channel (expiry countdown and message count as the description) with the notifications the built-in receiver accepted as its children. */
import { CHANNELS_TREE_VIEW } from '../../../config/treeViews';
import type * as vscode from 'vscode';
import { Disposable } from '../../../core/disposable';
import type { ChannelBook, ChannelRecord } from '../model';
import type { ReceivedNotification } from '../receiver/check';
import { ChannelClock, channelContextValue, channelDescription, channelLabel, channelTooltip, notificationDescription, notificationLabel, Translate } from './presentation';

export const CHANNELS_VIEW_ID = CHANNELS_TREE_VIEW.id;

export interface ChannelNode {
  readonly kind: 'channel';
  readonly id: string;
  readonly record: ChannelRecord;
}

export interface NotificationNode {
  readonly kind: 'notification';
  readonly id: string;
  readonly parent: ChannelNode;
  readonly notification: ReceivedNotification;
}

export type ChannelsNode = ChannelNode | NotificationNode;

/** The notifications kept per channel for the view (the count is kept in the record, without limit). */
const KEPT_NOTIFICATIONS = 20;

export class ChannelsTreeProvider extends Disposable implements vscode.TreeDataProvider<ChannelsNode> {
  private readonly changeEmitter: vscode.EventEmitter<ChannelsNode | undefined>;
  readonly onDidChangeTreeData: vscode.Event<ChannelsNode | undefined>;
  private readonly t: Translate;
  /** The latest notifications per channel id, newest first (this session only). */
  private readonly recent = new Map<string, ReceivedNotification[]>();

  /** `receiverAddress` is the built-in receiver's while it runs (a hover says so rather than repeat its address). */
  constructor(
    private readonly vs: typeof vscode,
    private readonly book: ChannelBook,
    private readonly clock: ChannelClock,
    private readonly receiverAddress: () => string | undefined = () => undefined,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.changeEmitter = this._register(new vs.EventEmitter<ChannelsNode | undefined>());
    this.onDidChangeTreeData = this.changeEmitter.event;
    this.t = (message, ...args) => vs.l10n.t(message, ...args);
    this._register(book.onDidChange(() => { this.refresh(); }));
  }

  refresh(): void {
    this.changeEmitter.fire(undefined);
  }

  /** A notification arrived: kept for the channel's children. */
  addNotification(notification: ReceivedNotification): void {
    const list = [notification, ...(this.recent.get(notification.channelId) ?? [])].slice(0, KEPT_NOTIFICATIONS);
    this.recent.set(notification.channelId, list);
  }

  notificationsOf(channelId: string): readonly ReceivedNotification[] {
    return this.recent.get(channelId) ?? [];
  }

  getChildren(node?: ChannelsNode): ChannelsNode[] {
    if (!node) {
      return this.book.list().sort((a, b) => a.created - b.created).map((record) => ({ kind: 'channel', id: `channel/${record.id}`, record }));
    }
    if (node.kind === 'channel') {
      return this.notificationsOf(node.record.id).map((notification) => ({ kind: 'notification', id: `notification/${node.record.id}/${notification.messageNumber}/${notification.receivedAt}`, parent: node, notification }));
    }
    return [];
  }

  getParent(node: ChannelsNode): ChannelsNode | undefined {
    return node.kind === 'notification' ? node.parent : undefined;
  }

  getTreeItem(node: ChannelsNode): vscode.TreeItem {
    const vs = this.vs;
    if (node.kind === 'channel') {
      const hasChildren = this.notificationsOf(node.record.id).length > 0;
      const item = new vs.TreeItem(channelLabel(node.record, this.t), hasChildren ? vs.TreeItemCollapsibleState.Collapsed : vs.TreeItemCollapsibleState.None);
      item.id = node.id;
      const live = node.record.expiration > this.now();
      item.description = channelDescription(node.record, this.now(), this.t);
      item.contextValue = channelContextValue(node.record, this.now());
      // Desk's own channels look apart from the user's: they come and go with the receiver.
      item.iconPath = new vs.ThemeIcon(!live ? 'circle-slash' : node.record.feed !== undefined ? 'zap' : 'broadcast');
      return item;
    }
    const item = new vs.TreeItem(notificationLabel(node.notification), vs.TreeItemCollapsibleState.None);
    item.id = node.id;
    item.description = notificationDescription(node.notification, this.clock);
    item.contextValue = 'notification';
    item.iconPath = new vs.ThemeIcon('bell');
    return item;
  }

  resolveTreeItem(item: vscode.TreeItem, node: ChannelsNode): vscode.TreeItem {
    if (node.kind === 'channel') {
      const hover = new this.vs.MarkdownString(channelTooltip(node.record, this.t, this.clock, this.now(), this.receiverAddress()));
      // For the ids' small print only: every text from a service in it is escaped or in code.
      hover.supportHtml = true;
      item.tooltip = hover;
    } else item.tooltip = [node.notification.resourceUri, node.notification.body ?? ''].filter((line) => line !== '').join('\n');
    return item;
  }
}
