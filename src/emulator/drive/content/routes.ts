/** Drive's content routes: uploads (media, multipart, resumable sessions), downloads (alt=media, ranges) and exports. */
import { baseMimeType, EXPORT_FORMATS, EXPORT_LIMIT_BYTES, exportContent, importContent, importTarget, notExportable } from './convert';
import { ReceivedMedia, refuseOverMaximum, UploadSession } from './uploads';
import { hideDriveItems, supportsAllDrives, supportsAllDrivesIn } from '../files/allDrives';
import { INDEXED_TEXT_CHARS, Media, StoredFile, UpdateOptions } from '../files/model';
import {
  DriveRouteKit,
  insertParams,
  MODIFIED_DATE_BEHAVIORS,
  readMetadata,
  updateParamsFrom,
  refuseInsertIfNoneMatchAny,
} from '../routing';
import type { EmulatorUser } from '../../identity/users';
import { header, requireUser } from '../../core/context';
import { badRequest, invalid, notFound, required } from '../../core/errors';
import { QueryParams } from '../../core/params';
import type { Reply, RequestContext, Route } from '../../core/router';
import { FileMetadataInput, FOLDER_MIME_TYPE, GOOGLE_APPS_MIME_PREFIX, isGoogleAppsType } from '../../../shared/schemas/drive';

/** Native types that hold editable text in the emulator (content can be imported into them). */
const TEXT_NATIVE_TYPES: ReadonlySet<string> = new Set(Object.keys(EXPORT_FORMATS));

export function contentRoutes(kit: DriveRouteKit): Route[] {
  const { model, uploads, blobs } = kit.service;
  return [
    { id: 'drive.files.export', method: 'GET', path: '/drive/v2/files/:fileId/export', handle: exportFile },
    { id: 'drive.files.insert', method: 'POST', path: '/upload/drive/v2/files', handle: uploadPost },
    { id: 'drive.files.insert', method: 'PUT', path: '/upload/drive/v2/files', handle: uploadPut },
    { id: 'drive.files.update', method: 'PUT', path: '/upload/drive/v2/files/:fileId', handle: uploadPut },
    { id: 'drive.files.update', method: 'POST', path: '/upload/drive/v2/files/:fileId', handle: uploadPost },
  ];

  function uploadPost(context: RequestContext): Promise<Reply> {
    return receiveUpload('POST', context);
  }

  function uploadPut(context: RequestContext): Promise<Reply> {
    return receiveUpload('PUT', context);
  }

  async function exportFile(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const target = context.query.string('mimeType', 255);
    if (target === undefined || target === '') throw required('mimeType');
    const file = model.get(user, context.params.fileId as string);
    if (!EXPORT_FORMATS[file.mimeType]) throw notExportable();
    const text = file.blobId ? (await blobs.readAll(file.blobId, EXPORT_LIMIT_BYTES)).toString('utf8') : '';
    const exported = exportContent(file.mimeType, file.title, text, target);
    return { body: exported.body, contentType: exported.contentType };
  }

  /** Stores an upload's content as a file: conversion to a native document when asked, then the commit. */
  async function commitUpload(user: EmulatorUser, target: { fileId?: string }, input: FileMetadataInput, received: ReceivedMedia, query: QueryParams | Record<string, string>, ifMatch: string | undefined): Promise<StoredFile> {
    const read = (name: string): string | undefined => (query instanceof QueryParams ? query.string(name) : query[name]);
    const convert = read('convert') === 'true';
    const existing = target.fileId !== undefined ? model.get(user, target.fileId) : undefined;
    if (existing) model.checkIfMatch(existing, ifMatch);
    const sourceType = baseMimeType(received.contentType) || 'application/octet-stream';
    let nativeTarget: string | undefined;
    if (input.mimeType !== undefined && isGoogleAppsType(input.mimeType)) nativeTarget = input.mimeType;
    else if (input.mimeType === undefined && existing && isGoogleAppsType(existing.mimeType)) nativeTarget = existing.mimeType;
    else if (convert && input.mimeType === undefined) nativeTarget = importTarget(sourceType);
    let blob = received.blob;
    let mimeType: string;
    if (nativeTarget !== undefined) {
      if (!TEXT_NATIVE_TYPES.has(nativeTarget) || nativeTarget === FOLDER_MIME_TYPE) {
        await kit.freeBlobs([blob.blobId]);
        throw badRequest(`Content cannot be converted to ${nativeTarget}`);
      }
      const bytes = await blobs.readAll(blob.blobId, EXPORT_LIMIT_BYTES);
      const converted = await blobs.writeBuffer(Buffer.from(importContent(sourceType, bytes, nativeTarget), 'utf8'));
      await kit.freeBlobs([blob.blobId]);
      blob = converted;
      mimeType = nativeTarget;
    } else if (existing) {
      mimeType = input.mimeType ?? (sourceType !== 'application/octet-stream' ? sourceType : existing.mimeType);
    } else {
      mimeType = input.mimeType ?? sourceType;
    }
    if (mimeType.startsWith(GOOGLE_APPS_MIME_PREFIX) && !TEXT_NATIVE_TYPES.has(mimeType)) {
      await kit.freeBlobs([blob.blobId]);
      throw badRequest(`Files of type ${mimeType} cannot have content`);
    }
    const media: Media = { blob, mimeType };
    if (isTextual(mimeType) && blob.size <= INDEXED_TEXT_CHARS * 4) {
      media.text = (await blobs.readAll(blob.blobId, INDEXED_TEXT_CHARS * 4)).toString('utf8').slice(0, INDEXED_TEXT_CHARS);
    }
    try {
      // Without supportsAllDrives a shared drive's folders are not found (as on Drive).
      hideDriveItems(model, supportsAllDrivesIn(read), [...(input.parents ?? []).map((parent) => parent.id), ...(read('addParents')?.split(',') ?? [])]);
      if (!existing) return model.insert(user, input, media);
      const options: UpdateOptions = { ...updateParamsFrom(read), media };
      const { file, garbage } = model.update(user, existing.id, input, options);
      await kit.freeBlobs(garbage.blobIds);
      return file;
    } catch (error) {
      await kit.freeBlobs([blob.blobId]);
      throw error;
    }
  }

  async function receiveUpload(method: 'POST' | 'PUT', context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const fileId = context.params.fileId;
    const sessionId = context.query.string('upload_id', 200);
    if (sessionId !== undefined) return resumableChunk(context, user, sessionId, fileId);
    // files.update's upload path takes PUT only; Google answers any other method there with its 404.
    if (method === 'POST' && fileId !== undefined) throw notFound(`Not Found: POST /upload/drive/v2/files/${fileId}`);
    if (fileId === undefined) refuseInsertIfNoneMatchAny(context);
    const uploadType = context.query.enumValue('uploadType', ['media', 'multipart', 'resumable'] as const);
    if (uploadType === undefined) throw required('uploadType');
    hideDriveItems(model, supportsAllDrives(context.query), [fileId]);
    // Fail fast on a stale etag (it is checked again when the content is committed).
    if (fileId !== undefined) model.checkIfMatch(model.get(user, fileId), header(context, 'if-match'));
    validateUploadParams(context.query, fileId !== undefined);
    if (uploadType === 'resumable') {
      const metadata = await readMetadata(context);
      const totalHeader = header(context, 'x-upload-content-length');
      if (totalHeader !== undefined && !/^\d+$/.test(totalHeader)) throw invalid('X-Upload-Content-Length must be a byte count', 'X-Upload-Content-Length', 'header');
      refuseOverMaximum(totalHeader !== undefined ? Number(totalHeader) : undefined, 'X-Upload-Content-Length');
      const query: Record<string, string> = {};
      for (const name of ['convert', 'addParents', 'removeParents', 'modifiedDateBehavior', 'setModifiedDate', 'updateViewedDate', 'newRevision', 'pinned', 'supportsAllDrives', 'supportsTeamDrives']) {
        const value = context.query.string(name);
        if (value !== undefined) query[name] = value;
      }
      const session = uploads.open(user, {
        fileId,
        metadata,
        query,
        ifMatch: header(context, 'if-match'),
        contentType: header(context, 'x-upload-content-type'),
        totalSize: totalHeader !== undefined ? Number(totalHeader) : undefined,
      });
      const path = fileId !== undefined ? `/upload/drive/v2/files/${encodeURIComponent(fileId)}` : '/upload/drive/v2/files';
      return { status: 200, headers: { Location: `${context.baseUrl}${path}?uploadType=resumable&upload_id=${session.id}`, 'X-GUploader-UploadID': session.id }, body: '', contentType: 'text/plain' };
    }
    let metadata: FileMetadataInput = {};
    let received: ReceivedMedia;
    if (uploadType === 'multipart') ({ metadata, media: received } = await uploads.receiveMultipart(context.request));
    else received = await uploads.receiveMedia(context.request);
    const file = await commitUpload(user, { fileId }, metadata, received, context.query, header(context, 'if-match'));
    return kit.fileReply(context, file);
  }

  async function resumableChunk(context: RequestContext, user: EmulatorUser, sessionId: string, fileId: string | undefined): Promise<Reply> {
    const session: UploadSession = uploads.session(user, sessionId, fileId);
    const outcome = await uploads.put(session, context.request);
    if (outcome.kind === 'alreadyComplete') return kit.fileReply(context, model.get(user, outcome.session.completedFileId as string));
    if (outcome.kind === 'incomplete') {
      // 308 "Resume Incomplete"; no Range header until some bytes arrived, as on Google.
      const headers: Record<string, string> = outcome.received > 0 ? { Range: `bytes=0-${outcome.received - 1}` } : {};
      // A client that cannot take a 308 (Go's net/http follows it as a redirect) asks for 200 with the status in a header.
      if (header(context, 'x-guploader-no-308')?.trim().toLowerCase() === 'yes') {
        return { status: 200, headers: { ...headers, 'X-HTTP-Status-Code-Override': '308', 'Content-Length': '0' }, empty: true };
      }
      return { status: 308, headers: { ...headers, 'Content-Length': '0' }, empty: true };
    }
    let file: StoredFile;
    try {
      file = await commitUpload(user, { fileId: session.fileId }, session.metadata, outcome.media, session.query, session.ifMatch);
    } catch (error) {
      await uploads.abandon(session);
      throw error;
    }
    uploads.complete(session, file.id);
    return kit.fileReply(context, file);
  }
}

function validateUploadParams(query: QueryParams, isUpdate: boolean): void {
  insertParams(query);
  if (isUpdate) {
    query.enumValue('modifiedDateBehavior', MODIFIED_DATE_BEHAVIORS);
    query.boolean('setModifiedDate', false);
    query.boolean('newRevision', true);
    query.boolean('updateViewedDate', true);
  }
}

/** Content worth indexing for fullText: text files, JSON/XML, and the emulator's native documents. */
function isTextual(mimeType: string): boolean {
  return mimeType.startsWith('text/') || TEXT_NATIVE_TYPES.has(mimeType) || /^application\/(json|xml|javascript|x-sh|x-yaml)\b/.test(mimeType);
}
