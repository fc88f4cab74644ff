/** How a Drive file looks in the tree: icon, kind label, sizes, description and tooltip lines (pure; words through `t`). */
import { english, Translate } from '../../../shared/l10n';
import { FOLDER_MIME_TYPE, isFolder, isNative } from '../../../shared/schemas/drive';
import type { DriveItem } from '../port';
import { escapeMarkdown } from '../../../core/text/markdown';
import { mergeSorted } from '../../../shared/sorted';

/** The codicon for a file, by MIME type (pure: the tree wraps it in a ThemeIcon). */
export function iconIdFor(item: Pick<DriveItem, 'mimeType' | 'title'>): string {
  const mime = item.mimeType ?? '';
  switch (mime) {
    case FOLDER_MIME_TYPE: return 'folder';
    case 'application/vnd.google-apps.document': return 'note';
    case 'application/vnd.google-apps.spreadsheet': return 'table';
    case 'application/vnd.google-apps.presentation': return 'preview';
    case 'application/vnd.google-apps.drawing': return 'paintcan';
    case 'application/vnd.google-apps.form': return 'checklist';
    case 'application/vnd.google-apps.shortcut': return 'link';
    case 'application/pdf': return 'file-pdf';
    case 'application/zip':
    case 'application/x-tar':
    case 'application/gzip':
    case 'application/x-7z-compressed': return 'file-zip';
    case 'application/json':
    case 'application/javascript':
    case 'application/typescript':
    case 'application/xml':
    case 'text/html':
    case 'text/css':
    case 'text/x-python':
    case 'application/x-sh': return 'file-code';
    default: break;
  }
  if (mime.startsWith('image/') || mime.startsWith('video/') || mime.startsWith('audio/')) return 'file-media';
  if (mime.startsWith('application/vnd.google-apps.')) return 'file';
  if (/\.(ts|tsx|js|jsx|json|py|go|rs|java|c|cc|cpp|h|cs|rb|php|sh|yaml|yml|toml|xml|html|css|md)$/i.test(item.title ?? '')) return 'file-code';
  if (mime.startsWith('text/')) return 'file-text';
  return 'file';
}

/** What a file is, in words for the hover and the details page ("Plain text", "PNG image"), not its MIME type. */
export function kindLabel(mimeType: string | undefined, t: Translate = english): string {
  switch (mimeType) {
    case FOLDER_MIME_TYPE: return t('Folder');
    case 'application/vnd.google-apps.document': return t('Google Doc');
    case 'application/vnd.google-apps.spreadsheet': return t('Google Sheet');
    case 'application/vnd.google-apps.presentation': return t('Google Slides');
    case 'application/vnd.google-apps.drawing': return t('Google Drawing');
    case 'application/vnd.google-apps.form': return t('Google Form');
    case 'application/vnd.google-apps.shortcut': return t('Shortcut');
    case 'text/plain': return t('Plain text');
    case 'text/markdown': return t('Markdown');
    case 'text/csv': return t('CSV table');
    case 'text/html': return t('Web page (HTML)');
    case 'application/json': return t('JSON');
    case 'application/pdf': return t('PDF document');
    case 'application/zip': return t('ZIP archive');
    case undefined:
    case '':
      return t('File');
    default: break;
  }
  // "image/png" → "PNG image"; other types keep their MIME type, which says more than a guess.
  const [type, subtype = ''] = mimeType.split('/');
  const name = subtype.replace(/^x-/, '').replace(/\+xml$/, '').toUpperCase();
  if (type === 'image' && name) return t('{0} image', name);
  if (type === 'audio' && name) return t('{0} audio', name);
  if (type === 'video' && name) return t('{0} video', name);
  return mimeType;
}

export function formatBytes(bytes: number, t: Translate = english): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  const units = [(n: string) => t('{0} B', n), (n: string) => t('{0} KB', n), (n: string) => t('{0} MB', n), (n: string) => t('{0} GB', n), (n: string) => t('{0} TB', n)];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return units[unit](unit === 0 ? String(value) : value.toFixed(value < 10 ? 1 : 0));
}

/** How a moment reads: core/text/clock.ts's DeskClock (the user's locale and Calendar zone, 24-hour), as in every view. */
export type WriteMoment = (ms: number) => string;

/** The markdown tooltip of a file: built lazily (resolveTreeItem), from metadata the list already carried. */
export function tooltipMarkdown(item: DriveItem, when: WriteMoment, t: Translate = english): string {
  const lines = [`**${escapeMarkdown(item.title ?? item.id)}**`, ''];
  lines.push(t('Kind: {0}', escapeMarkdown(kindLabel(item.mimeType, t))));
  if (!isFolder(item) && !isNative(item) && item.fileSize !== undefined) lines.push(t('Size: {0}', formatBytes(Number(item.fileSize), t)));
  const owner = item.owners?.[0]?.displayName ?? item.ownerNames?.[0];
  if (owner) lines.push(t('Owner: {0}', escapeMarkdown(owner)));
  if (item.modifiedDate) {
    const modified = Date.parse(item.modifiedDate);
    const at = escapeMarkdown(Number.isNaN(modified) ? item.modifiedDate : when(modified));
    lines.push(item.lastModifyingUserName ? t('Modified: {0} by {1}', at, escapeMarkdown(item.lastModifyingUserName)) : t('Modified: {0}', at));
  }
  if (item.labels?.starred) lines.push(t('Starred'));
  if (item.labels?.trashed) lines.push(t('In the trash'));
  if (item.shared) lines.push(t('Shared'));
  return lines.join('  \n');
}

/** The short grey text after the title in the tree. */
export function descriptionFor(item: DriveItem, t: Translate = english): string | undefined {
  if (isFolder(item)) return undefined;
  if (isNative(item)) return kindLabel(item.mimeType, t);
  return item.fileSize !== undefined ? formatBytes(Number(item.fileSize), t) : undefined;
}

/** A listing's items in display order, and the array they were sorted from. */
export interface DisplayOrder {
  readonly of: readonly DriveItem[];
  readonly items: readonly DriveItem[];
}

/**
 * `items` in display order, reusing `kept` (the last render's): rows only appended since (a Load more) are sorted
 * alone and merged in, instead of sorting everything loaded on every click. Any other change (a new array, a row
 * replaced, which drops `kept`) sorts again.
 */
export function displayOrder(items: readonly DriveItem[], kept: DisplayOrder | undefined): DisplayOrder {
  if (kept && kept.of === items && kept.items.length <= items.length) {
    if (kept.items.length === items.length) return kept;
    return { of: items, items: mergeSorted(kept.items, items.slice(kept.items.length).sort(compareItems), compareItems) };
  }
  return { of: items, items: [...items].sort(compareItems) };
}

/** One collator for every comparison: localeCompare with options builds one per call (most of a sort's time). */
const titleCollator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Orders siblings the way Drive's web UI does: folders first, then by title (case-insensitive, numeric-aware). */
export function compareItems(a: DriveItem, b: DriveItem): number {
  const folderOrder = Number(isFolder(b)) - Number(isFolder(a));
  if (folderOrder !== 0) return folderOrder;
  return titleCollator.compare(a.title ?? '', b.title ?? '') || a.id.localeCompare(b.id);
}
