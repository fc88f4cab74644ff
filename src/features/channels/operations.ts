/** What the Channels commands do once the user has answered: watch a target, stop a channel, renew one with an overlap (no vscode). */
import type { Channel, ChannelInput } from '../../api/channels';
import { GoogleApiError } from '../../api/errors';
import { ChannelBook, ChannelRecord, maxLifeMs, recordOf, serviceOf, WatchTarget } from './model';
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

export class ChannelOperations {
  private readonly now: () => number;

  constructor(private readonly deps: ChannelOperationsDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Makes a channel on `target` delivering to `address` (checked first) and records it. */
  async watch(target: WatchTarget, request: { address: string; token?: string | undefined }): Promise<ChannelRecord> {
    const checked = checkedWatchInput({ ...request, id: (this.deps.newId ?? newChannelId)() }, this.deps.t);
    const input: ChannelInput = { id: checked.id, type: 'web_hook', address: checked.address, ...(checked.token ? { token: checked.token } : {}) };
    const channel = await this.send(target, input);
    const now = this.now();
    const record = recordOf(channel, target, { address: checked.address, token: checked.token }, now, now + maxLifeMs(target));
    await this.deps.book.add(record);
    return record;
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
    const renewed = await this.watch(record.target, { address: record.address, token: record.token });
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
