/** What the Channels commands do once the user has answered: watch a target, stop a channel, renew one with an overlap (no vscode). */
import type { Channel, ChannelInput } from '../../api/channels';
import { GoogleApiError } from '../../api/errors';
import { ChannelBook, ChannelRecord, maxLifeMs, recordOf, serviceOf, WatchRequest, WatchTarget } from './model';
import type { ChannelsApi } from './port';
import { checkedWatchInput, newChannelId, Translate } from './validation';

export interface ChannelOperationsDeps {
  readonly api: () => ChannelsApi;
  readonly book: ChannelBook;
  readonly t: Translate;
  readonly now?: () => number;
  readonly log?: (message: string) => void;
  readonly newId?: () => string;
}

/** A channel whose watch is in flight: its `sync` message may arrive before the watch answers (the spec allows it). */
interface PendingChannel {
  readonly token: string | undefined;
  readonly feed: string | undefined;
  readonly early: { state: string; at: number }[];
}

export class ChannelOperations {
  private readonly now: () => number;
  private readonly pending = new Map<string, PendingChannel>();

  constructor(private readonly deps: ChannelOperationsDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Makes a channel on `target` delivering to `address` (checked first) and records it. */
  async watch(target: WatchTarget, request: WatchRequest): Promise<ChannelRecord> {
    const checked = checkedWatchInput({ address: request.address, token: request.token, id: (this.deps.newId ?? newChannelId)() }, this.deps.t);
    // Infinity or NaN would go out as `null`; a life longer than the service allows is cut to its maximum by the service.
    if (request.lifeMs !== undefined && !(Number.isFinite(request.lifeMs) && request.lifeMs > 0)) throw new RangeError(this.deps.t('A channel\'s life must be a number of seconds longer than zero.'));
    const input: ChannelInput = {
      id: checked.id,
      type: 'web_hook',
      address: checked.address,
      ...(checked.token ? { token: checked.token } : {}),
      ...(request.lifeMs !== undefined ? { expiration: Math.round(this.now() + request.lifeMs) } : {}),
    };
    const pending: PendingChannel = { token: checked.token, feed: request.feed, early: [] };
    this.pending.set(checked.id, pending);
    try {
      const channel = await this.send(target, input);
      const now = this.now();
      const record = recordOf(channel, target, { ...request, address: checked.address, token: checked.token }, now, now + maxLifeMs(target));
      await this.deps.book.add(record);
      // Messages that arrived before the watch answered count too.
      for (const message of pending.early) await this.deps.book.noteMessage(record.id, message.state, message.at);
      return this.deps.book.get(record.id) ?? record;
    } finally {
      this.pending.delete(checked.id);
    }
  }

  /** A channel being created, for the receiver: known (with its token) before its watch has answered. */
  pendingChannel(id: string): { token: string | undefined; feed?: string } | undefined {
    const pending = this.pending.get(id);
    return pending ? { token: pending.token, ...(pending.feed !== undefined ? { feed: pending.feed } : {}) } : undefined;
  }

  /** Keeps a message for a channel still being created; false when no such watch is in flight. */
  noteEarlyMessage(id: string, state: string, at: number): boolean {
    const pending = this.pending.get(id);
    if (!pending) return false;
    pending.early.push({ state, at });
    return true;
  }

  /** Stops a channel at its service and forgets it; one that expired or is already gone (404) is only forgotten. */
  async stop(record: ChannelRecord): Promise<void> {
    if (record.expiration > this.now()) {
      try {
        await this.sendStop(record);
      } catch (error) {
        if (!(error instanceof GoogleApiError && error.isNotFound)) throw error;
        this.deps.log?.(`Channels: ${record.id} was already gone at the service`);
      }
    }
    await this.deps.book.remove(record.id);
  }

  /**
   * A new channel (new id) on the same target, address and token, made before the old one expires so no change goes
   * unreported; then the old one is stopped. If stopping fails, the old one is forgotten anyway: it expires by itself.
   */
  async renew(record: ChannelRecord): Promise<ChannelRecord> {
    const renewed = await this.watch(record.target, { address: record.address, token: record.token, lifeMs: record.requestedLifeMs, feed: record.feed });
    try {
      await this.stop(record);
    } catch (error) {
      this.deps.log?.(`Channels: could not stop ${record.id} after renewing it: ${String(error)}`);
      await this.deps.book.remove(record.id);
    }
    return renewed;
  }

  private send(target: WatchTarget, input: ChannelInput): Promise<Channel> {
    const api = this.deps.api();
    switch (target.kind) {
      case 'driveChanges':
        return api.watchDriveChanges(input);
      case 'driveFile':
        return api.watchDriveFile(target.fileId, input);
      case 'calendarEvents':
        return api.watchCalendarEvents(target.calendarId, input);
      case 'calendarAcl':
        return api.watchCalendarAcl(target.calendarId, input);
      case 'calendarList':
        return api.watchCalendarList(input);
      case 'calendarSettings':
        return api.watchCalendarSettings(input);
      case 'directoryUsers':
        return api.watchDirectoryUsers(target.customer !== undefined ? { customer: target.customer } : { domain: target.domain ?? '' }, target.event, input);
    }
  }

  private sendStop(record: ChannelRecord): Promise<void> {
    const api = this.deps.api();
    const body = { id: record.id, resourceId: record.resourceId };
    switch (serviceOf(record.target)) {
      case 'drive':
        return api.stopDriveChannel(body);
      case 'calendar':
        return api.stopCalendarChannel(body);
      case 'directory':
        return api.stopDirectoryChannel(body);
    }
  }
}
