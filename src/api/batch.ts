/**
 * Many calls of one service in as few HTTP requests as Google allows: Google's batch format (shared/httpBatch.ts),
 * chunked at the service's limit, with a typed result per call. Calls the server refused (429, a rate-limit 403)
 * or that failed unclearly when they are safe to repeat (5xx on an idempotent call) are sent again, alone with the
 * other such calls, by the HTTP client's one retry policy (http.ts `isWorthRepeating`, its attempts and waits);
 * each batch request is sent once by the client, so a batch answered 429 is sent the policy's attempts, no more.
 */
import { BATCH_PATHS, CALENDAR_BATCH_SAFE_CALLS, DRIVE_BATCH_SOFT_LIMIT } from '../shared/batchPaths';
import { randomBytes } from 'node:crypto';
import * as z from '../shared/schemas/zod';
import { mixedBoundary, readHttpMessage, readMultipart, writeMultipart } from '../shared/httpBatch';
import { CancelledError, GoogleApiError, ResponseValidationError } from './errors';
import { HttpClient, HttpMethod, IDEMPOTENT_METHODS, isSuccess, isWorthRepeating, parseRetryAfter, pathWithQuery, QueryValue, readJsonAnswer } from './http';

/** One call, as it would be sent alone, and how its answer reads. */
export interface BatchCall<T> {
  readonly method: HttpMethod;
  /** Path under the service's root, already encoded (http.ts `path`). */
  readonly path: string;
  readonly query?: Record<string, QueryValue>;
  readonly json?: unknown;
  readonly headers?: Record<string, string>;
  /** The schema of a JSON answer; undefined for calls whose success has no body (deletes). */
  readonly schema?: z.ZodMiniType<T>;
  /** Safe to repeat after an unclear failure although the method is not idempotent by nature. */
  readonly idempotent?: boolean;
  /** Named in errors, e.g. "drive.files.trash". */
  readonly operation: string;
}

/** What became of one call: its answer, or why it failed. */
export type BatchResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: Error };

/** Where a service takes batches and how many calls one may hold. */
export interface BatchEndpoint {
  /** The discovery document's `batchPath`, under the service's root. */
  readonly path: string;
  readonly maxCalls: number;
}

/** Calls Desk puts in one batch where the API allows 1000 (MAX_BATCH_CALLS): well inside per-user rate limits. */
const CALLS_PER_BATCH = 100;

/**
 * The services' batch paths (discovery `batchPath`) and the calls Desk puts in one batch: Drive documents 100;
 * Calendar's batch page said 50 for years and says 1000 now, so 50 is safe on both; Tasks, Books and the Directory
 * give the general 1000, of which Desk sends 100 at a time to stay well inside per-user rate limits.
 */
export const BATCH_ENDPOINTS = {
  tasks: { path: BATCH_PATHS.root, maxCalls: CALLS_PER_BATCH },
  books: { path: BATCH_PATHS.books, maxCalls: CALLS_PER_BATCH },
  drive: { path: BATCH_PATHS.drive, maxCalls: DRIVE_BATCH_SOFT_LIMIT },
  calendar: { path: BATCH_PATHS.calendar, maxCalls: CALENDAR_BATCH_SAFE_CALLS },
  directory: { path: BATCH_PATHS.root, maxCalls: CALLS_PER_BATCH },
} as const satisfies Record<string, BatchEndpoint>;

/** Sends `calls` through `endpoint`; the results are in the order of the calls. */
export async function sendBatch<T>(http: HttpClient, endpoint: BatchEndpoint, calls: readonly BatchCall<T>[], signal?: AbortSignal): Promise<BatchResult<T>[]> {
  const results: (BatchResult<T> | undefined)[] = calls.map(() => undefined);
  let pending = calls.map((_, index) => index);
  for (let attempt = 1; pending.length > 0; attempt++) {
    const again: number[] = [];
    let retryAfterMs: number | undefined;
    for (let start = 0; start < pending.length; start += endpoint.maxCalls) {
      const chunk = pending.slice(start, start + endpoint.maxCalls);
      const answers = await sendChunk(http, endpoint, chunk.map((index) => calls[index] as BatchCall<T>), signal);
      chunk.forEach((index, position) => {
        const result = answers[position] as BatchResult<T>;
        const call = calls[index] as BatchCall<T>;
        if (!result.ok && attempt < http.maxAttempts && isWorthRepeating(result.error, call.idempotent ?? IDEMPOTENT_METHODS.has(call.method))) {
          again.push(index);
          if (result.error instanceof GoogleApiError && result.error.retryAfterMs !== undefined) retryAfterMs = Math.max(retryAfterMs ?? 0, result.error.retryAfterMs);
        } else {
          results[index] = result;
        }
      });
    }
    if (again.length > 0) await http.pauseBeforeRetry(attempt, retryAfterMs, signal);
    pending = again;
  }
  return results as BatchResult<T>[];
}

/** One batch request; a failure of the request itself is every call's failure. */
async function sendChunk<T>(http: HttpClient, endpoint: BatchEndpoint, calls: readonly BatchCall<T>[], signal: AbortSignal | undefined): Promise<BatchResult<T>[]> {
  const id = randomBytes(6).toString('hex');
  const boundary = `desk_batch_${id}`;
  const body = writeMultipart(boundary, calls.map((call, index) => {
    const json = call.json === undefined ? undefined : Buffer.from(JSON.stringify(call.json), 'utf8');
    return {
      headers: { 'Content-Type': 'application/http', 'Content-ID': `<${id}+${index}>` },
      startLine: `${call.method} ${pathWithQuery(call)} HTTP/1.1`,
      messageHeaders: { ...(call.headers ?? {}), ...(json ? { 'Content-Type': 'application/json; charset=UTF-8' } : {}) },
      body: json ?? Buffer.alloc(0),
    };
  }));
  try {
    const response = await http.send({
      method: 'POST',
      path: endpoint.path,
      body,
      contentType: `multipart/mixed; boundary=${boundary}`,
      ...(signal ? { signal } : {}),
      // Sent once here: sendBatch repeats the calls that failed, each as the policy allows.
      singleAttempt: true,
      operation: `batch (${calls[0]?.operation ?? 'empty'}…)`,
    });
    const answers = await readAnswers(response.headers.get('content-type'), Buffer.from(await response.arrayBuffer()), id, calls.length);
    return calls.map((call, index) => readResult(call, answers[index]));
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    if (failure instanceof CancelledError) throw failure;
    return calls.map(() => ({ ok: false, error: failure }));
  }
}

interface PartAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** The answers by call index, matched on Content-ID (`<response-id+n>`), in order where a server leaves it out. */
async function readAnswers(contentType: string | null, body: Buffer, id: string, count: number): Promise<(PartAnswer | undefined)[]> {
  const boundary = mixedBoundary(contentType);
  if (!boundary) throw new ResponseValidationError('batch', `the answer is not multipart/mixed (${contentType ?? 'no Content-Type'})`);
  let parts: Awaited<ReturnType<typeof readMultipart>>;
  try {
    parts = await readMultipart(body, boundary);
  } catch (error) {
    throw new ResponseValidationError('batch', error instanceof Error ? error.message : String(error));
  }
  const answers: (PartAnswer | undefined)[] = new Array<PartAnswer | undefined>(count).fill(undefined);
  parts.forEach((part, position) => {
    const message = readHttpMessage(part.message);
    const status = Number(/^HTTP\/\d(?:\.\d)?\s+(\d{3})/.exec(message?.startLine ?? '')?.[1]);
    if (!message || !Number.isInteger(status)) return;
    const named = new RegExp(`^<?response-${id}\\+(\\d+)>?$`).exec(part.headers['content-id'] ?? '');
    const index = named ? Number(named[1]) : position;
    if (index < count && answers[index] === undefined) answers[index] = { status, headers: message.headers, body: message.body };
  });
  return answers;
}

function readResult<T>(call: BatchCall<T>, answer: PartAnswer | undefined): BatchResult<T> {
  if (!answer) return { ok: false, error: new ResponseValidationError(call.operation, 'the batch answer has no part for this call') };
  const text = answer.body.toString('utf8');
  if (!isSuccess(answer.status)) return { ok: false, error: GoogleApiError.fromResponse(answer.status, text, parseRetryAfter(answer.headers['retry-after'] ?? null)) };
  if (!call.schema) return { ok: true, value: undefined as T };
  try {
    return { ok: true, value: readJsonAnswer(call.schema, text, call.operation) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
  }
}
