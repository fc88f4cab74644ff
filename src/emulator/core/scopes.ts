/**
 * Which OAuth scopes each API call needs, as Google's discovery documents list them per method: a call is
 * allowed when its token carries any one of the listed scopes, and answered Google's 403
 * `insufficientPermissions` (ACCESS_TOKEN_SCOPE_INSUFFICIENT) otherwise. Paths no rule names need none
 * (the emulator's own /emulator/v1 routes; OAuth's userinfo checks its own).
 */
import { ApiError } from './errors';

const AUTH = 'https://www.googleapis.com/auth/';
const scopes = (...names: string[]): readonly string[] => names.map((name) => `${AUTH}${name}`);

interface ScopeRule {
  readonly prefix: string;
  /** The scopes that allow the call (any one), by whether it only reads. */
  readonly read: readonly string[] | undefined;
  readonly write: readonly string[];
}

const DRIVE_WRITE = scopes('drive', 'drive.file', 'drive.appdata');
/** Content (download, export) is not metadata: the metadata scopes do not reach it. */
const DRIVE_CONTENT_READ = scopes('drive', 'drive.file', 'drive.readonly', 'drive.appdata');
const DRIVE_READ = [...DRIVE_CONTENT_READ, ...scopes('drive.metadata', 'drive.metadata.readonly', 'drive.photos.readonly')];

/** Longest prefix first: the first rule whose prefix starts the path decides. */
const RULES: readonly ScopeRule[] = [
  { prefix: '/tasks/v1/', read: scopes('tasks', 'tasks.readonly'), write: scopes('tasks') },
  { prefix: '/upload/drive/v2/', read: DRIVE_CONTENT_READ, write: DRIVE_WRITE },
  { prefix: '/drive/v2/', read: DRIVE_READ, write: DRIVE_WRITE },
  // Volume search and lookup are public on Google (an API key is enough): any signed-in caller may use them.
  { prefix: '/books/v1/volumes', read: undefined, write: scopes('books') },
  { prefix: '/books/v1/', read: scopes('books'), write: scopes('books') },
  // freeBusy reads with a POST: the free/busy scopes and every calendar reading scope allow it.
  { prefix: '/calendar/v3/freeBusy', read: undefined, write: scopes('calendar', 'calendar.readonly', 'calendar.freebusy', 'calendar.events.freebusy', 'calendar.events', 'calendar.events.readonly') },
  { prefix: '/calendar/v3/', read: scopes('calendar', 'calendar.readonly', 'calendar.events', 'calendar.events.readonly', 'calendar.settings.readonly'), write: scopes('calendar', 'calendar.events') },
  { prefix: '/admin/directory/', read: scopes('admin.directory.user', 'admin.directory.user.readonly'), write: scopes('admin.directory.user') },
  { prefix: '/admin/directory_v1/', read: scopes('admin.directory.user'), write: scopes('admin.directory.user') },
  // The Drive Labels API (label definitions), served on the same root.
  { prefix: '/v2/labels', read: scopes('drive.labels', 'drive.labels.readonly', 'drive.admin.labels', 'drive.admin.labels.readonly'), write: scopes('drive.labels', 'drive.admin.labels') },
];

/** The scopes that allow this call (any one of them), or undefined when the call needs none. */
export function scopesFor(method: string, pathname: string, query: URLSearchParams): readonly string[] | undefined {
  const rule = RULES.find((candidate) => pathname.startsWith(candidate.prefix));
  if (!rule) return undefined;
  const reads = method === 'GET';
  if (!reads) return rule.write;
  // A Drive GET for bytes (alt=media, export) is a content read, not a metadata read.
  if (rule.prefix === '/drive/v2/' && (query.get('alt') === 'media' || /\/export$/.test(pathname))) return DRIVE_CONTENT_READ;
  return rule.read;
}

/** Throws Google's 403 when the token's scopes include none of those the call needs. */
export function requireScopes(granted: readonly string[], method: string, pathname: string, query: URLSearchParams): void {
  const needed = scopesFor(method, pathname, query);
  if (!needed || needed.some((scope) => granted.includes(scope))) return;
  throw new ApiError(403, 'insufficientPermissions', 'Request had insufficient authentication scopes.', {}, {}, [{
    '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
    reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
    domain: 'googleapis.com',
    metadata: { method: `${method} ${pathname}` },
  }]);
}
