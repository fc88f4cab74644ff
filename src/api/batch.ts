/**
 * Many calls of one service in as few HTTP requests as Google allows: Google's batch format (shared/httpBatch.ts),
 * chunked at the service's limit, with a typed result per call. Calls the server refused (429, a rate-limit 403)
 * or that failed unclearly when they are safe to repeat (5xx on an idempotent call) are sent again, alone with the
 * other such calls: the HTTP client owns that retry (http.ts `repeatParts`: its rule, attempts and waits); each batch
 * request is sent once by the client, so a batch answered 429 is sent the policy's attempts, no more.
 */
import { BatchApi, CLIENT_BATCH_APIS } from '../shared/batchPaths';
import { randomBytes } from 'node:crypto';
import * as z from '../shared/schemas/zod';
import { mixedBoundary, readHttpMessage, readMultipart, writeMultipart } from '../shared/httpBatch';
import { CancelledError, GoogleApiError, ResponseValidationError } from './errors';
import { HttpClient, HttpMethod, IDEMPOTENT_METHODS, isSuccess, parseRetryAfter, PartOutcome, pathWithQuery, QueryValue, readJsonAnswer } from './http';

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
export type BatchResult<T> = PartOutcome<T>;

/** Where a service takes batches and how many calls one may hold. */
export interface BatchEndpoint {
  /** The discovery document's `batchPath`, under the service's root. */
  readonly path: string;
  readonly maxCalls: number;
}

/** Where each service takes Desk's batches and how many calls one holds: shared/batchPaths.ts, the emulator's table too. */
export const BATCH_ENDPOINTS = {
  tasks: endpointOf(CLIENT_BATCH_APIS.tasks),
  books: endpointOf(CLIENT_BATCH_APIS.books),
  drive: endpointOf(CLIENT_BATCH_APIS.drive),
  calendar: endpointOf(CLIENT_BATCH_APIS.calendar),
  directory: endpointOf(CLIENT_BATCH_APIS.directory),
} as const satisfies Record<string, BatchEndpoint>;

function endpointOf(api: BatchApi): BatchEndpoint {
  return { path: api.path, maxCalls: api.callsPerBatch };
}

/** Sends `calls` through `endpoint`; the results are in the order of the calls. Retries: HttpClient.repeatParts. */
export function sendBatch<T>(http: HttpClient, endpoint: BatchEndpoint, calls: readonly BatchCall<T>[], signal?: AbortSignal): Promise<BatchResult<T>[]> {
  const idempotent = calls.map((call) => call.idempotent ?? IDEMPOTENT_METHODS.has(call.method));
  return http.repeatParts(idempotent, async (pending) => {
    const answers: BatchResult<T>[] = [];
    for (let start = 0; start < pending.length; start += endpoint.maxCalls) {
      const chunk = pending.slice(start, start + endpoint.maxCalls);
      answers.push(...await sendChunk(http, endpoint, chunk.map((index) => calls[index]), signal));
    }
    return answers;
  }, signal);
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
