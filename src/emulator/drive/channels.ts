/**
 * Drive v2's notification channels: files.watch, changes.watch and channels.stop on the one channel registry, and the
 * hook that turns each recorded change into Drive's resource states (files: update, trash, untrash, remove; the change
 * feed: change).
 */
import { findUser } from '../identity/users';
import { ChannelRegistry, channelRegistryFor, WatchedResource } from '../core/channels';
import { requireUser } from '../core/context';
import type { Reply, RequestContext, Route } from '../core/router';
import type { Store } from '../store/store';
import { driveFeedKey } from './changes/model';
import type { ChangeRecord, StoredFile } from './files/model';
import { supportsAllDrives } from './files/allDrives';
import type { DriveService } from './service';

const HOUR_MS = 60 * 60 * 1000;
/** Google's Drive limits: a file channel lives at most a day, a changes channel a week; both an hour by default. */
export const DRIVE_FILE_CHANNEL_MAX_MS = 24 * HOUR_MS;
export const DRIVE_CHANGES_CHANNEL_MAX_MS = 7 * 24 * HOUR_MS;
export const DRIVE_CHANNEL_DEFAULT_MS = HOUR_MS;

const fileKey = (fileId: string): string => `drive/files/${fileId}`;
/** A user's change feed, or a shared drive's (`drive:<id>`, see driveFeedKey). */
const changesKey = (feed: string): string => `drive/changes/${feed}`;
const DRIVE_FEED_PREFIX = driveFeedKey('');

/** Publishes Drive's changes to the channels watching them; one per Drive service. */
class DriveChannels {
  /** Whether each watched file was in the trash when last seen: a change that flips it is `trash` or `untrash`. */
  private readonly trashed = new Map<string, boolean>();

  constructor(private readonly service: DriveService, readonly registry: ChannelRegistry) {
    // Channels of an earlier run: their files' state now is the state after the last acknowledged change.
    for (const key of registry.watchedKeys('drive/files/')) {
      const fileId = key.slice('drive/files/'.length);
      const channel = registry.channelsOn(key)[0];
      const file = channel ? this.fileFor(channel.userId, fileId) : undefined;
      if (file) this.trashed.set(fileId, file.trashed);
    }
    service.model.feed.onRecord((record) => this.onRecord(record));
  }

  watching(file: StoredFile): void {
    this.trashed.set(file.id, file.trashed);
  }

  private onRecord(record: ChangeRecord): void {
    this.registry.publish(changesKey(record.userId), 'change', { coalesce: true });
    // A shared drive's feed repeats what its members' feeds hold: the file's own channels hear it from those.
    if (record.userId.startsWith(DRIVE_FEED_PREFIX)) return;
    const key = fileKey(record.fileId);
    if (!this.registry.isWatched(key)) {
      this.trashed.delete(record.fileId);
      return;
    }
    const file = record.deleted ? undefined : this.fileFor(record.userId, record.fileId);
    let state: string;
    if (!file) state = 'remove';
    else if (file.trashed !== (this.trashed.get(file.id) ?? file.trashed)) state = file.trashed ? 'trash' : 'untrash';
    else state = 'update';
    if (file) this.trashed.set(file.id, file.trashed);
    else this.trashed.delete(record.fileId);
    this.registry.publish(key, state);
  }

  private fileFor(userId: string, fileId: string): StoredFile | undefined {
    const user = findUser(userId);
    if (!user) return undefined;
    try {
      return this.service.model.get(user, fileId);
    } catch {
      return undefined;
    }
  }
}

const hooks = new WeakMap<Store, DriveChannels>();

/** The Drive channel hook of a store (made once, when the Drive routes are registered). */
export function driveChannelsFor(service: DriveService, deps: { store: Store; now: () => number }): DriveChannels {
  let hook = hooks.get(deps.store);
  if (!hook) {
    hook = new DriveChannels(service, channelRegistryFor(deps));
    hooks.set(deps.store, hook);
  }
  return hook;
}

/** files.watch, changes.watch and channels.stop under /drive/v2. */
export function channelRoutes(service: DriveService, hook: DriveChannels): Route[] {
  const { registry } = hook;
  return [
    { id: 'drive.files.watch', method: 'POST', path: '/drive/v2/files/:fileId/watch', handle: watchFile },
    { id: 'drive.changes.watch', method: 'POST', path: '/drive/v2/changes/watch', handle: watchChanges },
    { id: 'drive.channels.stop', method: 'POST', path: '/drive/v2/channels/stop', handle: stopChannel },
  ];

  async function watchFile(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    // Only a caller who may see the file may watch it (404 otherwise, as files.get answers).
    const file = service.model.get(user, context.params.fileId as string);
    context.query.boolean('acknowledgeAbuse', false);
    context.query.boolean('updateViewedDate', false);
    context.query.enumValue('projection', ['BASIC', 'FULL'] as const);
    const resource: WatchedResource = {
      service: 'drive',
      key: fileKey(file.id),
      uri: `${context.baseUrl}/drive/v2/files/${encodeURIComponent(file.id)}?alt=json`,
      maxTtlMs: DRIVE_FILE_CHANNEL_MAX_MS,
      defaultTtlMs: DRIVE_CHANNEL_DEFAULT_MS,
    };
    const channel = await registry.watchFrom(context, resource);
    hook.watching(file);
    return { json: channel };
  }

  async function watchChanges(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    supportsAllDrives(context.query);
    context.query.boolean('includeItemsFromAllDrives', false);
    // driveId: that shared drive's feed, for its members only (404 otherwise, as changes.list answers).
    const driveId = context.query.string('driveId', 200) ?? context.query.string('teamDriveId', 200);
    if (driveId !== undefined) service.drives.get(user, driveId);
    const feed = driveId !== undefined ? driveFeedKey(driveId) : user.id;
    const driveQuery = driveId !== undefined ? `&driveId=${encodeURIComponent(driveId)}` : '';
    context.query.boolean('includeDeleted', true);
    context.query.boolean('includeSubscribed', true);
    context.query.integer('maxResults', { min: 1 });
    context.query.string('pageToken', 64);
    return {
      json: await registry.watchFrom(context, {
        service: 'drive',
        key: changesKey(feed),
        uri: `${context.baseUrl}/drive/v2/changes?alt=json${driveQuery}`,
        maxTtlMs: DRIVE_CHANGES_CHANNEL_MAX_MS,
        defaultTtlMs: DRIVE_CHANNEL_DEFAULT_MS,
      }),
    };
  }

  async function stopChannel(context: RequestContext): Promise<Reply> {
    await registry.stopFrom(context, 'drive');
    return { status: 204, empty: true };
  }
}
