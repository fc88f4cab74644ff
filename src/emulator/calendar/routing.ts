/** What every Calendar route file shares: the base path, and the request values they all read the same way (the Calendar counterpart of drive/routing.ts). */
import { requireUser, header } from '../core/context';
import type { RequestContext } from '../core/router';
import type { EmulatorUser } from '../identity/users';
import type { WatchedResource } from '../core/channels';

export const BASE = '/calendar/v3';

/** Calendar channels live at most a week (Google's default and limit for Calendar watches). */
export const CHANNEL_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export function userOf(context: RequestContext): EmulatorUser {
  return requireUser(context);
}

export function ifMatchOf(context: RequestContext): string | undefined {
  return header(context, 'if-match');
}

export function ifNoneMatchOf(context: RequestContext): string | undefined {
  return header(context, 'if-none-match');
}

/** A query parameter, with an empty value treated as absent (as Google's front end does). */
export function param(context: RequestContext, name: string): string | undefined {
  const value = context.query.string(name);
  return value === undefined || value === '' ? undefined : value;
}

export function watched(context: RequestContext, key: string, path: string): WatchedResource {
  return { service: 'calendar', key: `calendar/${key}`, uri: `${context.baseUrl}${BASE}${path}`, maxTtlMs: CHANNEL_TTL_MS };
}

/** The answer to a conditional GET whose If-None-Match names the current etag. */
export const NOT_MODIFIED = { status: 304, empty: true } as const;
