/**
 * The one reader of multipart bodies, for Drive's multipart uploads (streamed: the media part may be gigabytes) and
 * for batch requests and answers (read whole): dicer parses the parts. Bodies whose lines end in a bare LF, as
 * Python's email generator writes them (Google's Python client builds its multipart uploads and batch requests with
 * it), are accepted as Google accepts them: dicer reads only CRLF, so such a body is read whole and its delimiter and
 * header lines are rewritten with CRLF, leaving every part's content byte for byte.
 */
import Dicer from 'dicer';
import { PassThrough, Readable } from 'node:stream';

/** A bare-LF multipart body is buffered to be rewritten: this much at most (multipart bodies are small files and batches). */
export const MAX_LF_MULTIPART_BYTES = 64 * 1024 * 1024;

/** A bare-LF body larger than MAX_LF_MULTIPART_BYTES. */
export class LfMultipartTooLarge extends Error {
  constructor() {
    super(`A multipart body with bare LF line ends is limited to ${MAX_LF_MULTIPART_BYTES} bytes`);
  }
}

/** One part read whole: its headers (lower-case names, repeated ones joined with commas) and its content. */
export interface MultipartPart {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** Parts as they stream: dicer's 'part' events (each part a Readable emitting 'header' first), 'error', 'finish'. */
export interface MultipartReader {
  readonly parts: Dicer;
  /** Stops feeding the parser (after a failure): the source is no longer piped into it. */
  stop(): void;
}

/** Reads `source` as a multipart body delimited by `boundary`, with CRLF or bare-LF line ends. */
export function readMultipartStream(source: Readable, boundary: string, options: { maxHeaderPairs?: number } = {}): MultipartReader {
  const parts = new Dicer({ boundary, maxHeaderPairs: options.maxHeaderPairs ?? 50 });
  let body: Readable | undefined;
  let stopped = false;
  crlfMultipartBody(source, boundary).then((normalised) => {
    body = normalised;
    if (!stopped) normalised.pipe(parts);
  }, (error: unknown) => parts.emit('error', error instanceof Error ? error : new Error(String(error))));
  return {
    parts,
    stop: () => {
      stopped = true;
      body?.unpipe(parts);
      // Left unpiped, so that the caller can drain it (a refused upload's body is read to its end, then dropped).
      source.unpipe();
    },
  };
}

/** Every part of a multipart body held in memory (a batch request or answer); rejects when the body is malformed. */
export function readMultipartParts(body: Buffer, boundary: string): Promise<MultipartPart[]> {
  return new Promise((resolve, reject) => {
    const { parts } = readMultipartStream(Readable.from([body]), boundary);
    const read: Promise<MultipartPart>[] = [];
    parts.on('part', (part) => {
      read.push(new Promise((resolvePart, rejectPart) => {
        let headers: Record<string, string> = {};
        const chunks: Buffer[] = [];
        part.on('header', (header: Record<string, string[] | undefined>) => {
          headers = Object.fromEntries(Object.entries(header).map(([name, values]) => [name.toLowerCase(), (values ?? []).join(', ')]));
        });
        part.on('data', (chunk: Buffer) => chunks.push(chunk));
        part.on('end', () => { resolvePart({ headers, body: Buffer.concat(chunks) }); });
        part.on('error', rejectPart);
      }));
    });
    parts.on('error', reject);
    parts.on('finish', () => {
      Promise.all(read).then(resolve, reject);
    });
  });
}

const LF = 0x0a;
const CR = 0x0d;
const CRLF = Buffer.from('\r\n');

/** The body as dicer should read it: `source` itself (paused, nothing lost) when its lines end in CRLF, else a CRLF copy. */
async function crlfMultipartBody(source: Readable, boundary: string): Promise<Readable> {
  const delimiter = Buffer.from(`--${boundary}`);
  const head = await firstBytes(source, delimiter.length + 4096);
  const at = head.buffer.indexOf(delimiter);
  const after = at < 0 ? -1 : at + delimiter.length;
  const bareLf = after >= 0 && head.buffer[after] === LF;
  if (!bareLf) {
    if (head.ended) return Readable.from([head.buffer]);
    // The bytes read, then the rest piped after them (unshift lost the end of a source whose end was on its way).
    const joined = new PassThrough();
    joined.write(head.buffer);
    return source.pipe(joined);
  }
  const chunks = [head.buffer];
  let size = head.buffer.length;
  if (!head.ended) {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_LF_MULTIPART_BYTES) throw new LfMultipartTooLarge();
      chunks.push(chunk);
    }
  }
  return Readable.from([withCrlf(Buffer.concat(chunks), delimiter)]);
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
    const onEnd = (): void => { finish(true); };
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', reject);
  });
}
/** The same parts with CRLF delimiter and header lines; a part's content is what lies between its blank line and the next `\n--boundary`. */
function withCrlf(body: Buffer, delimiter: Buffer): Buffer {
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
