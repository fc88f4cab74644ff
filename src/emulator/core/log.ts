/** The emulator's one logger: every line it prints goes through `redactSecrets`, verbose or not. */
import { inspect } from 'node:util';

/**
 * Names whose values are credentials wherever they appear (query strings, form bodies, JSON, error messages,
 * headers). `code` is included because an OAuth authorization code is a bearer credential until redeemed; `key`
 * is Google's API key parameter.
 */
const SECRET_NAMES = [
  'access_token',
  'refresh_token',
  'id_token',
  'token',
  'code',
  'code_verifier',
  'code_challenge',
  'client_secret',
  'client_assertion',
  'subject_token',
  'upload_id',
  'password',
  'assertion',
  'key',
  'api_key',
  'apikey',
];
/** Headers that carry credentials, as `Name: value` lines and as the keys of an inspected headers object. */
const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-goog-api-key', 'x-api-key'];

const SECRET_NAME_SET: ReadonlySet<string> = new Set(SECRET_NAMES);
const NAMES = [...SECRET_NAMES, ...SECRET_HEADERS].map((name) => name.replace(/-/g, '\\-')).join('|');
/**
 * Any `name=value` pair of a query string or form body, its name percent-encoded or not (`access%5Ftoken=`, `%61ccess_token=`):
 * the name is decoded before it is compared, so no spelling of a credential parameter gets through.
 */
const QUERY_PAIR = /(^|[?&;\s"'(,])([A-Za-z0-9_.~%+-]+)(=|%3D)([^&\s"'<>)#,;?]*)/gi;
/** `"name":"value"` and `name: 'value'` in JSON and in util.inspect output. */
const JSON_PAIR = new RegExp(`(["']?)(${NAMES})\\1(\\s*:\\s*)(["'])((?:\\\\.|(?!\\4).)*)\\4`, 'gi');
/** A credential header line (`Cookie: a=b; c=d`) to its end; `Bearer`/`Basic` values are left to AUTH_HEADER, which keeps the scheme. */
const HEADER_LINE = new RegExp(`(^|[\\r\\n])([ \\t]*)(${SECRET_HEADERS.map((name) => name.replace(/-/g, '\\-')).join('|')}):(?![ \\t]*(?:Bearer|Basic)\\s)[ \\t]*[^\\r\\n]+`, 'gi');
/** An Authorization header's credentials, and the token shapes the emulator hands out, wherever they stand alone (also percent-encoded). */
const AUTH_HEADER = /\b(Bearer|Basic)(\s+|%20|\+)[A-Za-z0-9\-._~+/=%]+/gi;
const TOKEN_SHAPES = /\b(ya29(?:\.|%2E)|1(?:\/|%2F){2}|4(?:\/|%2F)0)[A-Za-z0-9\-._~%]+/gi;

export const REDACTED = '[REDACTED]';

/** A query or form name as the server reads it: percent-decoded, `+` as a space, lower case; undecodable stays as is. */
function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/** Removes tokens, codes, verifiers, keys, secrets and credential headers from one line of text, keeping its shape readable. */
export function redactSecrets(text: string): string {
  return text
    .replace(QUERY_PAIR, (match: string, before: string, name: string, equals: string) =>
      SECRET_NAME_SET.has(decodedName(name)) ? `${before}${name}${equals}${REDACTED}` : match)
    .replace(JSON_PAIR, (match: string, quote: string, name: string, colon: string, valueQuote: string, value: string) =>
      // An error's `code: 'ERR_INVALID_URL'` or HTTP status is no secret, and it is what tells errors apart.
      name.toLowerCase() === 'code' && /^[A-Z0-9_]*$/.test(value) ? match : `${quote}${name}${quote}${colon}${valueQuote}${REDACTED}${valueQuote}`)
    .replace(HEADER_LINE, (_match, before: string, indent: string, name: string) => `${before}${indent}${name}: ${REDACTED}`)
    .replace(AUTH_HEADER, (_match, scheme: string, space: string) => `${scheme}${space}${REDACTED}`)
    .replace(TOKEN_SHAPES, (_match, prefix: string) => `${prefix}${REDACTED}`);
}

/**
 * A request target as the log shows it: the query decoded the way the server reads it (so `access%5Ftoken=` is seen as
 * `access_token=`), credential parameters replaced, and values redacted again for credentials nested inside them.
 */
export function redactTarget(target: string): string {
  const mark = target.indexOf('?');
  if (mark < 0) return redactSecrets(target);
  const pairs: string[] = [];
  for (const [name, value] of new URLSearchParams(target.slice(mark + 1))) {
    pairs.push(`${escapeControls(name)}=${SECRET_NAME_SET.has(name.toLowerCase()) ? REDACTED : escapeControls(value)}`);
  }
  return redactSecrets(`${escapeControls(target.slice(0, mark))}?${pairs.join('&')}`);
}

/** Control characters a decoded value may carry, written as `\\xNN` so one request stays one log line. */
function escapeControls(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]/g, (character) => `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Where log lines go; tests swap it to capture what the emulator would print. */
export type LogSink = (line: string) => void;

let sink: LogSink = (line) => process.stderr.write(`${line}\n`);

/** Replaces the sink (and returns the previous one, so a test can restore it). */
export function setLogSink(next: LogSink): LogSink {
  const previous = sink;
  sink = next;
  return previous;
}

/** Formats values like console.log does, then redacts: errors and objects may carry URLs with secrets. */
export function logLine(...parts: unknown[]): void {
  sink(redactSecrets(parts.map(format).join(' ')));
}

function format(part: unknown): string {
  if (typeof part === 'string') return part;
  // util.inspect shows an Error's stack and own properties (e.g. ERR_INVALID_URL's `input`), all redacted after.
  return inspect(part, { depth: 4, breakLength: Infinity });
}
