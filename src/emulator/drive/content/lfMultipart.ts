/**
 * Multipart bodies whose lines end in a bare LF, as Python's email generator writes them (Google's Python client
 * builds its multipart uploads with it). Google accepts them; dicer reads only CRLF, so such a body is read whole
 * (it is small: the client holds it in memory too) and its delimiter and header lines are rewritten with CRLF,
 * leaving every part's content byte for byte.
 */
import type { Readable } from 'node:stream';
import { Readable as ReadableStream } from 'node:stream';
import { ApiError } from '../../core/errors';

/** A bare-LF multipart body is buffered to be rewritten: this much at most (Drive's multipart uploads are for small files). */
export const MAX_LF_MULTIPART_BYTES = 64 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const CRLF = Buffer.from('\r\n');

/** The body as dicer should read it: `source` itself (paused, nothing lost) when its lines end in CRLF, else a CRLF copy. */
export async function crlfMultipartBody(source: Readable, boundary: string): Promise<Readable> {
  const delimiter = Buffer.from(`--${boundary}`);
  const head = await firstBytes(source, delimiter.length + 4096);
  const at = head.buffer.indexOf(delimiter);
  const after = at < 0 ? -1 : at + delimiter.length;
  const bareLf = after >= 0 && head.buffer[after] === LF;
  if (!bareLf) {
    if (head.ended) return ReadableStream.from([head.buffer]);
    source.unshift(head.buffer);
    return source;
  }
  const chunks = [head.buffer];
  let size = head.buffer.length;
  if (!head.ended) {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_LF_MULTIPART_BYTES) throw new ApiError(413, 'uploadTooLarge', `A multipart body with bare LF line ends is limited to ${MAX_LF_MULTIPART_BYTES} bytes`);
      chunks.push(chunk);
    }
  }
  return ReadableStream.from([withCrlf(Buffer.concat(chunks), delimiter)]);
}

/** Reads up to `size` bytes (more if a chunk is larger), then pauses the stream. */
function firstBytes(stream: Readable, size: number): Promise<{ buffer: Buffer; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const finish = (ended: boolean): void => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', reject);
      stream.pause();
      resolve({ buffer: Buffer.concat(chunks), ended });
    };
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= size) finish(false);
    };
    const onEnd = (): void => finish(true);
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', reject);
  });
}

/** The same parts with CRLF delimiter and header lines; a part's content is what lies between its blank line and the next `\n--boundary`. */
export function withCrlf(body: Buffer, delimiter: Buffer): Buffer {
  const nextDelimiter = Buffer.concat([Buffer.from([LF]), delimiter]);
  const out: Buffer[] = [delimiter];
  let position = body.indexOf(delimiter);
  if (position < 0) return body;
  position += delimiter.length;
  for (;;) {
    if (body[position] === 0x2d && body[position + 1] === 0x2d) {
      out.push(Buffer.from('--'), CRLF);
      break;
    }
    const lineEnd = body.indexOf(LF, position);
    if (lineEnd < 0) break;
    const next = body.indexOf(nextDelimiter, lineEnd);
    const segment = body.subarray(lineEnd + 1, next < 0 ? body.length : next);
    const blank = segment[0] === LF ? 0 : segment.indexOf('\n\n');
    const headers = blank < 0 ? segment : segment.subarray(0, blank);
    const content = blank < 0 ? Buffer.alloc(0) : segment.subarray(blank + (blank === 0 ? 1 : 2));
    const headerLines = headers.length === 0 ? [] : headers.toString('latin1').split('\n').map((line) => (line.charCodeAt(line.length - 1) === CR ? line.slice(0, -1) : line));
    out.push(CRLF, Buffer.from(headerLines.map((line) => `${line}\r\n`).join(''), 'latin1'), CRLF, content, CRLF, delimiter);
    if (next < 0) break;
    position = next + nextDelimiter.length;
  }
  return Buffer.concat(out);
}
