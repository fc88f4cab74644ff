/** Drive's files, children and parents routes (metadata only: content goes through ../content/routes.ts). */
import { hideDriveItems, listScope, supportsAllDrives } from './allDrives';
import { etagOf, newFileId, StoredFile } from './model';
import { downloadReply, revisionDownloadReply } from '../content/download';
import { renderChild, renderChildList, renderFileList, renderGeneratedIds, renderParent, renderParentList } from '../render';
import {
  appIdOf,
  commaList,
  DriveRouteKit,
  insertParams,
  listPageSize,
  readMetadata,
  rejectMediaOnMetadataPath,
  updateParams,
  refuseInsertIfNoneMatchAny,
} from '../routing';
import { header, requireUser } from '../../core/context';
import { forbidden, notFound } from '../../core/errors';
import { ifNoneMatchHits } from '../../core/etag';
import { parseBody } from '../../core/params';
import type { Reply, RequestContext, Route } from '../../core/router';
import { childReferenceInputSchema, FOLDER_MIME_TYPE, parentReferenceInputSchema } from '../../../shared/schemas/drive';

const CORPORA = ['default', 'user', 'domain', 'drive', 'allDrives'] as const;
const FILE_SPACES = ['drive', 'appDataFolder'] as const;

export function fileRoutes(kit: DriveRouteKit): Route[] {
  const { model, blobs, drives } = kit.service;
  /** Drive's 404 for shared-drive items when the request lacks supportsAllDrives. */
  const guard = (context: RequestContext, ids: readonly (string | undefined)[]): void => { hideDriveItems(model, supportsAllDrives(context.query), ids); };
  return [
    { id: 'drive.files.list', method: 'GET', path: '/drive/v2/files', handle: listFiles },
    { id: 'drive.files.insert', method: 'POST', path: '/drive/v2/files', handle: insertFile },
    { id: 'drive.files.generateIds', method: 'GET', path: '/drive/v2/files/generateIds', handle: generateIds },
    { id: 'drive.files.emptyTrash', method: 'DELETE', path: '/drive/v2/files/trash', handle: emptyTrash },
    { id: 'drive.files.get', method: 'GET', path: '/drive/v2/files/:fileId', handle: getFile },
    { id: 'drive.files.update', method: 'PUT', path: '/drive/v2/files/:fileId', handle: updateFile },
    { id: 'drive.files.patch', method: 'PATCH', path: '/drive/v2/files/:fileId', handle: patchFile },
    { id: 'drive.files.delete', method: 'DELETE', path: '/drive/v2/files/:fileId', handle: deleteFile },
    { id: 'drive.files.copy', method: 'POST', path: '/drive/v2/files/:fileId/copy', handle: copyFile },
    { id: 'drive.files.touch', method: 'POST', path: '/drive/v2/files/:fileId/touch', handle: touchFile },
    { id: 'drive.files.trash', method: 'POST', path: '/drive/v2/files/:fileId/trash', handle: trashFile },
    { id: 'drive.files.untrash', method: 'POST', path: '/drive/v2/files/:fileId/untrash', handle: untrashFile },
    { id: 'drive.children.list', method: 'GET', path: '/drive/v2/files/:folderId/children', handle: listChildren },
    { id: 'drive.children.get', method: 'GET', path: '/drive/v2/files/:folderId/children/:childId', handle: getChild },
    { id: 'drive.children.insert', method: 'POST', path: '/drive/v2/files/:folderId/children', handle: insertChild },
    { id: 'drive.children.delete', method: 'DELETE', path: '/drive/v2/files/:folderId/children/:childId', handle: deleteChild },
    { id: 'drive.parents.list', method: 'GET', path: '/drive/v2/files/:fileId/parents', handle: listParents },
    { id: 'drive.parents.get', method: 'GET', path: '/drive/v2/files/:fileId/parents/:parentId', handle: getParent },
    { id: 'drive.parents.insert', method: 'POST', path: '/drive/v2/files/:fileId/parents', handle: insertParent },
    { id: 'drive.parents.delete', method: 'DELETE', path: '/drive/v2/files/:fileId/parents/:parentId', handle: deleteParent },
  ];

  async function listFiles(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const query = context.query;
    const q = query.string('q');
    const orderBy = query.string('orderBy', 512);
    const maxResults = listPageSize(query);
    const pageToken = query.string('pageToken', 2048);
    const corpora = commaList(query, 'corpora', CORPORA);
    const spaces = commaList(query, 'spaces', FILE_SPACES);
    query.enumValue('corpus', ['DEFAULT', 'DOMAIN'] as const);
    query.enumValue('projection', ['BASIC', 'FULL'] as const);
    const scope = listScope(query, corpora, drives, user);
    const result = spaces.length > 0 && !spaces.includes('drive')
      ? { files: [] as StoredFile[] }
      : await model.list(user, { q, orderBy, maxResults, pageToken, appId: appIdOf(context), ...scope });
    const nextPageToken = 'nextPageToken' in result ? result.nextPageToken : undefined;
    return { json: renderFileList(kit.renderContext(context), model.largestChangeId(), result.files, { nextPageToken, q, orderBy, maxResults }) };
  }

  async function insertFile(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    refuseInsertIfNoneMatchAny(context);
    rejectMediaOnMetadataPath(context);
    const input = await readMetadata(context);
    insertParams(context.query);
    guard(context, (input.parents ?? []).map((parent) => parent.id));
    const file = model.insert(user, input);
    return kit.fileReply(context, file);
  }

  function generateIds(context: RequestContext): Reply {
    requireUser(context);
    const count = context.query.integer('maxResults', { min: 1, max: 1000, default: 10 }) ?? 10;
    const space = context.query.enumValue('space', ['drive', 'appDataFolder'] as const, 'drive');
    context.query.enumValue('type', ['files', 'shortcuts'] as const, 'files');
    const ids: string[] = [];
    while (ids.length < count) {
      const id = newFileId();
      if (!model.exists(id)) ids.push(id);
    }
    return { json: renderGeneratedIds(space, ids) };
  }

  async function emptyTrash(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    context.query.boolean('enforceSingleParent', false);
    const driveId = context.query.string('driveId', 200);
    const garbage = driveId !== undefined ? drives.emptyTrash(user, driveId) : model.emptyTrash(user);
    await kit.freeBlobs(garbage.blobIds);
    return { status: 204, empty: true };
  }

  async function getFile(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const alt = context.query.enumValue('alt', ['json', 'media'] as const, 'json');
    context.query.boolean('acknowledgeAbuse', false);
    context.query.boolean('updateViewedDate', false);
    context.query.enumValue('projection', ['BASIC', 'FULL'] as const);
    guard(context, [context.params.fileId]);
    const file = model.get(user, context.params.fileId);
    // revisionId picks an old version's bytes; it is ignored unless alt=media (discovery document).
    const revisionId = context.query.string('revisionId', 200);
    if (alt === 'media' && revisionId !== undefined) return revisionDownloadReply(kit, context, file.id, revisionId);
    if (alt === 'media') return downloadReply(kit, context, file);
    const etag = etagOf(file);
    if (ifNoneMatchHits(etag, header(context, 'if-none-match'))) {
      return { status: 304, headers: { ETag: etag }, empty: true };
    }
    return kit.fileReply(context, file);
  }

  async function updateOrPatch(context: RequestContext, patch: boolean): Promise<Reply> {
    const user = requireUser(context);
    rejectMediaOnMetadataPath(context);
    const input = await readMetadata(context);
    const options = updateParams(context);
    if (!patch) options.updateViewedDate = context.query.boolean('updateViewedDate', true);
    guard(context, [context.params.fileId, ...(input.parents ?? []).map((parent) => parent.id), ...(options.addParents ?? [])]);
    const { file, garbage } = model.update(user, context.params.fileId, input, options);
    await kit.freeBlobs(garbage.blobIds);
    return kit.fileReply(context, file);
  }

  function updateFile(context: RequestContext): Promise<Reply> {
    return updateOrPatch(context, false);
  }

  function patchFile(context: RequestContext): Promise<Reply> {
    return updateOrPatch(context, true);
  }

  function touchFile(context: RequestContext): Reply {
    guard(context, [context.params.fileId]);
    return kit.fileReply(context, model.touch(requireUser(context), context.params.fileId));
  }

  function trashFile(context: RequestContext): Reply {
    guard(context, [context.params.fileId]);
    return kit.fileReply(context, model.trash(requireUser(context), context.params.fileId, header(context, 'if-match')));
  }

  function untrashFile(context: RequestContext): Reply {
    guard(context, [context.params.fileId]);
    return kit.fileReply(context, model.untrash(requireUser(context), context.params.fileId));
  }

  async function deleteFile(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    guard(context, [context.params.fileId]);
    const garbage = model.delete(user, context.params.fileId, header(context, 'if-match'));
    await kit.freeBlobs(garbage.blobIds);
    return { status: 204, empty: true };
  }

  async function copyFile(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const input = await readMetadata(context);
    insertParams(context.query);
    guard(context, [context.params.fileId, ...(input.parents ?? []).map((parent) => parent.id)]);
    const source = model.get(user, context.params.fileId);
    if (source.mimeType === FOLDER_MIME_TYPE) throw forbidden('This file cannot be copied by the user.', 'cannotCopyFile');
    const copiedBlobId = source.blobId ? await blobs.copy(source.blobId) : undefined;
    try {
      return kit.fileReply(context, model.copy(user, source.id, input, copiedBlobId));
    } catch (error) {
      if (copiedBlobId) await kit.freeBlobs([copiedBlobId]);
      throw error;
    }
  }

  async function listChildren(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const folder = model.get(user, context.params.folderId);
    const q = context.query.string('q');
    const orderBy = context.query.string('orderBy', 512);
    const maxResults = listPageSize(context.query);
    const pageToken = context.query.string('pageToken', 2048);
    // children.list has no supportsAllDrives: a shared drive's folder lists its items.
    const result = await model.list(user, { q, orderBy, maxResults, pageToken, parentId: folder.id, ...(folder.driveId !== undefined ? { allDrives: true } : {}) });
    const listed = { id: folder.id, requestedAs: context.params.folderId };
    return { json: renderChildList(kit.renderContext(context), model.largestChangeId(), listed, result.files.map((file) => file.id), result.nextPageToken) };
  }

  function getChild(context: RequestContext): Reply {
    const user = requireUser(context);
    const folder = model.get(user, context.params.folderId);
    const child = model.get(user, context.params.childId);
    if (!child.parents.includes(folder.id)) throw notFound(`File not found: ${context.params.childId}`);
    return { json: renderChild(kit.renderContext(context), folder.id, child.id) };
  }

  async function insertChild(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const body = parseBody(childReferenceInputSchema, await context.json());
    guard(context, [context.params.folderId, body.id]);
    const folder = model.get(user, context.params.folderId);
    const { file } = model.addParent(user, body.id, folder.id);
    return { json: renderChild(kit.renderContext(context), folder.id, file.id) };
  }

  function deleteChild(context: RequestContext): Reply {
    const user = requireUser(context);
    const folder = model.get(user, context.params.folderId);
    model.removeParent(user, context.params.childId, folder.id);
    return { status: 204, empty: true };
  }

  function listParents(context: RequestContext): Reply {
    const user = requireUser(context);
    const file = model.get(user, context.params.fileId);
    return { json: renderParentList(kit.renderContext(context), file) };
  }

  function getParent(context: RequestContext): Reply {
    const user = requireUser(context);
    const file = model.get(user, context.params.fileId);
    const parentId = context.params.parentId === 'root' ? model.rootOf(user).id : (context.params.parentId);
    if (!file.parents.includes(parentId)) throw notFound(`File not found: ${context.params.parentId}`);
    return { json: renderParent(kit.renderContext(context), file.id, parentId) };
  }

  async function insertParent(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const body = parseBody(parentReferenceInputSchema, await context.json());
    guard(context, [context.params.fileId, body.id]);
    const { file, parentId } = model.addParent(user, context.params.fileId, body.id);
    return { json: renderParent(kit.renderContext(context), file.id, parentId) };
  }

  function deleteParent(context: RequestContext): Reply {
    model.removeParent(requireUser(context), context.params.fileId, context.params.parentId);
    return { status: 204, empty: true };
  }
}
