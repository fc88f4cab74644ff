/**
 * Drive's revisions resource (list, get, update, patch, delete) and an old version's content. Idempotency, per
 * method: reads, update (PUT) and delete are idempotent by method (a repeated delete of a revision that went is
 * the server's 404, surfaced); patch sets flags to given values, so a repeat lands in the same state.
 */
import type { Readable } from 'node:stream';
import { DriveRevision, RevisionInput, RevisionList, revisionListSchema, revisionSchema } from '../../shared/schemas/drive/revisions';
import { path } from '../http';
import type { Download } from './content';
import type { DriveContext } from './context';

export interface ListRevisionsOptions {
  /** Default 200, at most 1000. */
  maxResults?: number;
  pageToken?: string;
  signal?: AbortSignal;
}

export function listRevisions(drive: DriveContext, fileId: string, options: ListRevisionsOptions = {}): Promise<RevisionList> {
  return drive.http.json(revisionListSchema, { method: 'GET', path: path`/drive/v2/files/${fileId}/revisions`, query: { maxResults: options.maxResults, pageToken: options.pageToken }, signal: options.signal, operation: 'drive.revisions.list' });
}

/** Every revision of a file, oldest first, across pages. */
export async function allRevisions(drive: DriveContext, fileId: string, signal?: AbortSignal): Promise<DriveRevision[]> {
  const revisions: DriveRevision[] = [];
  for await (const revision of drive.http.items((pageToken) => listRevisions(drive, fileId, { pageToken, signal, maxResults: 1000 }), (page) => page.items)) revisions.push(revision);
  return revisions;
}

export function getRevision(drive: DriveContext, fileId: string, revisionId: string, signal?: AbortSignal): Promise<DriveRevision> {
  return drive.http.json(revisionSchema, { method: 'GET', path: path`/drive/v2/files/${fileId}/revisions/${revisionId}`, signal, operation: 'drive.revisions.get' });
}

export function updateRevision(drive: DriveContext, fileId: string, revisionId: string, revision: RevisionInput, signal?: AbortSignal): Promise<DriveRevision> {
  return drive.http.json(revisionSchema, { method: 'PUT', path: path`/drive/v2/files/${fileId}/revisions/${revisionId}`, json: revision, signal, operation: 'drive.revisions.update' });
}

export function patchRevision(drive: DriveContext, fileId: string, revisionId: string, revision: RevisionInput, signal?: AbortSignal): Promise<DriveRevision> {
  return drive.http.json(revisionSchema, { method: 'PATCH', path: path`/drive/v2/files/${fileId}/revisions/${revisionId}`, json: revision, signal, idempotent: true, operation: 'drive.revisions.patch' });
}

/** Deletes an old version of a file with bytes (not the head, not a Docs Editors file's). */
export function deleteRevision(drive: DriveContext, fileId: string, revisionId: string, signal?: AbortSignal): Promise<void> {
  return drive.http.empty({ method: 'DELETE', path: path`/drive/v2/files/${fileId}/revisions/${revisionId}`, signal, operation: 'drive.revisions.delete' });
}

/** An old version's bytes: files.get with `alt=media&revisionId` (where a v2 revision's `downloadUrl` points). */
export async function downloadRevision(drive: DriveContext, fileId: string, revisionId: string, options: { signal?: AbortSignal } = {}): Promise<Download> {
  const response = await drive.http.send({
    method: 'GET',
    path: path`/drive/v2/files/${fileId}`,
    query: { alt: 'media', revisionId },
    headers: { Accept: '*/*' },
    signal: options.signal,
    operation: 'drive.files.get (media, revision)',
  });
  const length = response.headers.get('content-length');
  return {
    stream: response.body as unknown as Readable,
    etag: response.headers.get('etag') ?? undefined,
    size: length !== null && /^\d+$/.test(length) ? Number(length) : undefined,
    contentType: response.headers.get('content-type') ?? undefined,
  };
}

/**
 * An old version of a Docs Editors file converted to `mimeType`. The emulator serves the revision's exportLinks
 * under its own root; Google's point at docs.google.com, which this client does not call.
 */
export async function exportRevision(drive: DriveContext, fileId: string, revisionId: string, mimeType: string, signal?: AbortSignal): Promise<Buffer> {
  const response = await drive.http.send({
    method: 'GET',
    path: path`/drive/v2/files/${fileId}/revisions/${revisionId}/export`,
    query: { mimeType },
    headers: { Accept: '*/*' },
    signal,
    operation: 'drive.revisions.export',
  });
  return response.buffer();
}
