/**
 * Page tokens: opaque to clients, bound to the listing that issued them. A token carries a scope (which listing,
 * with which filters) and a cursor (where the next page starts); a token from another listing, or one that does
 * not decode, is Google's 400 `invalid` on `pageToken`.
 */
import { ApiError, invalid } from './errors';
import type { Reply } from './router';

export type PageCursor = string | number | readonly (string | number)[];

export function encodePageToken(scope: string, cursor: PageCursor): string {
  return Buffer.from(JSON.stringify({ s: scope, c: cursor }), 'utf8').toString('base64url');
}

/** The cursor of a token issued for `scope`; anything else is a 400. */
export function decodePageToken(token: string, scope: string): PageCursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && 's' in parsed && 'c' in parsed) {
      const { s, c } = parsed;
      if (s === scope && isCursor(c)) return c;
    }
  } catch {
    // fall through: any undecodable token is the client's mistake
  }
  throw invalidPageToken(token);
}

export function invalidPageToken(token: string): ApiError {
  return invalid(`Invalid value for pageToken: '${token.slice(0, 40)}'. Use nextPageToken from the previous page of the same listing.`, 'pageToken');
}

function isCursor(value: unknown): value is PageCursor {
  if (typeof value === 'string' || typeof value === 'number') return true;
  return Array.isArray(value) && value.every((part) => typeof part === 'string' || typeof part === 'number');
}

/** A page of `items` starting at a numeric offset cursor: the simple case for small, stably ordered listings. */
export function offsetPage<T>(items: readonly T[], options: { scope: string; pageToken?: string; maxResults: number }): { items: T[]; nextPageToken?: string } {
  const start = options.pageToken === undefined ? 0 : decodePageToken(options.pageToken, options.scope);
  if (typeof start !== 'number' || !Number.isSafeInteger(start) || start < 0) throw invalidPageToken(options.pageToken ?? '');
  const end = start + options.maxResults;
  const page = items.slice(start, end);
  return end < items.length ? { items: page, nextPageToken: encodePageToken(options.scope, end) } : { items: page };
}

/**
 * The token continues the query that issued it, as Google's do: every listing's `nextPageToken` is handed out
 * wrapped with the parameters of the request that produced the page, and a request that sends it back gets those
 * parameters restored, whatever filters it sends itself (different, or none: a client that sends only `pageToken`
 * is answered 200 with the original query's next page). The request decides only the page size and Google's
 * system parameters. The inner token still names its listing (user, calendar, list, file), so a token used on
 * another listing stays a 400.
 */
const REQUEST_DECIDES: ReadonlySet<string> = new Set([
  'pageToken', 'maxResults', 'pageSize',
  'fields', 'alt', 'prettyPrint', 'access_token', 'oauth_token', 'key', 'quotaUser', 'userIp', 'callback', '$.xgafv', 'upload_protocol',
]);

/** Drive's changes.list: its page token is the change number to read from (clients keep it), not a query's cursor. */
const TOKEN_IS_A_POSITION: ReadonlySet<string> = new Set(['drive.changes.list']);

/** Whether a route's page tokens continue its query (every listing but Drive's change feed), by the method it serves. */
export function continuesQuery(route: { readonly id: string; readonly method: string }): boolean {
  return route.method === 'GET' && !TOKEN_IS_A_POSITION.has(route.id);
}

interface Continuation {
  /** The listing's own token. */
  t: string;
  /** The parameters of the query it continues, in order. */
  q: [string, string][];
}

/** Restores the query a wrapped page token continues (in place) and unwraps the token; anything else is left as it is. */
export function continueQuery(searchParams: URLSearchParams): void {
  const token = searchParams.get('pageToken');
  const continuation = token === null ? undefined : readContinuation(token);
  if (!continuation) return;
  for (const name of [...new Set(searchParams.keys())]) if (!REQUEST_DECIDES.has(name)) searchParams.delete(name);
  for (const [name, value] of continuation.q) searchParams.append(name, value);
  searchParams.set('pageToken', continuation.t);
}

/**
 * The answer with its `nextPageToken` (and a `nextLink` carrying it) wrapped with the query that produced the page.
 * JSON assembled as bytes (Calendar's event listings) is edited in place: its first `"nextPageToken":"` is the
 * envelope's (the envelope precedes the items, and a quote inside a string value is always escaped).
 */
export function withContinuation(reply: Reply, searchParams: URLSearchParams): Reply {
  if ('json' in reply) {
    const { json } = reply;
    if (typeof json !== 'object' || json === null || !('nextPageToken' in json)) return reply;
    const inner = (json as { nextPageToken?: unknown }).nextPageToken;
    if (typeof inner !== 'string' || inner === '') return reply;
    const wrapped = wrapToken(inner, searchParams);
    const answer: Record<string, unknown> = { ...(json as Record<string, unknown>), nextPageToken: wrapped };
    if (typeof answer.nextLink === 'string') answer.nextLink = answer.nextLink.replace(`pageToken=${encodeURIComponent(inner)}`, `pageToken=${wrapped}`);
    return { ...reply, json: answer };
  }
  if ('body' in reply && Buffer.isBuffer(reply.body) && /^application\/json\b/i.test(reply.contentType)) {
    const key = Buffer.from('"nextPageToken":"', 'utf8');
    const at = reply.body.indexOf(key);
    if (at === -1) return reply;
    const from = at + key.length;
    const to = reply.body.indexOf('"', from);
    if (to === -1) return reply;
    const wrapped = wrapToken(reply.body.subarray(from, to).toString('utf8'), searchParams);
    return { ...reply, body: Buffer.concat([reply.body.subarray(0, from), Buffer.from(wrapped, 'utf8'), reply.body.subarray(to)]) };
  }
  return reply;
}

function wrapToken(inner: string, searchParams: URLSearchParams): string {
  const continuation: Continuation = { t: inner, q: [...searchParams.entries()].filter(([name]) => !REQUEST_DECIDES.has(name)) };
  return Buffer.from(JSON.stringify(continuation), 'utf8').toString('base64url');
}

function readContinuation(token: string): Continuation | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null || !('t' in parsed) || !('q' in parsed)) return undefined;
    const { t, q } = parsed;
    if (typeof t !== 'string' || !Array.isArray(q)) return undefined;
    if (!q.every((pair): pair is [string, string] => Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string' && typeof pair[1] === 'string')) return undefined;
    return { t, q };
  } catch {
    return undefined;
  }
}
