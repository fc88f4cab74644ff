/** Drive's changes resource: the start token and the change feed, with the emulator's long poll when it announces one. */
import type { Response } from 'node-fetch';
import {
  Change,
  ChangeList,
  changeListSchema,
  changeSchema,
  LONG_POLL_ANNOUNCE_HEADER,
  LONG_POLL_MAX_SECONDS,
  LONG_POLL_WAIT_HEADER,
  startPageTokenSchema,
} from '../../shared/schemas/drive';
import { path, QueryValue } from '../http';
import { parseJson } from '../upload';
import { ALL_DRIVES, type DriveContext } from './context';

export interface ListChangesOptions {
  pageToken?: string;
  maxResults?: number;
  includeDeleted?: boolean;
  includeSubscribed?: boolean;
  /** Changes of shared drives' items and of the drives themselves (`changeType: 'drive'`) too. */
  includeItemsFromAllDrives?: boolean;
  /** The feed of one shared drive's items instead of the user's. */
  driveId?: string;
  spaces?: string;
  /**
   * Ask the server to hold an empty answer up to this many seconds until a change arrives (long poll).
   * Only the Desk emulator offers this, and only when it announced it; Google answers at once.
   */
  waitSeconds?: number;
  signal?: AbortSignal;
}

export async function getStartPageToken(drive: DriveContext, signal?: AbortSignal, driveId?: string): Promise<string> {
  const response = await drive.http.send({ method: 'GET', path: '/drive/v2/changes/startPageToken', query: { driveId, ...ALL_DRIVES }, signal, operation: 'drive.changes.getStartPageToken' });
  learnLongPoll(drive, response);
  return parseJson(startPageTokenSchema, await response.text(), 'drive.changes.getStartPageToken').startPageToken;
}

/** One page of changes. With `waitSeconds`, a server that offers long polling holds an empty page until something changes. */
export async function listChanges(drive: DriveContext, options: ListChangesOptions = {}): Promise<ChangeList> {
  let wait: number | undefined;
  if (options.waitSeconds !== undefined && options.waitSeconds > 0) {
    if (drive.longPoll === undefined) await getStartPageToken(drive, options.signal);
    if (drive.longPoll) wait = Math.min(LONG_POLL_MAX_SECONDS, Math.ceil(options.waitSeconds));
  }
  const query: Record<string, QueryValue> = {
    pageToken: options.pageToken,
    maxResults: options.maxResults,
    includeDeleted: options.includeDeleted,
    includeSubscribed: options.includeSubscribed,
    includeItemsFromAllDrives: options.includeItemsFromAllDrives,
    driveId: options.driveId,
    spaces: options.spaces,
    ...ALL_DRIVES,
  };
  const response = await drive.http.send({
    method: 'GET',
    path: '/drive/v2/changes',
    query,
    headers: wait !== undefined ? { [LONG_POLL_WAIT_HEADER]: String(wait) } : undefined,
    signal: options.signal,
    operation: 'drive.changes.list',
  });
  learnLongPoll(drive, response);
  return parseJson(changeListSchema, await response.text(), 'drive.changes.list');
}

/** Deprecated on Google (use listChanges); kept because the spec lists it. */
export function getChange(drive: DriveContext, changeId: string, signal?: AbortSignal): Promise<Change> {
  return drive.http.json(changeSchema, { method: 'GET', path: path`/drive/v2/changes/${changeId}`, signal, operation: 'drive.changes.get' });
}

function learnLongPoll(drive: DriveContext, response: Response): void {
  drive.longPoll = response.headers.get(LONG_POLL_ANNOUNCE_HEADER) === '1';
}
