import * as z from './zod';

/**
 * Google Books API v1 resources (volumes, bookshelves) and the inputs of a volume search, shared by the client
 * (src/api/books.ts) and the emulator (src/emulator/books). Response schemas are tolerant: Google omits many
 * volume fields (a `lite` projection drops most of volumeInfo; shelf listings carry no searchInfo), so nearly
 * everything is optional and unknown fields are stripped. Input schemas are strict: the client checks a search
 * before sending it, with the limits the discovery document gives.
 */

// ---- API constants (books v1 discovery document)

/** volumes.list: maxResults range and default; Books pages by startIndex/totalItems, never by page tokens. */
export const SEARCH_MAX_RESULTS = 40;
export const SEARCH_DEFAULT_MAX_RESULTS = 10;

export const VOLUME_FILTERS = ['ebooks', 'free-ebooks', 'full', 'paid-ebooks', 'partial'] as const;
export type VolumeFilter = (typeof VOLUME_FILTERS)[number];
export const PRINT_TYPES = ['all', 'books', 'magazines'] as const;
export type PrintType = (typeof PRINT_TYPES)[number];
export const ORDER_BY = ['relevance', 'newest'] as const;
export type OrderBy = (typeof ORDER_BY)[number];
/** `lite` keeps only the fields the discovery document marks "(In LITE projection)". */
export const PROJECTIONS = ['full', 'lite'] as const;
export type Projection = (typeof PROJECTIONS)[number];
export const DOWNLOAD_FORMATS = ['epub'] as const;
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];

export const SHELF_ACCESS = ['PUBLIC', 'PRIVATE'] as const;
export type ShelfAccess = (typeof SHELF_ACCESS)[number];

/** Identifier types Google puts in volumeInfo.industryIdentifiers. */
export const INDUSTRY_IDENTIFIER_TYPES = ['ISBN_13', 'ISBN_10', 'ISSN', 'OTHER'] as const;

// ---- Volume

export const industryIdentifierSchema = z.object({
  type: z.optional(z.string()),
  identifier: z.optional(z.string()),
});
export type IndustryIdentifier = z.infer<typeof industryIdentifierSchema>;

export const imageLinksSchema = z.object({
  smallThumbnail: z.optional(z.string()),
  thumbnail: z.optional(z.string()),
  small: z.optional(z.string()),
  medium: z.optional(z.string()),
  large: z.optional(z.string()),
  extraLarge: z.optional(z.string()),
});

export const volumeInfoSchema = z.object({
  title: z.optional(z.string()),
  subtitle: z.optional(z.string()),
  authors: z.optional(z.array(z.string())),
  publisher: z.optional(z.string()),
  /** `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, as Google gives it: not a timestamp. */
  publishedDate: z.optional(z.string()),
  /** HTML (Google allows b, i and br). */
  description: z.optional(z.string()),
  industryIdentifiers: z.optional(z.array(industryIdentifierSchema)),
  readingModes: z.optional(z.object({ text: z.optional(z.boolean()), image: z.optional(z.boolean()) })),
  pageCount: z.optional(z.number()),
  printType: z.optional(z.string()),
  categories: z.optional(z.array(z.string())),
  mainCategory: z.optional(z.string()),
  averageRating: z.optional(z.number()),
  ratingsCount: z.optional(z.number()),
  maturityRating: z.optional(z.string()),
  allowAnonLogging: z.optional(z.boolean()),
  contentVersion: z.optional(z.string()),
  imageLinks: z.optional(imageLinksSchema),
  language: z.optional(z.string()),
  previewLink: z.optional(z.string()),
  infoLink: z.optional(z.string()),
  canonicalVolumeLink: z.optional(z.string()),
});
export type VolumeInfo = z.infer<typeof volumeInfoSchema>;

export const priceSchema = z.object({
  amount: z.optional(z.number()),
  currencyCode: z.optional(z.string()),
});
export type Price = z.infer<typeof priceSchema>;

export const saleInfoSchema = z.object({
  country: z.optional(z.string()),
  /** FOR_SALE, FREE, NOT_FOR_SALE or FOR_PREORDER. */
  saleability: z.optional(z.string()),
  isEbook: z.optional(z.boolean()),
  listPrice: z.optional(priceSchema),
  retailPrice: z.optional(priceSchema),
  buyLink: z.optional(z.string()),
  onSaleDate: z.optional(z.string()),
});
export type SaleInfo = z.infer<typeof saleInfoSchema>;

const downloadFormatSchema = z.object({
  isAvailable: z.optional(z.boolean()),
  downloadLink: z.optional(z.string()),
  acsTokenLink: z.optional(z.string()),
});

export const accessInfoSchema = z.object({
  country: z.optional(z.string()),
  /** PARTIAL, ALL_PAGES, NO_PAGES or UNKNOWN. */
  viewability: z.optional(z.string()),
  embeddable: z.optional(z.boolean()),
  publicDomain: z.optional(z.boolean()),
  textToSpeechPermission: z.optional(z.string()),
  epub: z.optional(downloadFormatSchema),
  pdf: z.optional(downloadFormatSchema),
  webReaderLink: z.optional(z.string()),
  /** FULL_PURCHASED, FULL_PUBLIC_DOMAIN, SAMPLE or NONE. */
  accessViewStatus: z.optional(z.string()),
  quoteSharingAllowed: z.optional(z.boolean()),
});
export type AccessInfo = z.infer<typeof accessInfoSchema>;

export const volumeSchema = z.object({
  kind: z.literal('books#volume'),
  id: z.string(),
  etag: z.optional(z.string()),
  selfLink: z.optional(z.string()),
  volumeInfo: z._default(volumeInfoSchema, {}),
  saleInfo: z.optional(saleInfoSchema),
  accessInfo: z.optional(accessInfoSchema),
  /** Only in search results: an HTML snippet with the matched words in <b>. */
  searchInfo: z.optional(z.object({ textSnippet: z.optional(z.string()) })),
});
export type Volume = z.infer<typeof volumeSchema>;

export const volumesSchema = z.object({
  kind: z.literal('books#volumes'),
  /** All matches, not just this page: the client pages with startIndex until it reaches this. */
  totalItems: z._default(z.number(), 0),
  /** Absent on an empty page. */
  items: z.optional(z.array(volumeSchema)),
});
export type Volumes = z.infer<typeof volumesSchema>;

// ---- Bookshelf

export const bookshelfSchema = z.object({
  kind: z.literal('books#bookshelf'),
  /** Unique per user only: 0–9 are Google's predefined shelves, custom shelves are 1000 and up. */
  id: z.number(),
  title: z._default(z.string(), ''),
  description: z.optional(z.string()),
  access: z.optional(z.string()),
  updated: z.optional(z.string()),
  created: z.optional(z.string()),
  volumeCount: z.optional(z.number()),
  volumesLastUpdated: z.optional(z.string()),
  selfLink: z.optional(z.string()),
});
export type Bookshelf = z.infer<typeof bookshelfSchema>;

export const bookshelvesSchema = z.object({
  kind: z.literal('books#bookshelves'),
  items: z.optional(z.array(bookshelfSchema)),
});
export type Bookshelves = z.infer<typeof bookshelvesSchema>;

// ---- Inputs

const paging = {
  /** 0-based index of the first result. */
  startIndex: z.optional(z.int().check(z.minimum(0, 'must be 0 or more'))),
  maxResults: z.optional(z.int().check(z.minimum(0, 'must be 0 or more'), z.maximum(SEARCH_MAX_RESULTS, `must be at most ${SEARCH_MAX_RESULTS}`))),
};

/** volumes.list parameters besides `q`: what a client may ask for, checked before the request goes out. */
export const volumeSearchInputSchema = z.strictObject({
  ...paging,
  orderBy: z.optional(z.enum(ORDER_BY)),
  filter: z.optional(z.enum(VOLUME_FILTERS)),
  printType: z.optional(z.enum(PRINT_TYPES)),
  projection: z.optional(z.enum(PROJECTIONS)),
  download: z.optional(z.enum(DOWNLOAD_FORMATS)),
  /** ISO 639-1 code, e.g. `en` or `fr`. */
  langRestrict: z.optional(z.string().check(z.regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]+)?$/, 'must be a language code such as en or fr'))),
});
export type VolumeSearchInput = z.infer<typeof volumeSearchInputSchema>;

/** Paging of a shelf's volumes (bookshelves.volumes.list, mylibrary.bookshelves.volumes.list). */
export const shelfVolumesInputSchema = z.strictObject({
  startIndex: paging.startIndex,
  maxResults: z.optional(z.int().check(z.minimum(0, 'must be 0 or more'))),
  /** mylibrary only: a search within the shelf. */
  q: z.optional(z.string()),
  projection: z.optional(z.enum(PROJECTIONS)),
});
export type ShelfVolumesInput = z.infer<typeof shelfVolumesInputSchema>;

/** A shelf id as the API takes it in paths: a non-negative integer (a number or its decimal string). */
export const shelfIdInputSchema = z.union([
  z.int().check(z.minimum(0, 'must be 0 or more')),
  z.string().check(z.regex(/^\d+$/, 'must be a shelf id (a non-negative integer)')),
]);
export type ShelfId = z.infer<typeof shelfIdInputSchema>;
