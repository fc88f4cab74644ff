/**
 * The `desk-book:` read-only documents: a volume's details (volumes.get) and a shelf's (mylibrary.bookshelves.get or
 * bookshelves.get), rendered as markdown and shown in the markdown preview where it is installed. The path carries the
 * ids (URI-encoded: a volume id may hold any character) and ends in a readable file name, kept as it is (it becomes
 * the tab's title; the characters a path cannot hold are replaced).
 */
import { errorMessage } from '../../api/errors';
import type { BooksApi } from './port';
import { isWritableShelf } from './port';
import { MY_LIBRARY } from './tree/model';
import { escapeMarkdown } from '../../core/text/markdown';
import { english, shelfDetailsMarkdown, Translate, volumeDetailsMarkdown } from './tree/presentation';

export const BOOK_DETAILS_SCHEME = 'desk-book';

/** A title fit for a file name (the tab label). */
function fileName(title: string): string {
  const cleaned = Array.from(title).map((character) => (character < ' ' || '\\/:*?"<>|#%'.includes(character) ? ' ' : character)).join('').replace(/\s+/g, ' ').trim().slice(0, 80);
  return `${cleaned || 'details'}.md`;
}

export function volumeDetailsPath(volumeId: string, title: string): string {
  return `/volumes/${encodeURIComponent(volumeId)}/${fileName(title)}`;
}

export function shelfDetailsPath(owner: string, shelfId: number, title: string): string {
  return `/shelves/${encodeURIComponent(owner)}/${shelfId}/${fileName(title)}`;
}

export type DetailsTarget =
  | { readonly kind: 'volume'; readonly volumeId: string }
  | { readonly kind: 'shelf'; readonly owner: string; readonly shelfId: number };

export function parseDetailsPath(path: string): DetailsTarget | undefined {
  const parts = path.split('/').filter(Boolean).slice(0, 3).map((part) => decodeURIComponent(part));
  if (parts[0] === 'volumes' && parts[1]) return { kind: 'volume', volumeId: parts[1] };
  if (parts[0] === 'shelves' && parts[1] && /^\d+$/.test(parts[2] ?? '')) return { kind: 'shelf', owner: parts[1], shelfId: Number(parts[2]) };
  return undefined;
}

/** The markdown of a details document; a failure becomes a page that says what went wrong (and is reported). */
export async function detailsDocument(api: BooksApi, path: string, t: Translate = english, locale?: string, when?: (ms: number) => string): Promise<string> {
  const target = parseDetailsPath(path);
  if (!target) return `# ${t('Unknown book details')}\n`;
  if (target.kind === 'volume') return volumeDetailsMarkdown(await api.getVolume(target.volumeId), t, locale);
  const mine = target.owner === MY_LIBRARY;
  const shelf = mine ? await api.getMyBookshelf(target.shelfId) : await api.getUserBookshelf(target.owner, target.shelfId);
  return shelfDetailsMarkdown(shelf, { mine, writable: mine && isWritableShelf(shelf), owner: target.owner, ...(when ? { when } : {}) }, t);
}

export function failedDocument(error: unknown, t: Translate = english): string {
  return `# ${t('Could not load the details')}\n\n${escapeMarkdown(errorMessage(error, t))}\n`;
}
