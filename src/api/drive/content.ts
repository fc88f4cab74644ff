/** Drive's files resource, content side: uploads (files.insert and files.update on the upload path), downloads and exports. */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { DriveFile, driveFileSchema, FileMetadataInput } from '../../shared/schemas/drive';
import { path, QueryValue } from '../http';
import { GoogleApiError } from '../errors';
import { MediaUpload, MediaUploadOptions, uploadMedia } from '../upload';
import { ALL_DRIVES, DriveContext, ifMatchHeader } from './context';
import { getFile, landedUnder, MetadataUpdateOptions, patchFile, updateQuery } from './files';

export interface UploadOptions extends MediaUploadOptions {
  /** Convert text/HTML/CSV content to a native Google document on the way in. */
  convert?: boolean;
}

export interface UpdateOptions extends UploadOptions, MetadataUpdateOptions {
  /** New bytes for the file (sent on the upload path). */
  content?: Buffer | Readable;
}

export interface Download {
  stream: Readable;
  etag: string | undefined;
  size: number | undefined;
  contentType: string | undefined;
}

/**
 * Replaces the metadata (PUT semantics), and the content too when `options.content` is given. PUT is idempotent; with
 * `ifMatch`, a repeat of an update that landed meets our own new etag (412): when the file then has the bytes
 * (md5) and the fields we sent, the update was ours and the file is the answer, otherwise the 412 is surfaced.
 */
export async function updateFile(drive: DriveContext, fileId: string, metadata: FileMetadataInput, options: UpdateOptions = {}): Promise<DriveFile> {
  const query = updateQuery(options);
  const sentMd5 = Buffer.isBuffer(options.content) ? createHash('md5').update(options.content).digest('hex') : undefined;
  const alreadyApplied = async (error: GoogleApiError): Promise<DriveFile | undefined> => {
    if (!error.isConflict || !options.ifMatch || (options.content !== undefined && sentMd5 === undefined)) return undefined;
    const file = await getFile(drive, fileId, { signal: options.signal });
    const fieldsShown = (metadata.title === undefined || file.title === metadata.title) && (metadata.description === undefined || file.description === metadata.description);
    return fieldsShown && (sentMd5 === undefined || file.md5Checksum === sentMd5) ? file : undefined;
  };
  if (options.content !== undefined) {
    return upload(drive, { method: 'PUT', fileId, metadata, content: options.content, options, query, ifMatch: options.ifMatch, repeatable: { idempotent: true, alreadyApplied } });
  }
  return drive.http.json(driveFileSchema, {
    method: 'PUT',
    path: path`/drive/v2/files/${fileId}`,
    query,
    json: metadata,
    headers: ifMatchHeader(options.ifMatch),
    signal: options.signal,
    alreadyApplied,
    operation: 'drive.files.update',
  });
}


/**
 * Creates a file with content, under an id from the client's generateIds pool (or the caller's) carried in the
 * metadata: a repeat after an unclear failure cannot make a second file, and a 409 to it means the first attempt
 * made the file, which is the answer. A media upload carries no metadata, so a media create from a Buffer is sent
 * as multipart (the same bytes, with the id and the metadata in one request instead of a second patch); one from a
 * stream cannot be replayed and is sent once, as before. Resumable uploads resume instead of repeating.
 */
export async function uploadFile(drive: DriveContext, metadata: FileMetadataInput, content: Buffer | Readable, options: UploadOptions = {}): Promise<DriveFile> {
  const replayable = Buffer.isBuffer(content);
  const id = metadata.id ?? (replayable || options.uploadType !== 'media' ? await drive.ids.take(options.signal) : undefined);
  const uploadType = options.uploadType === 'media' && replayable ? 'multipart' : options.uploadType;
  return upload(drive, {
    method: 'POST',
    metadata: id !== undefined ? { ...metadata, id } : metadata,
    content,
    options: { ...options, uploadType },
    query: options.convert ? { convert: true, ...ALL_DRIVES } : ALL_DRIVES,
    ...(id !== undefined ? { repeatable: { idempotent: true, alreadyApplied: landedUnder(drive, id, options.signal) } } : {}),
  });
}

/** The file's bytes as a stream (`alt=media`). Native Google documents fail with 403 fileNotDownloadable: export them. */
export async function download(drive: DriveContext, fileId: string, options: { signal?: AbortSignal } = {}): Promise<Download> {
  const response = await drive.http.send({
    method: 'GET',
    path: path`/drive/v2/files/${fileId}`,
    query: { alt: 'media', ...ALL_DRIVES },
    headers: { Accept: '*/*' },
    signal: options.signal,
    operation: 'drive.files.get (media)',
  });
  const length = response.headers.get('content-length');
  return {
    stream: response.body as unknown as Readable,
    etag: response.headers.get('etag') ?? undefined,
    size: length !== null && /^\d+$/.test(length) ? Number(length) : undefined,
    contentType: response.headers.get('content-type') ?? undefined,
  };
}

/** A native document converted to `mimeType` (see about().exportFormats). */
export async function exportFile(drive: DriveContext, fileId: string, mimeType: string, signal?: AbortSignal): Promise<Buffer> {
  const response = await drive.http.send({
    method: 'GET',
    path: path`/drive/v2/files/${fileId}/export`,
    query: { mimeType },
    headers: { Accept: '*/*' },
    signal,
    operation: 'drive.files.export',
  });
  return response.buffer();
}

/** Sends content on Drive's upload path with the protocol in ../upload.ts. */
function upload(drive: DriveContext, request: {
  method: 'POST' | 'PUT';
  fileId?: string;
  metadata: FileMetadataInput;
  content: Buffer | Readable;
  options: UploadOptions;
  query: Record<string, QueryValue>;
  ifMatch?: string;
  repeatable?: MediaUpload<DriveFile>['repeatable'];
}): Promise<DriveFile> {
  const { options } = request;
  return uploadMedia(drive.http, {
    method: request.method,
    path: request.fileId ? path`/upload/drive/v2/files/${request.fileId}` : '/upload/drive/v2/files',
    query: { ...request.query, convert: options.convert ? true : request.query.convert },
    metadata: request.metadata,
    content: request.content,
    headers: ifMatchHeader(request.ifMatch),
    schema: driveFileSchema,
    operation: request.fileId ? 'drive.files.update (upload)' : 'drive.files.insert (upload)',
    applyMetadata: (file) => patchFile(drive, file.id, request.metadata, { signal: options.signal }),
    sizeOf: (file) => Number(file.fileSize ?? 0),
    ...(request.repeatable ? { repeatable: request.repeatable } : {}),
  }, options);
}
