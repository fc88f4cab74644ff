/**
 * Which OAuth scopes each API call needs: the `scopes` Google's discovery document lists for the method the matched
 * route serves (its id). A call is allowed when its token carries any one of them, and answered Google's 403
 * `insufficientPermissions` (ACCESS_TOKEN_SCOPE_INSUFFICIENT) otherwise. The emulator's own routes, OAuth and
 * discovery need none (a test checks that every other route's id is in the documents). What drive.file and
 * drive.appdata reach within Drive is Drive's to check (drive/scopeLimits.ts).
 */
import { discoveryMethod } from '../discovery/documents';
import { ApiError } from './errors';
import type { Handler, RequestContext, Route } from './router';

/** Where Google's OAuth scope URLs start: `scopeUrl('drive.file')`. */
const AUTH = 'https://www.googleapis.com/auth/';

export function scopeUrl(name: string): string {
  return `${AUTH}${name}`;
}

/**
 * Routes that serve a Google method under an emulator id, and the method whose scopes they take: a revision's export
 * link reads content as files.export does.
 */
const SAME_SCOPES_AS: Readonly<Record<string, string>> = { 'emulator.drive.revisions.export': 'drive.files.export' };

/** APIs the emulator serves beside the five documents: the Drive Labels API (label definitions), by its discovery ids. */
const OTHER_APIS: readonly { prefix: string; read: readonly string[]; write: readonly string[] }[] = [
  {
    prefix: 'drivelabels.',
    read: ['drive.labels', 'drive.labels.readonly', 'drive.admin.labels', 'drive.admin.labels.readonly'].map((name) => `${AUTH}${name}`),
    write: ['drive.labels', 'drive.admin.labels'].map((name) => `${AUTH}${name}`),
  },
];

/**
 * Metadata scopes do not reach file content: any alt=media call drops them (exports, which answer content only, do
 * not list them).
 */
const METADATA_ONLY = new Set(['drive.metadata', 'drive.metadata.readonly'].map((name) => `${AUTH}${name}`));

/**
 * The scopes that allow the call served by route `routeId` (any one of them), or undefined when it needs none: routes
 * outside Google's APIs (the emulator's own `emulator.*`, OAuth, discovery).
 */
export function scopesFor(routeId: string, method: string, query: URLSearchParams): readonly string[] | undefined {
  const located = discoveryMethod(SAME_SCOPES_AS[routeId] ?? routeId);
  if (located) {
    const listed = located.method.scopes ?? [];
    // Any method: revisions.get serves bytes with alt=media although v2's document declares no media download.
    if (query.get('alt') === 'media') return listed.filter((scope) => !METADATA_ONLY.has(scope));
    return listed;
  }
  const other = OTHER_APIS.find((api) => routeId.startsWith(api.prefix));
  if (other) return method === 'GET' ? other.read : other.write;
  return undefined;
}

/** The granted scopes that allow this call, or undefined when it needs none. Throws Google's 403 when none does. */
export function requireScopes(granted: readonly string[], routeId: string, method: string, query: URLSearchParams): readonly string[] | undefined {
  const needed = scopesFor(routeId, method, query);
  if (!needed) return undefined;
  const allowing = needed.filter((scope) => granted.includes(scope));
  if (allowing.length > 0) return allowing;
  throw new ApiError(403, 'insufficientPermissions', 'Request had insufficient authentication scopes.', {}, {}, [{
    '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
    reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
    domain: 'googleapis.com',
    metadata: { method: routeId, service: `${routeId.split('.')[0] ?? ''}.googleapis.com` },
  }]);
}

/**
 * A call allowed only by narrow scopes (drive.file, calendar.app.created…): the client and the scopes among `narrow`
 * that allow it. Undefined when a broader granted scope allows the call (it reaches everything its method does), or
 * when the call needs no scope.
 */
export interface NarrowGrant {
  readonly clientId: string;
  readonly allowing: readonly string[];
}

export function narrowGrantOf(context: RequestContext, narrow: ReadonlySet<string>): NarrowGrant | undefined {
  const grant = context.grant;
  const needed = grant && context.user ? scopesFor(context.routeId, context.method, new URLSearchParams()) : undefined;
  if (!grant || !needed) return undefined;
  const allowing = needed.filter((scope) => grant.scopes.includes(scope));
  if (allowing.length === 0 || allowing.some((scope) => !narrow.has(scope))) return undefined;
  return { clientId: grant.clientId, allowing };
}

/** A route table whose every handler runs inside `limit` (the one way a service confines a route table to a grant). */
export function limitRoutes(routes: readonly Route[], limit: (handle: Handler) => Handler): Route[] {
  return routes.map((route) => ({ ...route, handle: limit(route.handle) }));
}
