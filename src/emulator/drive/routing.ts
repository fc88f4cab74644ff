/** What the Drive route files share: the wait for durable roots, the service's reply helpers and the parameter checks several resources make. */
import type { DriveAccess } from './drives/model';
import type { ModifiedDateBehavior, StoredFile, UpdateOptions } from './files/model';
import { FileViewer, RenderContext, renderFile } from './render';
import type { DriveService } from './service';
import { withinScopeLimits } from './scopeLimits';
import type { EmulatorUser } from '../identity/users';
import { header, requireUser } from '../core/context';
import { ApiError, badRequest, invalid, notFound, forbidden } from '../core/errors';
import { parseBody, QueryParams } from '../core/params';
import type { Reply, RequestContext, Route } from '../core/router';
import { limitRoutes } from '../core/scopes';
import { FileMetadataInput, fileMetadataInputSchema } from '../../shared/schemas/drive';
import * as z from '../../shared/schemas/zod';

/** The service plus the reply helpers every Drive handler uses. */
export interface DriveRouteKit {
  readonly service: DriveService;
  renderContext(context: RequestContext): RenderContext;
  /** A file resource as the answer, with its ETag header. */
  fileReply(context: RequestContext, file: StoredFile, status?: number): Reply;
  /**
   * Deletes blobs a committed mutation left behind, only once the metadata that no longer points at them is
   * durable: a crash in between must find either the old state whole or the new one (a failure here only leaks
   * space, which the startup sweep frees).
   */
  freeBlobs(blobIds: readonly string[]): Promise<void>;
}

/** The OAuth client the request's token was issued to (Drive's "app"), if any. */
export function appIdOf(context: RequestContext): string | undefined {
  return context.grant?.clientId;
}

export function driveRouteKit(service: DriveService): DriveRouteKit {
  const renderContext = (context: RequestContext): RenderContext => {
    const user = requireUser(context);
    const { model } = service;
    const memo = new Map<string, ReturnType<typeof model.roleOf>>();
    const viewer: FileViewer = {
      roleOf: (file) => model.access.roleOf(user, file, memo),
      isShared: (file) => model.access.isShared(file),
      directGrant: (file) => (model.access.grantedTo(user.id).has(file.id) ? file.permissions?.find((permission) => permission.type === 'user' ? permission.emailAddress === user.email : permission.type === 'group') : undefined),
      decorate: (file, resource) => {
        for (const decorate of service.decorators) decorate(file, resource, user, context);
      },
    };
    const appId = appIdOf(context);
    return { baseUrl: context.baseUrl, user, rootId: model.rootOf(user).id, viewer, ...(appId !== undefined ? { appId } : {}) };
  };
  return {
    service,
    renderContext,
    fileReply(context, file, status = 200) {
      const resource = renderFile(renderContext(context), file);
      return { status, headers: { ETag: resource.etag ?? '' }, json: resource };
    },
    async freeBlobs(blobIds) {
      if (blobIds.length === 0) return;
      await service.flush();
      for (const blobId of blobIds) await service.blobs.remove(blobId).catch(() => undefined);
    },
  };
}

/**
 * The routes, each first waiting until the users' root folders are durable (their ids are visible to clients from
 * the first GET, and a GET is not followed by the server's flush), then run within what the token's drive.file or
 * drive.appdata scope reaches.
 */
export function afterReady(service: DriveService, routes: readonly Route[]): Route[] {
  return limitRoutes(withinScopeLimits(service, routes), (handle) => async (context) => {
    await service.ready;
    return handle(context);
  });
}

export const MODIFIED_DATE_BEHAVIORS = ['fromBody', 'fromBodyIfNeeded', 'fromBodyOrNow', 'noChange', 'now', 'nowIfNeeded'] as const;
export const MAX_PAGE = 1000;

/** The file if the user may see it, else undefined (a change may name a file deleted since). */
export function safeGet(service: DriveService, user: EmulatorUser, fileId: string): StoredFile | undefined {
  try {
    return service.model.get(user, fileId);
  } catch {
    return undefined;
  }
}

/** Where a request cannot name a shared drive (changes.watch of a drive's feed is not offered): naming one is a 404. */
export function rejectDriveId(query: QueryParams): void {
  const driveId = query.string('driveId', 200) ?? query.string('teamDriveId', 200);
  if (driveId !== undefined) throw notFound(`Shared drive not found: ${driveId}`);
}

export function listPageSize(query: QueryParams): number {
  const requested = query.integer('maxResults', { min: 0, default: 100 }) ?? 100;
  // 0 means "the default" (the discovery document allows it); Google caps pages at 1000.
  return requested === 0 ? 100 : Math.min(MAX_PAGE, requested);
}

export function commaList<T extends string>(query: QueryParams, name: string, allowed: readonly T[]): T[] {
  const raw = query.string(name, 512);
  if (raw === undefined || raw.trim() === '') return [];
  const values = raw.split(',').map((value) => value.trim());
  for (const value of values) {
    if (!(allowed as readonly string[]).includes(value)) throw invalid(`Invalid value '${value}' for ${name}. Allowed values: ${allowed.join(', ')}`, name);
  }
  return values as T[];
}

export function insertParams(query: QueryParams): void {
  query.boolean('convert', false);
  query.boolean('ocr', false);
  query.boolean('pinned', false);
  query.boolean('useContentAsIndexableText', false);
  query.enumValue('visibility', ['DEFAULT', 'PRIVATE'] as const);
}

export function updateParams(context: RequestContext): UpdateOptions {
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
export function updateParamsFrom(read: (name: string) => string | undefined): UpdateOptions {
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
  if (read('newRevision') === 'false') options.newRevision = false;
  if (read('pinned') === 'true') options.pinned = true;
  return options;
}

/**
 * files.insert with `If-None-Match: *` (metadata or any upload type) is Drive v2's 412, as recorded against real v2:
 * the condition "no representation exists" fails on the collection the file would join. Any other If-None-Match
 * on an insert names no etag of anything that exists, so the insert goes ahead.
 */
export function refuseInsertIfNoneMatchAny(context: RequestContext): void {
  const ifNoneMatch = header(context, 'if-none-match');
  if (ifNoneMatch === undefined || ifNoneMatch.trim() !== '*') return;
  context.request.resume();
  throw new ApiError(412, 'conditionNotMet', 'Precondition Failed', { location: 'If-None-Match', locationType: 'header' });
}

/** Metadata arrives as JSON; anything else on the non-upload paths is media in the wrong place. */
export function rejectMediaOnMetadataPath(context: RequestContext): void {
  const contentType = header(context, 'content-type');
  const uploadType = context.query.string('uploadType');
  const isJson = contentType === undefined || /^application\/json\b/i.test(contentType.trim());
  if (uploadType !== undefined || !isJson) {
    context.request.resume();
    throw badRequest('Media content must be sent to /upload/drive/v2/files (with uploadType=media, multipart or resumable); this path takes JSON metadata only.');
  }
}

export async function readMetadata(context: RequestContext): Promise<FileMetadataInput> {
  const body = await context.json();
  return parseBody(fileMetadataInputSchema as z.ZodMiniType<FileMetadataInput>, body);
}

/**
 * `useDomainAdminAccess=true` is honoured for the domain's administrators only (Directory's isAdmin); anyone else
 * asking with it is refused, as Drive does. The drives routes and the permissions routes (on a drive's id) use it.
 */
export function domainAdminAccess(service: Pick<DriveService, 'isDomainAdmin'>, context: RequestContext, user: EmulatorUser, reason: string): DriveAccess {
  if (!context.query.boolean('useDomainAdminAccess', false)) return {};
  if (!service.isDomainAdmin(user)) throw forbidden('The user is not a domain administrator: useDomainAdminAccess needs an administrator.', reason);
  return { admin: true };
}
