/** The emulator's one route type, and the router that maps method + path to routes, preferring literal segments over parameters across all methods. */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { EmulatorUser } from '../identity/users';
import { QueryParams } from './params';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What the caller's access token grants: the OAuth client it was issued to and its scopes. */
export interface Grant {
  readonly clientId: string;
  readonly scopes: readonly string[];
}

export interface RequestContext {
  readonly method: HttpMethod;
  /** The id of the route serving the request ('drive.files.get', 'emulator.…'): what scope checks and logs name it by. */
  readonly routeId: string;
  /** Decoded path parameters named in the route pattern (`:tasklist` → params.tasklist). */
  readonly params: Readonly<Record<string, string>>;
  readonly query: QueryParams;
  readonly headers: IncomingHttpHeaders;
  /** The signed-in user; routes registered with `auth: false` get undefined. */
  readonly user: EmulatorUser | undefined;
  /**
   * The token's client and scopes, read once by the server with the user (routes registered with `auth: false` get
   * undefined): the one place a bearer token is parsed.
   */
  readonly grant?: Grant;
  /** `http://<listening address>:<port>`, for selfLinks and Location headers; never taken from the Host header. */
  readonly baseUrl: string;
  /** Whether this is one call of a batch request (which never holds a long poll). */
  readonly inBatch: boolean;
  /** The raw request, for streaming uploads. Do not read it after calling json() or text(). */
  readonly request: IncomingMessage;
  /** The JSON body (`{}` when empty); malformed JSON is a 400 parseError (shape is checked by parseBody). */
  json(): Promise<unknown>;
  /** The body as text (forms, small payloads), bounded in size. */
  text(): Promise<string>;
}

export type Reply =
  | { status?: number; headers?: Record<string, string>; json: unknown }
  | { status?: number; headers?: Record<string, string>; body: Buffer | string | Readable; contentType: string }
  | { status: number; headers?: Record<string, string>; empty: true };

export type Handler = (context: RequestContext) => Promise<Reply> | Reply;

/**
 * One emulator route: which discovery operation it serves, at which method and path, and its handler. Every
 * service declares its routes as a table of these; discovery, scope checks and batch look routes up by `id`.
 */
export interface Route {
  /**
   * The discovery method id it serves, exactly as in the discovery documents' "id" fields ('tasks.tasks.list',
   * 'drive.files.insert', 'calendar.events.list', 'books.mylibrary.bookshelves.list', 'directory.users.watch'); or
   * 'emulator.<name>' for the emulator's own routes and 'oauth.<name>' for OAuth endpoints. A method's upload
   * paths (and any other address the spec gives the same operation) carry the same id.
   */
  readonly id: string;
  readonly method: HttpMethod;
  /** Google's path with `:name` parameter segments, e.g. '/tasks/v1/lists/:tasklist/tasks'. */
  readonly path: string;
  /** Whether the route needs a bearer token (default true). */
  readonly auth?: boolean;
  readonly handle: Handler;
}

interface RouteEntry {
  readonly route: Route;
  readonly segments: readonly string[];
  /** Static segments outrank parameters, so `/files/trash` beats `/files/:fileId`. */
  readonly score: number;
}

export interface RouteMatch {
  readonly route: Route;
  readonly params: Record<string, string>;
  /** `route.auth` with its default applied. */
  readonly auth: boolean;
}

/** Maps method + path pattern to routes. Patterns use `:name` segments and match whole segments. */
export class Router {
  private readonly entries: RouteEntry[] = [];

  /** Adds a route; a second route on the same method and path (whatever its parameter names) is a programming error. */
  add(route: Route): void {
    const segments = route.path.split('/').filter(Boolean);
    const shape = shapeOf(segments);
    const clash = this.entries.find((entry) => entry.route.method === route.method && shapeOf(entry.segments) === shape);
    if (clash) throw new Error(`route ${route.id} (${route.method} ${route.path}) clashes with ${clash.route.id} (${clash.route.path})`);
    const score = segments.reduce((total, segment, index) => total + (segment.startsWith(':') ? 0 : 2 ** (32 - index)), 0);
    this.entries.push({ route, segments, score });
    this.entries.sort((a, b) => b.score - a.score);
  }

  addAll(routes: readonly Route[]): void {
    for (const route of routes) this.add(route);
  }

  /** Every route added, in no particular order. */
  routes(): readonly Route[] {
    return this.entries.map((entry) => entry.route);
  }

  /**
   * The route for a request. Only the most literal pattern that matches the path takes part, whatever the
   * method: a path that a literal route claims (`/drive/v2/changes/watch`) is never handed to a parameter
   * route of another method (`changes/:changeId`), as Google's routing does. `pathExists` says some route
   * matched the path; the server answers 404 either way, like Google does for a method a path lacks.
   */
  match(method: string, pathname: string): { match?: RouteMatch; pathExists: boolean } {
    const parts = pathname.split('/').filter(Boolean);
    let best: number | undefined;
    // Entries are sorted by score, highest first: the first matching pattern fixes the score that may answer.
    for (const entry of this.entries) {
      if (best !== undefined && entry.score < best) break;
      const params = matchSegments(entry.segments, parts);
      if (!params) continue;
      best = entry.score;
      if (entry.route.method === method) return { match: { route: entry.route, params, auth: entry.route.auth ?? true }, pathExists: true };
    }
    return { pathExists: best !== undefined };
  }
}

/** A path with its parameter names erased: two routes of one method and shape would shadow each other. */
function shapeOf(segments: readonly string[]): string {
  return segments.map((segment) => (segment.startsWith(':') ? ':' : segment)).join('/');
}

function matchSegments(pattern: readonly string[], parts: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let index = 0; index < pattern.length; index++) {
    const expected = pattern[index] as string;
    const actual = parts[index] as string;
    let decoded: string;
    try {
      decoded = decodeURIComponent(actual);
    } catch {
      return undefined;
    }
    if (expected.startsWith(':')) params[expected.slice(1)] = decoded;
    else if (expected !== decoded) return undefined;
  }
  return params;
}
