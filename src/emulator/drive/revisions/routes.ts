/** Drive's revisions routes (delete/get/list/patch/update) and an old version's exports. */
import { renderRevision, renderRevisionList } from './render';
import { EXPORT_LIMIT_BYTES, exportContent } from '../content/convert';
import { asFile, downloadReply } from '../content/download';
import type { DriveRouteKit } from '../routing';
import { requireUser } from '../../core/context';
import { required } from '../../core/errors';
import { parseBody } from '../../core/params';
import type { Reply, RequestContext, Route } from '../../core/router';
import { revisionInputSchema, REVISIONS_DEFAULT_PAGE, REVISIONS_MAX_PAGE } from '../../../shared/schemas/drive/revisions';

const BASE = '/drive/v2/files/:fileId/revisions';

export function revisionRoutes(kit: DriveRouteKit): Route[] {
  const { revisions } = kit.service;
  return [
    { id: 'drive.revisions.list', method: 'GET', path: BASE, handle: listRevisions },
    { id: 'drive.revisions.get', method: 'GET', path: `${BASE}/:revisionId`, handle: getRevision },
    { id: 'drive.revisions.update', method: 'PUT', path: `${BASE}/:revisionId`, handle: updateRevision },
    { id: 'drive.revisions.patch', method: 'PATCH', path: `${BASE}/:revisionId`, handle: updateRevision },
    { id: 'drive.revisions.delete', method: 'DELETE', path: `${BASE}/:revisionId`, handle: deleteRevision },
    { id: 'emulator.drive.revisions.export', method: 'GET', path: `${BASE}/:revisionId/export`, handle: exportRevision },
  ];

  function ids(context: RequestContext): { fileId: string; revisionId: string } {
    return { fileId: context.params.fileId, revisionId: context.params.revisionId };
  }

  function listRevisions(context: RequestContext): Reply {
    const user = requireUser(context);
    const maxResults = context.query.integer('maxResults', { min: 1, max: REVISIONS_MAX_PAGE, default: REVISIONS_DEFAULT_PAGE }) ?? REVISIONS_DEFAULT_PAGE;
    const pageToken = context.query.string('pageToken', 512);
    const page = revisions.list(user, ids(context).fileId, { maxResults, ...(pageToken !== undefined ? { pageToken } : {}) });
    return { json: renderRevisionList(kit.renderContext(context), page.file, page.revisions, page.nextPageToken) };
  }

  /** A revision's metadata, or with `alt=media` its bytes (as v3 offers; v2 clients follow `downloadUrl`). */
  async function getRevision(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const alt = context.query.enumValue('alt', ['json', 'media'] as const, 'json');
    const { file, revision } = revisions.get(user, ids(context).fileId, ids(context).revisionId);
    if (alt === 'media') return downloadReply(kit, context, asFile(file, revision));
    return { json: renderRevision(kit.renderContext(context), file, revision) };
  }

  async function updateRevision(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const input = parseBody(revisionInputSchema, await context.json());
    const { file, revision } = revisions.update(user, ids(context).fileId, ids(context).revisionId, input);
    return { json: renderRevision(kit.renderContext(context), file, revision) };
  }

  async function deleteRevision(context: RequestContext): Promise<Reply> {
    const garbage = revisions.delete(requireUser(context), ids(context).fileId, ids(context).revisionId);
    await kit.freeBlobs(garbage.blobIds);
    return { status: 204, empty: true };
  }

  /** An old version of a Docs Editors file, exported (the target of a revision's `exportLinks`). */
  async function exportRevision(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const target = context.query.string('mimeType', 255);
    if (target === undefined || target === '') throw required('mimeType');
    const { file, revision } = revisions.get(user, ids(context).fileId, ids(context).revisionId);
    const text = revision.blobId ? (await kit.service.blobs.readAll(revision.blobId, EXPORT_LIMIT_BYTES)).toString('utf8') : '';
    const exported = exportContent(revision.mimeType, file.title, text, target);
    return { body: exported.body, contentType: exported.contentType };
  }
}

