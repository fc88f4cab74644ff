/**
 * The one registry of notification channels, shared by every service's `watch` and `channels.stop`: it validates a
 * watch (fields, limits, the receiver's certificate over TLS), records channels durably with an index by resource,
 * enforces who may stop a channel, and hands each change of a watched resource to the delivery queue, so services
 * only name the resource they watch and publish its changes.
 */
import { createHash } from 'node:crypto';
import type { SecureContext } from 'node:tls';
import * as z from '../../shared/schemas/zod';
import type { EmulatorUser } from '../identity/users';
import type { Store, Collection } from '../store/store';
import { CertificateAuthority, checkReceiverCertificate, trustContext, trustedCertificates } from './certificates';
import { ChannelDelivery, DeliveryOptions } from './channelDelivery';
import { ApiError, invalid, notFound, required } from './errors';
import { DEFAULT_WATCH_NETWORK, WatchNetworkOptions, WatchNetworkPolicy } from './watchNetwork';
import { parseBody } from './params';
import type { RequestContext } from './router';

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
  expiration: z.optional(z.union([z.string(), z.number()])),
  resourceUri: z.optional(z.string()),
});

/** What a service says about the resource being watched. */
export interface WatchedResource {
  /** Which service stops this channel (`/<service>/.../channels/stop` only stops its own). */
  service: string;
  /** A stable description of the resource (e.g. `drive/files/<id>`); resourceId derives from it, whatever the API version. */
  key: string;
  /** The resourceUri answered to the client, with the version-specific path. */
  uri: string;
  /** The longest life a channel on this kind of resource may have, in ms (the service's own maximum). */
  maxTtlMs: number;
  /** The life of a channel that asks for none (defaults to the maximum). */
  defaultTtlMs?: number;
  /** Only these resource states are delivered (the directory's `event`); `sync` always is. */
  events?: readonly string[];
}

/** Who made a call: the principal and the OAuth client of its token (the stop rules need both). */
export interface Caller {
  user: EmulatorUser;
  clientId: string;
}

export interface StoredChannel {
  id: string;
  resourceId: string;
  resourceKey: string;
  resourceUri: string;
  service: string;
  userId: string;
  /** The OAuth client of the token that created the channel ('' for channels stored before clients were recorded). */
  clientId?: string;
  /** A service account's channel may be stopped by any user of the same client. */
  principal?: 'user' | 'serviceAccount';
  address: string;
  token?: string;
  /** Epoch ms. */
  expiration: number;
  /** Written by older emulators; never read (params.ttl is read at the watch). */
  params?: Record<string, string>;
  events?: string[];
  created: number;
}

export interface ChannelResource {
  kind: 'api#channel';
  id: string;
  resourceId: string;
  resourceUri: string;
  token?: string;
  /**
   * Epoch ms as a string of digits: the discovery documents declare it `type: string, format: int64`, as Google
   * encodes every int64 in JSON, and generated clients (Go's `,string` tag) refuse a number.
   */
  expiration?: string;
}

/** What a published change carries to each channel on the resource. */
export interface PublishOptions {
  /** The JSON body of the message, built per channel (its etag differs per message); none for body-less kinds. */
  body?: (channel: StoredChannel, messageNumber: number) => unknown;
  /** Skip the message when the channel already has one of the same state waiting (Drive's `change`, Calendar's `exists`). */
  coalesce?: boolean;
}

export const MAX_CHANNEL_ID = 64;
export const MAX_CHANNEL_TOKEN = 256;
/**
 * The longest receiver address the emulator keeps (its own bound; Google publishes none): every channel holds its
 * address for up to a week, so its size, times the channels, is memory and journal.
 */
export const MAX_CHANNEL_ADDRESS = 2048;
/**
 * Live channels one user may hold across all services (the emulator's bound; Google publishes none): each keeps
 * its record and queue for up to a week, so a client watching in a loop would otherwise grow memory and journal.
 */
export const MAX_CHANNELS_PER_USER = 1000;
/** How often expired channels (and their queued messages) are swept away. */
const SWEEP_MS = 30_000;

/** Opaque and stable: the same resource gets the same resourceId, whichever API version watched it. */
export function resourceIdOf(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 27);
}

export class ChannelRegistry {
  private readonly channels: Collection<StoredChannel>;
  private readonly byResource = new Map<string, Set<string>>();
  private authority: CertificateAuthority | undefined;
  private trust: SecureContext | undefined;
  readonly delivery: ChannelDelivery;
  /** Which networks receivers may be on (the resolver is replaceable, for tests). */
  readonly network: WatchNetworkPolicy;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly store: Store, private readonly now: () => number, private readonly extraTrust: readonly string[] = [], networkOptions: WatchNetworkOptions = DEFAULT_WATCH_NETWORK) {
    this.network = new WatchNetworkPolicy(networkOptions);
    this.channels = store.collection<StoredChannel>('channels');
    this.delivery = new ChannelDelivery(store, (id) => this.live(id), () => this.trustedContext(), this.network);
    for (const channel of [...this.channels.values()]) {
      if (channel.expiration <= now()) this.end(channel.id);
      else this.index(channel);
    }
    this.delivery.resume();
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  /** The emulator's CA: from the data directory (created there on first use) or, in memory mode, made on first use. */
  certificateAuthority(): CertificateAuthority {
    this.authority ??= this.store.dataDir ? CertificateAuthority.openOrCreate(this.store.dataDir) : CertificateAuthority.create();
    return this.authority;
  }

  /** What receivers' certificates are checked against: the emulator's CA, the system store and `--trust-ca` files. */
  trustedContext(): SecureContext {
    this.trust ??= trustContext(trustedCertificates(this.certificateAuthority(), this.extraTrust));
    return this.trust;
  }

  /** Tests and benchmarks tune retries; the defaults are the documented policy. */
  configureDelivery(options: Partial<DeliveryOptions>): void {
    this.delivery.configure(options);
  }

  /** The principal and OAuth client of an authenticated request. */
  callerOf(context: RequestContext): Caller {
    const user = context.user;
    if (!user) throw new ApiError(401, 'required', 'Login Required.', { location: 'Authorization', locationType: 'header' });
    return { user, clientId: context.grant?.clientId ?? '' };
  }

  /** A watch from a request: the caller, the body, the resource the route resolved (after its own access check). */
  async watchFrom(context: RequestContext, resource: WatchedResource): Promise<ChannelResource> {
    const caller = this.callerOf(context);
    return this.watch(caller, await context.json(), resource);
  }

  /** Validates a watch request, checks the receiver's certificate and records the channel; a `sync` message follows. */
  async watch(caller: Caller, body: unknown, resource: WatchedResource): Promise<ChannelResource> {
    const request = parseBody(channelRequestSchema, body);
    if (!request.id) throw required('id', 'body');
    if (request.id.length > MAX_CHANNEL_ID) throw invalid(`Channel id must be at most ${MAX_CHANNEL_ID} characters`, 'id', 'body');
    if (!/^[A-Za-z0-9\-_+/=]+$/.test(request.id)) throw invalid('Channel id may contain only letters, digits and - _ + / =', 'id', 'body');
    this.assertUnique(request.id);
    if (request.token !== undefined && request.token.length > MAX_CHANNEL_TOKEN) throw invalid(`Channel token must be at most ${MAX_CHANNEL_TOKEN} characters`, 'token', 'body');
    if (!request.type) throw required('type', 'body');
    if (request.type !== 'web_hook' && request.type !== 'webhook') throw invalid(`Unknown channel type: ${request.type}. Use web_hook.`, 'type', 'body');
    if (!request.address) throw required('address', 'body');
    if (request.address.length > MAX_CHANNEL_ADDRESS) throw invalid(`WebHook address must be at most ${MAX_CHANNEL_ADDRESS} characters`, 'address', 'body');
    let address: URL;
    try {
      address = new URL(request.address);
    } catch {
      throw invalid(`Invalid channel address: ${request.address}`, 'address', 'body');
    }
    if (address.protocol !== 'https:') throw invalid(`WebHook callback must be HTTPS: ${request.address}`, 'address', 'body');
    if (address.username !== '' || address.password !== '') throw invalid('WebHook callback must not carry credentials', 'address', 'body');

    const now = this.now();
    const expiration = expirationOf(request.expiration, request.params?.ttl, resource, now);
    this.assertUnderUserCap(caller.user.id);
    // Where the address leads is checked before anything connects there; the certificate check then connects only
    // to the address that passed.
    const [connectTo] = await this.network.addressesOf(address);
    await checkReceiverCertificate(address, this.trustedContext(), undefined, connectTo);
    // The check took a while: another watch may have taken the id (or the user's last channel) meanwhile.
    this.assertUnique(request.id);
    this.assertUnderUserCap(caller.user.id);
    const stored: StoredChannel = {
      id: request.id,
      resourceId: resourceIdOf(resource.key),
      resourceKey: resource.key,
      resourceUri: resource.uri,
      service: resource.service,
      userId: caller.user.id,
      clientId: caller.clientId,
      principal: caller.user.kind === 'serviceAccount' ? 'serviceAccount' : 'user',
      address: address.href,
      expiration,
      created: now,
      ...(request.token !== undefined ? { token: request.token } : {}),
      // params are read at the watch (ttl) and never again: a channel keeps none of them, whatever their size.
      ...(resource.events ? { events: [...resource.events] } : {}),
    };
    this.channels.set(stored.id, stored);
    this.index(stored);
    this.delivery.enqueueSync(stored);
    return renderChannel(stored);
  }

  /** channels.stop from a request. */
  async stopFrom(context: RequestContext, service: string): Promise<void> {
    const caller = this.callerOf(context);
    this.stop(caller, await context.json(), service);
  }

  /**
   * channels.stop: a user's channel only by the same user through the same OAuth client; a service account's
   * channel by any user of the same client; only through the service that made it.
   */
  stop(caller: Caller, body: unknown, service: string): void {
    const request = parseBody(channelStopSchema, body);
    if (!request.id) throw required('id', 'body');
    if (!request.resourceId) throw required('resourceId', 'body');
    const channel = this.live(request.id);
    if (!channel || channel.resourceId !== request.resourceId || channel.service !== service) {
      throw notFound(`Channel '${request.id}' not found for resource id '${request.resourceId}'.`);
    }
    const sameClient = (channel.clientId ?? '') === caller.clientId;
    const allowed = channel.principal === 'serviceAccount' ? sameClient : sameClient && channel.userId === caller.user.id;
    if (!allowed) {
      const rule = channel.principal === 'serviceAccount'
        ? 'A channel created by a service account may be stopped only by a user of the same OAuth client.'
        : 'A channel may be stopped only by the user who created it, through the same OAuth client.';
      throw new ApiError(403, 'forbidden', rule);
    }
    this.end(channel.id);
  }

  /**
   * A change of a watched resource: one message to each live channel on it whose events include `state`. Returns
   * the number of channels the message was queued for. Call it after the change itself is written to the store.
   */
  publish(resourceKey: string, state: string, options: PublishOptions = {}): number {
    const ids = this.byResource.get(resourceKey);
    if (!ids || ids.size === 0) return 0;
    const now = this.now();
    const targets: StoredChannel[] = [];
    for (const id of [...ids]) {
      const channel = this.channels.get(id);
      if (!channel) continue;
      if (channel.expiration <= now) {
        this.end(id);
        continue;
      }
      if (channel.events && !channel.events.includes(state)) continue;
      targets.push(channel);
    }
    if (targets.length === 0) return 0;
    // One number for the whole change: numbers rise within each channel, and the counter is written once.
    const number = this.delivery.nextNumber();
    for (const channel of targets) {
      const body = options.body?.(channel, number);
      this.delivery.enqueue(channel, number, state, body === undefined ? undefined : JSON.stringify(body), options.coalesce ?? false);
    }
    return targets.length;
  }

  /** Whether any live channel watches the resource (services skip building messages otherwise). */
  isWatched(resourceKey: string): boolean {
    return (this.byResource.get(resourceKey)?.size ?? 0) > 0;
  }

  /** The keys of watched resources that start with `prefix` (services rebuild their own state for them at startup). */
  watchedKeys(prefix: string): string[] {
    return [...this.byResource.keys()].filter((key) => key.startsWith(prefix));
  }

  /** Live channels on one resource. */
  channelsOn(resourceKey: string): StoredChannel[] {
    return [...(this.byResource.get(resourceKey) ?? [])].map((id) => this.live(id)).filter((channel): channel is StoredChannel => channel !== undefined);
  }

  get(id: string): StoredChannel | undefined {
    return this.channels.get(id);
  }

  /** Stops delivery and timers (the emulator is closing); the channels and queued messages stay in the store. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await this.delivery.close();
  }

  /** A channel that exists and has not expired (an expired one is ended as it is met). */
  private live(id: string): StoredChannel | undefined {
    const channel = this.channels.get(id);
    if (!channel) return undefined;
    if (channel.expiration <= this.now()) {
      this.end(id);
      return undefined;
    }
    return channel;
  }

  /** 403 `limitExceeded` when the user already holds the most live channels allowed. */
  private assertUnderUserCap(userId: string): void {
    const now = this.now();
    let held = 0;
    for (const channel of this.channels.values()) if (channel.userId === userId && channel.expiration > now) held++;
    if (held >= MAX_CHANNELS_PER_USER) {
      throw new ApiError(403, 'limitExceeded', `A user may hold at most ${MAX_CHANNELS_PER_USER} live notification channels; stop some (channels.stop) or let them expire.`, { domain: 'usageLimits' });
    }
  }

  private assertUnique(id: string): void {
    if (this.live(id)) throw new ApiError(400, 'channelIdNotUnique', `Channel id ${id} not unique`, { location: 'id', locationType: 'body' });
  }

  private end(id: string): void {
    const channel = this.channels.get(id);
    if (channel) {
      this.byResource.get(channel.resourceKey)?.delete(id);
      if (this.byResource.get(channel.resourceKey)?.size === 0) this.byResource.delete(channel.resourceKey);
      this.channels.delete(id);
    }
    this.delivery.drop(id);
  }

  private index(channel: StoredChannel): void {
    let ids = this.byResource.get(channel.resourceKey);
    if (!ids) {
      ids = new Set();
      this.byResource.set(channel.resourceKey, ids);
    }
    ids.add(channel.id);
  }

  private sweep(): void {
    const now = this.now();
    let ended = false;
    for (const channel of [...this.channels.values()]) {
      if (channel.expiration <= now) {
        this.end(channel.id);
        ended = true;
      }
    }
    if (ended) void this.store.flush().catch(() => undefined);
  }
}

/** The more restrictive of the requested expiration, params.ttl (seconds, as Google reads it) and the service's maximum. */
export function expirationOf(requested: string | number | undefined, ttlSeconds: string | undefined, resource: Pick<WatchedResource, 'maxTtlMs' | 'defaultTtlMs'>, now: number): number {
  const candidates = [now + resource.maxTtlMs];
  if (requested !== undefined && requested !== '') {
    // An int64 in JSON: Google's string of digits, or a number (both are accepted, as Google does).
    const value = typeof requested === 'string' && !/^\d+$/.test(requested) ? Number.NaN : Number(requested);
    if (!Number.isFinite(value) || value <= 0 || !Number.isInteger(value)) throw invalid(`Invalid value for expiration: ${String(requested)}`, 'expiration', 'body');
    if (value <= now) throw invalid('Channel expiration is in the past', 'expiration', 'body');
    candidates.push(value);
  }
  if (ttlSeconds !== undefined) {
    if (!/^\d{1,12}$/.test(ttlSeconds) || Number(ttlSeconds) === 0) throw invalid(`Invalid value for params.ttl: ${ttlSeconds}`, 'params.ttl', 'body');
    candidates.push(now + Number(ttlSeconds) * 1000);
  }
  // Neither asked for: the service's default life.
  if (candidates.length === 1 && resource.defaultTtlMs !== undefined) candidates.push(now + resource.defaultTtlMs);
  return Math.min(...candidates);
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

/** Extra CAs (`--trust-ca`) per store, set by the emulator before any service asks for the registry. */
const extraTrustByStore = new WeakMap<Store, readonly string[]>();
const watchNetworkByStore = new WeakMap<Store, WatchNetworkOptions>();
const registries = new WeakMap<Store, ChannelRegistry>();

/** Sets the `--trust-ca` certificates of an emulator's store; call before the first `channelRegistryFor`. */
export function configureChannelTrust(store: Store, extraCertificates: readonly string[]): void {
  extraTrustByStore.set(store, extraCertificates);
}

/** Sets the networks an emulator's receivers may be on (`--allow-watch-network`, `--no-loopback-watch`); call before the first `channelRegistryFor`. */
export function configureWatchNetwork(store: Store, options: WatchNetworkOptions): void {
  new WatchNetworkPolicy(options); // a malformed range fails here, at startup
  watchNetworkByStore.set(store, options);
}

/** One registry per store, as each service model is one per store. */
export function channelRegistryFor(deps: { store: Store; now: () => number }): ChannelRegistry {
  let registry = registries.get(deps.store);
  if (!registry) {
    registry = new ChannelRegistry(deps.store, deps.now, extraTrustByStore.get(deps.store) ?? [], watchNetworkByStore.get(deps.store) ?? DEFAULT_WATCH_NETWORK);
    registries.set(deps.store, registry);
  }
  return registry;
}

/** Stops delivery for a store's registry, if one was made (the emulator is closing). */
export async function closeChannels(store: Store): Promise<void> {
  await registries.get(store)?.close();
}
