import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { TokenService } from '../auth/tokens';
import { EmulatorUser } from '../auth/users';
import { Store } from '../store/store';
import { ApiError, authError, notFound } from './errors';
import { QueryParams } from './params';
import { HttpMethod, Reply, RequestContext, Router } from './router';

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
  quiet: boolean;
}

export const DEFAULT_OPTIONS: EmulatorOptions = {
  port: 0,
  host: '127.0.0.1',
  dataDir: undefined,
  seed: 'none',
  accessTokenLifetimeSeconds: 3600,
  latencyMs: 0,
  faultRate: 0,
  quiet: true,
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
const MUTATING: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The one HTTP front of the emulator: routing, auth, faults, Google error mapping, durability before acknowledgement. */
export class EmulatorHttpServer {
  private readonly server: http.Server;
  private readonly sockets = new Set<import('node:net').Socket>();

  constructor(private readonly router: Router, private readonly deps: ServiceDeps) {
    this.server = http.createServer((request, response) => {
      void this.handle(request, response);
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
    return (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
    });
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    try {
      const reply = await this.dispatch(request);
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

  private async dispatch(request: http.IncomingMessage): Promise<Reply> {
    const method = (request.method ?? 'GET').toUpperCase();
    const host = request.headers.host ?? `127.0.0.1`;
    const url = new URL(request.url ?? '/', `http://${host}`);
    // Google accepts a method override header on POST (used by some clients for PATCH).
    const override = request.headers['x-http-method-override'];
    const effectiveMethod = method === 'POST' && typeof override === 'string' ? override.toUpperCase() : method;
    const { match, pathExists } = this.router.match(effectiveMethod, url.pathname);
    if (!match) {
      await drain(request);
      if (pathExists) throw new ApiError(405, 'methodNotAllowed', `Method ${effectiveMethod} is not allowed for ${url.pathname}`);
      throw notFound(`Not Found: ${url.pathname}`);
    }

    let user: EmulatorUser | undefined;
    if (match.auth) {
      user = this.authenticate(request, url);
      await this.injectFaults();
    }

    let bodyRead = false;
    const readText = async (): Promise<string> => {
      if (bodyRead) throw new Error('request body read twice');
      bodyRead = true;
      return readBody(request, MAX_JSON_BYTES);
    };
    const context: RequestContext = {
      method: effectiveMethod as HttpMethod,
      params: match.params,
      query: new QueryParams(url.searchParams),
      headers: request.headers,
      user,
      baseUrl: `http://${host}`,
      request,
      text: readText,
      json: async () => parseJson(await readText()),
    };
    const reply = await match.handler(context);
    if (MUTATING.has(effectiveMethod)) await this.deps.store.flush();
    return reply;
  }

  private authenticate(request: http.IncomingMessage, url: URL): EmulatorUser {
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
    const user = this.deps.tokens.verify(token);
    if (!user) throw authError('Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
    return user;
  }

  private async injectFaults(): Promise<void> {
    const { latencyMs, faultRate } = this.deps.options;
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    if (faultRate > 0 && Math.random() < faultRate) {
      if (Math.random() < 0.5) {
        throw new ApiError(429, 'rateLimitExceeded', 'Rate Limit Exceeded', { domain: 'usageLimits' }, { 'Retry-After': '1' });
      }
      throw new ApiError(503, 'backendError', 'The service is currently unavailable.');
    }
  }
}

function internalError(error: unknown, quiet: boolean): ApiError {
  if (!quiet) console.error('[emulator] internal error:', error);
  return new ApiError(500, 'backendError', 'Backend Error');
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const detail = error instanceof Error ? error.message : 'malformed';
    throw new ApiError(400, 'parseError', `Invalid JSON payload received. ${detail}`);
  }
}

async function readBody(request: http.IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new ApiError(413, 'badRequest', `Request body larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function drain(request: http.IncomingMessage): Promise<void> {
  request.resume();
}

async function send(response: http.ServerResponse, reply: Reply): Promise<void> {
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  if ('json' in reply) {
    const body = JSON.stringify(reply.json);
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

