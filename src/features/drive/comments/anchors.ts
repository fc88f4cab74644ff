/**
 * Where a Drive comment sits in a text file (pure): the anchor Desk writes and reads back, the quoted text it keeps
 * beside it, and the lines a thread is shown at.
 *
 * Drive stores `anchor` as an opaque JSON string; Google documents a shape of revision `r` and regions `a`, each a
 * region classifier (https://developers.google.com/workspace/drive/api/guides/ref-region-classifiers). For text
 * Desk writes one `line` region, `{"r":"head","a":[{"line":{"n":12,"l":3,"ml":40}}]}`: `n` the first line, counted
 * from 1 as editors number lines (Google does not say; its own example reads "line 12"), `l` how many lines, `ml`
 * how many the file had. It reads `line` and `txt` (character offset `o`, length `l`) regions. Lines move when the
 * file is edited, so the quoted text (`context.value`) decides when it disagrees with the anchor: a thread goes
 * where its text is now, else where its anchor says, else at the top of the file.
 */
import { withoutTags } from '../../../shared/html';

/** A 0-based, inclusive range of lines. */
export interface LineSpan {
  readonly start: number;
  readonly end: number;
}

export type AnchorRegion =
  | { readonly kind: 'line'; readonly start: number; readonly count: number }
  | { readonly kind: 'txt'; readonly offset: number; readonly length: number };

export interface CommentPlace extends LineSpan {
  /** How the place was found: the anchor, the quoted text (the anchor was missing, unreadable or stale), or neither. */
  readonly via: 'anchor' | 'quote' | 'top';
}

export interface CommentContext {
  readonly type?: string | undefined;
  readonly value?: string | undefined;
}

/** The longest quote Desk keeps with a comment: enough to find the place again, far below the API's 30,000. */
export const MAX_QUOTE_LENGTH = 1000;

/** The anchor of a comment on lines `span` (0-based) of a file of `lineCount` lines. */
export function lineAnchor(span: LineSpan, lineCount: number): string {
  const start = Math.max(0, Math.floor(span.start));
  const end = Math.max(start, Math.floor(span.end));
  return JSON.stringify({ r: 'head', a: [{ line: { n: start + 1, l: end - start + 1, ml: Math.max(lineCount, end + 1) } }] });
}

/** The context Desk sends with a comment: the commented text itself, as plain text. */
export function quoteContext(text: string): { type: string; value: string } {
  return { type: 'text/plain', value: text.length > MAX_QUOTE_LENGTH ? text.slice(0, MAX_QUOTE_LENGTH) : text };
}

/** The first line or text region of an anchor; undefined when there is none or the string is not an anchor. */
export function parseAnchor(anchor: string | undefined): AnchorRegion | undefined {
  if (anchor === undefined || anchor.trim() === '') return undefined;
  const parsed = parseLenient(anchor);
  if (!isRecord(parsed)) return undefined;
  const regions = Array.isArray(parsed.a) ? parsed.a : parsed.a !== undefined ? [parsed.a] : [];
  for (const region of regions) {
    if (!isRecord(region)) continue;
    if (isRecord(region.line)) {
      const start = wholeNumber(region.line.n);
      if (start === undefined || start < 1) continue;
      const count = wholeNumber(region.line.l);
      return { kind: 'line', start: start - 1, count: count !== undefined && count > 0 ? count : 1 };
    }
    if (isRecord(region.txt)) {
      const offset = wholeNumber(region.txt.o);
      if (offset === undefined || offset < 0) continue;
      const length = wholeNumber(region.txt.l);
      return { kind: 'txt', offset, length: length !== undefined && length > 0 ? length : 0 };
    }
  }
  return undefined;
}

/** The quoted text of a comment's context as plain text (HTML contexts, as Google Docs gives them, are unwrapped). */
export function quoteOf(context: CommentContext | undefined): string | undefined {
  const value = context?.value;
  if (value === undefined) return undefined;
  const text = /html/i.test(context?.type ?? '') ? htmlToText(value) : value;
  const normalized = withoutOuterNewlines(normalizeNewlines(text));
  return normalized.trim() === '' ? undefined : normalized;
}

/** The lines a comment is shown at in `text` (see the header for the rules). */
export function placeComment(comment: PlacedComment, text: string): CommentPlace {
  return commentPlacer(text)(comment);
}

/** What places a comment: its anchor and the text it quotes. */
export type PlacedComment = { readonly anchor?: string | undefined; readonly context?: CommentContext | undefined };

/**
 * placeComment for many comments of one text: the line breaks are normalized and the lines found once, not once per
 * comment (5,000 comments on a 1 MB document took 12 s at each layout).
 */
export function commentPlacer(text: string): (comment: PlacedComment) => CommentPlace {
  const body = normalizeNewlines(text);
  const lineStarts = lineStartsOf(body);
  return (comment) => placeInBody(comment, body, lineStarts);
}

function placeInBody(comment: PlacedComment, body: string, lineStarts: readonly number[]): CommentPlace {
  const lastLine = lineStarts.length - 1;
  const anchored = spanOf(parseAnchor(comment.anchor), body, lineStarts);
  const quote = quoteOf(comment.context);
  const found = quote === undefined ? [] : occurrences(body, quote).map((index) => ({ start: lineAt(lineStarts, index), end: lineAt(lineStarts, index + Math.max(quote.length - 1, 0)) }));
  if (anchored) {
    const span = { start: anchored.start, end: Math.min(anchored.end, lastLine) };
    // The quote is not where the anchor points but is elsewhere: the text moved, follow it.
    if (found.length > 0 && !found.some((place) => place.start <= span.end && place.end >= span.start)) return { ...nearest(found, span.start), via: 'quote' };
    return { ...span, via: 'anchor' };
  }
  if (found.length > 0) return { ...(found[0] as LineSpan), via: 'quote' };
  return { start: 0, end: 0, via: 'top' };
}

/** A one-line excerpt: whitespace collapsed, cut at `max` characters with an ellipsis. */
export function excerpt(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, Math.max(1, max - 1)).trimEnd()}…` : line;
}

// ---- helpers

function spanOf(region: AnchorRegion | undefined, body: string, lineStarts: readonly number[]): LineSpan | undefined {
  if (!region) return undefined;
  if (region.kind === 'line') {
    if (region.start >= lineStarts.length) return undefined;
    return { start: region.start, end: region.start + region.count - 1 };
  }
  if (region.offset > body.length) return undefined;
  const start = lineAt(lineStarts, region.offset);
  return { start, end: lineAt(lineStarts, Math.min(body.length, region.offset + Math.max(region.length - 1, 0))) };
}

function nearest(places: readonly LineSpan[], line: number): LineSpan {
  return places.reduce((best, place) => (Math.abs(place.start - line) < Math.abs(best.start - line) ? place : best));
}

function occurrences(body: string, quote: string, limit = 1000): number[] {
  const found: number[] = [];
  for (let index = body.indexOf(quote); index >= 0 && found.length < limit; index = body.indexOf(quote, index + 1)) found.push(index);
  return found;
}

function lineStartsOf(body: string): number[] {
  const starts = [0];
  for (let index = body.indexOf('\n'); index >= 0; index = body.indexOf('\n', index + 1)) starts.push(index + 1);
  return starts;
}

/** The 0-based line holding character `offset` (binary search over the line starts). */
function lineAt(lineStarts: readonly number[], offset: number): number {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((lineStarts[middle]) <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * The text without its leading and trailing line breaks, as replace(/^\n+|\n+$/g, '') gives it: that form rescanned
 * the rest of a run of line breaks from each one (100 KB of them between two letters held the extension host for
 * minutes).
 */
function withoutOuterNewlines(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === '\n') start++;
  while (end > start && text[end - 1] === '\n') end--;
  return text.slice(start, end);
}

/** CRLF and lone CR count as one line break, as in VS Code's text model. */
function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

function htmlToText(html: string): string {
  return withoutTags(html.replace(/<br\s*\/?>/gi, '\n'))
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity: string, name: string) => {
      if (name.startsWith('#')) {
        const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
        return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
      }
      return NAMED_ENTITIES[name.toLowerCase()] ?? entity;
    });
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** JSON, or the single-quoted, trailing-comma form Google's own anchor examples are written in. */
function parseLenient(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    try {
      return JSON.parse(text.replace(/'/g, '"').replace(/,\s*([}\]])/g, '$1'));
    } catch {
      return undefined;
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function wholeNumber(value: unknown): number | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) ? number : undefined;
}
