import nodeFetch from 'node-fetch';
import {
  Channel,
  ChannelInput,
  channelInputSchema,
  channelSchema,
  ChannelStopInput,
  channelStopInputSchema,
  DirectoryUserEvent,
  ReceiverCertificate,
  receiverCertificateSchema,
} from '../shared/schemas/channels';
import * as z from '../shared/schemas/zod';
import { GoogleApiError, NetworkError, ResponseValidationError } from './errors';
import { HttpClient, path } from './http';

export type { Channel, ChannelInput, ChannelStopInput, DirectoryUserEvent, ReceiverCertificate } from '../shared/schemas/channels';

/**
 * The watch and stop operations of Drive v2, Calendar v3 and the Admin SDK's Directory: one method per discovery
 * operation on each service's own HttpClient, every body checked before sending and every answer against the shared
 * schema. Idempotency: a watch carries a client-chosen id, but a repeat of one that landed is refused
 * (`channelIdNotUnique`) and its answer (resourceId, expiration) cannot be read back, so watches are never repeated
 * after an unclear failure; the caller makes a new channel with a new id. A stop is safe to repeat: a repeat of one
 * that landed answers 404, which `alreadyApplied` reads as done.
 */

/** The three services' clients: watches and stops go to the service that made the channel. */
export interface ChannelHttpClients {
  readonly drive: HttpClient;
  readonly calendar: HttpClient;
  readonly directory: HttpClient;
}

export interface CallOptions {
  signal?: AbortSignal;
}

/** Which users a Directory watch covers: a domain, or a customer id (`my_customer` for one's own). */
export type DirectoryTarget = { readonly domain: string } | { readonly customer: string };

const emptySchema = z.object({});

/** Fails before the network: a bad id, token or address is the caller's mistake, not the service's. */
function checkedInput(operation: string, input: ChannelInput): ChannelInput {
  const result = channelInputSchema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues.at(0);
    throw new RangeError(`${operation}: ${issue?.path.map(String).join('.') || 'channel'} ${issue?.message ?? 'is invalid'}`);
  }
  return result.data;
}

function checkedStop(operation: string, input: ChannelStopInput): ChannelStopInput {
  const result = channelStopInputSchema.safeParse(input);
  if (!result.success) throw new RangeError(`${operation}: the channel's id and resourceId are required`);
  return result.data;
}

export class ChannelsClient {
  constructor(private readonly http: ChannelHttpClients) {}

  // ---- Drive v2

  /** drive.files.watch: changes to one file (update, trash, untrash, remove). */
  watchDriveFile(fileId: string, input: ChannelInput, options: CallOptions = {}): Promise<Channel> {
    return this.watch(this.http.drive, path`/drive/v2/files/${fileId}/watch`, {}, input, 'drive.files.watch', options);
  }

  /** drive.changes.watch: every change of the user's Drive (state `change`). */
  watchDriveChanges(input: ChannelInput, options: CallOptions = {}): Promise<Channel> {
    return this.watch(this.http.drive, '/drive/v2/changes/watch', {}, input, 'drive.changes.watch', options);
  }

  /** drive.channels.stop. */
  stopDriveChannel(channel: ChannelStopInput, options: CallOptions = {}): Promise<void> {
    return this.stop(this.http.drive, '/drive/v2/channels/stop', channel, 'drive.channels.stop', options);
  }

  // ---- Calendar v3

  /** calendar.events.watch: a calendar's events (states `exists`, `not_exists`). */
  watchCalendarEvents(calendarId: string, input: ChannelInput, options: CallOptions = {}): Promise<Channel> {
    return this.watch(this.http.calendar, path`/calendar/v3/calendars/${calendarId}/events/watch`, {}, input, 'calendar.events.watch', options);
  }

  /** calendar.acl.watch: a calendar's sharing rules. */
  watchCalendarAcl(calendarId: string, input: ChannelInput, options: CallOptions = {}): Promise<Channel> {
    return this.watch(this.http.calendar, path`/calendar/v3/calendars/${calendarId}/acl/watch`, {}, input, 'calendar.acl.watch', options);
  }

  /** calendar.calendarList.watch: the user's calendar list. */
  watchCalendarList(input: ChannelInput, options: CallOptions = {}): Promise<Channel> {
    return this.watch(this.http.calendar, '/calendar/v3/users/me/calendarList/watch', {}, input, 'calendar.calendarList.watch', options);
  }

  /** calendar.settings.watch: the user's settings. */
  watchCalendarSettings(input: ChannelInput, options: CallOptions = {}): Promise<Channel> {
    return this.watch(this.http.calendar, '/calendar/v3/users/me/settings/watch', {}, input, 'calendar.settings.watch', options);
  }

  /** calendar.channels.stop. */
  stopCalendarChannel(channel: ChannelStopInput, options: CallOptions = {}): Promise<void> {
    return this.stop(this.http.calendar, '/calendar/v3/channels/stop', channel, 'calendar.channels.stop', options);
  }

  // ---- Admin SDK Directory

  /**
   * directory.users.watch, in the form the target names: `/admin/directory/v1/users/watch?domain=` or
   * `/admin/directory/users/v1/watch?customer=`; `event` limits the channel to one kind of change (all otherwise).
   * Needs the admin.directory.user scope and an administrator.
   */
  watchDirectoryUsers(target: DirectoryTarget, event: DirectoryUserEvent | undefined, input: ChannelInput, options: CallOptions = {}): Promise<Channel> {
    const byDomain = 'domain' in target;
    return this.watch(
      this.http.directory,
      byDomain ? '/admin/directory/v1/users/watch' : '/admin/directory/users/v1/watch',
      byDomain ? { domain: target.domain, event } : { customer: target.customer, event },
      input,
      'directory.users.watch',
      options,
    );
  }

  /** directory.channels.stop. */
  stopDirectoryChannel(channel: ChannelStopInput, options: CallOptions = {}): Promise<void> {
    return this.stop(this.http.directory, '/admin/directory_v1/channels/stop', channel, 'directory.channels.stop', options);
  }

  private watch(http: HttpClient, watchPath: string, query: Record<string, string | undefined>, input: ChannelInput, operation: string, options: CallOptions): Promise<Channel> {
    const body = checkedInput(operation, input);
    return http.json(channelSchema, { method: 'POST', path: watchPath, query, json: body, signal: options.signal, operation });
  }

  private async stop(http: HttpClient, stopPath: string, channel: ChannelStopInput, operation: string, options: CallOptions): Promise<void> {
    const body = checkedStop(operation, channel);
    await http.json(emptySchema, {
      method: 'POST',
      path: stopPath,
      json: body,
      signal: options.signal,
      operation,
      // Stopping twice ends the same channel once: repeatable, and a repeat's 404 means the first one landed.
      idempotent: true,
      alreadyApplied: (error: GoogleApiError) => Promise.resolve(error.isNotFound ? {} : undefined),
    });
  }
}

/**
 * A receiver certificate and key for `hosts` from the emulator's own CA (emulator only: Google's services trust only
 * public CAs). An unauthenticated loopback endpoint of the emulator, so it needs no token.
 */
export async function emulatorReceiverCertificate(emulatorRoot: string, hosts: readonly string[], signal?: AbortSignal): Promise<ReceiverCertificate> {
  const operation = 'emulator.channels.certificates';
  const query = hosts.map((host) => `host=${encodeURIComponent(host)}`).join('&');
  let response;
  try {
    response = await nodeFetch(`${emulatorRoot.replace(/\/+$/, '')}/emulator/v1/channels/certificates?${query}`, { method: 'POST', ...(signal ? { signal } : {}) });
  } catch (error) {
    throw new NetworkError(operation, error);
  }
  const text = await response.text();
  if (!response.ok) throw GoogleApiError.fromResponse(response.status, text, undefined);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ResponseValidationError(operation, (t) => t('the body is not JSON'));
  }
  const result = receiverCertificateSchema.safeParse(parsed);
  if (!result.success) throw new ResponseValidationError(operation, (t) => t('no certificate, key and CA'));
  return result.data;
}
