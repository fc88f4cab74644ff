/** Decides what the built-in receiver answers a notification: 200 for a known channel with its token, 404 for an unknown channel, 401 for a bad token (no vscode). */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** A notification as the receiver accepted it (the X-Svc-* headers and the body, if any). */
export interface ReceivedNotification {
  readonly channelId: string;
  readonly messageNumber: number;
  readonly resourceId: string;
  readonly resourceState: string;
  readonly resourceUri: string;
  readonly channelExpiration?: string;
  readonly body?: string;
  /** Epoch ms. */
  readonly receivedAt: number;
}

export type CheckResult =
  | { readonly status: 200; readonly notification: ReceivedNotification }
  | { readonly status: 400 | 401 | 404 | 405; readonly reason: string };

/** What the receiver knows of a channel: only its token matters here (undefined: the channel has none). */
export interface KnownChannel {
  readonly token?: string | undefined;
}

function single(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Equal tokens, compared in constant time (digests of equal length, so the lengths do not leak either). */
export function sameToken(expected: string | undefined, received: string | undefined): boolean {
  if (expected === undefined || expected === '') return received === undefined || received === '';
  if (received === undefined) return false;
  const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(expected), digest(received));
}

/** Checks one request: method, the channel id against the known channels, then the token. */
export function checkNotification(method: string | undefined, headers: IncomingHttpHeaders, body: string, lookup: (channelId: string) => KnownChannel | undefined, now: number): CheckResult {
  if (method !== 'POST') return { status: 405, reason: 'only POST is accepted' };
  const channelId = single(headers, 'x-svc-channel-id');
  if (!channelId) return { status: 400, reason: 'no X-Svc-Channel-ID header' };
  const channel = lookup(channelId);
  if (!channel) return { status: 404, reason: `unknown channel ${channelId.slice(0, 64)}` };
  if (!sameToken(channel.token, single(headers, 'x-svc-channel-token'))) return { status: 401, reason: `wrong token for channel ${channelId.slice(0, 64)}` };
  const expiration = single(headers, 'x-svc-channel-expiration');
  const notification: ReceivedNotification = {
    channelId,
    messageNumber: Number(single(headers, 'x-svc-message-number') ?? '0') || 0,
    resourceId: single(headers, 'x-svc-resource-id') ?? '',
    resourceState: single(headers, 'x-svc-resource-state') ?? '',
    resourceUri: single(headers, 'x-svc-resource-uri') ?? '',
    ...(expiration !== undefined ? { channelExpiration: expiration } : {}),
    ...(body !== '' ? { body } : {}),
    receivedAt: now,
  };
  return { status: 200, notification };
}
