import nodeFetch, { Headers, RequestInit, Response } from 'node-fetch';
import type { Readable } from 'node:stream';
import * as z from '../shared/schemas/zod';
import { CancelledError, GoogleApiError, NetworkError, ResponseValidationError } from './errors';

export type FetchFunction = (url: string, init?: RequestInit) => Promise<Response>;
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | undefined | readonly string[];

/** Supplies the bearer token; `forceRefresh` after a 401 asks for a new one. */
export type TokenSource = (options: { forceRefresh: boolean }) => Promise<string>;

export interface RetryPolicy {
  /** Total attempts, including the first. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 250, maxDelayMs: 16_000 };

export interface HttpClientOptions {
  /** Root URL of the service host, e.g. `https://tasks.googleapis.com` or the emulator's `http://127.0.0.1:8089`. */
  rootUrl: () => string;
  token: TokenSource;
  fetch?: FetchFunction;
  retry?: RetryPolicy;
  /** Sleeps between retries; replaced in unit tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface RequestOptions {
  method: HttpMethod;
  /** Path under the root URL, already encoded (use `path` below to build it). */
  path: string;
  query?: Record<string, QueryValue>;
  /** A JSON body (serialized here) or raw bytes/stream with `contentType`. */
  json?: unknown;
  body?: Buffer | string | Readable;
  contentType?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Retry 429/5xx even though the method is not idempotent (only when the operation is safe to repeat). */
  idempotent?: boolean;
  /** Name used in error messages, e.g. "tasks.insert". */
  operation: string;
}

const IDEMPOTENT_METHODS: ReadonlySet<HttpMethod> = new Set(['GET', 'PUT', 'DELETE']);

/** Encodes path segments: path`/tasks/v1/lists/${id}/tasks` → each interpolation URI-encoded. */
export function path(strings: TemplateStringsArray, ...values: string[]): string {
  return strings.reduce((result, part, index) => result + part + (index < values.length ? encodeURIComponent(values[index] as string) : ''), '');
}

/**
 * The one request pipeline every service client uses: root URL, bearer token (one refresh-and-retry on
 * 401), retries with exponential backoff and full jitter honouring Retry-After for 429/5xx on idempotent
 * requests, Google errors as typed errors, zod validation of every JSON answer, cancellation.
 */
export class HttpClient {
  private readonly fetchImpl: FetchFunction;
  private readonly retry: RetryPolicy;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(private readonly options: HttpClientOptions) {
    this.fetchImpl = options.fetch ?? ((url, init) => nodeFetch(url, init));
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.sleep = options.sleep ?? abortableSleep;
  }

  /** Sends a request and parses the JSON answer with `schema`. */
  async json<T>(schema: z.ZodMiniType<T>, request: RequestOptions): Promise<T> {
    const response = await this.send(request);
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? {} : JSON.parse(text);
    } catch {
      throw new ResponseValidationError(request.operation, 'the body is not JSON');
    }
    const result = schema.safeParse(parsed);
    if (!result.success) {
      const issues = result.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
      throw new ResponseValidationError(request.operation, issues);
    }
    return result.data;
  }

  /** Sends a request whose success has no body (204), e.g. deletes. */
  async empty(request: RequestOptions): Promise<void> {
    const response = await this.send(request);
    await response.arrayBuffer();
  }

  /** Sends a request and returns the successful raw response (media downloads, 304s, resumable uploads). */
  async send(request: RequestOptions, acceptStatus: (status: number) => boolean = (status) => status >= 200 && status < 300): Promise<Response> {
    const idempotent = request.idempotent ?? IDEMPOTENT_METHODS.has(request.method);
    // Streams cannot be replayed: a request with a stream body is sent once.
    const replayable = !(request.body && typeof request.body === 'object' && !Buffer.isBuffer(request.body));
    let refreshed = false;
    for (let attempt = 1; ; attempt++) {
      throwIfAborted(request.signal);
      const token = await this.options.token({ forceRefresh: refreshed });
      let response: Response;
      try {
        response = await this.fetchImpl(this.url(request), this.init(request, token));
      } catch (error) {
        if (request.signal?.aborted) throw new CancelledError();
        if (idempotent && replayable && attempt < this.retry.maxAttempts) {
          await this.sleep(this.backoff(attempt), request.signal);
          continue;
        }
        throw new NetworkError(request.operation, error);
      }
      if (acceptStatus(response.status)) return response;
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      const bodyText = await response.text().catch(() => '');
      const error = GoogleApiError.fromResponse(response.status, bodyText, retryAfterMs);
      if (response.status === 401 && !refreshed && replayable) {
        refreshed = true;
        continue;
      }
      const retryable = response.status === 429 || response.status >= 500 || isRateLimitReason(error.reason);
      if (retryable && idempotent && replayable && attempt < this.retry.maxAttempts) {
        await this.sleep(Math.min(this.retry.maxDelayMs, Math.max(retryAfterMs ?? 0, this.backoff(attempt))), request.signal);
        continue;
      }
      throw error;
    }
  }

  /** Follows `nextPageToken` until the last page; a page may be empty before the end. */
  async *pages<TPage extends { nextPageToken?: string | undefined }>(fetchPage: (pageToken: string | undefined) => Promise<TPage>): AsyncGenerator<TPage> {
    let pageToken: string | undefined;
    const seen = new Set<string>();
    do {
      const page = await fetchPage(pageToken);
      yield page;
      pageToken = page.nextPageToken || undefined;
      // A server that repeats a token would loop forever: stop instead.
      if (pageToken && seen.has(pageToken)) throw new ResponseValidationError('paging', `the page token ${pageToken.slice(0, 12)}… repeated`);
      if (pageToken) seen.add(pageToken);
    } while (pageToken);
  }

  /** Every item across pages, lazily. */
  async *items<TPage extends { nextPageToken?: string | undefined }, TItem>(fetchPage: (pageToken: string | undefined) => Promise<TPage>, itemsOf: (page: TPage) => readonly TItem[] | undefined): AsyncGenerator<TItem> {
    for await (const page of this.pages(fetchPage)) yield* itemsOf(page) ?? [];
  }

  private url(request: RequestOptions): string {
    const root = this.options.rootUrl().replace(/\/+$/, '');
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value as readonly string[]) search.append(key, item);
      else search.append(key, String(value));
    }
    const query = search.toString();
    return `${root}${request.path}${query ? `?${query}` : ''}`;
  }

  private init(request: RequestOptions, token: string): RequestInit {
    const headers = new Headers({ Authorization: `Bearer ${token}`, Accept: 'application/json', ...(request.headers ?? {}) });
    let body: RequestInit['body'];
    if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      headers.set('Content-Type', 'application/json; charset=UTF-8');
    } else if (request.body !== undefined) {
      body = request.body;
      headers.set('Content-Type', request.contentType ?? 'application/octet-stream');
    }
    // node-fetch v2 types its signal against the abort-controller polyfill; Node's own signal is compatible.
    return { method: request.method, headers, body, signal: request.signal as RequestInit['signal'] };
  }

  private backoff(attempt: number): number {
    const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
    return Math.round(Math.random() * ceiling);
  }
}

function isRateLimitReason(reason: string | undefined): boolean {
  return reason === 'rateLimitExceeded' || reason === 'userRateLimitExceeded';
}

/** Retry-After is either delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError();
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CancelledError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new CancelledError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
