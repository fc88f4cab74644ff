/** Turns catalogue volumes and stored shelves into the Books v1 JSON resources (typed by the shared schemas; links use the client's base URL). */
import type { AccessInfo, Bookshelf, Bookshelves, IndustryIdentifier, Projection, SaleInfo, Volume, VolumeInfo, Volumes } from '../../shared/schemas/books';
import { escapeHtml } from '../core/html';
import type { CatalogueVolume } from './catalogue';
import type { StoredShelf } from './model';

const enc = encodeURIComponent;
/** Sale and access facts are for one country; the emulator answers as Google does for a US client. */
const COUNTRY = 'US';

export interface VolumeRenderOptions {
  readonly baseUrl: string;
  readonly projection: Projection;
  /** searchInfo.textSnippet, only for search results. */
  readonly textSnippet?: string;
}

/** The emulator's page for a volume: the target of infoLink, previewLink and the other browser links. */
export function volumePageUrl(baseUrl: string, volumeId: string): string {
  return `${baseUrl}/emulator/v1/books/volumes/${enc(volumeId)}`;
}

/** ISBNs as Google lists them (13 first); a book without one gets an OTHER identifier, as Google gives its own scans. */
function industryIdentifiers(volume: CatalogueVolume): IndustryIdentifier[] {
  const identifiers: IndustryIdentifier[] = [];
  if (volume.record.isbn13) identifiers.push({ type: 'ISBN_13', identifier: volume.record.isbn13 });
  if (volume.record.isbn10) identifiers.push({ type: 'ISBN_10', identifier: volume.record.isbn10 });
  if (identifiers.length === 0) identifiers.push({ type: 'OTHER', identifier: `DESK:${volume.id}` });
  return identifiers;
}

function volumeInfo(volume: CatalogueVolume, baseUrl: string, projection: Projection): VolumeInfo {
  const { record } = volume;
  const page = volumePageUrl(baseUrl, volume.id);
  // `lite` keeps exactly the volumeInfo fields the discovery document marks "(In LITE projection)".
  const lite: VolumeInfo = {
    title: record.title,
    ...(record.subtitle ? { subtitle: record.subtitle } : {}),
    authors: [...record.authors],
    ...(record.publisher ? { publisher: record.publisher } : {}),
    publishedDate: record.publishedDate,
    description: record.description,
    contentVersion: '1.0.0.0.preview.0',
    infoLink: page,
    canonicalVolumeLink: page,
  };
  if (projection === 'lite') return lite;
  return {
    title: lite.title,
    ...(record.subtitle ? { subtitle: record.subtitle } : {}),
    authors: lite.authors,
    ...(record.publisher ? { publisher: record.publisher } : {}),
    publishedDate: record.publishedDate,
    description: record.description,
    industryIdentifiers: industryIdentifiers(volume),
    readingModes: { text: volume.viewability !== 'NO_PAGES', image: volume.viewability !== 'NO_PAGES' },
    ...(record.pageCount !== undefined ? { pageCount: record.pageCount } : {}),
    printType: 'BOOK',
    categories: [...record.categories],
    maturityRating: 'NOT_MATURE',
    allowAnonLogging: false,
    contentVersion: lite.contentVersion,
    language: record.language,
    previewLink: `${page}?preview=true`,
    infoLink: page,
    canonicalVolumeLink: page,
  };
}

function saleInfo(volume: CatalogueVolume, baseUrl: string, projection: Projection): SaleInfo {
  const price = volume.price === undefined ? undefined : { amount: volume.price, currencyCode: 'USD' };
  const lite: SaleInfo = {
    country: COUNTRY,
    ...(price ? { listPrice: price, retailPrice: price, buyLink: `${volumePageUrl(baseUrl, volume.id)}?buy=true` } : {}),
  };
  if (projection === 'lite') return lite;
  return { country: COUNTRY, saleability: volume.saleability, isEbook: volume.isEbook, ...lite };
}

function accessInfo(volume: CatalogueVolume, baseUrl: string, projection: Projection): AccessInfo {
  const accessViewStatus = volume.record.publicDomain ? 'FULL_PUBLIC_DOMAIN' : volume.viewability === 'PARTIAL' ? 'SAMPLE' : 'NONE';
  // Public-domain books come as epub and pdf; paid eBooks as an epub to buy; print-only books as neither.
  const lite: AccessInfo = {
    country: COUNTRY,
    epub: { isAvailable: volume.isEbook },
    pdf: { isAvailable: volume.record.publicDomain },
    accessViewStatus,
  };
  if (projection === 'lite') return lite;
  return {
    country: COUNTRY,
    viewability: volume.viewability,
    embeddable: volume.viewability !== 'NO_PAGES',
    publicDomain: volume.record.publicDomain,
    textToSpeechPermission: 'ALLOWED',
    epub: lite.epub,
    pdf: lite.pdf,
    webReaderLink: `${volumePageUrl(baseUrl, volume.id)}?read=true`,
    accessViewStatus,
    quoteSharingAllowed: false,
  };
}

export function renderVolume(volume: CatalogueVolume, options: VolumeRenderOptions): Volume {
  const { baseUrl, projection } = options;
  return {
    kind: 'books#volume',
    id: volume.id,
    etag: volume.etag,
    selfLink: `${baseUrl}/books/v1/volumes/${enc(volume.id)}`,
    volumeInfo: volumeInfo(volume, baseUrl, projection),
    saleInfo: saleInfo(volume, baseUrl, projection),
    accessInfo: accessInfo(volume, baseUrl, projection),
    ...(options.textSnippet !== undefined ? { searchInfo: { textSnippet: options.textSnippet } } : {}),
  };
}

/** A page of volumes; Google leaves `items` out when the page is empty but always says how many there are. */
export function renderVolumes(totalItems: number, items: readonly Volume[]): Volumes {
  return { kind: 'books#volumes', totalItems, ...(items.length > 0 ? { items: [...items] } : {}) };
}

/**
 * A shelf. `selfLink` names the path it was read through (mylibrary or users/{id}); volumeCount counts the volumes
 * the catalogue still has, so it always equals what the shelf's volume listing reports as totalItems.
 */
export function renderBookshelf(shelf: StoredShelf, selfLink: string, volumeCount: number): Bookshelf {
  return {
    kind: 'books#bookshelf',
    id: shelf.id,
    selfLink,
    title: shelf.title,
    ...(shelf.description ? { description: shelf.description } : {}),
    access: shelf.access,
    updated: new Date(shelf.updated).toISOString(),
    created: new Date(shelf.created).toISOString(),
    volumeCount,
    volumesLastUpdated: new Date(shelf.volumesLastUpdated).toISOString(),
  };
}

export function renderBookshelves(items: readonly Bookshelf[]): Bookshelves {
  return { kind: 'books#bookshelves', items: [...items] };
}

/** Where infoLink, previewLink and the other browser links of a volume lead: the catalogue entry as a page. */
export function renderVolumePage({ record }: CatalogueVolume): string {
  const byline = `${record.authors.join(', ')}${record.publisher ? ` · ${record.publisher}` : ''} · ${record.publishedDate}`;
  return `<!doctype html><meta charset="utf-8"><title>${escapeHtml(record.title)}</title><h1>${escapeHtml(record.title)}</h1>${record.subtitle ? `<h2>${escapeHtml(record.subtitle)}</h2>` : ''}<p>${escapeHtml(byline)}</p><p>${escapeHtml(record.description)}</p><p><small>Desk emulator catalogue entry; the emulator has no book contents to read or buy.</small></p>`;
}
