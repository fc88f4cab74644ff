/**
 * Page tokens: opaque to clients, bound to the listing that issued them. A token carries a scope (which listing,
 * with which filters) and a cursor (where the next page starts); a token from another listing, or one that does
 * not decode, is Google's 400 `invalid` on `pageToken`.
 */
import { ApiError, invalid } from './errors';

export type PageCursor = string | number | readonly (string | number)[];

export function encodePageToken(scope: string, cursor: PageCursor): string {
  return Buffer.from(JSON.stringify({ s: scope, c: cursor }), 'utf8').toString('base64url');
}

/** The cursor of a token issued for `scope`; anything else is a 400. */
export function decodePageToken(token: string, scope: string): PageCursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && 's' in parsed && 'c' in parsed) {
      const { s, c } = parsed as { s: unknown; c: unknown };
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
