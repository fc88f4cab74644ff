/**
 * Request bodies under the emulator's limits: a body read whole is refused (413) from its Content-Length before a byte
 * is read and closes the connection instead of reading the rest; a body that stops arriving, or trickles in past the
 * time a whole body may take (slowloris), is answered 408 and its connection closed.
 */
import type * as http from 'node:http';
import { ApiError } from './errors';

/** Reads a whole body of at most `limit` bytes, which must arrive within `timeoutMs` (0: no limit). */
export function readBody(request: http.IncomingMessage, limit: number, timeoutMs: number): Promise<Buffer> {
  if (Number(request.headers['content-length'] ?? 0) > limit) {
    request.pause();
    return Promise.reject(bodyTooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error?: ApiError): void => {
      clearTimeout(deadline);
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('aborted', onError);
      if (error === undefined) { resolve(Buffer.concat(chunks)); return; }
      // The rest is not read: the answer closes the connection.
      request.pause();
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) finish(bodyTooLarge(limit));
      else chunks.push(chunk);
    };
    const onEnd = (): void => { finish(); };
    const onError = (): void => { finish(new ApiError(400, 'badRequest', 'The request body was cut off before its end.', {}, { Connection: 'close' })); };
    const deadline = timeoutMs > 0 ? setTimeout(() => { finish(bodyTimedOut()); }, timeoutMs) : undefined;
    request.on('data', onData);
    request.once('end', onEnd);
    request.once('error', onError);
    request.once('aborted', onError);
  });
}

/** 413, closing the connection: what is left of the body is never read. */
export function bodyTooLarge(limit: number, what = 'Request body'): ApiError {
  return new ApiError(413, 'badRequest', `${what} larger than ${limit} bytes`, {}, { Connection: 'close' });
}

/** 408 for a body that stopped arriving, or arrives too slowly; the connection is closed. */
function bodyTimedOut(): ApiError {
  return new ApiError(408, 'requestTimeout', 'The request body did not arrive in time.', {}, { Connection: 'close' });
}

/**
 * Answers 408 (or closes the connection, once an answer has left) when a request's body stops arriving for
 * `idleMs`: bodies streamed to their handlers (uploads) may be large and slow, but never stalled for good.
 */
export function watchBodyArrival(request: http.IncomingMessage, response: http.ServerResponse, idleMs: number): void {
  if (idleMs <= 0 || request.complete) return;
  const socket = request.socket;
  let bytesSeen = socket.bytesRead;
  const timer = setInterval(() => {
    if (request.complete || socket.destroyed) {
      clearInterval(timer);
      return;
    }
    if (socket.bytesRead !== bytesSeen) {
      bytesSeen = socket.bytesRead;
      return;
    }
    clearInterval(timer);
    if (response.headersSent) {
      socket.destroy();
      return;
    }
    const error = bodyTimedOut();
    const body = JSON.stringify(error.toBody());
    response.writeHead(408, { ...error.headers, 'Content-Type': 'application/json; charset=UTF-8', 'Content-Length': String(Buffer.byteLength(body)) });
    response.end(body, () => socket.destroy());
  }, idleMs);
  timer.unref();
  // Most requests are complete by the time they are answered: stop watching then.
  response.once('close', () => {
    if (request.complete) clearInterval(timer);
  });
}
