/** Drive's files resource, content side: uploads (files.insert and files.update on the upload path), downloads and exports. */
import type { Readable } from 'node:stream';
import { DriveFile, driveFileSchema, FileMetadataInput } from '../../shared/schemas/drive';
import { path, QueryValue } from '../http';
import { MediaUploadOptions, uploadMedia } from '../upload';
import { DriveContext, ifMatchHeader } from './context';
import { MetadataUpdateOptions, patchFile, updateQuery } from './files';

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

/** Replaces the metadata (PUT semantics), and the content too when `options.content` is given. */
export async function updateFile(drive: DriveContext, fileId: string, metadata: FileMetadataInput, options: UpdateOptions = {}): Promise<DriveFile> {
  const query = updateQuery(options);
  if (options.content !== undefined) {
    return upload(drive, { method: 'PUT', fileId, metadata, content: options.content, options, query, ifMatch: options.ifMatch });
  }
  return drive.http.json(driveFileSchema, {
    method: 'PUT',
    path: path`/drive/v2/files/${fileId}`,
    query,
    json: metadata,
    headers: ifMatchHeader(options.ifMatch),
    signal: options.signal,
    operation: 'drive.files.update',
  });
}


/** Creates a file with content. */
export function uploadFile(drive: DriveContext, metadata: FileMetadataInput, content: Buffer | Readable, options: UploadOptions = {}): Promise<DriveFile> {
  return upload(drive, { method: 'POST', metadata, content, options, query: options.convert ? { convert: true } : {} });
}

/** The file's bytes as a stream (`alt=media`). Native Google documents fail with 403 fileNotDownloadable: export them. */
export async function download(drive: DriveContext, fileId: string, options: { signal?: AbortSignal } = {}): Promise<Download> {
  const response = await drive.http.send({
    method: 'GET',
    path: path`/drive/v2/files/${fileId}`,
    query: { alt: 'media' },
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
  }, options);
}
