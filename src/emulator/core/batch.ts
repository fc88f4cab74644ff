/**
 * Google's HTTP batch endpoint: one `multipart/mixed` request carrying many calls, each part an `application/http`
 * request, answered as `multipart/mixed` with one `application/http` response per part, in request order. Parts
 * are dispatched one after another through the server's own pipeline (`dispatchPart`), so each behaves exactly as
 * the same call made alone.
 */
import { IncomingMessage, STATUS_CODES } from 'node:http';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { ApiError, badRequest, MAX_REQUEST_TARGET_BYTES, uriTooLong } from './errors';
import type { Reply } from './router';
import { bodyTooLarge, readBody } from './requestBody';
import { BatchPart, mixedBoundary, multipartEnd, readHttpMessage, readMultipart, writeMultipartPart } from '../../shared/httpBatch';
import { BATCH_APIS, BatchApi, MAX_BATCH_CALLS } from '../../shared/batchPaths';

export { MAX_BATCH_CALLS };

/** What a batch path accepts: the API prefixes its parts may target and Google's limits on the number of calls. */
export type BatchTarget = BatchApi;

/** The batch body is held in memory while its parts run: bounded like the JSON bodies, with room for 1000 calls. */
const MAX_BATCH_BYTES = 16 * 1024 * 1024;

/** The batch paths the five discovery documents name (`batchPath`), plus the root `/batch` three of them keep. */
export const BATCH_TARGETS: readonly BatchTarget[] = Object.values(BATCH_APIS);

export function batchTargetFor(pathname: string): BatchTarget | undefined {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return BATCH_TARGETS.find((target) => target.path === trimmed);
}

/** One part's answer, fully buffered so it can be written inside the multipart response. */
export interface PartAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** Runs one part through the server's pipeline and answers it (never throws: errors are Google's error replies). */
export type DispatchPart = (part: IncomingMessage) => Promise<PartAnswer>;

interface ParsedPart {
  readonly contentId: string | undefined;
  /** The inner request, or the error that part alone is answered with. */
  readonly request: InnerRequest | ApiError;
}

interface InnerRequest {
  readonly method: string;
  readonly target: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/**
 * A part's request line and headers may take this many bytes, as a request alone may (Node's default
 * `maxHeaderSize`, beyond which the server answers 431): a part of 200,000 headers took a second and 135 MB to read.
 */
export const MAX_PART_HEADER_BYTES = 16 * 1024;

/**
 * Answers a batch request: checks the envelope, then runs each part in order, writing each answer as soon as it is
 * ready (answers held until the last part ran grew to gigabytes for 1000 large listings).
 */
export async function serveBatch(request: IncomingMessage, target: BatchTarget, dispatchPart: DispatchPart, limits: BatchLimits): Promise<Reply> {
  const boundary = mixedBoundary(request.headers['content-type']);
  if (!boundary) {
    request.resume();
    throw badRequest("A batch request needs Content-Type 'multipart/mixed; boundary=…'");
  }
  const body = await readBody(request, MAX_BATCH_BYTES, limits.bodyTimeoutMs).catch((error: unknown) => {
    throw error instanceof ApiError && error.code === 413 ? bodyTooLarge(MAX_BATCH_BYTES, 'Batch request body') : error;
  });
  // Counted before any part is parsed: parsing 200,000 tiny parts took 13 s and 8 GB.
  const count = countMultipartParts(body, boundary);
  if (count > MAX_BATCH_CALLS) throw tooManyCalls(count);
  let parts: ParsedPart[];
  try {
    parts = (await readMultipart(body, boundary)).map(parsePart);
  } catch (error) {
    throw error instanceof ApiError ? error : badRequest(`Malformed batch body: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (parts.length === 0) throw badRequest('The batch request has no parts');
  if (parts.length > MAX_BATCH_CALLS) throw tooManyCalls(parts.length);
  const seen = new Set<string>();
  for (const part of parts) {
    if (part.contentId === undefined) continue;
    if (seen.has(part.contentId)) throw badRequest(`Duplicate Request ID in Batch Request: ${part.contentId}`);
    seen.add(part.contentId);
  }

  const outerAuthorization = request.headers.authorization;
  const responseBoundary = `batch_${randomBytes(12).toString('base64url')}`;
  const startedAt = Date.now();
  async function* answers(): AsyncGenerator<Buffer> {
    for (const [index, part] of parts.entries()) {
      const inner = part.request;
      // A malformed part, or one Google refuses inside a batch, is answered alone; the other parts still run.
      const outOfTime = index > 0 && Date.now() - startedAt > limits.timeLimitMs;
      const refusal = outOfTime ? outOfTimeError() : inner instanceof ApiError ? inner : refuse(inner, target, index);
      let answer: PartAnswer;
      if (refusal !== undefined || inner instanceof ApiError) {
        answer = errorAnswer(refusal ?? badRequest('Malformed batch part'));
      } else {
        const headers = { ...inner.headers };
        // The outer Authorization applies to every part that does not carry its own.
        if (!Object.hasOwn(headers, 'authorization') && typeof outerAuthorization === 'string') headers.authorization = outerAuthorization;
        answer = await dispatchPart(partMessage(request, { ...inner, headers }));
      }
      yield writeAnswer(responseBoundary, part.contentId, answer);
    }
    yield multipartEnd(responseBoundary);
  }
  // A byte stream pulled as the socket drains: at most one part's answer waits in memory.
  return { status: 200, contentType: `multipart/mixed; boundary=${responseBoundary}`, body: Readable.from(answers(), { objectMode: false }) };
}

/** What a batch is allowed: how long its body may take to arrive, and how long its calls may run in all. */
export interface BatchLimits {
  readonly bodyTimeoutMs: number;
  /** Calls not started by then are answered 503 (calls held one after another kept a batch open for hours). */
  readonly timeLimitMs: number;
}

function outOfTimeError(): ApiError {
  return new ApiError(503, 'backendError', 'The batch request ran out of time before this call, which did not run. Send it again.');
}

function tooManyCalls(count: number): ApiError {
  return badRequest(`A batch request holds at most ${MAX_BATCH_CALLS} calls; this one has ${count}. Split it into several batch requests.`);
}

/**
 * How many parts a multipart body holds, counted from its delimiter lines (`--boundary` at the start of the body or
 * of a line) without parsing any part; the closing delimiter is not a part.
 */
function countMultipartParts(body: Buffer, boundary: string): number {
  const delimiter = Buffer.from(`--${boundary}`, 'latin1');
  const lineDelimiter = Buffer.concat([Buffer.from('\n', 'latin1'), delimiter]);
  let delimiters = body.subarray(0, delimiter.length).equals(delimiter) ? 1 : 0;
  for (let at = body.indexOf(lineDelimiter); at >= 0; at = body.indexOf(lineDelimiter, at + lineDelimiter.length)) delimiters++;
  return Math.max(0, delimiters - 1);
}

/** The reason a well-formed part is not run: another API, a nested batch, a media upload, or Drive's soft limit. */
function refuse(inner: InnerRequest, target: BatchTarget, index: number): ApiError | undefined {
  const path = inner.target.split('?')[0] ?? '';
  if (batchTargetFor(path)) return badRequest('Nested batch requests are not allowed: a batch part cannot itself be a batch request.');
  if (path.startsWith('/upload/')) return badRequest('Media uploads are not supported in a batch request; send them as separate requests.');
  // Drive documents that batches carry no media, uploads or downloads (a download would be held whole in memory).
  if (new URLSearchParams(inner.target.slice(path.length + 1)).get('alt') === 'media') {
    return badRequest('Media downloads (alt=media) are not supported in a batch request; send them as separate requests.');
  }
  if (target.prefixes && !target.prefixes.some((prefix) => path.startsWith(prefix))) {
    return badRequest(`Every call in a batch request to ${target.path} must go to the ${target.name} API; ${path} does not.`);
  }
  if (target.softLimit !== undefined && index >= target.softLimit) {
    return new ApiError(403, 'forbidden', 'Exceeds allowed inner batch requests soft limit. Please retry.');
  }
  return undefined;
}

function errorAnswer(error: ApiError): PartAnswer {
  const body = Buffer.from(JSON.stringify(error.toBody()), 'utf8');
  return { status: error.code, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body };
}

/** The part as the request the server would have received alone; it shares the outer socket (client gone = part gone). */
function partMessage(outer: IncomingMessage, inner: InnerRequest): IncomingMessage {
  const message = new IncomingMessage(outer.socket);
  message.method = inner.method;
  message.url = inner.target;
  message.httpVersion = '1.1';
  message.headers = { ...inner.headers, 'content-length': String(inner.body.length) };
  message.rawHeaders = Object.entries(message.headers).flatMap(([name, value]) => [name, String(value)]);
  if (inner.body.length > 0) message.push(inner.body);
  message.push(null);
  message.complete = true;
  return message;
}

function parsePart(part: BatchPart): ParsedPart {
  const contentType = part.headers['content-type'];
  if (!contentType || !/^application\/http\b/i.test(contentType)) {
    throw badRequest("Malformed batch body: each part must have 'Content-Type: application/http'");
  }
  return { contentId: part.headers['content-id'], request: parseInnerRequest(part.message) };
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

/** `METHOD target [HTTP/1.1]`, headers, blank line, body. The target may be a path or a full URL (its path is used). */
function parseInnerRequest(text: string): InnerRequest | ApiError {
  const headEnd = /\r?\n\r?\n/.exec(text)?.index ?? text.length;
  const lineEnd = text.indexOf('\n');
  if ((lineEnd < 0 ? text.length : lineEnd) > MAX_REQUEST_TARGET_BYTES) return uriTooLong();
  if (headEnd > MAX_PART_HEADER_BYTES) {
    return new ApiError(431, 'badRequest', `Request header fields too large: a batch part's request line and headers may take ${MAX_PART_HEADER_BYTES} bytes`);
  }
  const message = readHttpMessage(text);
  if (!message) return badRequest('Malformed batch part: a malformed header line');
  const found = /^([A-Za-z]+)\s+(\S+)(?:\s+HTTP\/\d(?:\.\d)?)?$/.exec(message.startLine);
  if (!found || !METHODS.has((found[1]).toUpperCase())) {
    return badRequest(`Malformed batch part: the request line '${message.startLine.slice(0, 80)}' is not 'METHOD /path HTTP/1.1'`);
  }
  let target = found[2];
  if (/^https?:\/\//i.test(target)) {
    try {
      const url = new URL(target);
      target = `${url.pathname}${url.search}`;
    } catch {
      return badRequest(`Malformed batch part: '${target.slice(0, 80)}' is not a URL`);
    }
  }
  if (!target.startsWith('/')) return badRequest(`Malformed batch part: '${target.slice(0, 80)}' is not an absolute path`);
  const { host: _host, 'content-length': _length, ...headers } = message.headers;
  return { method: (found[1]).toUpperCase(), target, headers, body: message.body };
}

/** `<id>` answers `<response-id>`, `id` answers `response-id`, as Google echoes Content-IDs. */
function responseContentId(contentId: string): string {
  const bracketed = /^<(.*)>$/.exec(contentId);
  return bracketed ? `<response-${bracketed[1]}>` : `response-${contentId}`;
}

function writeAnswer(boundary: string, contentId: string | undefined, answer: PartAnswer): Buffer {
  return writeMultipartPart(boundary, {
    headers: { 'Content-Type': 'application/http', ...(contentId !== undefined ? { 'Content-ID': responseContentId(contentId) } : {}) },
    startLine: `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`.trim(),
    messageHeaders: answer.headers,
    body: answer.body,
  });
}
