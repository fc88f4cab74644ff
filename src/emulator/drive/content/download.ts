/** Downloads (`alt=media`): a file's or an old revision's bytes, whole or the Range asked for. */
import { StoredFile } from '../files/model';
import { renderFile } from '../render';
import { StoredRevision } from '../revisions/model';
import { DriveRouteKit } from '../routing';
import { header, requireUser } from '../../core/context';
import { ApiError } from '../../core/errors';
import type { Reply, RequestContext } from '../../core/router';
import { FOLDER_MIME_TYPE, isGoogleAppsType } from '../../../shared/schemas/drive';

/** A file's bytes for `alt=media` (whole, or the Range asked for); folders and native documents are 403. */
// eslint-disable-next-line @typescript-eslint/require-await -- its throws reach the routes (which return it) as rejections
export async function downloadReply(kit: DriveRouteKit, context: RequestContext, file: StoredFile): Promise<Reply> {
  const { blobs } = kit.service;
  if (file.mimeType === FOLDER_MIME_TYPE || isGoogleAppsType(file.mimeType) || !file.blobId) {
    if (!isGoogleAppsType(file.mimeType) && file.mimeType !== FOLDER_MIME_TYPE && !file.blobId) {
      // A file created without content has zero bytes.
      return { body: Buffer.alloc(0), contentType: file.mimeType, headers: { ETag: renderFile(kit.renderContext(context), file).etag ?? '' } };
    }
    throw new ApiError(403, 'fileNotDownloadable', 'Only files with binary content can be downloaded. Use Export with Docs Editors files.', { location: 'alt', locationType: 'parameter' });
  }
  const size = file.fileSize ?? 0;
  const etag = renderFile(kit.renderContext(context), file).etag ?? '';
  const headers: Record<string, string> = { ETag: etag, 'Accept-Ranges': 'bytes' };
  if (file.md5) headers['X-Goog-Hash'] = `md5=${Buffer.from(file.md5, 'hex').toString('base64')}`;
  const range = parseRange(header(context, 'range'), size);
  if (range === 'unsatisfiable') return { status: 416, headers: { 'Content-Range': `bytes */${size}` }, empty: true };
  if (range) {
    headers['Content-Range'] = `bytes ${range.start}-${range.end}/${size}`;
    headers['Content-Length'] = String(range.end - range.start + 1);
    return { status: 206, headers, body: blobs.read(file.blobId, range), contentType: file.mimeType };
  }
  headers['Content-Length'] = String(size);
  return { status: 200, headers, body: size === 0 ? Buffer.alloc(0) : blobs.read(file.blobId), contentType: file.mimeType };
}

export function parseRange(value: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (value === undefined) return undefined;
  const found = /^bytes=(\d*)-(\d*)$/.exec(value.trim());
  if (!found || (found[1] === '' && found[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (found[1] === '') {
    const suffix = Number(found[2]);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(found[1]);
    end = found[2] === '' ? size - 1 : Math.min(Number(found[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/** files.get with `alt=media&revisionId=…`: that version's bytes (the head's are the file's). */
export async function revisionDownloadReply(kit: DriveRouteKit, context: RequestContext, fileId: string, revisionId: string): Promise<Reply> {
  const { file, revision } = kit.service.revisions.get(requireUser(context), fileId, revisionId);
  return downloadReply(kit, context, asFile(file, revision));
}

/** The file as it was at a revision, for the download path (which reads blob, size, md5 and type from a file). */
export function asFile(file: StoredFile, revision: StoredRevision): StoredFile {
  const view: StoredFile = { ...file, mimeType: revision.mimeType, fileSize: revision.fileSize };
  if (revision.blobId !== undefined) view.blobId = revision.blobId;
  else delete view.blobId;
  if (revision.md5 !== undefined) view.md5 = revision.md5;
  else delete view.md5;
  return view;
}
