/** Maps method + path pattern to handlers, preferring literal segments over parameters across all methods. */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { EmulatorUser } from '../auth/users';
import { QueryParams } from './params';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestContext {
  readonly method: HttpMethod;
  /** Decoded path parameters named in the route pattern (`:tasklist` → params.tasklist). */
  readonly params: Readonly<Record<string, string>>;
  readonly query: QueryParams;
  readonly headers: IncomingHttpHeaders;
  /** The signed-in user; routes registered with `auth: false` get undefined. */
  readonly user: EmulatorUser | undefined;
  /** `http://<listening address>:<port>`, for selfLinks and Location headers; never taken from the Host header. */
  readonly baseUrl: string;
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

export interface RouteOptions {
  /** Whether the route needs a bearer token (default true). */
  auth?: boolean;
}

interface Route {
  method: HttpMethod;
  segments: string[];
  handler: Handler;
  auth: boolean;
  /** Static segments outrank parameters, so `/files/trash` beats `/files/:fileId`. */
  score: number;
}

export interface RouteMatch {
  handler: Handler;
  params: Record<string, string>;
  auth: boolean;
}

/** Maps method + path pattern to handlers. Patterns use `:name` segments and match whole segments. */
export class Router {
  private readonly routes: Route[] = [];

  get(pattern: string, handler: Handler, options?: RouteOptions): void { this.add('GET', pattern, handler, options); }
  post(pattern: string, handler: Handler, options?: RouteOptions): void { this.add('POST', pattern, handler, options); }
  put(pattern: string, handler: Handler, options?: RouteOptions): void { this.add('PUT', pattern, handler, options); }
  patch(pattern: string, handler: Handler, options?: RouteOptions): void { this.add('PATCH', pattern, handler, options); }
  delete(pattern: string, handler: Handler, options?: RouteOptions): void { this.add('DELETE', pattern, handler, options); }

  add(method: HttpMethod, pattern: string, handler: Handler, options: RouteOptions = {}): void {
    const segments = pattern.split('/').filter(Boolean);
    const score = segments.reduce((total, segment, index) => total + (segment.startsWith(':') ? 0 : 2 ** (32 - index)), 0);
    this.routes.push({ method, segments, handler, auth: options.auth ?? true, score });
    this.routes.sort((a, b) => b.score - a.score);
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
    // Routes are sorted by score, highest first: the first matching pattern fixes the score that may answer.
    for (const route of this.routes) {
      if (best !== undefined && route.score < best) break;
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      best = route.score;
      if (route.method === method) return { match: { handler: route.handler, params, auth: route.auth }, pathExists: true };
    }
    return { pathExists: best !== undefined };
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
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
