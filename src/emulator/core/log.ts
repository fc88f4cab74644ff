/** The emulator's one logger: every line it prints goes through `redactSecrets`, verbose or not. */
import { inspect } from 'node:util';

/**
 * Names whose values are credentials wherever they appear (query strings, form bodies, JSON, error
 * messages). `code` is included because an OAuth authorization code is a bearer credential until redeemed.
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
  'upload_id',
  'password',
  'assertion',
];

const NAMES = SECRET_NAMES.join('|');
/** `name=value` in a query string or form body (also percent-encoded `%3D`), up to the next separator. */
const QUERY_PAIR = new RegExp(`(^|[?&;\\s"'(,])(${NAMES})(=|%3D)([^&\\s"'<>)#,;]*)`, 'gi');
/** `"name":"value"` and `name: 'value'` in JSON and in util.inspect output. */
const JSON_PAIR = new RegExp(`(["']?)(${NAMES})\\1(\\s*:\\s*)(["'])((?:\\\\.|(?!\\4).)*)\\4`, 'gi');
/** An Authorization header's credentials, and the token shapes the emulator hands out, wherever they stand alone. */
const AUTH_HEADER = /\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/=%]+/gi;
const TOKEN_SHAPES = /\b(ya29\.|1\/\/|4\/0)[A-Za-z0-9\-._~%]+/g;

export const REDACTED = '[REDACTED]';

/** Removes tokens, codes, verifiers and secrets from one line of text, keeping its shape readable. */
export function redactSecrets(text: string): string {
  return text
    .replace(QUERY_PAIR, (_match, before: string, name: string, equals: string) => `${before}${name}${equals}${REDACTED}`)
    .replace(JSON_PAIR, (match: string, quote: string, name: string, colon: string, valueQuote: string, value: string) =>
      // An error's `code: 'ERR_INVALID_URL'` or HTTP status is no secret, and it is what tells errors apart.
      name.toLowerCase() === 'code' && /^[A-Z0-9_]*$/.test(value) ? match : `${quote}${name}${quote}${colon}${valueQuote}${REDACTED}${valueQuote}`)
    .replace(AUTH_HEADER, (_match, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(TOKEN_SHAPES, (_match, prefix: string) => `${prefix}${REDACTED}`);
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
