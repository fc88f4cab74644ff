/**
 * The wire format of Google's batch requests, shared by Desk's client (writes requests, reads answers) and the
 * emulator (reads requests, writes answers): a `multipart/mixed` body whose parts are `application/http` messages.
 * The parts are read by the project's one multipart reader (multipart.ts), which also takes the bare LF line ends
 * of clients built on Python's email package (Google's own Python client), as Google does; the HTTP messages inside
 * are read here, with CRLF or LF line ends too. Bytes travel as latin1 strings, so nothing is re-encoded.
 */
import { readMultipartParts } from './multipart';

/** One part: its envelope headers (Content-Type, Content-ID) and the HTTP message it carries. */
export interface BatchPart {
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The HTTP message: start line, headers, blank line, body (latin1). */
  readonly message: string;
}

/** A message split into its start line, its headers (lower-case names) and its body. */
export interface HttpMessage {
  readonly startLine: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** The boundary of a `multipart/mixed` Content-Type, or undefined for anything else. */
export function mixedBoundary(contentType: string | null | undefined): string | undefined {
  if (!contentType || !/^\s*multipart\/mixed\s*(;|$)/i.test(contentType)) return undefined;
  const found = /;\s*boundary=(?:"([^"]{1,200})"|([^\s;]{1,200}))/i.exec(contentType);
  return found ? (found.at(1) ?? found.at(2)) : undefined;
}

/** The parts of a batch body; rejects with an Error naming what is malformed. */
export async function readMultipart(body: Buffer, boundary: string): Promise<BatchPart[]> {
  const parts = await readMultipartParts(body, boundary);
  return parts.map((part) => ({ headers: part.headers, message: part.body.toString('latin1') }));
}

/** An HTTP message (request or response) read from a part; undefined when its header lines are malformed. */
export function readHttpMessage(message: string): HttpMessage | undefined {
  const lineEnd = /\r?\n|$/.exec(message) as RegExpExecArray;
  const rest = splitHeaders(message.slice(lineEnd.index + lineEnd[0].length));
  if (!rest) return undefined;
  return { startLine: message.slice(0, lineEnd.index).trim(), headers: rest.headers, body: Buffer.from(rest.body, 'latin1') };
}

/** One part of a multipart answer: envelope headers and an HTTP message (start line, headers, body). */
export interface HttpPartToWrite {
  readonly headers: Readonly<Record<string, string>>;
  readonly startLine: string;
  readonly messageHeaders: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** A multipart body from parts given as envelope headers and an HTTP message (start line, headers, body). */
export function writeMultipart(boundary: string, parts: readonly HttpPartToWrite[]): Buffer {
  return Buffer.concat([...parts.map((part) => writeMultipartPart(boundary, part)), multipartEnd(boundary)]);
}

/** One part with its delimiter, as `writeMultipart` writes it (for bodies written part by part). */
export function writeMultipartPart(boundary: string, part: HttpPartToWrite): Buffer {
  let head = `--${boundary}\r\n`;
  for (const [name, value] of Object.entries(part.headers)) head += `${name}: ${value}\r\n`;
  head += `\r\n${part.startLine}\r\n`;
  for (const [name, value] of Object.entries(part.messageHeaders)) {
    if (name.toLowerCase() !== 'content-length') head += `${name}: ${value}\r\n`;
  }
  if (part.body.length > 0 || /^HTTP\//.test(part.startLine)) head += `Content-Length: ${part.body.length}\r\n`;
  head += '\r\n';
  return Buffer.concat([Buffer.from(head, 'latin1'), part.body, Buffer.from('\r\n', 'latin1')]);
}

/** The closing delimiter of a multipart body. */
export function multipartEnd(boundary: string): Buffer {
  return Buffer.from(`--${boundary}--\r\n`, 'latin1');
}

/** Headers, a blank line, the rest; lines end with CRLF or LF; repeated headers are joined with commas. */
function splitHeaders(text: string): { headers: Record<string, string>; body: string } | undefined {
  const noHeaders = /^\r?\n/.exec(text);
  if (noHeaders) return { headers: {}, body: text.slice(noHeaders[0].length) };
  const blank = /\r?\n\r?\n/.exec(text);
  // Headers only, with or without their final line break (a part that is all headers).
  const headerText = blank ? text.slice(0, blank.index) : text;
  const body = blank ? text.slice(blank.index + blank[0].length) : '';
  const headers: Record<string, string> = {};
  for (const line of headerText.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return undefined;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = Object.hasOwn(headers, name) ? `${headers[name]}, ${value}` : value;
  }
  return { headers, body };
}
