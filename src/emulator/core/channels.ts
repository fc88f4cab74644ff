/**
 * The one registry of notification channels, shared by every service's `watch` and `channels.stop`. A watch
 * validates the channel request, records the channel durably and answers `api#channel`; delivering
 * notifications to the channel's address is added on top of this registry (the channels issue), so services
 * only name the resource they watch.
 */
import { createHash } from 'node:crypto';
import * as z from '../../shared/schemas/zod';
import type { EmulatorUser } from '../auth/users';
import type { Store, Collection } from '../store/store';
import { ApiError, invalid, notFound, required } from './errors';
import { parseBody } from './params';
import { perStore } from './perStore';

/** The watch request body, as every Google API takes it. */
export const channelRequestSchema = z.object({
  id: z.optional(z.string()),
  token: z.optional(z.string()),
  type: z.optional(z.string()),
  address: z.optional(z.string()),
  expiration: z.optional(z.union([z.string(), z.number()])),
  params: z.optional(z.record(z.string(), z.string())),
  payload: z.optional(z.boolean()),
  kind: z.optional(z.string()),
  resourceId: z.optional(z.string()),
  resourceUri: z.optional(z.string()),
});

export const channelStopSchema = z.object({
  id: z.optional(z.string()),
  resourceId: z.optional(z.string()),
  kind: z.optional(z.string()),
  token: z.optional(z.string()),
  address: z.optional(z.string()),
  type: z.optional(z.string()),
});

/** What a service says about the resource being watched. */
export interface WatchedResource {
  /** Which service stops this channel (`/<service>/.../channels/stop` only stops its own). */
  service: string;
  /** A stable description of the resource (e.g. `drive/files/<id>`); resourceId derives from it. */
  key: string;
  /** The resourceUri answered to the client, with the version-specific path. */
  uri: string;
  /** The longest life a channel on this kind of resource may have, in ms. */
  maxTtlMs: number;
}

export interface StoredChannel {
  id: string;
  resourceId: string;
  resourceKey: string;
  resourceUri: string;
  service: string;
  userId: string;
  address: string;
  token?: string;
  /** Epoch ms. */
  expiration: number;
  params?: Record<string, string>;
  created: number;
}

export interface ChannelResource {
  kind: 'api#channel';
  id: string;
  resourceId: string;
  resourceUri: string;
  token?: string;
  expiration?: string;
}

const MAX_ID = 64;
const MAX_TOKEN = 256;

/** Opaque and stable: the same resource gets the same resourceId, whichever API version watched it. */
export function resourceIdOf(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 27);
}

export class ChannelRegistry {
  private readonly channels: Collection<StoredChannel>;

  constructor(store: Store, private readonly now: () => number) {
    this.channels = store.collection<StoredChannel>('channels');
  }

  /** Validates a watch request body and records the channel; the answer is the `api#channel` resource. */
  watch(user: EmulatorUser, body: unknown, resource: WatchedResource): ChannelResource {
    const request = parseBody(channelRequestSchema, body);
    if (!request.id) throw required('id', 'body');
    if (request.id.length > MAX_ID) throw invalid(`Channel id must be at most ${MAX_ID} characters`, 'id', 'body');
    if (!/^[A-Za-z0-9\-_+/=]+$/.test(request.id)) throw invalid('Channel id may contain only letters, digits and - _ + / =', 'id', 'body');
    if (this.channels.has(request.id)) throw new ApiError(400, 'channelIdNotUnique', `Channel id ${request.id} not unique`);
    if (request.token !== undefined && request.token.length > MAX_TOKEN) throw invalid(`Channel token must be at most ${MAX_TOKEN} characters`, 'token', 'body');
    if (!request.type) throw required('type', 'body');
    if (request.type !== 'web_hook' && request.type !== 'webhook') throw invalid(`Unknown channel type: ${request.type}. Use web_hook.`, 'type', 'body');
    if (!request.address) throw required('address', 'body');
    let address: URL;
    try {
      address = new URL(request.address);
    } catch {
      throw invalid(`Invalid channel address: ${request.address}`, 'address', 'body');
    }
    if (address.protocol !== 'https:') throw invalid('WebHook callback must be HTTPS: ' + request.address, 'address', 'body');

    const now = this.now();
    const expiration = this.expirationOf(request.expiration, request.params?.ttl, resource.maxTtlMs, now);
    const stored: StoredChannel = {
      id: request.id,
      resourceId: resourceIdOf(resource.key),
      resourceKey: resource.key,
      resourceUri: resource.uri,
      service: resource.service,
      userId: user.id,
      address: request.address,
      expiration,
      created: now,
      ...(request.token !== undefined ? { token: request.token } : {}),
      ...(request.params ? { params: request.params } : {}),
    };
    this.channels.set(stored.id, stored);
    return renderChannel(stored);
  }

  /** channels.stop: only the creator may stop a channel, and only through the service that made it. */
  stop(user: EmulatorUser, body: unknown, service: string): void {
    const request = parseBody(channelStopSchema, body);
    if (!request.id) throw required('id', 'body');
    if (!request.resourceId) throw required('resourceId', 'body');
    const channel = this.channels.get(request.id);
    if (!channel || channel.resourceId !== request.resourceId || channel.service !== service) {
      throw notFound(`Channel '${request.id}' not found for resource id '${request.resourceId}'.`);
    }
    if (channel.userId !== user.id) throw new ApiError(403, 'forbidden', 'Only the creator of a channel may stop it.');
    this.channels.delete(channel.id);
  }

  /** Live channels on one resource (expired ones are dropped as they are met). */
  channelsOn(resourceKey: string): StoredChannel[] {
    const now = this.now();
    const live: StoredChannel[] = [];
    for (const channel of [...this.channels.values()]) {
      if (channel.expiration <= now) this.channels.delete(channel.id);
      else if (channel.resourceKey === resourceKey) live.push(channel);
    }
    return live;
  }

  get(id: string): StoredChannel | undefined {
    return this.channels.get(id);
  }

  private expirationOf(requested: string | number | undefined, ttlSeconds: string | undefined, maxTtlMs: number, now: number): number {
    let expiration = now + maxTtlMs;
    if (requested !== undefined && requested !== '') {
      const value = Number(requested);
      if (!Number.isFinite(value) || value <= 0) throw invalid(`Invalid value for expiration: ${String(requested)}`, 'expiration', 'body');
      if (value <= now) throw invalid('Channel expiration is in the past', 'expiration', 'body');
      expiration = Math.min(expiration, value);
    }
    if (ttlSeconds !== undefined) {
      if (!/^\d+$/.test(ttlSeconds) || Number(ttlSeconds) === 0) throw invalid(`Invalid value for params.ttl: ${ttlSeconds}`, 'params.ttl', 'body');
      expiration = Math.min(expiration, now + Number(ttlSeconds) * 1000);
    }
    return expiration;
  }
}

export function renderChannel(channel: StoredChannel): ChannelResource {
  return {
    kind: 'api#channel',
    id: channel.id,
    resourceId: channel.resourceId,
    resourceUri: channel.resourceUri,
    ...(channel.token !== undefined ? { token: channel.token } : {}),
    expiration: String(channel.expiration),
  };
}

/** One registry per store, as each service model is one per store. */
export const channelRegistryFor = perStore((deps) => new ChannelRegistry(deps.store, deps.now));
