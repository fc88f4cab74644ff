/** Native documents' text: imports into Docs, Sheets and Slides, and exports to the formats about.get announces. */
import { GOOGLE_DOC_MIME_TYPE, GOOGLE_SHEET_MIME_TYPE, GOOGLE_SLIDES_MIME_TYPE } from '../../../shared/schemas/drive';
import { ApiError } from '../../core/errors';
import { escapeHtml } from '../../core/html';
import { withoutTags } from '../../../shared/html';

/**
 * Native Google documents in the emulator keep their content as text: a Doc or a presentation as plain
 * text, a Sheet as CSV. Imports (convert=true, or content uploaded with a native mimeType) turn text, HTML,
 * Markdown or CSV into that text; exports render it into the formats announced by about.get.
 */

export const IMPORT_FORMATS: Readonly<Record<string, string>> = {
  'text/plain': GOOGLE_DOC_MIME_TYPE,
  'text/markdown': GOOGLE_DOC_MIME_TYPE,
  'text/html': GOOGLE_DOC_MIME_TYPE,
  'text/csv': GOOGLE_SHEET_MIME_TYPE,
  'text/tab-separated-values': GOOGLE_SHEET_MIME_TYPE,
};

export const EXPORT_FORMATS: Readonly<Partial<Record<string, readonly string[]>>> = {
  [GOOGLE_DOC_MIME_TYPE]: ['text/plain', 'text/html', 'text/markdown'],
  [GOOGLE_SHEET_MIME_TYPE]: ['text/csv', 'text/tab-separated-values', 'text/html'],
  [GOOGLE_SLIDES_MIME_TYPE]: ['text/plain'],
};

/** Google's cap on exported content. */
export const EXPORT_LIMIT_BYTES = 10 * 1024 * 1024;

/** The native type an upload of `sourceMimeType` becomes with convert=true; undefined when there is none. */
export function importTarget(sourceMimeType: string): string | undefined {
  return IMPORT_FORMATS[baseMimeType(sourceMimeType)];
}

export function baseMimeType(mimeType: string): string {
  return (mimeType.split(';')[0] ?? '').trim().toLowerCase();
}

/** Converts uploaded bytes into the stored text of a native document of type `target`. */
export function importContent(sourceMimeType: string, bytes: Buffer, target: string): string {
  const source = baseMimeType(sourceMimeType);
  const text = bytes.toString('utf8');
  if (target === GOOGLE_SHEET_MIME_TYPE) {
    if (source === 'text/tab-separated-values') return text.split(/\r?\n/).map((line) => line.split('\t').map(csvCell).join(',')).join('\n');
    return text;
  }
  if (source === 'text/html') return htmlToText(text);
  return text;
}

/**
 * Exporting a file that is not a Docs Editors document. Drive v3 answers 403 `fileNotExportable`; v2, whose
 * discovery document describes export for Google Workspace documents only, answers it as a bad request: 400
 * `badRequest`, as a suite recorded against real v2.
 */
export function notExportable(): ApiError {
  return new ApiError(400, 'badRequest', 'Export only supports Docs Editors files.', { location: 'fileId', locationType: 'parameter' });
}

/** Renders a native document's stored text as `target`; unsupported targets are 400 as on Google. */
export function exportContent(nativeMimeType: string, title: string, text: string, target: string): { body: Buffer; contentType: string } {
  const formats = EXPORT_FORMATS[nativeMimeType];
  if (!formats) throw notExportable();
  const wanted = baseMimeType(target);
  if (!formats.includes(wanted)) {
    throw new ApiError(400, 'badRequest', `The requested conversion is not supported. Export formats for ${nativeMimeType}: ${formats.join(', ')}`, { location: 'mimeType', locationType: 'parameter' });
  }
  let body: string;
  if (nativeMimeType === GOOGLE_SHEET_MIME_TYPE) {
    const rows = parseCsv(text);
    if (wanted === 'text/csv') body = text;
    else if (wanted === 'text/tab-separated-values') body = rows.map((row) => row.map((cell) => cell.replace(/[\t\n]/g, ' ')).join('\t')).join('\n');
    else body = htmlPage(title, `<table>${rows.map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`).join('')}</table>`);
  } else if (wanted === 'text/html') {
    body = htmlPage(title, text.split(/\r?\n/).map((line) => `<p>${escapeHtml(line)}</p>`).join(''));
  } else {
    body = text;
  }
  const encoded = Buffer.from(body, 'utf8');
  if (encoded.length > EXPORT_LIMIT_BYTES) throw new ApiError(403, 'exportSizeLimitExceeded', 'This file is too large to be exported.');
  return { body: encoded, contentType: `${wanted}; charset=utf-8` };
}

function htmlPage(title: string, body: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`;
}

function csvCell(cell: string): string {
  return /[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/**
 * Text of an HTML document: block ends become line breaks, tags go, entities are decoded. Linear in the document:
 * the one-regex forms (`<(script|style|head)[\s\S]*?<\/\1>`, `<[^>]*>`) rescanned the rest of the document from
 * every `<` that had no end, which held the event loop for hours on a 10 MB upload of `<script` (80 KB of `<`: 2 s).
 */
export function htmlToText(html: string): string {
  return withoutTags(withoutBlocks(html).replace(/<br\s*\/?>/gi, '\n').replace(/<\/(p|div|h[1-6]|li|tr)>/gi, '\n'))
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const BLOCK_OPENING = /<(script|style|head)/gi;
const BLOCK_CLOSINGS: Readonly<Record<string, RegExp>> = { script: /<\/script>/gi, style: /<\/style>/gi, head: /<\/head>/gi };

/** Drops script, style and head elements with their content; an opening without a closing after it stays. */
function withoutBlocks(html: string): string {
  const kept: string[] = [];
  // Element names with no closing after the position they were last looked for: every later opening stays too.
  const unclosed = new Set<string>();
  let copiedUpTo = 0;
  BLOCK_OPENING.lastIndex = 0;
  for (let opening = BLOCK_OPENING.exec(html); opening; opening = BLOCK_OPENING.exec(html)) {
    const name = (opening[1]).toLowerCase();
    if (unclosed.has(name)) {
      BLOCK_OPENING.lastIndex = opening.index + 1;
      continue;
    }
    const closing = BLOCK_CLOSINGS[name];
    closing.lastIndex = opening.index + opening[0].length;
    const found = closing.exec(html);
    if (!found) {
      unclosed.add(name);
      BLOCK_OPENING.lastIndex = opening.index + 1;
      continue;
    }
    kept.push(html.slice(copiedUpTo, opening.index));
    copiedUpTo = found.index + found[0].length;
    BLOCK_OPENING.lastIndex = copiedUpTo;
  }
  kept.push(html.slice(copiedUpTo));
  return kept.join('');
}

/** RFC 4180 CSV rows (quoted cells may hold commas, quotes and newlines). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') {
        quoted = false;
      } else {
        cell += char;
      }
    } else if (char === '"' && cell === '') {
      quoted = true;
    } else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else {
      cell += char;
    }
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}
