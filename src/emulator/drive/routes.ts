import * as z from '../../shared/schemas/zod';
import {
  About,
  AppList,
  ChangeList,
  ChildList,
  childReferenceInputSchema,
  DriveApp,
  FileList,
  FileMetadataInput,
  fileMetadataInputSchema,
  FOLDER_MIME_TYPE,
  GOOGLE_APPS_MIME_PREFIX,
  isNativeMimeType,
  LONG_POLL_ANNOUNCE_HEADER,
  LONG_POLL_MAX_SECONDS,
  LONG_POLL_WAIT_HEADER,
  ParentList,
  parentReferenceInputSchema,
} from '../../shared/schemas/drive';
import { EmulatorUser } from '../auth/users';
import { ApiError, badRequest, forbidden, invalid, notFound, required } from '../core/errors';
import { parseBody, QueryParams } from '../core/params';
import { Handler, Reply, RequestContext, RouteOptions, Router } from '../core/router';
import { baseMimeType, EXPORT_FORMATS, EXPORT_LIMIT_BYTES, exportContent, IMPORT_FORMATS, importContent, importTarget } from './convert';
import { DriveService } from './service';
import { etagOf, INDEXED_TEXT_CHARS, Media, ModifiedDateBehavior, newFileId, StoredFile, UpdateOptions } from './model';
import { renderChange, renderChild, RenderContext, renderFile, renderParent } from './render';
import { MAX_UPLOAD_BYTES, ReceivedMedia, UploadSession } from './uploads';

const MODIFIED_DATE_BEHAVIORS = ['fromBody', 'fromBodyIfNeeded', 'fromBodyOrNow', 'noChange', 'now', 'nowIfNeeded'] as const;
const CORPORA = ['default', 'user', 'domain', 'drive', 'allDrives'] as const;
const FILE_SPACES = ['drive', 'appDataFolder'] as const;
const CHANGE_SPACES = ['drive', 'appDataFolder', 'photos'] as const;
const MAX_PAGE = 1000;
const QUOTA_TOTAL = 15 * 1024 ** 3;

/** Native types that hold editable text in the emulator (content can be imported into them). */
const TEXT_NATIVE_TYPES: ReadonlySet<string> = new Set(Object.keys(EXPORT_FORMATS));

const DEMO_APPS: readonly DriveApp[] = [
  {
    kind: 'drive#app',
    id: 'desk-notes',
    name: 'Desk Notes',
    objectType: 'note',
    shortDescription: 'Edit text and Markdown files in VS Code.',
    longDescription: 'Opens plain text and Markdown files from Drive in the Desk VS Code extension.',
    supportsCreate: true,
    supportsImport: true,
    supportsMultiOpen: true,
    supportsOfflineCreate: false,
    installed: true,
    authorized: true,
    useByDefault: true,
    hasDriveWideScope: true,
    productUrl: 'https://example.com/desk/notes',
    productId: 'desk-notes',
    openUrlTemplate: 'vscode://desk-dev.desk/drive/open?id={ids}',
    createUrl: 'vscode://desk-dev.desk/drive/new',
    createInFolderTemplate: 'vscode://desk-dev.desk/drive/new?folder={folderId}',
    primaryMimeTypes: ['text/plain', 'text/markdown'],
    secondaryMimeTypes: ['application/json'],
    primaryFileExtensions: ['txt', 'md'],
    secondaryFileExtensions: ['json'],
    icons: [{ category: 'application', iconUrl: 'https://example.com/desk/notes-32.png', size: 32 }],
  },
  {
    kind: 'drive#app',
    id: 'desk-tables',
    name: 'Desk Tables',
    objectType: 'table',
    shortDescription: 'View CSV files as tables.',
    longDescription: 'Shows CSV and TSV files and exported Sheets as tables.',
    supportsCreate: false,
    supportsImport: false,
    supportsMultiOpen: false,
    supportsOfflineCreate: false,
    installed: true,
    authorized: true,
    useByDefault: false,
    hasDriveWideScope: false,
    productUrl: 'https://example.com/desk/tables',
    productId: 'desk-tables',
    openUrlTemplate: 'vscode://desk-dev.desk/drive/table?id={ids}',
    primaryMimeTypes: ['text/csv'],
    secondaryMimeTypes: ['text/tab-separated-values', 'application/vnd.google-apps.spreadsheet'],
    primaryFileExtensions: ['csv'],
    secondaryFileExtensions: ['tsv'],
    icons: [{ category: 'application', iconUrl: 'https://example.com/desk/tables-32.png', size: 32 }],
  },
];

/**
 * HTTP ↔ model for Drive v2: parameters validated as the discovery document declares them, uploads
 * streamed to the blob store before the metadata commit, blobs freed after it.
 *
 * Emulator-only long poll: a changes.list request carrying `X-Desk-Wait: <seconds ≤ 60>` that finds nothing
 * new is held until a change for the user is recorded or the wait ends. The emulator announces this with
 * `X-Desk-Long-Poll: 1` on changes.list / getStartPageToken answers and `deskLongPoll: true` in about.get,
 * and the Desk client only sends the header after seeing the announcement (Google never sends it).
 */
export function registerDriveRoutes(serverRouter: Router, service: DriveService): void {
  const { model, uploads, blobs } = service;
  // Every Drive route first waits until the users' root folders are durable: their ids are visible to
  // clients from the first GET, and a GET is not followed by the server's flush.
  const router = {
    get: (pattern: string, handler: Handler, options?: RouteOptions) => serverRouter.get(pattern, afterReady(handler), options),
    post: (pattern: string, handler: Handler, options?: RouteOptions) => serverRouter.post(pattern, afterReady(handler), options),
    put: (pattern: string, handler: Handler, options?: RouteOptions) => serverRouter.put(pattern, afterReady(handler), options),
    patch: (pattern: string, handler: Handler, options?: RouteOptions) => serverRouter.patch(pattern, afterReady(handler), options),
    delete: (pattern: string, handler: Handler, options?: RouteOptions) => serverRouter.delete(pattern, afterReady(handler), options),
  };
  function afterReady(handler: Handler): Handler {
    return async (context) => {
      await service.ready;
      return handler(context);
    };
  }
  const userOf = (context: RequestContext): EmulatorUser => {
    if (!context.user) throw new ApiError(401, 'required', 'Login Required.');
    return context.user;
  };
  const renderContext = (context: RequestContext): RenderContext => {
    const user = userOf(context);
    return { baseUrl: context.baseUrl, user, rootId: model.rootOf(user).id };
  };
  const fileReply = (context: RequestContext, file: StoredFile, status = 200): Reply => {
    const resource = renderFile(renderContext(context), file);
    return { status, headers: { ETag: resource.etag ?? '' }, json: resource };
  };
  const freeBlobs = async (blobIds: readonly string[]): Promise<void> => {
    for (const blobId of blobIds) await blobs.remove(blobId).catch(() => undefined);
  };

  // ---- about, apps ----

  router.get('/drive/v2/about', (context) => {
    const user = userOf(context);
    context.query.boolean('includeSubscribed', true);
    context.query.integer('maxChangeIdCount', { min: 0 });
    context.query.integer('startChangeId', { min: 0 });
    const root = model.rootOf(user);
    const usage = model.usage(user.id);
    const about: About = {
      kind: 'drive#about',
      etag: `"about-${user.id}-${model.largestChangeId()}"`,
      selfLink: `${context.baseUrl}/drive/v2/about`,
      name: user.name,
      user: { kind: 'drive#user', displayName: user.name, emailAddress: user.email, permissionId: user.id, isAuthenticatedUser: true },
      rootFolderId: root.id,
      permissionId: user.id,
      quotaType: 'LIMITED',
      quotaBytesTotal: String(QUOTA_TOTAL),
      quotaBytesUsed: String(usage.used),
      quotaBytesUsedAggregate: String(usage.used),
      quotaBytesUsedInTrash: String(usage.inTrash),
      largestChangeId: String(model.largestChangeId()),
      remainingChangeIds: '0',
      importFormats: groupFormats(IMPORT_FORMATS),
      exportFormats: Object.entries(EXPORT_FORMATS).map(([source, targets]) => ({ source, targets: [...targets] })),
      maxUploadSizes: [{ type: '*', size: String(MAX_UPLOAD_BYTES) }],
      languageCode: 'en',
      canCreateDrives: false,
      deskLongPoll: true,
    };
    return { json: about };
  });

  router.get('/drive/v2/apps', (context) => {
    userOf(context);
    const list: AppList = { kind: 'drive#appList', etag: '"apps-1"', selfLink: `${context.baseUrl}/drive/v2/apps`, defaultAppIds: ['desk-notes'], items: [...DEMO_APPS] };
    return { json: list };
  });

  router.get('/drive/v2/apps/:appId', (context) => {
    userOf(context);
    const app = DEMO_APPS.find((candidate) => candidate.id === context.params.appId);
    if (!app) throw notFound(`App not found: ${context.params.appId}`);
    return { json: app };
  });

  // ---- changes ----

  router.get('/drive/v2/changes/startPageToken', (context) => {
    userOf(context);
    rejectDriveId(context.query);
    return { headers: { [LONG_POLL_ANNOUNCE_HEADER]: '1' }, json: { kind: 'drive#startPageToken', startPageToken: model.startPageToken() } };
  });

  router.get('/drive/v2/changes', async (context) => {
    const user = userOf(context);
    rejectDriveId(context.query);
    const pageToken = context.query.string('pageToken', 64) ?? context.query.string('startChangeId', 64);
    const maxResults = Math.min(MAX_PAGE, context.query.integer('maxResults', { min: 1, default: 100 }) ?? 100);
    const includeDeleted = context.query.boolean('includeDeleted', true);
    context.query.boolean('includeSubscribed', true);
    context.query.boolean('includeCorpusRemovals', false);
    const spaces = commaList(context.query, 'spaces', CHANGE_SPACES);
    const wait = waitSeconds(context);
    const listOnce = (): ReturnType<typeof model.listChanges> => {
      const page = model.listChanges(user, { pageToken, maxResults, includeDeleted });
      // Only the drive space holds files in the emulator.
      return spaces.length > 0 && !spaces.includes('drive') ? { ...page, changes: [] } : page;
    };
    let page = listOnce();
    if (wait > 0 && page.changes.length === 0 && page.newStartPageToken !== undefined) {
      const controller = new AbortController();
      const socket = context.request.socket;
      const onClose = (): void => controller.abort();
      socket.once('close', onClose);
      try {
        if (await model.waitForChange(user.id, wait * 1000, controller.signal)) page = listOnce();
      } finally {
        socket.off('close', onClose);
      }
    }
    const render = renderContext(context);
    const items = page.changes.map((record) => renderChange(render, record, model.exists(record.fileId) && !record.deleted ? safeGet(model, user, record.fileId) : undefined));
    const selfLink = `${context.baseUrl}/drive/v2/changes`;
    const list: ChangeList = {
      kind: 'drive#changeList',
      etag: `"changes-${page.largestChangeId}"`,
      selfLink,
      largestChangeId: String(page.largestChangeId),
      items,
    };
    if (page.nextPageToken !== undefined) {
      list.nextPageToken = page.nextPageToken;
      list.nextLink = `${selfLink}?pageToken=${page.nextPageToken}`;
    }
    if (page.newStartPageToken !== undefined) list.newStartPageToken = page.newStartPageToken;
    return { headers: { [LONG_POLL_ANNOUNCE_HEADER]: '1' }, json: list };
  });

  router.get('/drive/v2/changes/:changeId', (context) => {
    const user = userOf(context);
    rejectDriveId(context.query);
    const record = model.getChange(user, context.params.changeId as string);
    return { json: renderChange(renderContext(context), record, record.deleted ? undefined : safeGet(model, user, record.fileId)) };
  });

  // ---- files: collection ----

  router.get('/drive/v2/files', (context) => {
    const user = userOf(context);
    const query = context.query;
    const q = query.string('q');
    const orderBy = query.string('orderBy', 512);
    const maxResults = listPageSize(query);
    const pageToken = query.string('pageToken', 2048);
    const corpora = commaList(query, 'corpora', CORPORA);
    const spaces = commaList(query, 'spaces', FILE_SPACES);
    query.enumValue('corpus', ['DEFAULT', 'DOMAIN'] as const);
    query.enumValue('projection', ['BASIC', 'FULL'] as const);
    const driveId = query.string('driveId', 200);
    if (corpora.includes('drive') && driveId === undefined) throw invalid("corpora=drive needs driveId", 'driveId');
    if (driveId !== undefined) throw notFound(`Shared drive not found: ${driveId}`);
    const result = spaces.length > 0 && !spaces.includes('drive')
      ? { files: [] as StoredFile[] }
      : model.list(user, { q, orderBy, maxResults, pageToken });
    const render = renderContext(context);
    const selfLink = `${context.baseUrl}/drive/v2/files`;
    const list: FileList = {
      kind: 'drive#fileList',
      etag: `"files-${model.largestChangeId()}"`,
      selfLink,
      incompleteSearch: false,
      items: result.files.map((file) => renderFile(render, file)),
    };
    if ('nextPageToken' in result && result.nextPageToken !== undefined) {
      list.nextPageToken = result.nextPageToken;
      list.nextLink = `${selfLink}?${new URLSearchParams({ ...(q ? { q } : {}), ...(orderBy ? { orderBy } : {}), maxResults: String(maxResults), pageToken: result.nextPageToken }).toString()}`;
    }
    return { json: list };
  });

  router.post('/drive/v2/files', async (context) => {
    const user = userOf(context);
    rejectMediaOnMetadataPath(context);
    const input = await readMetadata(context);
    insertParams(context.query);
    const file = model.insert(user, input);
    return fileReply(context, file);
  });

  router.get('/drive/v2/files/generateIds', (context) => {
    userOf(context);
    const count = context.query.integer('maxResults', { min: 1, max: 1000, default: 10 }) ?? 10;
    const space = context.query.enumValue('space', ['drive', 'appDataFolder'] as const, 'drive');
    context.query.enumValue('type', ['files', 'shortcuts'] as const, 'files');
    const ids: string[] = [];
    while (ids.length < count) {
      const id = newFileId();
      if (!model.exists(id)) ids.push(id);
    }
    return { json: { kind: 'drive#generatedIds', space, ids } };
  });

  router.delete('/drive/v2/files/trash', async (context) => {
    const user = userOf(context);
    rejectDriveId(context.query);
    const garbage = model.emptyTrash(user);
    await freeBlobs(garbage.blobIds);
    return { status: 204, empty: true };
  });

  // ---- files: one file ----

  router.get('/drive/v2/files/:fileId', async (context) => {
    const user = userOf(context);
    const alt = context.query.enumValue('alt', ['json', 'media'] as const, 'json');
    context.query.boolean('acknowledgeAbuse', false);
    context.query.boolean('updateViewedDate', false);
    context.query.enumValue('projection', ['BASIC', 'FULL'] as const);
    const file = model.get(user, context.params.fileId as string);
    const revisionId = context.query.string('revisionId', 200);
    if (revisionId !== undefined && revisionId !== String(file.contentRevision || 1)) throw notFound(`Revision not found: ${revisionId}`);
    if (alt === 'media') return downloadReply(context, file);
    const etag = etagOf(file);
    const ifNoneMatch = header(context, 'if-none-match');
    if (ifNoneMatch !== undefined && (ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').map((tag) => tag.trim().replace(/^W\//, '')).includes(etag))) {
      return { status: 304, headers: { ETag: etag }, empty: true };
    }
    return fileReply(context, file);
  });

  const updateHandler = (patch: boolean) => async (context: RequestContext): Promise<Reply> => {
    const user = userOf(context);
    rejectMediaOnMetadataPath(context);
    const input = await readMetadata(context);
    const options = updateParams(context);
    if (!patch) options.updateViewedDate = context.query.boolean('updateViewedDate', true);
    const { file, garbage } = model.update(user, context.params.fileId as string, input, options);
    await freeBlobs(garbage.blobIds);
    return fileReply(context, file);
  };
  router.put('/drive/v2/files/:fileId', updateHandler(false));
  router.patch('/drive/v2/files/:fileId', updateHandler(true));

  router.delete('/drive/v2/files/:fileId', async (context) => {
    const user = userOf(context);
    const garbage = model.delete(user, context.params.fileId as string, header(context, 'if-match'));
    await freeBlobs(garbage.blobIds);
    return { status: 204, empty: true };
  });

  router.post('/drive/v2/files/:fileId/copy', async (context) => {
    const user = userOf(context);
    const input = await readMetadata(context);
    insertParams(context.query);
    const source = model.get(user, context.params.fileId as string);
    if (source.mimeType === FOLDER_MIME_TYPE) throw forbidden('This file cannot be copied by the user.', 'cannotCopyFile');
    const copiedBlobId = source.blobId ? await blobs.copy(source.blobId) : undefined;
    try {
      return fileReply(context, model.copy(user, source.id, input, copiedBlobId));
    } catch (error) {
      if (copiedBlobId) await freeBlobs([copiedBlobId]);
      throw error;
    }
  });

  router.post('/drive/v2/files/:fileId/touch', (context) => fileReply(context, model.touch(userOf(context), context.params.fileId as string)));
  router.post('/drive/v2/files/:fileId/trash', (context) => fileReply(context, model.trash(userOf(context), context.params.fileId as string, header(context, 'if-match'))));
  router.post('/drive/v2/files/:fileId/untrash', (context) => fileReply(context, model.untrash(userOf(context), context.params.fileId as string)));

  router.get('/drive/v2/files/:fileId/export', async (context) => {
    const user = userOf(context);
    const target = context.query.string('mimeType', 255);
    if (target === undefined || target === '') throw required('mimeType');
    const file = model.get(user, context.params.fileId as string);
    if (!EXPORT_FORMATS[file.mimeType]) throw new ApiError(403, 'fileNotExportable', 'Export only supports Docs Editors files.');
    const text = file.blobId ? (await blobs.readAll(file.blobId, EXPORT_LIMIT_BYTES)).toString('utf8') : '';
    const exported = exportContent(file.mimeType, file.title, text, target);
    return { body: exported.body, contentType: exported.contentType };
  });

  // ---- children ----

  router.get('/drive/v2/files/:folderId/children', (context) => {
    const user = userOf(context);
    const folder = model.get(user, context.params.folderId as string);
    const q = context.query.string('q');
    const orderBy = context.query.string('orderBy', 512);
    const maxResults = listPageSize(context.query);
    const pageToken = context.query.string('pageToken', 2048);
    const result = model.list(user, { q, orderBy, maxResults, pageToken, parentId: folder.id });
    const render = renderContext(context);
    const selfLink = `${context.baseUrl}/drive/v2/files/${encodeURIComponent(context.params.folderId as string)}/children`;
    const list: ChildList = { kind: 'drive#childList', etag: `"children-${model.largestChangeId()}"`, selfLink, items: result.files.map((file) => renderChild(render, folder.id, file.id)) };
    if (result.nextPageToken !== undefined) {
      list.nextPageToken = result.nextPageToken;
      list.nextLink = `${selfLink}?pageToken=${encodeURIComponent(result.nextPageToken)}`;
    }
    return { json: list };
  });

  router.get('/drive/v2/files/:folderId/children/:childId', (context) => {
    const user = userOf(context);
    const folder = model.get(user, context.params.folderId as string);
    const child = model.get(user, context.params.childId as string);
    if (!child.parents.includes(folder.id)) throw notFound(`File not found: ${context.params.childId}`);
    return { json: renderChild(renderContext(context), folder.id, child.id) };
  });

  router.post('/drive/v2/files/:folderId/children', async (context) => {
    const user = userOf(context);
    const body = parseBody(childReferenceInputSchema, await context.json());
    const folder = model.get(user, context.params.folderId as string);
    const { file } = model.addParent(user, body.id, folder.id);
    return { json: renderChild(renderContext(context), folder.id, file.id) };
  });

  router.delete('/drive/v2/files/:folderId/children/:childId', (context) => {
    const user = userOf(context);
    const folder = model.get(user, context.params.folderId as string);
    model.removeParent(user, context.params.childId as string, folder.id);
    return { status: 204, empty: true };
  });

  // ---- parents ----

  router.get('/drive/v2/files/:fileId/parents', (context) => {
    const user = userOf(context);
    const file = model.get(user, context.params.fileId as string);
    const render = renderContext(context);
    const list: ParentList = {
      kind: 'drive#parentList',
      etag: renderFile(render, file).etag,
      selfLink: `${context.baseUrl}/drive/v2/files/${encodeURIComponent(file.id)}/parents`,
      items: file.parents.map((parentId) => renderParent(render, file.id, parentId)),
    };
    return { json: list };
  });

  router.get('/drive/v2/files/:fileId/parents/:parentId', (context) => {
    const user = userOf(context);
    const file = model.get(user, context.params.fileId as string);
    const parentId = context.params.parentId === 'root' ? model.rootOf(user).id : (context.params.parentId as string);
    if (!file.parents.includes(parentId)) throw notFound(`File not found: ${context.params.parentId}`);
    return { json: renderParent(renderContext(context), file.id, parentId) };
  });

  router.post('/drive/v2/files/:fileId/parents', async (context) => {
    const user = userOf(context);
    const body = parseBody(parentReferenceInputSchema, await context.json());
    const { file, parentId } = model.addParent(user, context.params.fileId as string, body.id);
    return { json: renderParent(renderContext(context), file.id, parentId) };
  });

  router.delete('/drive/v2/files/:fileId/parents/:parentId', (context) => {
    model.removeParent(userOf(context), context.params.fileId as string, context.params.parentId as string);
    return { status: 204, empty: true };
  });

  // ---- uploads ----

  /** Stores an upload's content as a file: conversion to a native document when asked, then the commit. */
  const commitUpload = async (user: EmulatorUser, target: { fileId?: string }, input: FileMetadataInput, received: ReceivedMedia, query: QueryParams | Record<string, string>, ifMatch: string | undefined): Promise<StoredFile> => {
    const read = (name: string): string | undefined => (query instanceof QueryParams ? query.string(name) : query[name]);
    const convert = read('convert') === 'true';
    const existing = target.fileId !== undefined ? model.get(user, target.fileId) : undefined;
    if (existing) model.checkIfMatch(existing, ifMatch);
    const sourceType = baseMimeType(received.contentType) || 'application/octet-stream';
    let nativeTarget: string | undefined;
    if (input.mimeType !== undefined && isNativeMimeType(input.mimeType)) nativeTarget = input.mimeType;
    else if (input.mimeType === undefined && existing && isNativeMimeType(existing.mimeType)) nativeTarget = existing.mimeType;
    else if (convert && input.mimeType === undefined) nativeTarget = importTarget(sourceType);
    let blob = received.blob;
    let mimeType: string;
    if (nativeTarget !== undefined) {
      if (!TEXT_NATIVE_TYPES.has(nativeTarget) || nativeTarget === FOLDER_MIME_TYPE) {
        await freeBlobs([blob.blobId]);
        throw badRequest(`Content cannot be converted to ${nativeTarget}`);
      }
      const bytes = await blobs.readAll(blob.blobId, EXPORT_LIMIT_BYTES);
      const converted = await blobs.writeBuffer(Buffer.from(importContent(sourceType, bytes, nativeTarget), 'utf8'));
      await freeBlobs([blob.blobId]);
      blob = converted;
      mimeType = nativeTarget;
    } else if (existing) {
      mimeType = input.mimeType ?? (sourceType !== 'application/octet-stream' ? sourceType : existing.mimeType);
    } else {
      mimeType = input.mimeType ?? sourceType;
    }
    if (mimeType.startsWith(GOOGLE_APPS_MIME_PREFIX) && !TEXT_NATIVE_TYPES.has(mimeType)) {
      await freeBlobs([blob.blobId]);
      throw badRequest(`Files of type ${mimeType} cannot have content`);
    }
    const media: Media = { blob, mimeType };
    if (isTextual(mimeType) && blob.size <= INDEXED_TEXT_CHARS * 4) {
      media.text = (await blobs.readAll(blob.blobId, INDEXED_TEXT_CHARS * 4)).toString('utf8').slice(0, INDEXED_TEXT_CHARS);
    }
    try {
      if (!existing) return model.insert(user, input, media);
      const options: UpdateOptions = { ...updateParamsFrom(read), media };
      const { file, garbage } = model.update(user, existing.id, input, options);
      await freeBlobs(garbage.blobIds);
      return file;
    } catch (error) {
      await freeBlobs([blob.blobId]);
      throw error;
    }
  };

  const uploadHandler = (method: 'POST' | 'PUT') => async (context: RequestContext): Promise<Reply> => {
    const user = userOf(context);
    const fileId = context.params.fileId;
    const sessionId = context.query.string('upload_id', 200);
    if (sessionId !== undefined) return resumableChunk(context, user, sessionId, fileId);
    if (method === 'POST' && fileId !== undefined) throw new ApiError(405, 'methodNotAllowed', 'Use PUT to update a file\'s content');
    const uploadType = context.query.enumValue('uploadType', ['media', 'multipart', 'resumable'] as const);
    if (uploadType === undefined) throw required('uploadType');
    // Fail fast on a stale etag (it is checked again when the content is committed).
    if (fileId !== undefined) model.checkIfMatch(model.get(user, fileId), header(context, 'if-match'));
    validateUploadParams(context.query, fileId !== undefined);
    if (uploadType === 'resumable') {
      const metadata = await readMetadata(context);
      const totalHeader = header(context, 'x-upload-content-length');
      if (totalHeader !== undefined && !/^\d+$/.test(totalHeader)) throw invalid('X-Upload-Content-Length must be a byte count', 'X-Upload-Content-Length', 'header');
      const query: Record<string, string> = {};
      for (const name of ['convert', 'addParents', 'removeParents', 'modifiedDateBehavior', 'setModifiedDate', 'updateViewedDate']) {
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
    return fileReply(context, file);
  };

  const resumableChunk = async (context: RequestContext, user: EmulatorUser, sessionId: string, fileId: string | undefined): Promise<Reply> => {
    const session: UploadSession = uploads.session(user, sessionId, fileId);
    const outcome = await uploads.put(session, context.request);
    if (outcome.kind === 'alreadyComplete') return fileReply(context, model.get(user, outcome.session.completedFileId as string));
    if (outcome.kind === 'incomplete') {
      // 308 "Resume Incomplete"; no Range header until some bytes arrived, as on Google.
      const headers: Record<string, string> = outcome.received > 0 ? { Range: `bytes=0-${outcome.received - 1}` } : {};
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
    return fileReply(context, file);
  };

  router.post('/upload/drive/v2/files', uploadHandler('POST'));
  router.put('/upload/drive/v2/files', uploadHandler('PUT'));
  router.put('/upload/drive/v2/files/:fileId', uploadHandler('PUT'));
  router.post('/upload/drive/v2/files/:fileId', uploadHandler('POST'));

  // A page for alternateLink (the emulator has no Drive web UI): it names no file details, so it needs no sign-in.
  router.get('/emulator/v1/drive/open/:fileId', (context) => ({
    body: `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Desk emulator</title></head><body><p>This file lives in the Desk emulator. Open it from the Desk view in VS Code.</p><p>File id: ${escapeHtml(context.params.fileId as string)}</p></body></html>`,
    contentType: 'text/html; charset=utf-8',
  }), { auth: false });

  // iconLink targets: a small generic icon per kind of file (no user data, so no sign-in).
  router.get('/emulator/v1/drive/icons/:mimeType', (context) => ({
    body: iconSvg(context.params.mimeType as string),
    contentType: 'image/svg+xml',
    headers: { 'Cache-Control': 'public, max-age=86400' },
  }), { auth: false });

  // ---- helpers needing the service ----

  async function downloadReply(context: RequestContext, file: StoredFile): Promise<Reply> {
    if (file.mimeType === FOLDER_MIME_TYPE || isNativeMimeType(file.mimeType) || !file.blobId) {
      if (!isNativeMimeType(file.mimeType) && file.mimeType !== FOLDER_MIME_TYPE && !file.blobId) {
        // A file created without content has zero bytes.
        return { body: Buffer.alloc(0), contentType: file.mimeType, headers: { ETag: renderFile(renderContext(context), file).etag ?? '' } };
      }
      throw new ApiError(403, 'fileNotDownloadable', 'Only files with binary content can be downloaded. Use Export with Docs Editors files.', { location: 'alt', locationType: 'parameter' });
    }
    const size = file.fileSize ?? 0;
    const etag = renderFile(renderContext(context), file).etag ?? '';
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
}

function safeGet(model: DriveService['model'], user: EmulatorUser, fileId: string): StoredFile | undefined {
  try {
    return model.get(user, fileId);
  } catch {
    return undefined;
  }
}

function header(context: RequestContext, name: string): string | undefined {
  const value = context.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function rejectDriveId(query: QueryParams): void {
  const driveId = query.string('driveId', 200) ?? query.string('teamDriveId', 200);
  if (driveId !== undefined) throw notFound(`Shared drive not found: ${driveId}`);
}

function listPageSize(query: QueryParams): number {
  const requested = query.integer('maxResults', { min: 0, default: 100 }) ?? 100;
  // 0 means "the default" (the discovery document allows it); Google caps pages at 1000.
  return requested === 0 ? 100 : Math.min(MAX_PAGE, requested);
}

function commaList<T extends string>(query: QueryParams, name: string, allowed: readonly T[]): T[] {
  const raw = query.string(name, 512);
  if (raw === undefined || raw.trim() === '') return [];
  const values = raw.split(',').map((value) => value.trim());
  for (const value of values) {
    if (!(allowed as readonly string[]).includes(value)) throw invalid(`Invalid value '${value}' for ${name}. Allowed values: ${allowed.join(', ')}`, name);
  }
  return values as T[];
}

function waitSeconds(context: RequestContext): number {
  const raw = header(context, LONG_POLL_WAIT_HEADER);
  if (raw === undefined || raw === '') return 0;
  if (!/^\d{1,3}$/.test(raw.trim()) || Number(raw) > LONG_POLL_MAX_SECONDS) throw invalid(`${LONG_POLL_WAIT_HEADER} must be 0–${LONG_POLL_MAX_SECONDS} seconds`, 'X-Desk-Wait', 'header');
  return Number(raw);
}

function insertParams(query: QueryParams): void {
  query.boolean('convert', false);
  query.boolean('ocr', false);
  query.boolean('pinned', false);
  query.boolean('useContentAsIndexableText', false);
  query.enumValue('visibility', ['DEFAULT', 'PRIVATE'] as const);
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

function updateParams(context: RequestContext): UpdateOptions {
  const query = context.query;
  query.boolean('convert', false);
  query.boolean('newRevision', true);
  query.boolean('ocr', false);
  query.boolean('pinned', false);
  query.boolean('useContentAsIndexableText', false);
  query.enumValue('modifiedDateBehavior', MODIFIED_DATE_BEHAVIORS);
  query.boolean('setModifiedDate', false);
  const options = updateParamsFrom((name) => query.string(name, 4096));
  const ifMatch = header(context, 'if-match');
  if (ifMatch !== undefined) options.ifMatch = ifMatch;
  return options;
}

/** addParents/removeParents/modifiedDateBehavior/setModifiedDate from query strings (also a resumable session's saved query). */
function updateParamsFrom(read: (name: string) => string | undefined): UpdateOptions {
  const options: UpdateOptions = {};
  const list = (name: string): string[] | undefined => read(name)?.split(',').map((id) => id.trim()).filter(Boolean);
  const addParents = list('addParents');
  const removeParents = list('removeParents');
  if (addParents) options.addParents = addParents;
  if (removeParents) options.removeParents = removeParents;
  const behavior = read('modifiedDateBehavior');
  if (behavior !== undefined) {
    if (!(MODIFIED_DATE_BEHAVIORS as readonly string[]).includes(behavior)) throw invalid(`Invalid value '${behavior}' for modifiedDateBehavior`, 'modifiedDateBehavior');
    options.modifiedDateBehavior = behavior as ModifiedDateBehavior;
  } else if (read('setModifiedDate') === 'true') {
    options.modifiedDateBehavior = 'fromBodyOrNow';
  }
  if (read('updateViewedDate') === 'false') options.updateViewedDate = false;
  return options;
}

/** Metadata arrives as JSON; anything else on the non-upload paths is media in the wrong place. */
function rejectMediaOnMetadataPath(context: RequestContext): void {
  const contentType = header(context, 'content-type');
  const uploadType = context.query.string('uploadType');
  const isJson = contentType === undefined || /^application\/json\b/i.test(contentType.trim());
  if (uploadType !== undefined || !isJson) {
    context.request.resume();
    throw badRequest('Media content must be sent to /upload/drive/v2/files (with uploadType=media, multipart or resumable); this path takes JSON metadata only.');
  }
}

async function readMetadata(context: RequestContext): Promise<FileMetadataInput> {
  const body = await context.json();
  return parseBody(fileMetadataInputSchema as z.ZodMiniType<FileMetadataInput>, body);
}

function groupFormats(formats: Readonly<Record<string, string>>): { source: string; targets: string[] }[] {
  return Object.entries(formats).map(([source, target]) => ({ source, targets: [target] }));
}

function parseRange(value: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
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

/** Content worth indexing for fullText: text files, JSON/XML, and the emulator's native documents. */
function isTextual(mimeType: string): boolean {
  return mimeType.startsWith('text/') || TEXT_NATIVE_TYPES.has(mimeType) || /^application\/(json|xml|javascript|x-sh|x-yaml)\b/.test(mimeType);
}

function iconSvg(mimeType: string): string {
  const color = mimeType === FOLDER_MIME_TYPE ? '#5f6368'
    : mimeType.endsWith('.document') ? '#4285f4'
    : mimeType.endsWith('.spreadsheet') ? '#0f9d58'
    : mimeType.endsWith('.presentation') ? '#f4b400'
    : mimeType.startsWith('image/') ? '#db4437'
    : '#9aa0a6';
  const shape = mimeType === FOLDER_MIME_TYPE ? '<path d="M1 3h5l1.5 1.5H15V13H1z"/>' : '<path d="M3 1h7l3 3v11H3z"/>';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16" fill="${color}">${shape}</svg>`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
