/**
 * Drive's drives resource (shared drives): list, get, insert, update, delete, hide, unhide. Idempotency, per method:
 * reads, update (PUT) and delete are idempotent by method; hide and unhide set a state, so a repeat is safe; insert
 * carries a `requestId` (one per call, a random UUID unless the caller gives one), so the server never makes a
 * second drive for a repeat: it answers a repeat of a request that landed with 409 teamDriveAlreadyExists, and the
 * drive that request made is then the one with its name created since the first attempt.
 */
import { randomUUID } from 'node:crypto';
import { SharedDrive, SharedDriveInput, SharedDriveList, sharedDriveListSchema, sharedDriveSchema } from '../../shared/schemas/drive/drives';
import { path } from '../http';
import { windowStart } from '../reconcile';
import type { DriveContext } from './context';
import { quoteQuery } from './query';

export interface ListDrivesOptions {
  /** Google's shared-drive search (`name contains 'x'`, `hidden = true`, …). */
  q?: string;
  /** Default 10, at most 100. */
  maxResults?: number;
  pageToken?: string;
  /** As a domain administrator: every shared drive of the domain. */
  useDomainAdminAccess?: boolean;
  /** Google's partial response: only these fields of the listing (e.g. `items(id,name),nextPageToken`). */
  fields?: string;
  signal?: AbortSignal;
}

export interface DriveAdminOptions {
  useDomainAdminAccess?: boolean;
  signal?: AbortSignal;
}

export interface DeleteDriveOptions extends DriveAdminOptions {
  /** With useDomainAdminAccess: delete the drive's items too (otherwise the drive must hold nothing outside its trash). */
  allowItemDeletion?: boolean;
}

export function listDrives(drive: DriveContext, options: ListDrivesOptions = {}): Promise<SharedDriveList> {
  return drive.http.json(sharedDriveListSchema, {
    method: 'GET',
    path: '/drive/v2/drives',
    query: { q: options.q, maxResults: options.maxResults, pageToken: options.pageToken, useDomainAdminAccess: options.useDomainAdminAccess, fields: options.fields },
    signal: options.signal,
    operation: 'drive.drives.list',
  });
}

/** Every shared drive matching the options, across pages. */
export function allDrives(drive: DriveContext, options: Omit<ListDrivesOptions, 'pageToken'> = {}): AsyncGenerator<SharedDrive> {
  return drive.http.items((pageToken) => listDrives(drive, { maxResults: 100, ...options, pageToken }), (page) => page.items);
}

export function getDrive(drive: DriveContext, driveId: string, options: DriveAdminOptions = {}): Promise<SharedDrive> {
  return drive.http.json(sharedDriveSchema, { method: 'GET', path: path`/drive/v2/drives/${driveId}`, query: { useDomainAdminAccess: options.useDomainAdminAccess }, signal: options.signal, operation: 'drive.drives.get' });
}

/** Creates a shared drive (the caller becomes its organizer); safe to repeat, see above. */
export function insertDrive(drive: DriveContext, input: SharedDriveInput & { name: string }, options: { requestId?: string; signal?: AbortSignal } = {}): Promise<SharedDrive> {
  const requestId = options.requestId ?? randomUUID();
  const startedAt = Date.now();
  return drive.http.json(sharedDriveSchema, {
    method: 'POST',
    path: '/drive/v2/drives',
    query: { requestId },
    json: input,
    signal: options.signal,
    idempotent: true,
    alreadyApplied: async (error) => {
      if (error.status !== 409 || error.reason !== 'teamDriveAlreadyExists') return undefined;
      const page = await listDrives(drive, { q: `name = ${quoteQuery(input.name)} and createdTime >= ${quoteQuery(windowStart(startedAt))}`, maxResults: 100, signal: options.signal });
      return [...page.items].sort((a, b) => Date.parse(b.createdDate ?? '') - Date.parse(a.createdDate ?? ''))[0];
    },
    operation: 'drive.drives.insert',
  });
}

/** Renames, re-themes or restricts a shared drive (organizers); PUT semantics on the fields given. */
export function updateDrive(drive: DriveContext, driveId: string, input: SharedDriveInput, options: DriveAdminOptions = {}): Promise<SharedDrive> {
  return drive.http.json(sharedDriveSchema, { method: 'PUT', path: path`/drive/v2/drives/${driveId}`, query: { useDomainAdminAccess: options.useDomainAdminAccess }, json: input, signal: options.signal, operation: 'drive.drives.update' });
}

/** Deletes a shared drive for good (organizers; it must hold nothing outside its trash unless allowItemDeletion). */
export function deleteDrive(drive: DriveContext, driveId: string, options: DeleteDriveOptions = {}): Promise<void> {
  return drive.http.empty({
    method: 'DELETE',
    path: path`/drive/v2/drives/${driveId}`,
    query: { allowItemDeletion: options.allowItemDeletion, useDomainAdminAccess: options.useDomainAdminAccess },
    signal: options.signal,
    operation: 'drive.drives.delete',
  });
}

/** Hides the drive from the user's default view (their own choice; other members are unaffected). */
export function hideDrive(drive: DriveContext, driveId: string, signal?: AbortSignal): Promise<SharedDrive> {
  return drive.http.json(sharedDriveSchema, { method: 'POST', path: path`/drive/v2/drives/${driveId}/hide`, signal, idempotent: true, operation: 'drive.drives.hide' });
}

export function unhideDrive(drive: DriveContext, driveId: string, signal?: AbortSignal): Promise<SharedDrive> {
  return drive.http.json(sharedDriveSchema, { method: 'POST', path: path`/drive/v2/drives/${driveId}/unhide`, signal, idempotent: true, operation: 'drive.drives.unhide' });
}
