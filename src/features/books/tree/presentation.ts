/**
 * Words and markdown for the Bookshelves view and the `desk-book:` details documents, kept out of the provider so
 * they are unit-tested. Text from the service goes through `escapeMarkdown` (a title like "[x](command:…)" must show
 * as typed), Google's HTML descriptions become plain text, and only http(s) links are ever rendered as links.
 */
import type { Bookshelf, Volume } from '../../../shared/schemas/books';
import type { BooksNode } from './model';
import { escapeMarkdown } from '../../../core/text/markdown';
import { formatDateTime, formatDay, writeTimestamp } from '../../../core/text/clock';

import { withoutTags } from '../../../shared/html';
import { english, type Translate } from '../../../shared/l10n';

/** The shared translator, re-exported for the Books modules: `vs.l10n.t` in the extension, `english` in unit tests. */
export { english, type Translate };

/** Google's descriptions are HTML with b, i, br and p: paragraphs kept, every tag dropped, entities decoded. */
export function htmlToText(html: string): string {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
  return withoutTags(html.replace(/<\s*br\s*\/?>/gi, '\n').replace(/<\s*\/\s*p\s*>/gi, '\n\n'))
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (match, entity: string) => {
      if (entity.startsWith('#x') || entity.startsWith('#X')) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
      if (entity.startsWith('#')) return String.fromCodePoint(Number(entity.slice(1)));
      return entities[entity.toLowerCase()] ?? match;
    })
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A link target only when it is a plain web address (a service could send `command:` or `javascript:`). */
export function safeLink(url: string | undefined): string | undefined {
  if (!url || !/^https?:\/\//i.test(url)) return undefined;
  return url.replace(/[()\s<>]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

// ---- shelves

export function shelfLabel(shelf: Pick<Bookshelf, 'id' | 'title'>, t: Translate = english): string {
  return shelf.title.trim() === '' ? t('Shelf {0}', shelf.id) : shelf.title;
}

export function volumeCountText(count: number | undefined, t: Translate = english): string | undefined {
  if (count === undefined) return undefined;
  return count === 1 ? t('1 volume') : t('{0} volumes', count);
}

export function accessText(access: string | undefined, t: Translate = english): string | undefined {
  if (access === 'PUBLIC') return t('public');
  if (access === 'PRIVATE') return t('private');
  return access?.toLowerCase();
}

/**
 * The row's grey text: how many volumes and who can see it. Whether Google keeps the shelf is the row's lock icon and
 * the first line of its hover (as words here it pushed the access out of a narrow side bar).
 */
export function shelfDescription(shelf: Bookshelf, t: Translate = english): string {
  return [volumeCountText(shelf.volumeCount, t), accessText(shelf.access, t)].filter((part): part is string => Boolean(part)).join(' · ');
}

export function shelfTooltip(shelf: Bookshelf, options: { mine: boolean; writable: boolean; owner: string; day?: (ms: number) => string }, t: Translate = english): string {
  const lines = [`**${escapeMarkdown(shelfLabel(shelf, t))}**`, ''];
  if (options.mine && !options.writable) lines.push(escapeMarkdown(t('Read-only: Google Books fills this shelf.')), '');
  if (shelf.description?.trim()) lines.push(escapeMarkdown(shelf.description.trim()), '');
  lines.push(escapeMarkdown(shelfDescription(shelf, t)));
  if (!options.mine) lines.push('', escapeMarkdown(t('Public shelf of user {0} (read-only)', options.owner)));
  if (shelf.volumesLastUpdated) lines.push('', escapeMarkdown(t('Volumes last changed {0}', writeTimestamp(shelf.volumesLastUpdated, options.day ?? ((ms) => formatDay(ms, 'UTC'))))));
  return lines.join('  \n');
}

/** "Shelf details" (mylibrary.bookshelves.get or bookshelves.get) as a read-only markdown page. */
export function shelfDetailsMarkdown(shelf: Bookshelf, options: { mine: boolean; writable: boolean; owner: string; when?: (ms: number) => string }, t: Translate = english): string {
  // Moments as core/text/clock.ts writes them (the Calendar zone, 24-hour); UTC when no clock is given (tests).
  const when = options.when ?? ((ms: number) => formatDateTime(ms, 'UTC'));
  const moment = (value: string | undefined): string => {
    const ms = value ? Date.parse(value) : Number.NaN;
    return Number.isNaN(ms) ? (value ?? '—') : when(ms);
  };
  const lines = [`# ${escapeMarkdown(shelfLabel(shelf, t))}`, ''];
  if (shelf.description?.trim()) lines.push(escapeMarkdown(shelf.description.trim()), '');
  const rows: Array<[string, string]> = [
    [t('Shelf id'), String(shelf.id)],
    [t('Library'), options.mine ? t('My Library') : escapeMarkdown(t('User {0}', options.owner))],
    [t('Volumes'), String(shelf.volumeCount ?? '—')],
    [t('Access'), escapeMarkdown(accessText(shelf.access, t) ?? '—')],
    [t('Changes'), escapeMarkdown(options.mine ? (options.writable ? t('Yours to change') : t('Read-only (filled by Google Books)')) : t('Read-only (another user\'s shelf)'))],
    [t('Created'), escapeMarkdown(moment(shelf.created))],
    [t('Updated'), escapeMarkdown(moment(shelf.updated))],
    [t('Volumes last changed'), escapeMarkdown(moment(shelf.volumesLastUpdated))],
  ];
  lines.push(`| ${t('Field')} | ${t('Value')} |`, '|---|---|', ...rows.map(([field, value]) => `| ${field} | ${value} |`), '');
  return lines.join('\n');
}

// ---- volumes

export function volumeLabel(volume: Volume, t: Translate = english): string {
  const title = volume.volumeInfo.title?.trim();
  return title ? title : t('(untitled volume {0})', volume.id);
}

/** "A", "A and B", "A, B and 2 more". */
export function authorsText(authors: readonly string[] | undefined, t: Translate = english): string | undefined {
  const names = (authors ?? []).map((name) => name.trim()).filter(Boolean);
  if (names.length === 0) return undefined;
  if (names.length === 1) return names[0];
  if (names.length === 2) return t('{0} and {1}', names[0], names[1]);
  return t('{0}, {1} and {2} more', names[0], names[1], names.length - 2);
}

/** The year of Google's `YYYY`, `YYYY-MM` or `YYYY-MM-DD`. */
export function yearOf(publishedDate: string | undefined): string | undefined {
  return /^\d{3,4}/.exec(publishedDate?.trim() ?? '')?.[0];
}

export function pagesText(pageCount: number | undefined, t: Translate = english): string | undefined {
  if (pageCount === undefined || pageCount <= 0) return undefined;
  return pageCount === 1 ? t('1 page') : t('{0} pages', pageCount);
}

/** The row's grey text: authors · year · pages. */
export function volumeDescription(volume: Volume, t: Translate = english): string {
  const info = volume.volumeInfo;
  return [authorsText(info.authors, t), yearOf(info.publishedDate), pagesText(info.pageCount, t)].filter(Boolean).join(' · ');
}

function identifierRows(volume: Volume, t: Translate = english): string[] {
  return (volume.volumeInfo.industryIdentifiers ?? [])
    .filter((entry) => entry.identifier)
    .map((entry) => `${escapeMarkdown(identifierKind(entry.type, t))}: ${escapeMarkdown(entry.identifier ?? '')}`);
}

/**
 * What an identifier is, in words: ISBN-13, ISBN-10, ISSN; Google's OTHER is a library's or a scan's own catalogue
 * number ("UOM:39015…" for a Michigan scan), which is what a reader is told.
 */
export function identifierKind(type: string | undefined, t: Translate = english): string {
  switch (type) {
    case 'ISBN_13': return 'ISBN-13';
    case 'ISBN_10': return 'ISBN-10';
    case 'ISSN': return 'ISSN';
    case 'OTHER': case undefined: return t('Catalogue number');
    default: return type.replace(/_/g, '-');
  }
}

/** Google's print type in words: a book or a magazine. */
export function printTypeWords(printType: string | undefined, t: Translate = english): string | undefined {
  switch (printType) {
    case undefined: return undefined;
    case 'BOOK': return t('Book');
    case 'MAGAZINE': return t('Magazine');
    default: return printType;
  }
}

/** How much of the book Google lets one read (accessInfo.viewability). */
export function viewabilityWords(viewability: string | undefined, t: Translate = english): string | undefined {
  switch (viewability) {
    case undefined: case 'UNKNOWN': return undefined;
    case 'ALL_PAGES': return t('Full view: every page can be read');
    case 'PARTIAL': return t('Preview: some pages can be read');
    case 'NO_PAGES': return t('No preview');
    default: return viewability;
  }
}

/** Whether and how Google sells it (saleInfo.saleability). */
export function saleabilityWords(saleability: string | undefined, t: Translate = english): string | undefined {
  switch (saleability) {
    case undefined: return undefined;
    case 'FOR_SALE': return t('For sale');
    case 'FREE': return t('Free');
    case 'NOT_FOR_SALE': return t('Not for sale');
    case 'FOR_PREORDER': return t('Available to pre-order');
    case 'FOR_SALE_AND_RENTAL': return t('For sale or rent');
    case 'FOR_RENTAL_ONLY': return t('For rent only');
    default: return saleability;
  }
}

/** A language code ("en", "fr") as its name in the reader's language ("English", "French"). */
export function languageWords(code: string | undefined, locale?: string): string | undefined {
  if (!code) return undefined;
  try {
    return new Intl.DisplayNames(locale ? [locale, 'en'] : undefined, { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The hover of a volume row (built lazily in resolveTreeItem): the essentials and the start of the description. */
export function volumeTooltip(volume: Volume, t: Translate = english): string {
  const info = volume.volumeInfo;
  const lines = [`**${escapeMarkdown(volumeLabel(volume, t))}**${info.subtitle ? ` — ${escapeMarkdown(info.subtitle)}` : ''}`, ''];
  const authors = authorsText(info.authors, t);
  if (authors) lines.push(escapeMarkdown(t('by {0}', authors)));
  const published = [info.publisher, info.publishedDate].filter(Boolean).join(', ');
  if (published) lines.push(escapeMarkdown(published));
  const pages = pagesText(info.pageCount, t);
  if (pages) lines.push(pages);
  if (info.categories?.length) lines.push(escapeMarkdown(info.categories.join(' · ')));
  lines.push(...identifierRows(volume, t));
  if (info.description) {
    const text = htmlToText(info.description);
    lines.push('', escapeMarkdown(text.length > 400 ? `${text.slice(0, 399).trimEnd()}…` : text));
  }
  return lines.join('  \n');
}

/** "Volume details" (volumes.get) as a read-only markdown page: description, identifiers, categories, publisher, date, links. */
export function volumeDetailsMarkdown(volume: Volume, t: Translate = english, locale?: string): string {
  const info = volume.volumeInfo;
  const lines = [`# ${escapeMarkdown(volumeLabel(volume, t))}`, ''];
  if (info.subtitle) lines.push(`_${escapeMarkdown(info.subtitle)}_`, '');
  if (info.authors?.length) lines.push(escapeMarkdown(t('by {0}', info.authors.join(', '))), '');
  const sale = volume.saleInfo;
  const price = sale?.retailPrice ?? sale?.listPrice;
  const rows: Array<[string, string | undefined]> = [
    [t('Publisher'), info.publisher],
    [t('Published'), info.publishedDate],
    [t('Pages'), info.pageCount !== undefined ? String(info.pageCount) : undefined],
    [t('Language'), languageWords(info.language, locale)],
    [t('Kind'), printTypeWords(info.printType, t)],
    [t('Categories'), info.categories?.join(' · ')],
    [t('Rating'), info.averageRating !== undefined ? t('{0} / 5 ({1} ratings)', info.averageRating, info.ratingsCount ?? 0) : undefined],
    [t('eBook'), sale?.isEbook === undefined ? undefined : sale.isEbook ? t('yes') : t('no')],
    [t('Sale'), [saleabilityWords(sale?.saleability, t), price?.amount !== undefined ? priceWords(price.amount, price.currencyCode, locale) : undefined].filter(Boolean).join(', ') || undefined],
    [t('Reading'), viewabilityWords(volume.accessInfo?.viewability, t)],
    [t('Google Books id'), volume.id],
  ];
  lines.push(`| ${t('Field')} | ${t('Value')} |`, '|---|---|', ...rows.map(([field, value]) => `| ${field} | ${value ? escapeMarkdown(value) : '—'} |`), '');
  const identifiers = identifierRows(volume, t);
  lines.push(`## ${t('Identifiers')}`, '', ...(identifiers.length ? identifiers.map((row) => `- ${row}`) : [`_${t('None given.')}_`]), '');
  lines.push(`## ${t('Description')}`, '');
  lines.push(info.description ? htmlToText(info.description).split('\n').map((line) => `${escapeMarkdown(line)}  `).join('\n') : `_${t('No description.')}_`, '');
  const links: Array<[string, string | undefined]> = [
    [t('More about this book'), safeLink(info.infoLink ?? info.canonicalVolumeLink)],
    [t('Preview'), safeLink(info.previewLink)],
    [t('Read'), safeLink(volume.accessInfo?.webReaderLink)],
    [t('Buy'), safeLink(sale?.buyLink)],
  ];
  const shown = links.filter((entry): entry is [string, string] => entry[1] !== undefined);
  if (shown.length > 0) lines.push(`## ${t('Links')}`, '', ...shown.map(([title, url]) => `- [${escapeMarkdown(title)}](${url})`), '');
  return lines.join('\n');
}

/** A price as the reader's locale writes it ("£4.99"), or the bare figures when the currency is unknown. */
function priceWords(amount: number, currencyCode: string | undefined, locale?: string): string {
  if (!currencyCode) return String(amount);
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: currencyCode }).format(amount);
  } catch {
    return `${amount} ${currencyCode}`;
  }
}

// ---- menus

/** The words menus match on (`viewItem =~ /\bwritable\b/`): kind first, then whose, then what may change. */
export function contextValueFor(node: BooksNode): string {
  switch (node.kind) {
    case 'library': return `booksLibrary ${node.mine ? 'mine' : 'public'}`;
    case 'shelf': return ['bookshelf', node.parent.mine ? 'mine' : 'public', node.writable ? 'writable' : 'readonly', (node.shelf.volumeCount ?? 1) > 0 ? 'nonEmpty' : 'empty'].join(' ');
    case 'volume': return ['volume', node.parent.parent.mine ? 'mine' : 'public', node.parent.writable ? 'writable' : 'readonly'].join(' ');
    case 'loadMore': return 'booksLoadMore';
    case 'message': return node.key === 'error' ? 'booksMessage error' : 'booksMessage';
  }
}
