/**
 * Delivers channel messages to receivers over HTTPS, durably and in order per channel: messages are queued in the
 * store (in the same journal batch as the change they report), sent only once that batch is durable, one at a time
 * per channel, retried with bounded exponential backoff on 500/502/503/504 and connection failures, and removed once
 * delivered or failed. Pending messages survive a restart and are sent when the emulator starts again.
 */
import { createHash } from 'node:crypto';
import * as https from 'node:https';
import { isIP } from 'node:net';
import * as tls from 'node:tls';
import type { Collection, Store } from '../store/store';
import type { StoredChannel } from './channels';
import { REFUSED_CODE, type WatchNetworkPolicy } from './watchNetwork';

/** A message waiting for its channel's receiver. */
export interface QueuedMessage {
  channelId: string;
  number: number;
  state: string;
  /** The JSON body, already serialised; absent for body-less messages (sync, Drive and Calendar states). */
  body?: string;
}

/** The retry policy (documented in the README). */
export interface DeliveryOptions {
  /** The wait before the first retry; each further retry waits twice as long. */
  initialDelayMs: number;
  /** The longest wait between two attempts. */
  maxDelayMs: number;
  /** Attempts per message, the first included; after the last the message counts as failed. */
  maxAttempts: number;
  /** A receiver that has not answered after this long counts as unavailable (retried). */
  timeoutMs: number;
  /** Connections kept to one receiver at most (more requests wait for one of them). */
  maxSocketsPerHost: number;
}

export const DEFAULT_DELIVERY: DeliveryOptions = {
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  maxAttempts: 10,
  timeoutMs: 10_000,
  maxSocketsPerHost: 64,
};

/** What the receiver's answer means for the message (the spec's table of receiver statuses). */
export type Outcome = 'delivered' | 'retry' | 'failed';

const SUCCESS: ReadonlySet<number> = new Set([200, 201, 202, 204, 102]);
const RETRIED: ReadonlySet<number> = new Set([500, 502, 503, 504]);

export function outcomeOf(status: number): Outcome {
  if (SUCCESS.has(status)) return 'delivered';
  if (RETRIED.has(status)) return 'retry';
  return 'failed';
}

/** Certificate problems do not go away by waiting: the message fails instead of being retried. */
const CERTIFICATE_ERRORS = /CERT|SELF_SIGNED|UNABLE_TO_|ERR_TLS_CERT_ALTNAME_INVALID/;

/** The wait before attempt `attempt + 1` (attempt counts from 1). */
export function backoffMs(attempt: number, options: Pick<DeliveryOptions, 'initialDelayMs' | 'maxDelayMs'>): number {
  return Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** (attempt - 1));
}

const SYNC_NUMBER = 1;

function outboxKey(message: Pick<QueuedMessage, 'channelId' | 'number'>): string {
  return `${message.channelId}\n${String(message.number).padStart(16, '0')}`;
}

export class ChannelDelivery {
  private readonly outbox: Collection<QueuedMessage>;
  private readonly meta: Collection<{ value: number }>;
  private readonly queues = new Map<string, QueuedMessage[]>();
  /** Channels whose pump is running (one message in flight per channel: that is what keeps them in order). */
  private readonly pumping = new Set<string>();
  /** Channels with new messages, started once the store has made them durable. */
  private readonly dirty = new Set<string>();
  private kickScheduled = false;
  private flushScheduled = false;
  private readonly waits = new Map<NodeJS.Timeout, () => void>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;
  private options: DeliveryOptions = { ...DEFAULT_DELIVERY };
  private agent: https.Agent | undefined;

  constructor(
    private readonly store: Store,
    private readonly channelOf: (id: string) => StoredChannel | undefined,
    private readonly trusted: () => tls.SecureContext,
    private readonly network?: WatchNetworkPolicy,
  ) {
    this.outbox = store.collection<QueuedMessage>('channels.outbox');
    this.meta = store.collection<{ value: number }>('channels.meta');
    const messages = [...this.outbox.values()].sort((a, b) => a.number - b.number);
    for (const message of messages) this.queueOf(message.channelId).push(message);
  }

  configure(options: Partial<DeliveryOptions>): void {
    this.options = { ...this.options, ...options };
    // New requests use the new limits; the old agent's sockets finish what they carry and close when idle.
    this.agent = undefined;
  }

  /** Starts delivering what an earlier run left queued (or drops it when its channel is gone). */
  resume(): void {
    for (const channelId of [...this.queues.keys()]) {
      if (!this.channelOf(channelId)) this.drop(channelId);
      else this.dirty.add(channelId);
    }
    if (this.dirty.size > 0) this.scheduleKick();
  }

  /** A message number for one change: global and rising, so rising within every channel; 1 is the sync's. */
  nextNumber(): number {
    const value = Math.max(SYNC_NUMBER, this.meta.get('messageNumber')?.value ?? SYNC_NUMBER) + 1;
    this.meta.set('messageNumber', { value });
    return value;
  }

  enqueueSync(channel: StoredChannel): void {
    this.enqueue(channel, SYNC_NUMBER, 'sync', undefined, false);
  }

  enqueue(channel: StoredChannel, number: number, state: string, body: string | undefined, coalesce: boolean): void {
    if (this.closed) return;
    const queue = this.queueOf(channel.id);
    // A message that is waiting (not the one in flight) already says the same: one is enough.
    if (coalesce && body === undefined && queue.length > 1 && queue.slice(1).some((waiting) => waiting.state === state && waiting.body === undefined)) return;
    const message: QueuedMessage = { channelId: channel.id, number, state, ...(body !== undefined ? { body } : {}) };
    this.outbox.set(outboxKey(message), message);
    queue.push(message);
    this.dirty.add(channel.id);
    this.scheduleKick();
  }

  /** Forgets a channel's queued messages (it was stopped or expired). */
  drop(channelId: string): void {
    const queue = this.queues.get(channelId);
    if (!queue) return;
    for (const message of queue) this.outbox.delete(outboxKey(message));
    this.queues.delete(channelId);
    this.scheduleFlush();
  }

  /** Messages waiting for a channel (tests and benchmarks). */
  pending(channelId?: string): number {
    if (channelId !== undefined) return this.queues.get(channelId)?.length ?? 0;
    let total = 0;
    for (const queue of this.queues.values()) total += queue.length;
    return total;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const [timer, wake] of this.waits) {
      clearTimeout(timer);
      wake();
    }
    this.waits.clear();
    this.agent?.destroy();
    await Promise.allSettled([...this.inFlight]);
  }

  private queueOf(channelId: string): QueuedMessage[] {
    let queue = this.queues.get(channelId);
    if (!queue) {
      queue = [];
      this.queues.set(channelId, queue);
    }
    return queue;
  }

  /** Sends after the store made the new messages durable: the change they report is in the same journal batch. */
  private scheduleKick(): void {
    if (this.kickScheduled) return;
    this.kickScheduled = true;
    queueMicrotask(() => {
      void this.store.flush().catch(() => undefined).then(() => {
        this.kickScheduled = false;
        if (this.closed) return;
        const channels = [...this.dirty];
        this.dirty.clear();
        for (const channelId of channels) this.pump(channelId);
      });
    });
  }

  /** Deliveries and drops are journaled soon after, so a restart does not send a delivered message again. */
  private scheduleFlush(): void {
    if (this.flushScheduled || this.closed) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      void this.store.flush().catch(() => undefined);
    });
  }

  private pump(channelId: string): void {
    if (this.pumping.has(channelId)) return;
    this.pumping.add(channelId);
    const run = this.drain(channelId).finally(() => {
      this.pumping.delete(channelId);
      this.inFlight.delete(run);
      // Messages queued while the last send was finishing.
      if (!this.closed && (this.queues.get(channelId)?.length ?? 0) > 0 && !this.dirty.has(channelId)) this.pump(channelId);
    });
    this.inFlight.add(run);
  }

  private async drain(channelId: string): Promise<void> {
    while (!this.closed) {
      const queue = this.queues.get(channelId);
      const message = queue?.[0];
      if (!queue || !message) {
        if (queue && queue.length === 0) this.queues.delete(channelId);
        return;
      }
      const channel = this.channelOf(channelId);
      if (!channel) {
        this.drop(channelId);
        return;
      }
      let attempt = 1;
      let outcome = await this.send(channel, message);
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- close() may run while this awaits
      while (outcome === 'retry' && attempt < this.options.maxAttempts && !this.closed) {
        await this.sleep(backoffMs(attempt, this.options));
        // Stopped or expired while waiting: nothing more goes out.
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- close() may have run during the sleep
        if (this.closed || this.queues.get(channelId)?.[0] !== message || !this.channelOf(channelId)) break;
        attempt++;
        outcome = await this.send(channel, message);
      }
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- close() may have run while this awaited
      if (this.closed) return;
      // Delivered, failed, or out of attempts: the message leaves the queue either way.
      const current = this.queues.get(channelId);
      if (current?.[0] === message) {
        current.shift();
        this.outbox.delete(outboxKey(message));
        this.scheduleFlush();
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waits.delete(timer);
        resolve();
      }, ms);
      this.waits.set(timer, resolve);
    });
  }

  private agentFor(): https.Agent {
    if (!this.agent) {
      // One secure context for every connection: parsing the system store per connection would dominate fan-out.
      this.agent = new https.Agent({ keepAlive: true, maxSockets: this.options.maxSocketsPerHost, secureContext: this.trusted(), rejectUnauthorized: true });
    }
    return this.agent;
  }

  /** One attempt: POST the message with the spec's X-Svc- headers and read the receiver's status. */
  private send(channel: StoredChannel, message: QueuedMessage): Promise<Outcome> {
    const headers: Record<string, string> = {
      'X-Svc-Channel-ID': channel.id,
      'X-Svc-Message-Number': String(message.number),
      'X-Svc-Resource-ID': channel.resourceId,
      'X-Svc-Resource-State': message.state,
      'X-Svc-Resource-URI': channel.resourceUri,
      'User-Agent': 'Desk-Emulator-Channels/1.0',
    };
    // Channels always expire in the emulator (every kind has a maximum life), so the header is always there.
    headers['X-Svc-Channel-Expiration'] = new Date(channel.expiration).toUTCString();
    if (channel.token !== undefined) headers['X-Svc-Channel-Token'] = channel.token;
    const body = message.body ?? '';
    if (message.body !== undefined) headers['Content-Type'] = 'application/json; charset=UTF-8';
    headers['Content-Length'] = String(Buffer.byteLength(body));
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: Outcome): void => {
        if (settled) return;
        settled = true;
        resolve(outcome);
      };
      // Checked again at each delivery: an address literal here, a host name through the lookup (it may have been
      // re-pointed at a private address since the watch). A refused address fails the message without connecting.
      const host = new URL(channel.address).hostname.replace(/^\[(.*)\]$/, '$1');
      if (this.network && isIP(host) !== 0 && !this.network.allows(host)) {
        finish('failed');
        return;
      }
      let request: ReturnType<typeof https.request>;
      try {
        request = https.request(channel.address, { method: 'POST', headers, agent: this.agentFor(), timeout: this.options.timeoutMs, ...(this.network ? { lookup: this.network.deliveryLookup() } : {}) });
      } catch {
        finish('failed');
        return;
      }
      request.on('information', (info: { statusCode: number }) => {
        // 102 Processing counts as delivered (the spec's table); nothing more is awaited.
        if (info.statusCode === 102) {
          finish('delivered');
          request.destroy();
        }
      });
      request.on('response', (response) => {
        response.resume();
        finish(outcomeOf(response.statusCode ?? 0));
      });
      request.on('timeout', () => request.destroy(Object.assign(new Error('receiver timed out'), { code: 'ETIMEDOUT' })));
      request.on('error', (error: NodeJS.ErrnoException) => { finish(CERTIFICATE_ERRORS.test(error.code ?? '') || error.code === REFUSED_CODE ? 'failed' : 'retry'); });
      request.end(body);
    });
  }
}

/** The notification's own etag: derived from the channel, the message and the resource's etag, so it never equals the latter. */
export function messageEtag(channelId: string, number: number, resourceEtag: string): string {
  return `"${createHash('sha1').update(`${channelId}\n${number}\n${resourceEtag}`).digest('base64url').slice(0, 27)}"`;
}
