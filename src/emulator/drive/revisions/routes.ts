/** Drive's revisions routes (delete/get/list/patch/update), an old version's bytes and exports, and their typed rendering. */
import { createHash } from 'node:crypto';
import { DriveRevision, revisionInputSchema, RevisionList, REVISIONS_DEFAULT_PAGE, REVISIONS_MAX_PAGE } from '../../../shared/schemas/drive/revisions';
import { DEMO_USERS } from '../../auth/users';
import { requireUser } from '../../core/context';
import { required } from '../../core/errors';
import { parseBody } from '../../core/params';
import type { Reply, RequestContext } from '../../core/router';
import { EXPORT_FORMATS, EXPORT_LIMIT_BYTES, exportContent } from '../content/convert';
import { downloadReply } from '../content/routes';
import type { StoredFile } from '../files/model';
import { driveUser, fileUrl, iso, RenderContext } from '../render';
import type { DriveRoute, DriveRouteKit } from '../routing';
import { isDocsEditorsFile, StoredRevision } from './model';

const BASE = '/drive/v2/files/:fileId/revisions';

export function revisionRoutes(kit: DriveRouteKit): DriveRoute[] {
  const { revisions } = kit.service;
  return [
    ['GET', BASE, listRevisions],
    ['GET', `${BASE}/:revisionId`, getRevision],
    ['PUT', `${BASE}/:revisionId`, updateRevision],
    ['PATCH', `${BASE}/:revisionId`, updateRevision],
    ['DELETE', `${BASE}/:revisionId`, deleteRevision],
    ['GET', `${BASE}/:revisionId/export`, exportRevision],
  ];

  function ids(context: RequestContext): { fileId: string; revisionId: string } {
    return { fileId: context.params.fileId as string, revisionId: context.params.revisionId as string };
  }

  function listRevisions(context: RequestContext): Reply {
    const user = requireUser(context);
    const maxResults = context.query.integer('maxResults', { min: 1, max: REVISIONS_MAX_PAGE, default: REVISIONS_DEFAULT_PAGE }) ?? REVISIONS_DEFAULT_PAGE;
    const pageToken = context.query.string('pageToken', 512);
    const page = revisions.list(user, ids(context).fileId, { maxResults, ...(pageToken !== undefined ? { pageToken } : {}) });
    const render = kit.renderContext(context);
    const list: RevisionList = {
      kind: 'drive#revisionList',
      etag: `"revisions-${page.file.id}-${page.file.version}"`,
      selfLink: `${fileUrl(render, page.file.id)}/revisions`,
      items: page.revisions.map((revision) => renderRevision(render, page.file, revision)),
    };
    if (page.nextPageToken !== undefined) list.nextPageToken = page.nextPageToken;
    return { json: list };
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

/** files.get with `alt=media&revisionId=…`: that version's bytes (the head's are the file's). */
export async function revisionDownloadReply(kit: DriveRouteKit, context: RequestContext, fileId: string, revisionId: string): Promise<Reply> {
  const { file, revision } = kit.service.revisions.get(requireUser(context), fileId, revisionId);
  return downloadReply(kit, context, asFile(file, revision));
}

/** The file as it was at a revision, for the download path (which reads blob, size, md5 and type from a file). */
function asFile(file: StoredFile, revision: StoredRevision): StoredFile {
  const view: StoredFile = { ...file, mimeType: revision.mimeType, fileSize: revision.fileSize };
  if (revision.blobId !== undefined) view.blobId = revision.blobId;
  else delete view.blobId;
  if (revision.md5 !== undefined) view.md5 = revision.md5;
  else delete view.md5;
  return view;
}

export function renderRevision(context: RenderContext, file: StoredFile, revision: StoredRevision): DriveRevision {
  const self = fileUrl(context, file.id);
  const enc = encodeURIComponent;
  const modifier = DEMO_USERS.find((user) => user.id === revision.userId);
  const resource: DriveRevision = {
    kind: 'drive#revision',
    etag: `"${createHash('sha1').update(`${file.id}:${revision.id}:${revision.version}`).digest('base64url').slice(0, 27)}"`,
    id: revision.id,
    selfLink: `${self}/revisions/${enc(revision.id)}`,
    mimeType: revision.mimeType,
    modifiedDate: iso(revision.modifiedDate),
    lastModifyingUser: driveUser(modifier, context.user),
    lastModifyingUserName: modifier?.name ?? 'Unknown user',
  };
  if (isDocsEditorsFile(revision)) {
    resource.published = revision.published;
    resource.publishAuto = revision.publishAuto;
    resource.publishedOutsideDomain = revision.publishedOutsideDomain;
    if (revision.published) resource.publishedLink = `${context.baseUrl}/emulator/v1/drive/open/${enc(file.id)}?revision=${enc(revision.id)}&published=true`;
    const formats = EXPORT_FORMATS[revision.mimeType] ?? [];
    if (formats.length > 0) resource.exportLinks = Object.fromEntries(formats.map((format) => [format, `${self}/revisions/${enc(revision.id)}/export?mimeType=${enc(format)}`]));
    return resource;
  }
  resource.pinned = revision.pinned;
  resource.fileSize = String(revision.fileSize);
  if (revision.md5 !== undefined) resource.md5Checksum = revision.md5;
  if (revision.originalFilename !== undefined) resource.originalFilename = revision.originalFilename;
  resource.downloadUrl = `${self}?alt=media&revisionId=${enc(revision.id)}`;
  return resource;
}
