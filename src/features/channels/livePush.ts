/**
 * Desk's own channels for push-driven sync feeds (Drive's live changes): one is made when the feed's poller wants push
 * and the built-in receiver runs, is renewed like any channel (always, whatever `desk.channels.autoRenew` says), and is
 * stopped when the receiver stops or the poller no longer wants it. The hub hears when push works (the channel is live
 * and has delivered to this receiver) and of every change notification (no vscode).
 */
import { randomBytes } from 'node:crypto';
import type { PushHub } from '../../core/sync/push';
import type { DriveChangesFeed } from '../drive';
import type { ChannelBook, ChannelRecord, WatchTarget } from './model';
import type { ChannelOperations } from './operations';

const DRIVE_FEED: DriveChangesFeed = 'drive.changes';

/** The feeds Desk can serve by push, and what each one's channel watches. */
const FEED_TARGETS: ReadonlyMap<string, WatchTarget> = new Map([[DRIVE_FEED, { kind: 'driveChanges' }]]);

export interface LivePushDeps {
  readonly hub: PushHub;
  readonly book: ChannelBook;
  readonly operations: Pick<ChannelOperations, 'watch' | 'stop' | 'pendingChannel'>;
  /** The built-in receiver's address while it runs. */
  receiverAddress(): string | undefined;
  /** Signed in, with a running backend that can deliver to the built-in receiver (the emulator). */
  available(): boolean;
  readonly log: (message: string) => void;
  readonly now?: () => number;
  readonly newToken?: () => string;
}

export class LivePush {
  /** Feeds whose channel delivered at least one message to the running receiver (the path works; a renewal keeps it). */
  private readonly delivered = new Set<string>();
  private readonly subscriptions: Array<{ dispose(): unknown }> = [];
  private running: Promise<void> | undefined;
  private again = false;
  private expiryTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  private readonly now: () => number;

  constructor(private readonly deps: LivePushDeps) {
    this.now = deps.now ?? Date.now;
    for (const feed of FEED_TARGETS.keys()) {
      this.subscriptions.push(deps.hub.onEvent(feed, (event) => {
        if (event.kind === 'wanted') void this.reconcile();
      }));
    }
    // A renewal, a stop from the view or an expiry changes which channel (if any) carries a feed.
    this.subscriptions.push(deps.book.onDidChange(() => { this.updateLive(); }));
  }

  /** The channel (if any) Desk made for `feed` in the shown account. */
  channelsOf(feed: string): ChannelRecord[] {
    return this.deps.book.list().filter((record) => record.feed === feed);
  }

  /** The receiver started or stopped, the backend or the account changed: make or stop channels as needed. */
  changed(): Promise<void> {
    this.delivered.clear();
    this.updateLive();
    return this.reconcile();
  }

  /** A notification the receiver accepted: for Desk's own channel, push works and its feed hears of the change. */
  noteNotification(channelId: string, resourceState: string): void {
    const feed = this.deps.book.findAnywhere(channelId)?.feed ?? this.deps.operations.pendingChannel(channelId)?.feed;
    if (feed === undefined) return;
    this.delivered.add(feed);
    if (resourceState !== 'sync') this.deps.hub.notify(feed);
    this.updateLive();
  }

  /** Makes and stops channels until they match what is wanted; runs one at a time, again if asked meanwhile. */
  reconcile(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        for (const [feed, target] of FEED_TARGETS) await this.reconcileFeed(feed, target);
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set again by a call made while this awaited
      } while (this.again && !this.disposed);
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async reconcileFeed(feed: string, target: WatchTarget): Promise<void> {
    const address = this.deps.receiverAddress();
    const available = this.deps.available();
    // Without a backend to talk to, channels are left as they are (they expire by themselves).
    if (!available) return;
    const wanted = !this.disposed && address !== undefined && this.deps.hub.isWanted(feed);
    const now = this.now();
    const mine = this.channelsOf(feed);
    const keep = mine.filter((record) => wanted && record.address === address && record.expiration > now);
    if (keep.length === 0) this.delivered.delete(feed);
    for (const record of mine.filter((candidate) => !keep.includes(candidate))) {
      try {
        await this.deps.operations.stop(record);
      } catch (error) {
        this.deps.log(`Channels: could not stop ${record.id} (${feed}): ${String(error)}`);
      }
    }
    if (!wanted || keep.length > 0) return;
    try {
      const token = (this.deps.newToken ?? (() => randomBytes(18).toString('base64url')))();
      const record = await this.deps.operations.watch(target, { address, token, feed });
      this.deps.log(`Channels: ${record.id} pushes ${feed} to the built-in receiver`);
    } catch (error) {
      // The poller keeps its normal pace; the next receiver start or sign-in tries again.
      this.deps.log(`Channels: could not make a channel for ${feed}: ${String(error)}`);
    }
  }

  /**
   * Push works for a feed while one of Desk's channels for it is live and delivers to the running receiver, which has
   * had a message for the feed (so the path works; a renewed channel to the same address keeps it working).
   */
  updateLive(): void {
    clearTimeout(this.expiryTimer);
    this.expiryTimer = undefined;
    const now = this.now();
    const address = this.disposed ? undefined : this.deps.receiverAddress();
    let nextExpiry: number | undefined;
    for (const feed of FEED_TARGETS.keys()) {
      const live = address !== undefined && this.delivered.has(feed)
        ? this.channelsOf(feed).filter((record) => record.expiration > now && record.address === address)
        : [];
      this.deps.hub.setLive(feed, live.length > 0);
      for (const record of live) nextExpiry = nextExpiry === undefined ? record.expiration : Math.min(nextExpiry, record.expiration);
    }
    // An expiry without a renewal ends push: the poller goes back to its own pace then.
    if (nextExpiry !== undefined) this.expiryTimer = setTimeout(() => { this.updateLive(); }, Math.min(2 ** 31 - 1, nextExpiry - now + 1));
  }

  /** Stops Desk's own channels (best effort: the window is closing) and tells the hub push is over. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
    clearTimeout(this.expiryTimer);
    for (const feed of FEED_TARGETS.keys()) {
      this.deps.hub.setLive(feed, false);
      if (this.deps.available()) for (const record of this.channelsOf(feed)) void this.deps.operations.stop(record).catch(() => undefined);
    }
  }
}
