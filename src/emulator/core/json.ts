/**
 * JSON with bounded nesting: request bodies deeper than Google accepts are refused before they are parsed (a deep
 * body overflowed the stack in validation and serialisation), and values stored by an older emulator that are
 * deeper still serialise without recursion, so no RangeError reaches a client or the journal.
 */
import { ApiError } from './errors';

/**
 * The deepest nesting a request body may have. Google's JSON front end (protobuf's JSON parser) stops at 100 levels
 * and answers 400 "Invalid JSON payload received. Message too deep. Max recursion depth reached for key '…'".
 */
export const MAX_JSON_DEPTH = 100;

/**
 * The first key (or `[index]` stand-in) at which `text` nests deeper than `maxDepth`, found by one scan of the text
 * that skips strings; undefined when it is within bounds (or not JSON at all: JSON.parse says so afterwards).
 */
export function tooDeepAt(text: string, maxDepth = MAX_JSON_DEPTH): string | undefined {
  let depth = 0;
  let inString = false;
  let stringStart = -1;
  let lastKey = '';
  let lastString = '';
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++; // backslash: skip the escaped character
      else if (code === 0x22) {
        inString = false;
        lastString = text.slice(stringStart, Math.min(index, stringStart + 64));
      }
      continue;
    }
    if (code === 0x22) {
      inString = true;
      stringStart = index + 1;
    } else if (code === 0x3a) lastKey = lastString; // ':' ends a key
    else if (code === 0x7b || code === 0x5b) {
      depth++;
      if (depth > maxDepth) return lastKey;
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return undefined;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses a request body: empty is `{}`, malformed or too deep is Google's 400 parseError. Bytes must be UTF-8, as
 * JSON (RFC 8259) and Google's string fields require: decoding them leniently stored U+FFFD in place of a client's
 * Latin-1 bytes.
 */
export function parseJsonBody(body: string | Buffer): unknown {
  let text: string;
  if (typeof body === 'string') text = body;
  else {
    try {
      text = strictUtf8.decode(body);
    } catch {
      throw new ApiError(400, 'parseError', 'Invalid JSON payload received. The request body is not valid UTF-8.');
    }
  }
  if (text.trim() === '') return {};
  const deepKey = tooDeepAt(text);
  if (deepKey !== undefined) {
    throw new ApiError(400, 'parseError', `Invalid JSON payload received. Message too deep. Max recursion depth reached for key '${deepKey}'`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const detail = error instanceof Error ? error.message : 'malformed';
    throw new ApiError(400, 'parseError', `Invalid JSON payload received. ${detail}`);
  }
}

/** JSON.stringify, falling back to an iterative writer for values too deep for the recursive one. */
export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return stringifyIteratively(value);
  }
}

type Frame = { kind: 'array'; items: readonly unknown[]; next: number } | { kind: 'object'; entries: [string, unknown][]; next: number };

/** The same text JSON.stringify gives (no toJSON beyond Date's, no replacer), with an explicit stack. */
function stringifyIteratively(root: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  const open = (value: unknown): void => {
    const plain = value instanceof Date ? value.toJSON() : value;
    if (plain === null || typeof plain === 'number' || typeof plain === 'boolean' || typeof plain === 'string') {
      out.push(JSON.stringify(plain));
    } else if (Array.isArray(plain)) {
      out.push('[');
      stack.push({ kind: 'array', items: plain, next: 0 });
    } else if (typeof plain === 'object') {
      out.push('{');
      const entries = Object.entries(plain as Record<string, unknown>).filter(([, item]) => item !== undefined && typeof item !== 'function' && typeof item !== 'symbol');
      stack.push({ kind: 'object', entries, next: 0 });
    } else {
      out.push('null');
    }
  };
  open(root);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (frame.kind === 'array') {
      if (frame.next >= frame.items.length) {
        out.push(']');
        stack.pop();
        continue;
      }
      if (frame.next > 0) out.push(',');
      const item = frame.items[frame.next++];
      open(item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : item);
    } else {
      if (frame.next >= frame.entries.length) {
        out.push('}');
        stack.pop();
        continue;
      }
      if (frame.next > 0) out.push(',');
      const [key, item] = frame.entries[frame.next++];
      out.push(`${JSON.stringify(key)}:`);
      open(item);
    }
  }
  return out.join('');
}
