import nodeFetch, { Headers, RequestInit, Response } from 'node-fetch';
import type { Readable } from 'node:stream';
import * as z from '../shared/schemas/zod';
import { CancelledError, GoogleApiError, NetworkError, ResponseValidationError, ServiceUnreachableError } from './errors';
import { googleErrorBodySchema } from '../shared/schemas/errors';

export type FetchFunction = (url: string, init?: RequestInit) => Promise<Response>;
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | undefined | readonly string[];

/**
 * Supplies the bearer token; `forceRefresh` after a 401 asks for a new one, and `rejected` names the token the 401
 * answered, so a token another request has refreshed meanwhile is taken instead of refreshing again.
 */
export type TokenSource = (options: { forceRefresh: boolean; rejected?: string }) => Promise<string>;

export interface RetryPolicy {
  /** Total attempts, including the first. */
  maxAttempts: number;
  /** Ceiling of the first backoff (full jitter); it doubles per attempt up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /**
   * The longest Retry-After honoured; a server asking for more is waited this long (default `maxDelayMs`).
   * Benchmarks and tests set a few milliseconds so the emulator's `Retry-After: 1` does not cost a second.
   */
  maxRetryAfterMs?: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 250, maxDelayMs: 16_000 };

/**
 * Why a request is sent again. `refused`: the server declined before doing anything (429, a rate-limit 403, a refused
 * connection), so any request may be repeated. `unclear`: a 5xx or a lost answer, after which the write may or may not
 * have happened; only requests that are safe to repeat (or reconciled first) are.
 */
export interface RetryEvent {
  operation: string;
  /** The attempt that failed (1 = the first). */
  attempt: number;
  why: 'refused' | 'unclear' | 'unauthorized';
  /** The HTTP status, undefined for a network failure. */
  status: number | undefined;
}

/** A reconciliation's outcome: after an unclear failure the client looked for the write and found it (or not). */
export interface ReconcileEvent {
  operation: string;
  found: boolean;
}

export interface HttpClientOptions {
  /** Root URL of the service host, e.g. `https://tasks.googleapis.com` or the emulator's `http://127.0.0.1:8089`. */
  rootUrl: () => string;
  token: TokenSource;
  fetch?: FetchFunction;
  retry?: RetryPolicy;
  /** Sleeps between retries; replaced in unit tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Told of every retry and reconciliation (benchmarks count them; nothing in the extension needs them). */
  onRetry?: (event: RetryEvent) => void;
  onReconcile?: (event: ReconcileEvent) => void;
  /** Told of every request before it is sent (Drive notes which files Desk itself changes: its own changes are no news). */
  onRequest?: (request: RequestOptions) => void;
  /** Reads in flight that other clients of the same Desk may join (see SharedReads); none without it. */
  sharedReads?: SharedReads;
  /** Told whether the service answered or could not be reached (core/offline/connectivity.ts keeps the one notion of offline). */
  reachability?: Reachability;
}

/**
 * Where HttpClient reports reachability: every answer from the service (any status but a gateway's empty 502/503/504)
 * says it is reachable; a ServiceUnreachableError says it is not. While Desk knows it is offline, a request that
 * cannot reach the service fails at its first attempt instead of backing off through all of them.
 */
export interface Reachability {
  reachable(): void;
  unreachable(error: ServiceUnreachableError): void;
  isOffline(): boolean;
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
  /**
   * Safe to repeat after an unclear failure (5xx, lost answer) although the method is not idempotent by nature;
   * the client method says why (e.g. a client-chosen id). A 429 is retried for every method regardless.
   */
  idempotent?: boolean;
  /** Name used in error messages, e.g. "tasks.insert". */
  operation: string;
  /**
   * A GET whose answer another caller asking the same thing meanwhile may share (one request for both): a listing
   * that several views read at the same moment, e.g. the task lists at a reload. Not with a signal (one caller's
   * cancel would end the other's read).
   */
  shareInFlight?: boolean;
  /**
   * Sent once (a 401 still refreshes the token): the parts that failed are repeated by `repeatParts` instead (the
   * calls of a batch, api/batch.ts), so that no request is sent the policy's attempts squared.
   */
  singleAttempt?: boolean;
}

/** What a writing call can add when the API gives it no idempotency key; see `HttpClient.json`. */
export interface Recovery<T> {
  /**
   * After an unclear failure of a request that is not idempotent: looks for the write before it is repeated.
   * Returns the written resource (the call's answer), or undefined when the write did not happen (the request is
   * then repeated). `startedAt` is the client's clock when the first attempt was sent. Also asked once more
   * when the attempts run out, so a write that landed on the last attempt is not reported as failed.
   */
  reconcile?: (context: { startedAt: number }) => Promise<T | undefined>;
  /**
   * An error answer to a repeated attempt that means an earlier, unclear one took effect (Drive's 409 for an id
   * that now exists, a 412 caused by our own landed patch). Returns the answer, or undefined to surface the error.
   * Never asked after a first attempt: then the error is the server's verdict on this very request.
   */
  alreadyApplied?: (error: GoogleApiError) => Promise<T | undefined>;
}

export type JsonRequestOptions<T> = RequestOptions & Recovery<T>;

/** What became of one part of a request made of parts (a call in a batch): its answer, or why it failed. */
export type PartOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: Error };

export const IDEMPOTENT_METHODS: ReadonlySet<HttpMethod> = new Set(['GET', 'PUT', 'DELETE']);
/** Network failures that happen before a request leaves: nothing reached the server. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);
/** Network failures that mean the service cannot be reached at all (before any answer): Desk is offline. */
const UNREACHABLE_CODES: ReadonlySet<string> = new Set([...NOT_SENT_CODES, 'ETIMEDOUT', 'ESOCKETTIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EPIPE', 'ECONNABORTED']);
/** A gateway's answers when the service behind it did not answer (without Google's error body). */
const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** Encodes path segments: path`/tasks/v1/lists/${id}/tasks` → each interpolation URI-encoded. */
export function path(strings: TemplateStringsArray, ...values: string[]): string {
  return strings.reduce((result, part, index) => result + part + (index < values.length ? encodeURIComponent(values[index] as string) : ''), '');
}

/**
 * The one request pipeline every service client uses: root URL, bearer token (one refresh-and-retry on
 * 401), retries with exponential backoff and full jitter honouring Retry-After, Google errors as typed errors,
 * zod validation of every JSON answer, cancellation.
 *
 * The retry rule: a refusal (429, a rate-limit 403, a refused connection) happened before the server did anything,
 * so every request is repeated after one. An unclear failure (5xx, a lost answer) is repeated only for a request
 * that is safe to repeat (idempotent by method, or marked so by the client method with its reason), or after the
 * client method's `reconcile` looked for the write and did not find it. Bodies that are streams are never replayed.
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

  /** Sends a request and parses the JSON answer with `schema`; `reconcile`/`alreadyApplied` make a write safe to repeat. */
  async json<T>(schema: z.ZodMiniType<T>, request: JsonRequestOptions<T>): Promise<T> {
    const read = (): Promise<T> => this.execute(request, isSuccess, async (response) => readJsonAnswer(schema, await response.text(), request.operation), request);
    const shared = this.options.sharedReads;
    if (!shared || !request.shareInFlight || request.method !== 'GET' || request.signal) return read();
    // The same question for the same account: the token is part of what is asked.
    const token = await this.options.token({ forceRefresh: false });
    return shared.join(`${token} ${this.url(request)}`, read);
  }

  /** Sends a request whose success has no body (204), e.g. deletes. */
  async empty(request: RequestOptions): Promise<void> {
    const response = await this.send(request);
    await response.arrayBuffer();
  }

  /** Sends a request and returns the successful raw response (media downloads, 304s, resumable uploads). */
  send(request: RequestOptions, acceptStatus: (status: number) => boolean = isSuccess): Promise<Response> {
    return this.execute(request, acceptStatus, async (response) => response, {});
  }

  /** Runs the attempts; a request that could not reach the service after them says so to `reachability` (once, not per attempt). */
  private async execute<T>(request: RequestOptions, acceptStatus: (status: number) => boolean, read: (response: Response) => Promise<T>, recovery: Recovery<T>): Promise<T> {
    try {
      return await this.attempts(request, acceptStatus, read, recovery);
    } catch (error) {
      if (error instanceof ServiceUnreachableError) this.options.reachability?.unreachable(error);
      throw error;
    }
  }

  /** The attempt loop behind every request: see the class comment for which failures are repeated. */
  private async attempts<T>(request: RequestOptions, acceptStatus: (status: number) => boolean, read: (response: Response) => Promise<T>, recovery: Recovery<T>): Promise<T> {
    this.options.onRequest?.(request);
    // A read asked after this write must see it: it may not join an answer asked before.
    if (request.method !== 'GET') this.options.sharedReads?.forgetInFlight();
    const idempotent = request.idempotent ?? IDEMPOTENT_METHODS.has(request.method);
    // Streams cannot be replayed: a request with a stream body is sent once.
    const replayable = !(request.body && typeof request.body === 'object' && !Buffer.isBuffer(request.body));
    const canReconcile = recovery.reconcile !== undefined && replayable;
    const startedAt = Date.now();
    let refreshed = false;
    /** The token a 401 answered, for the refresh that follows. */
    let rejected: string | undefined;
    /** Whether an earlier attempt may have taken effect without our hearing so. */
    let unclearBefore = false;
    for (let attempt = 1; ; attempt++) {
      throwIfAborted(request.signal);
      const token = await this.options.token(rejected === undefined ? { forceRefresh: refreshed } : { forceRefresh: true, rejected });
      rejected = undefined;
      const last = request.singleAttempt === true || attempt >= this.retry.maxAttempts;
      let response: Response;
      try {
        response = await this.fetchImpl(this.url(request), this.init(request, token));
      } catch (error) {
        if (request.signal?.aborted) throw new CancelledError();
        const unreachable = isUnreachableCause(error);
        const failure = unreachable ? new ServiceUnreachableError(request.operation, error) : new NetworkError(request.operation, error);
        // Known offline: no backoff through every attempt, the caller keeps its rows or queues its write at once.
        if (unreachable && this.options.reachability?.isOffline() === true) throw failure;
        if (isNotSent(error)) {
          if (replayable && !last) {
            await this.pause({ operation: request.operation, attempt, why: 'refused', status: undefined }, this.backoff(attempt), request.signal);
            continue;
          }
          throw failure;
        }
        const found = await this.afterUnclear(request, recovery, { idempotent, replayable, canReconcile, last, startedAt, attempt, status: undefined }, failure);
        if (found.done) return found.value;
        unclearBefore = true;
        continue;
      }
      if (acceptStatus(response.status)) {
        this.options.reachability?.reachable();
        return read(response);
      }
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      const bodyText = await response.text().catch(() => '');
      const error = GoogleApiError.fromResponse(response.status, bodyText, retryAfterMs);
      if (isGatewayWithoutAnswer(response.status, bodyText)) {
        // A proxy or load balancer answered for a service that did not: offline, as a refused connection is.
        const failure = new ServiceUnreachableError(request.operation, error, response.status);
        if (this.options.reachability?.isOffline() === true) throw failure;
        const found = await this.afterUnclear(request, recovery, { idempotent, replayable, canReconcile, last, startedAt, attempt, status: response.status, retryAfterMs }, failure);
        if (found.done) return found.value;
        unclearBefore = true;
        continue;
      }
      this.options.reachability?.reachable();
      if (response.status === 401 && !refreshed && replayable) {
        refreshed = true;
        rejected = token;
        this.options.onRetry?.({ operation: request.operation, attempt, why: 'unauthorized', status: 401 });
        continue;
      }
      if (response.status === 429 || isRateLimitReason(error.reason)) {
        // Refused before processing: any request may be repeated, after the wait the server asked for.
        if (replayable && !last) {
          await this.pause({ operation: request.operation, attempt, why: 'refused', status: response.status }, this.waitBefore(attempt, retryAfterMs), request.signal);
          continue;
        }
        // Out of attempts; an unclear attempt before may still have landed.
        if (unclearBefore && canReconcile) {
          const found = await this.reconcileOnce(request, recovery, startedAt);
          if (found.done) return found.value;
        }
        throw error;
      }
      if (response.status >= 500 || response.status === 408) {
        const found = await this.afterUnclear(request, recovery, { idempotent, replayable, canReconcile, last, startedAt, attempt, status: response.status, retryAfterMs }, error);
        if (found.done) return found.value;
        unclearBefore = true;
        continue;
      }
      if (unclearBefore && recovery.alreadyApplied) {
        const value = await recovery.alreadyApplied(error);
        if (value !== undefined) {
          this.options.onReconcile?.({ operation: request.operation, found: true });
          return value;
        }
      }
      throw error;
    }
  }

  /**
   * After a failure that leaves unclear whether the write happened: either the request may simply be repeated
   * (returns not done, after the backoff), or the client method's reconcile finds the write (done), or does not
   * (not done: repeat). Throws `failure` when the request may not be repeated or the attempts ran out.
   */
  private async afterUnclear<T>(
    request: RequestOptions,
    recovery: Recovery<T>,
    state: { idempotent: boolean; replayable: boolean; canReconcile: boolean; last: boolean; startedAt: number; attempt: number; status: number | undefined; retryAfterMs?: number | undefined },
    failure: Error,
  ): Promise<{ done: true; value: T } | { done: false }> {
    if (!state.replayable || (!state.idempotent && !state.canReconcile)) throw failure;
    if (state.last) {
      if (state.canReconcile && !state.idempotent) {
        const found = await this.reconcileOnce(request, recovery, state.startedAt);
        if (found.done) return found;
      }
      throw failure;
    }
    await this.pause({ operation: request.operation, attempt: state.attempt, why: 'unclear', status: state.status }, this.waitBefore(state.attempt, state.retryAfterMs), request.signal);
    if (state.idempotent) return { done: false };
    return this.reconcileOnce(request, recovery, state.startedAt, failure);
  }

  /** Asks the client method whether the write landed; a reconcile that itself fails leaves it unknown, so `failure` (when given) is thrown. */
  private async reconcileOnce<T>(request: RequestOptions, recovery: Recovery<T>, startedAt: number, failure?: Error): Promise<{ done: true; value: T } | { done: false }> {
    let value: T | undefined;
    try {
      value = await (recovery.reconcile as NonNullable<Recovery<T>['reconcile']>)({ startedAt });
    } catch (error) {
      if (error instanceof CancelledError || request.signal?.aborted) throw new CancelledError();
      // Not knowing whether the write happened, repeating it could duplicate it: report the original failure.
      if (failure) throw failure;
      return { done: false };
    }
    this.options.onReconcile?.({ operation: request.operation, found: value !== undefined });
    return value !== undefined ? { done: true, value } : { done: false };
  }

  private async pause(event: RetryEvent, ms: number, signal: AbortSignal | undefined): Promise<void> {
    this.options.onRetry?.(event);
    await this.sleep(ms, signal);
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
      const repeated = pageToken && seen.has(pageToken) ? pageToken.slice(0, 12) : undefined;
      if (repeated !== undefined) throw new ResponseValidationError('paging', (t) => t('the page token {0}… repeated', repeated));
      if (pageToken) seen.add(pageToken);
    } while (pageToken);
  }

  /** Every item across pages, lazily. */
  async *items<TPage extends { nextPageToken?: string | undefined }, TItem>(fetchPage: (pageToken: string | undefined) => Promise<TPage>, itemsOf: (page: TPage) => readonly TItem[] | undefined): AsyncGenerator<TItem> {
    for await (const page of this.pages(fetchPage)) yield* itemsOf(page) ?? [];
  }

  private url(request: RequestOptions): string {
    const root = this.options.rootUrl().replace(/\/+$/, '');
    return `${root}${pathWithQuery(request)}`;
  }

  /**
   * The retries of a request made of parts that succeed or fail one by one (the calls of a batch): each round sends
   * the parts still pending through `sendRound` (whose requests are sent once each, `singleAttempt`, so nothing is
   * sent the attempts squared); a part that failed as a single request would be repeated (`isWorthRepeating`) goes
   * into the next round, after this policy's wait (the longest Retry-After of the round's refusals), until the
   * attempts run out. The outcomes are in the order of `idempotent` (one entry per part: safe to repeat after an
   * unclear failure).
   */
  async repeatParts<T>(idempotent: readonly boolean[], sendRound: (parts: readonly number[]) => Promise<PartOutcome<T>[]>, signal?: AbortSignal): Promise<PartOutcome<T>[]> {
    const outcomes: (PartOutcome<T> | undefined)[] = idempotent.map(() => undefined);
    let pending = idempotent.map((_, index) => index);
    for (let attempt = 1; pending.length > 0; attempt++) {
      const again: number[] = [];
      let retryAfterMs: number | undefined;
      const answers = await sendRound(pending);
      pending.forEach((index, position) => {
        const outcome = answers[position] as PartOutcome<T>;
        if (!outcome.ok && attempt < this.retry.maxAttempts && isWorthRepeating(outcome.error, idempotent[index] === true)) {
          again.push(index);
          if (outcome.error instanceof GoogleApiError && outcome.error.retryAfterMs !== undefined) retryAfterMs = Math.max(retryAfterMs ?? 0, outcome.error.retryAfterMs);
        } else {
          outcomes[index] = outcome;
        }
      });
      if (again.length > 0) await this.pauseBeforeRetry(attempt, retryAfterMs, signal);
      pending = again;
    }
    return outcomes as PartOutcome<T>[];
  }

  /** Waits as the retry policy waits before attempt `attempt + 1` (a resumable upload that made no progress resumes). */
  async pauseBeforeRetry(attempt: number, retryAfterMs: number | undefined, signal?: AbortSignal): Promise<void> {
    await this.sleep(this.waitBefore(attempt, retryAfterMs), signal);
  }

  /** How many times a request is sent at most, the first included. */
  get maxAttempts(): number {
    return this.retry.maxAttempts;
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

  /** The backoff, or the server's Retry-After when longer (up to the policy's cap for it). */
  private waitBefore(attempt: number, retryAfterMs: number | undefined): number {
    return Math.max(Math.min(retryAfterMs ?? 0, this.retry.maxRetryAfterMs ?? this.retry.maxDelayMs), this.backoff(attempt));
  }

  private backoff(attempt: number): number {
    const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
    return Math.round(Math.random() * ceiling);
  }
}

/**
 * GET answers in flight, shared by the HTTP clients of one Desk (each feature has its own): a second caller asking
 * exactly what another is waiting for joins its request instead of sending the same one again. Only while in
 * flight (nothing is kept once answered), and any write sent through these clients makes later reads ask anew.
 */
export class SharedReads {
  private readonly inFlight = new Map<string, Promise<unknown>>();

  join<T>(key: string, read: () => Promise<T>): Promise<T> {
    const running = this.inFlight.get(key);
    if (running) return running as Promise<T>;
    const started = read();
    this.inFlight.set(key, started);
    const done = (): void => {
      if (this.inFlight.get(key) === started) this.inFlight.delete(key);
    };
    started.then(done, done);
    return started;
  }

  forgetInFlight(): void {
    this.inFlight.clear();
  }
}

/** A JSON answer checked against its schema (an empty body reads as `{}`); anything else is a ResponseValidationError. */
export function readJsonAnswer<T>(schema: z.ZodMiniType<T>, text: string, operation: string): T {
  let parsed: unknown;
  try {
    parsed = text === '' ? {} : JSON.parse(text);
  } catch {
    throw new ResponseValidationError(operation, (t) => t('the body is not JSON'));
  }
  const result = schema.safeParse(parsed);
  if (!result.success) {
    const issues = result.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
    throw new ResponseValidationError(operation, issues);
  }
  return result.data;
}

/** A request's path and encoded query string, as sent (also the request line of a batch part). */
export function pathWithQuery(request: Pick<RequestOptions, 'path' | 'query'>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value as readonly string[]) search.append(key, item);
    else search.append(key, String(value));
  }
  const query = search.toString();
  return `${request.path}${query ? `?${query}` : ''}`;
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** A connection that was never made carried no request. */
function isNotSent(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && NOT_SENT_CODES.has(code);
}

/** A failure of the network before any answer (node-fetch copies the system error's code, or says request-timeout). */
export function isUnreachableCause(error: unknown): boolean {
  const { code, type } = (error ?? {}) as { code?: unknown; type?: unknown };
  return (typeof code === 'string' && UNREACHABLE_CODES.has(code)) || type === 'request-timeout';
}

/** A 502/503/504 whose body is not Google's error: the service behind the gateway did not answer. */
export function isGatewayWithoutAnswer(status: number, bodyText: string): boolean {
  if (!GATEWAY_STATUSES.has(status)) return false;
  try {
    return !googleErrorBodySchema.safeParse(JSON.parse(bodyText)).success;
  } catch {
    return true;
  }
}

export function isRateLimitReason(reason: string | undefined): boolean {
  return reason === 'rateLimitExceeded' || reason === 'userRateLimitExceeded';
}

/**
 * The retry rule of `HttpClient.execute`, for a part that `repeatParts` repeats (a call in a batch): a refusal
 * (429, a rate-limit 403, a connection never made) may always be repeated; an unclear failure (5xx, 408, a lost
 * answer) only when the request is safe to repeat.
 */
function isWorthRepeating(error: Error, idempotent: boolean): boolean {
  if (error instanceof NetworkError) return isNotSent(error.cause) || idempotent;
  if (!(error instanceof GoogleApiError)) return false;
  if (error.status === 429 || isRateLimitReason(error.reason)) return true;
  return idempotent && (error.status >= 500 || error.status === 408);
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

/**
 * One cheap question to a service's root: does it answer at all? Any answer of the service counts (a 404 too); a
 * refused or timed-out connection, or a gateway's 502/503/504 without Google's error, does not. No token is sent.
 */
export async function probeService(rootUrl: string, timeoutMs = 5_000, fetchImpl: FetchFunction = (url, init) => nodeFetch(url, init)): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetchImpl(`${rootUrl.replace(/\/+$/, '')}/`, { method: 'GET', signal: controller.signal as RequestInit['signal'] });
    const body = await response.text().catch(() => '');
    return !isGatewayWithoutAnswer(response.status, body);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
