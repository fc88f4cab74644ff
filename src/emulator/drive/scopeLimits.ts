/**
 * What a Drive call reaches when the only scopes allowing it are `drive.file` (the files this app created) and
 * `drive.appdata` (the application data folder, which this emulator keeps empty): other files are "not found",
 * listings show only the app's files, and the app's creations are remembered per OAuth client.
 */
import { ApiError } from '../core/errors';
import type { Handler, Reply, RequestContext, Route } from '../core/router';
import { limitRoutes, narrowGrantOf, scopeUrl } from '../core/scopes';
import { AppOwnedIds } from '../store/appOwned';
import type { Store } from '../store/store';
import type { DriveService } from './service';

const DRIVE_FILE = scopeUrl('drive.file');
const DRIVE_APPDATA = scopeUrl('drive.appdata');
const NARROW: ReadonlySet<string> = new Set([DRIVE_FILE, DRIVE_APPDATA]);

/** Path parameters that name a file or folder. */
const FILE_PARAMS = ['fileId', 'folderId', 'childId'] as const;
/** Methods that create a file: the file becomes the creating app's. */
const CREATING: ReadonlySet<string> = new Set(['drive.files.insert', 'drive.files.copy']);
/** Listings a limited token sees filtered, and the field of each item that names its file. */
const LISTINGS: Readonly<Partial<Record<string, 'id' | 'fileId'>>> = { 'drive.files.list': 'id', 'drive.children.list': 'id', 'drive.changes.list': 'fileId' };
/** Listings that take `spaces`: with drive.appdata alone only `appDataFolder` may be asked for. */
const SPACED: ReadonlySet<string> = new Set(['drive.files.list', 'drive.changes.list']);

/** The files each OAuth client (Drive's "app") created, durable in the store. */
export class AppFiles extends AppOwnedIds {
  constructor(store: Store) {
    super(store, 'drive.appFiles');
  }
}

interface ScopeLimit {
  readonly appId: string;
  /** drive.file allows the call: the app's own files are reachable (drive.appdata alone reaches none here). */
  readonly appFiles: boolean;
}

/** The limit on this call, or undefined when a scope that reaches every file (drive, drive.readonly…) allows it. */
function limitOf(context: RequestContext): ScopeLimit | undefined {
  const narrow = narrowGrantOf(context, NARROW);
  return narrow ? { appId: narrow.clientId, appFiles: narrow.allowing.includes(DRIVE_FILE) } : undefined;
}

function fileNotFound(id: string): ApiError {
  return new ApiError(404, 'notFound', `File not found: ${id}`, { location: 'file', locationType: 'other' });
}

/** Drive's routes, each run within the limits of the token's scopes, remembering the files an app creates. */
export function withinScopeLimits(service: DriveService, routes: readonly Route[]): Route[] {
  return limitRoutes(routes, (handler) => (context) => limited(service, context, handler));
}

async function limited(service: DriveService, context: RequestContext, handler: Handler): Promise<Reply> {
  const limit = limitOf(context);
  if (limit) {
    const rootId = context.user ? service.model.rootOf(context.user).id : undefined;
    for (const name of FILE_PARAMS) {
      const id = context.params[name] as string | undefined;
      if (id === undefined) continue;
      const isRoot = id === 'root' || id === rootId;
      if (!limit.appFiles || !(isRoot || service.appFiles.has(limit.appId, id))) throw fileNotFound(id);
    }
    if (!limit.appFiles && (CREATING.has(context.routeId) || (SPACED.has(context.routeId) && (context.query.string('spaces') ?? 'drive').split(',').some((space) => space.trim() !== 'appDataFolder')))) {
      throw new ApiError(403, 'insufficientScopes', 'The granted scopes do not give access to all of the requested spaces.');
    }
  }
  const reply = await handler(context);
  if (!('json' in reply) || typeof reply.json !== 'object' || reply.json === null) return reply;
  const appId = context.grant?.clientId;
  const created = (reply.json as { id?: unknown }).id;
  if (appId !== undefined && CREATING.has(context.routeId) && typeof created === 'string') service.appFiles.add(appId, created);
  const field = LISTINGS[context.routeId];
  if (!limit || field === undefined) return reply;
  const listing = reply.json as { items?: Record<string, unknown>[] };
  if (!listing.items) return reply;
  const items = listing.items.filter((item) => limit.appFiles && typeof item[field] === 'string' && service.appFiles.has(limit.appId, item[field]));
  return { ...reply, json: { ...listing, items } };
}
