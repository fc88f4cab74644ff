/** The emulator's HTTP server and the options and module contract every service registers against. */
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { TokenService } from '../identity/tokens';
import { EmulatorUser, findUser } from '../identity/users';
import { Store } from '../store/store';
import { batchTargetFor, PartAnswer, serveBatch } from './batch';
import { discoveryMethod } from '../discovery/documents';
import { ApiError, authError, badRequest, MAX_REQUEST_TARGET_BYTES, notFound, uriTooLong } from './errors';
import { checkFieldSelection, FieldSelection, parseFieldSelection, selectFields } from './fields';
import { parseJsonBody } from './json';
import { logLine, redactSecrets, redactTarget } from './log';
import { continueQuery, continuesQuery, withContinuation } from './paging';
import { QueryParams } from './params';
import { RequestLog } from './requestLog';
import { readBody, watchBodyArrival } from './requestBody';
import { requireScopes } from './scopes';
import { stringifyInSlices } from './slices';
import { apiOfPath, EmulatedApiName, serviceDisabledError } from './disabledApis';
import { Grant, HttpMethod, Reply, RequestContext, Router } from './router';

export interface EmulatorOptions {
  /** 0 picks any free port. */
  port: number;
  host: string;
  /** Durable storage folder; undefined keeps everything in memory (tests). */
  dataDir: string | undefined;
  seed: 'demo' | 'none';
  accessTokenLifetimeSeconds: number;
  /** Fault injection for resilience tests: added latency, and a share of API calls answered 429/503. */
  latencyMs: number;
  faultRate: number;
  /**
   * Draws the faults: Math.random, or a seeded sequence (`--fault-seed`, `seededRandom`) so that the same requests
   * in the same order meet the same faults again (a test that failed under faults prints its seed).
   */
  faultRandom: () => number;
  quiet: boolean;
  /** PEM files of extra CAs whose receiver certificates channels trust (`--trust-ca`), beside the emulator's CA and the system store. */
  trustCaFiles: readonly string[];
  /** CIDR ranges channel receivers may be in although they are not public (`--allow-watch-network`). */
  allowWatchNetworks: readonly string[];
  /** Whether channel receivers may be on loopback (`--no-loopback-watch` turns it off for an emulator shared on a network). */
  loopbackWatch: boolean;
  /** APIs answered as not enabled in the client's Cloud project (`--disable-api`; changed at run time by /emulator/v1/disabled-apis). */
  disabledApis: Set<EmulatedApiName>;
  /** A file that gets one timed, token-free record per request (`--request-log`, for benchmarks); undefined: none. */
  requestLog: string | undefined;
  /**
   * How long a request body may stop arriving, and how long a body read whole (JSON, a batch) may take to arrive,
   * before the request is answered 408 and its connection closed; 0: no limit.
   */
  bodyTimeoutMs: number;
  /** How long a batch may run its calls: calls not started by then are answered 503 without running. */
  batchTimeLimitMs: number;
  /** The emulator's one clock (epoch ms): timestamps, tokens, channels and the demo seed read it, so a test sets it once. */
  now: () => number;
}

export const DEFAULT_OPTIONS: EmulatorOptions = {
  port: 0,
  host: '127.0.0.1',
  dataDir: undefined,
  seed: 'none',
  accessTokenLifetimeSeconds: 3600,
  latencyMs: 0,
  faultRate: 0,
  faultRandom: Math.random,
  quiet: true,
  trustCaFiles: [],
  allowWatchNetworks: [],
  loopbackWatch: true,
  disabledApis: new Set(),
  requestLog: undefined,
  bodyTimeoutMs: 60_000,
  batchTimeLimitMs: 60_000,
  now: () => Date.now(),
};

/** What every service module gets when it registers its routes. */
export interface ServiceDeps {
  readonly store: Store;
  readonly tokens: TokenService;
  readonly now: () => number;
  readonly options: EmulatorOptions;
}

/** One service (tasks, drive, OAuth…): its routes, and optionally demo data for `--seed demo`. */
export interface ServiceModule {
  readonly name: string;
  register(router: Router, deps: ServiceDeps): void;
  seedDemo?(deps: ServiceDeps): void | Promise<void>;
}

const MAX_JSON_BYTES = 5 * 1024 * 1024;
/**
 * Whether a request Node's parser refused for the size of its head was refused for its request line: the packet
 * starts the request and its first line is longer than the bound (or does not end in it).
 */
function requestLineTooLong(rawPacket: unknown): boolean {
  if (!Buffer.isBuffer(rawPacket) || !/^[A-Z]+ /.test(rawPacket.subarray(0, 16).toString('latin1'))) return false;
  const lineEnd = rawPacket.indexOf('\n');
  return lineEnd < 0 || lineEnd > MAX_REQUEST_TARGET_BYTES;
}

const MUTATING: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The one HTTP front of the emulator: routing, auth, faults, Google error mapping, durability before acknowledgement. */
export class EmulatorHttpServer {
  private readonly server: http.Server;
  private readonly sockets = new Set<Socket>();
  /**
   * `http://<listening address>:<port>`: the base of every selfLink and Location. Never the request's Host
   * header, which a client controls (a malformed one broke every route; a foreign one leaked into links).
   */
  private origin = 'http://127.0.0.1';
  private readonly requestLog: RequestLog | undefined;

  constructor(private readonly router: Router, private readonly deps: ServiceDeps) {
    this.requestLog = deps.options.requestLog ? new RequestLog(deps.options.requestLog) : undefined;
    this.server = http.createServer((request, response) => {
      if (this.requestLog) this.logWhenAnswered(this.requestLog, request, response);
      watchBodyArrival(request, response, deps.options.bodyTimeoutMs);
      void this.handle(request, response);
    });
    // Requests Node's parser rejects (bad header bytes, oversized headers) still get Google's error format.
    this.server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
      if (!socket.writable) return socket.destroy();
      const overflow = error.code === 'HPE_HEADER_OVERFLOW';
      const apiError = overflow && requestLineTooLong((error as { rawPacket?: unknown }).rawPacket) ? uriTooLong()
        : new ApiError(overflow ? 431 : 400, 'badRequest', 'Bad Request: the request could not be parsed');
      const status = apiError.code;
      const body = JSON.stringify(apiError.toBody());
      socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Bad Request'}\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    // Long-lived uploads and held change polls must not be cut by Node's default timeouts.
    this.server.requestTimeout = 0;
    this.server.headersTimeout = 60_000;
  }

  async listen(port: number, host: string): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve());
    });
    const address = this.server.address() as AddressInfo;
    this.origin = `http://${linkHost(address)}:${address.port}`;
    return address.port;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
    });
  }

  /** From arrival to the last byte handed to the socket: the time a client waits for this answer. */
  private logWhenAnswered(log: RequestLog, request: http.IncomingMessage, response: http.ServerResponse): void {
    const answered = log.arrived(request.method ?? '?', request.url ?? '');
    let recorded = false;
    const record = (status: number): void => {
      if (!recorded) answered(status);
      recorded = true;
    };
    response.once('finish', () => record(response.statusCode));
    // A client that went away before the answer (nginx's 499): not in flight any more.
    response.once('close', () => record(499));
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const { reply } = await this.process(request, false);
    // Answered already: the body stopped arriving (408) and the connection is closing.
    if (response.headersSent) return;
    try {
      await send(response, reply);
    } catch (error) {
      const apiError = error instanceof ApiError ? error : internalError(error, this.deps.options.quiet);
      if (!response.headersSent) {
        await send(response, { status: apiError.code, headers: apiError.headers, json: apiError.toBody() }).catch(() => undefined);
      } else {
        response.destroy();
      }
    }
  }

  /**
   * One request through the whole pipeline (routing, auth, faults, handler, durability), errors turned into
   * Google's replies. Every HTTP request comes through here, and so does each part of a batch.
   */
  private async process(request: http.IncomingMessage, inBatch: boolean): Promise<{ status: number; reply: Reply }> {
    let reply: Reply;
    try {
      reply = await this.dispatch(request, inBatch);
    } catch (error) {
      const apiError = error instanceof ApiError ? error : internalError(error, this.deps.options.quiet);
      reply = { status: apiError.code, headers: apiError.headers, json: apiError.toBody() };
    }
    const status = reply.status ?? 200;
    // One line per request with --verbose; request targets carry tokens and codes, which logLine redacts.
    if (!this.deps.options.quiet) logLine(`[emulator] ${inBatch ? 'batch part ' : ''}${request.method ?? '?'} ${redactTarget(request.url ?? '')} -> ${status}`);
    return { status, reply };
  }

  /** A batch part through `process`, its reply buffered to be written inside the multipart answer. */
  private async processPart(part: http.IncomingMessage): Promise<PartAnswer> {
    const { status, reply } = await this.process(part, true);
    return { status, ...(await bufferReply(reply)) };
  }

  private async dispatch(request: http.IncomingMessage, inBatch: boolean): Promise<Reply> {
    const method = (request.method ?? 'GET').toUpperCase();
    if (Buffer.byteLength(request.url ?? '') > MAX_REQUEST_TARGET_BYTES) {
      await drain(request);
      throw uriTooLong();
    }
    const url = requestUrl(request.url ?? '/', this.origin);
    const batch = method === 'POST' && !inBatch ? batchTargetFor(url.pathname) : undefined;
    if (batch) {
      await this.addLatency();
      const { bodyTimeoutMs, batchTimeLimitMs } = this.deps.options;
      return serveBatch(request, batch, (part) => this.processPart(part), { bodyTimeoutMs, timeLimitMs: batchTimeLimitMs });
    }
    // Google accepts a method override header on POST (used by some clients for PATCH).
    const override = request.headers['x-http-method-override'];
    const effectiveMethod = method === 'POST' && typeof override === 'string' ? override.toUpperCase() : method;
    const { match } = this.router.match(effectiveMethod, url.pathname);
    if (!match) {
      await drain(request);
      // Google answers 404 for a method a path does not define, not 405.
      throw notFound(`Not Found: ${url.pathname}`);
    }

    const { route } = match;
    const pageTokenContinuesQuery = continuesQuery(route);
    if (pageTokenContinuesQuery) continueQuery(url.searchParams);
    let user: EmulatorUser | undefined;
    let grant: Grant | undefined;
    if (match.auth) {
      ({ user, grant } = this.authenticate(request, url, effectiveMethod, route.id));
      // As Google: a valid token for a project that has not enabled the API is refused before anything else.
      const api = apiOfPath(url.pathname);
      if (api && this.deps.options.disabledApis.has(api)) {
        await drain(request);
        throw serviceDisabledError(api);
      }
      // A batch pays the added latency once, as one round trip; each of its calls may still fail alone.
      if (!inBatch) await this.addLatency();
      this.injectFaults();
    }

    let bodyRead = false;
    const readBytes = async (): Promise<Buffer> => {
      if (bodyRead) throw new Error('request body read twice');
      bodyRead = true;
      return readBody(request, MAX_JSON_BYTES, this.deps.options.bodyTimeoutMs);
    };
    const context: RequestContext = {
      method: effectiveMethod as HttpMethod,
      routeId: route.id,
      params: match.params,
      query: new QueryParams(url.searchParams),
      headers: request.headers,
      user,
      ...(grant ? { grant } : {}),
      baseUrl: this.origin,
      inBatch,
      request,
      text: async () => (await readBytes()).toString('utf8'),
      json: async () => parseJsonBody(await readBytes()),
    };
    // A bad selection is refused before the call has any effect, as Google does.
    const selection = fieldSelectionOf(url.searchParams, route.id);
    const reply = await route.handle(context);
    if (MUTATING.has(effectiveMethod)) await this.deps.store.flush();
    const continued = pageTokenContinuesQuery ? withContinuation(reply, url.searchParams) : reply;
    return selection ? partialReply(continued, selection) : continued;
  }

  /** The token's user and grant, once the token is valid and carries a scope this call needs. */
  private authenticate(request: http.IncomingMessage, url: URL, method: string, routeId: string): { user: EmulatorUser; grant: Grant } {
    const header = request.headers.authorization;
    let token: string | undefined;
    if (typeof header === 'string') {
      const found = /^Bearer\s+(\S+)$/i.exec(header.trim());
      if (!found) throw authError('Invalid Credentials: the Authorization header must be "Bearer <token>"');
      token = found[1];
    } else {
      token = url.searchParams.get('access_token') ?? undefined;
    }
    if (!token) {
      throw new ApiError(401, 'required', 'Login Required.', { location: 'Authorization', locationType: 'header' }, {
        'WWW-Authenticate': 'Bearer realm="https://accounts.google.com/"',
      });
    }
    const record = this.deps.tokens.describe(token);
    const user = record ? findUser(record.userId) : undefined;
    if (!record || !user) throw authError('Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
    requireScopes(record.scopes, routeId, method, url.searchParams);
    return { user, grant: { clientId: record.clientId, scopes: record.scopes } };
  }

  private async addLatency(): Promise<void> {
    const { latencyMs } = this.deps.options;
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
  }

  private injectFaults(): void {
    const { faultRate, faultRandom } = this.deps.options;
    if (faultRate > 0 && faultRandom() < faultRate) {
      if (faultRandom() < 0.5) {
        throw new ApiError(429, 'rateLimitExceeded', 'Rate Limit Exceeded', { domain: 'usageLimits' }, { 'Retry-After': '1' });
      }
      throw new ApiError(503, 'backendError', 'The service is currently unavailable.');
    }
  }
}

/** The `fields` selection of a Google API call, checked against its response schema; undefined when absent or empty. */
function fieldSelectionOf(search: URLSearchParams, routeId: string): FieldSelection | undefined {
  const text = search.get('fields');
  if (text === null || text.trim() === '') return undefined;
  const selection = parseFieldSelection(text);
  const located = discoveryMethod(routeId);
  if (located?.method.response) checkFieldSelection(selection, located.method.response, located.document);
  return selection;
}

/** A successful JSON reply cut down to the selection; errors, media and empty replies are never cut. */
function partialReply(reply: Reply, selection: FieldSelection): Reply {
  if ((reply.status ?? 200) >= 300) return reply;
  if ('json' in reply) return { ...reply, json: selectFields(reply.json, selection) };
  // Some answers (discovery documents) come already written as JSON text.
  const { headers, status } = reply;
  if ('body' in reply && /^application\/json\b/i.test(reply.contentType) && (typeof reply.body === 'string' || Buffer.isBuffer(reply.body))) {
    return { ...(status === undefined ? {} : { status }), ...(headers ? { headers } : {}), json: selectFields(JSON.parse(reply.body.toString()), selection) };
  }
  return reply;
}

function internalError(error: unknown, quiet: boolean): ApiError {
  if (!quiet) logLine('[emulator] internal error:', error);
  return new ApiError(500, 'backendError', 'Backend Error');
}

/**
 * The request target as a URL, resolved against our own origin (never the Host header). Origin-form
 * targets are appended, not resolved, so `//host/path` stays a path; anything unparsable is a 400.
 */
function requestUrl(target: string, origin: string): URL {
  try {
    return target.startsWith('/') ? new URL(`${origin}${target}`) : new URL(target);
  } catch {
    throw badRequest(`Invalid request target: ${redactSecrets(target).slice(0, 200)}`);
  }
}

/** The host part of links: the address we listen on, with a wildcard bind read as loopback. */
function linkHost(address: AddressInfo): string {
  if (address.address === '0.0.0.0' || address.address === '') return '127.0.0.1';
  if (address.address === '::') return '[::1]';
  return address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
}

async function drain(request: http.IncomingMessage): Promise<void> {
  request.resume();
}

/** A reply as status headers and bytes (a streamed body read to its end), for a batch part. */
async function bufferReply(reply: Reply): Promise<Omit<PartAnswer, 'status'>> {
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  if ('json' in reply) {
    headers['Content-Type'] = 'application/json; charset=UTF-8';
    return { headers, body: Buffer.from(await stringifyInSlices(reply.json, JSON_SLICE_LEVELS), 'utf8') };
  }
  if ('empty' in reply) return { headers, body: Buffer.alloc(0) };
  headers['Content-Type'] = reply.contentType;
  if (typeof reply.body === 'string' || Buffer.isBuffer(reply.body)) return { headers, body: Buffer.from(reply.body) };
  const chunks: Buffer[] = [];
  for await (const chunk of reply.body as AsyncIterable<Buffer | string>) chunks.push(Buffer.from(chunk));
  return { headers, body: Buffer.concat(chunks) };
}

/**
 * JSON answers are serialised in slices down to this depth (answer → list → item; freeBusy's answer → calendars →
 * calendar), so a list of thousands of items or megabytes of intervals lets other requests in as it is written.
 */
const JSON_SLICE_LEVELS = 3;

async function send(response: http.ServerResponse, reply: Reply): Promise<void> {
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  if ('json' in reply) {
    const body = await stringifyInSlices(reply.json, JSON_SLICE_LEVELS);
    headers['Content-Type'] = 'application/json; charset=UTF-8';
    headers['Content-Length'] = String(Buffer.byteLength(body));
    response.writeHead(reply.status ?? 200, headers);
    response.end(body);
    return;
  }
  if ('empty' in reply) {
    response.writeHead(reply.status, headers);
    response.end();
    return;
  }
  headers['Content-Type'] = reply.contentType;
  if (typeof reply.body === 'string' || Buffer.isBuffer(reply.body)) {
    headers['Content-Length'] = String(Buffer.byteLength(reply.body));
    response.writeHead(reply.status ?? 200, headers);
    response.end(reply.body);
    return;
  }
  response.writeHead(reply.status ?? 200, headers);
  await pipeline(reply.body as Readable, response);
}

