/** The emulator's book catalogue: loads and validates JSON-lines records, derives Google-shaped volume facts, and generates synthetic catalogues. */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as z from '../../shared/schemas/zod';
import { EMBEDDED_CATALOGUE } from './embeddedCatalogue';
import { seededRandom } from '../core/random';

// ---- The record format (one JSON object per line)

function isbn10Valid(value: string): boolean {
  if (!/^\d{9}[\dX]$/.test(value)) return false;
  let sum = 0;
  for (let index = 0; index < 10; index++) sum += (value[index] === 'X' ? 10 : Number(value[index])) * (10 - index);
  return sum % 11 === 0;
}

function isbn13Valid(value: string): boolean {
  if (!/^97[89]\d{10}$/.test(value)) return false;
  let sum = 0;
  for (let index = 0; index < 13; index++) sum += Number(value[index]) * (index % 2 ? 3 : 1);
  return sum % 10 === 0;
}

/** The ISBN-13 of an ISBN-10 (978 prefix), so `isbn:` finds a book by either form. */
export function isbn10To13(isbn10: string): string {
  const body = `978${isbn10.slice(0, 9)}`;
  let sum = 0;
  for (let index = 0; index < 12; index++) sum += Number(body[index]) * (index % 2 ? 3 : 1);
  return body + String((10 - (sum % 10)) % 10);
}

/** The ISBN-10 of a 978 ISBN-13 (979 ones have none). */
export function isbn13To10(isbn13: string): string | undefined {
  if (!isbn13.startsWith('978')) return undefined;
  const body = isbn13.slice(3, 12);
  let sum = 0;
  for (let index = 0; index < 9; index++) sum += Number(body[index]) * (10 - index);
  const check = (11 - (sum % 11)) % 11;
  return body + (check === 10 ? 'X' : String(check));
}

const nonEmpty = z.string().check(z.refine((value) => value.trim().length > 0, { error: 'must not be empty' }));

/**
 * One catalogue line. Strict: an unknown field is a typo in a user's file, and a silent drop would hide it.
 * `publishedDate` is Google's partial date (YYYY, YYYY-MM or YYYY-MM-DD).
 */
export const catalogueRecordSchema = z.strictObject({
  title: nonEmpty,
  subtitle: z.optional(nonEmpty),
  authors: z.array(nonEmpty).check(z.minLength(1, 'must name at least one author')),
  publisher: z.optional(nonEmpty),
  publishedDate: z.string().check(z.regex(/^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/, 'must be YYYY, YYYY-MM or YYYY-MM-DD')),
  language: z.string().check(z.regex(/^[a-z]{2,3}$/, 'must be an ISO 639-1 code such as en')),
  categories: z.array(nonEmpty).check(z.minLength(1, 'must list at least one category')),
  pageCount: z.optional(z.int().check(z.minimum(1, 'must be a positive integer'))),
  description: nonEmpty,
  isbn13: z.optional(z.string().check(z.refine(isbn13Valid, { error: 'must be a valid ISBN-13 (13 digits, right check digit)' }))),
  isbn10: z.optional(z.string().check(z.refine(isbn10Valid, { error: 'must be a valid ISBN-10 (right check digit)' }))),
  publicDomain: z.boolean(),
});
export type CatalogueRecord = z.infer<typeof catalogueRecordSchema>;

// ---- Volumes: a record plus what Google would say about selling and reading it

export type Saleability = 'FOR_SALE' | 'FREE' | 'NOT_FOR_SALE';
export type Viewability = 'ALL_PAGES' | 'PARTIAL' | 'NO_PAGES';

export interface CatalogueVolume {
  readonly id: string;
  readonly etag: string;
  readonly record: CatalogueRecord;
  readonly saleability: Saleability;
  readonly isEbook: boolean;
  readonly viewability: Viewability;
  /** USD, only when for sale. */
  readonly price?: number;
  /** The line of the source file (1-based), for messages. */
  readonly line: number;
}

const ID_LENGTH = 12;

/**
 * A volume id stable across runs and machines: derived from what identifies the book (title, subtitle, authors,
 * date), not from its place in the file, so shelves survive a reordered or extended catalogue. 12 characters of
 * URL-safe base64, like Google's ids (e.g. `zyTCAlFPjgYC`).
 */
export function volumeIdFor(record: Pick<CatalogueRecord, 'title' | 'subtitle' | 'authors' | 'publishedDate'>): string {
  const key = [record.title, record.subtitle ?? '', record.authors.join('\u0001'), record.publishedDate].join('\u0000');
  return createHash('sha256').update(key, 'utf8').digest('base64url').slice(0, ID_LENGTH);
}

function etagFor(record: CatalogueRecord): string {
  return createHash('sha256').update(JSON.stringify(record), 'utf8').digest('base64url').slice(0, 11);
}

/**
 * The catalogue has no sales data, so it is derived deterministically from the id: public-domain books are free
 * full-view eBooks (as Google shows them); of the rest, half are paid eBooks with a preview, a quarter are
 * previewable print books and a quarter have no preview. That gives every `filter` value something to find.
 */
function commerceFor(id: string, record: CatalogueRecord): Pick<CatalogueVolume, 'saleability' | 'isEbook' | 'viewability' | 'price'> {
  if (record.publicDomain) return { saleability: 'FREE', isEbook: true, viewability: 'ALL_PAGES' };
  const digest = createHash('sha256').update(id).digest();
  const bucket = (digest[0]) % 4;
  if (bucket < 2) return { saleability: 'FOR_SALE', isEbook: true, viewability: 'PARTIAL', price: Math.round((2.99 + ((digest[1]) % 18)) * 100) / 100 };
  if (bucket === 2) return { saleability: 'NOT_FOR_SALE', isEbook: false, viewability: 'PARTIAL' };
  return { saleability: 'NOT_FOR_SALE', isEbook: false, viewability: 'NO_PAGES' };
}

export function toVolume(record: CatalogueRecord, line: number): CatalogueVolume {
  const id = volumeIdFor(record);
  return { id, etag: etagFor(record), record, line, ...commerceFor(id, record) };
}

/** A catalogue that could not be loaded; the message names the file and line, fit for the CLI's one-line error. */
export class CatalogueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogueError';
  }
}

export class Catalogue {
  private readonly byId = new Map<string, CatalogueVolume>();

  constructor(readonly volumes: readonly CatalogueVolume[], readonly source: string) {
    for (const volume of volumes) this.byId.set(volume.id, volume);
  }

  get size(): number {
    return this.volumes.length;
  }

  get(id: string): CatalogueVolume | undefined {
    return this.byId.get(id);
  }
}

/** One line that is not a valid record, for a lenient load. */
export interface CatalogueProblem {
  readonly line: number;
  readonly message: string;
}

export interface ParseOptions {
  /** Instead of throwing at the first bad line, skip bad lines and report them here (the built-in catalogue). */
  readonly onProblem?: (problem: CatalogueProblem) => void;
}

/** Parses JSON lines; a bad line (or two lines describing the same book) is a CatalogueError naming it. */
export function parseCatalogue(text: string, source: string, options: ParseOptions = {}): Catalogue {
  const volumes: CatalogueVolume[] = [];
  const lineOfId = new Map<string, number>();
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = index + 1;
    const raw = (lines[index]).trim();
    if (raw === '') continue;
    const problem = (message: string): void => {
      if (!options.onProblem) throw new CatalogueError(`${source} line ${line}: ${message}`);
      options.onProblem({ line, message });
    };
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      problem(`not valid JSON (${error instanceof Error ? error.message : String(error)})`);
      continue;
    }
    const result = catalogueRecordSchema.safeParse(parsed);
    if (!result.success) {
      const issue = result.error.issues.at(0);
      const field = issue?.path.length ? `field '${issue.path.map(String).join('.')}' ` : '';
      const missing = issue?.code === 'invalid_type' && /received undefined/.test(issue.message);
      problem(`${field}${missing ? 'is missing' : issue?.message ?? 'is not a catalogue record'}`);
      continue;
    }
    const volume = toVolume(result.data, line);
    const earlier = lineOfId.get(volume.id);
    if (earlier !== undefined) {
      problem(`the same book as line ${earlier} (same title, subtitle, authors and date)`);
      continue;
    }
    lineOfId.set(volume.id, line);
    volumes.push(volume);
  }
  return new Catalogue(volumes, source);
}

/** A user's own catalogue (`--books FILE.jsonl`). */
export function loadCatalogueFile(file: string): Catalogue {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new CatalogueError(`cannot read the books catalogue ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseCatalogue(text, file);
}

const CATALOGUE_IN_SOURCE_TREE = path.join('src', 'emulator', 'books', 'data', 'catalogue.jsonl');

/**
 * Where the real catalogue is when not bundled: tests and benchmarks run from `out/src/emulator/books`, so walk up
 * from here until a folder holds `src/emulator/books/data/catalogue.jsonl` (the repository root).
 */
export function findCatalogueFile(startDir: string = __dirname): string | undefined {
  for (let dir = startDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, CATALOGUE_IN_SOURCE_TREE);
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

export interface LoadedCatalogue {
  readonly catalogue: Catalogue;
  /** No catalogue file at all (the emulator still runs; searches find nothing). */
  readonly missing: boolean;
  /** Lines of the built-in catalogue that were skipped as invalid (a user's --books file fails instead). */
  readonly problems: readonly CatalogueProblem[];
}

/**
 * The real catalogue: embedded in the bundle, else read from the source tree; empty (and said so) if neither has
 * it. It is lenient where a user's file is strict: a bad line in Desk's own data must not stop the emulator the
 * extension depends on, so it is skipped and reported (scripts/books/check-catalogue.js and the unit tests catch it).
 */
export function loadDefaultCatalogue(): LoadedCatalogue {
  const problems: CatalogueProblem[] = [];
  const onProblem = (problem: CatalogueProblem): void => {
    problems.push(problem);
  };
  if (EMBEDDED_CATALOGUE !== undefined) {
    return { catalogue: parseCatalogue(EMBEDDED_CATALOGUE, 'the built-in catalogue', { onProblem }), missing: false, problems };
  }
  const file = findCatalogueFile();
  if (!file) return { catalogue: new Catalogue([], 'no catalogue'), missing: true, problems };
  return { catalogue: parseCatalogue(fs.readFileSync(file, 'utf8'), file, { onProblem }), missing: false, problems };
}

// ---- Synthetic catalogues (benchmarks, paging tests): deterministic, and never mistakable for real books

export const SYNTHETIC_PUBLISHER = 'Desk Synthetic Catalogue';
export const DEFAULT_SYNTHETIC_SEED = 42;


const ADJECTIVES = ['Silent', 'Crimson', 'Hidden', 'Distant', 'Golden', 'Broken', 'Quiet', 'Endless', 'Northern', 'Forgotten', 'Bright', 'Hollow', 'Winter', 'Amber', 'Restless', 'Paper', 'Iron', 'Glass', 'Velvet', 'Salt'];
const NOUNS = ['Harbor', 'Garden', 'River', 'Lantern', 'Orchard', 'Compass', 'Archive', 'Meadow', 'Tower', 'Voyage', 'Library', 'Island', 'Engine', 'Mirror', 'Forest', 'Letter', 'Bridge', 'Kingdom', 'Almanac', 'Observatory'];
const PLACES = ['Ashford', 'Kestrel Bay', 'Marrow Hill', 'Eldham', 'Port Sable', 'Wyncote', 'the Fens', 'Larkspur', 'Greyhaven', 'Tessaly'];
const TOPICS = ['memory', 'migration', 'clockwork', 'tides', 'cartography', 'friendship', 'astronomy', 'gardening', 'trade', 'music', 'grief', 'invention', 'weather', 'exile', 'cooking', 'chess', 'rivers', 'printing', 'bees', 'lighthouses'];
const GIVEN_NAMES = ['Ada', 'Bruno', 'Clara', 'Dmitri', 'Elena', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Keiko', 'Luca', 'Mira', 'Nils', 'Olga', 'Pavel', 'Quinn', 'Rosa', 'Soren', 'Talia'];
const FAMILY_NAMES = ['Abernathy', 'Brightwater', 'Castellano', 'Dunmore', 'Eriksen', 'Fairweather', 'Galloway', 'Holloway', 'Ishikawa', 'Jaramillo', 'Kowalski', 'Lindqvist', 'Marchetti', 'Novak', 'Okafor', 'Pemberton', 'Quintero', 'Rasmussen', 'Sato', 'Thornbury'];
const CATEGORIES = ['Fiction', 'History', 'Science', 'Poetry', 'Travel', 'Cooking', 'Biography & Autobiography', 'Philosophy', 'Juvenile Fiction', 'Nature'];
const LANGUAGES = ['en', 'en', 'en', 'en', 'fr', 'de', 'es', 'it'];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

/** The synthetic records themselves (for tests that want to check them). */
export function syntheticRecords(count: number, seed = DEFAULT_SYNTHETIC_SEED): CatalogueRecord[] {
  const random = seededRandom(seed);
  const records: CatalogueRecord[] = [];
  for (let index = 1; index <= count; index++) {
    const title = random() < 0.5 ? `The ${pick(random, ADJECTIVES)} ${pick(random, NOUNS)}` : `${pick(random, NOUNS)} of ${pick(random, PLACES)}`;
    const authorCount = random() < 0.8 ? 1 : 2;
    const authors = Array.from({ length: authorCount }, () => `${pick(random, GIVEN_NAMES)} ${pick(random, FAMILY_NAMES)}`);
    const year = 1900 + Math.floor(random() * 125);
    const month = 1 + Math.floor(random() * 12);
    const day = 1 + Math.floor(random() * 28);
    const topics = [pick(random, TOPICS), pick(random, TOPICS)];
    records.push({
      title,
      // The number makes every record distinct (ids derive from title, subtitle, authors and date) and says what it is.
      subtitle: `Synthetic volume ${index}`,
      authors,
      publisher: SYNTHETIC_PUBLISHER,
      publishedDate: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      language: pick(random, LANGUAGES),
      categories: [pick(random, CATEGORIES)],
      pageCount: 80 + Math.floor(random() * 600),
      description: `A synthetic record generated by the Desk emulator (seed ${seed}), not a real book: an invented story of ${topics[0]} and ${topics[1]} set in ${pick(random, PLACES)}.`,
      publicDomain: year < 1929,
    });
  }
  return records;
}

/** A large deterministic catalogue: the same count and seed give the same volumes, ids included. */
export function generateSyntheticCatalogue(count: number, seed = DEFAULT_SYNTHETIC_SEED): Catalogue {
  return new Catalogue(syntheticRecords(count, seed).map((record, index) => toVolume(record, index + 1)), `synthetic:${count}:${seed}`);
}

const SYNTHETIC_SPEC = /^synthetic:(\d{1,7})(?::(\d{1,10}))?$/;

/**
 * The `--books` value: a JSON-lines file, or `synthetic:COUNT[:SEED]` for a generated catalogue (benchmarks,
 * load tests); undefined means the real catalogue.
 */
export function loadCatalogue(spec: string | undefined): LoadedCatalogue {
  if (spec === undefined || spec === '') return loadDefaultCatalogue();
  const synthetic = SYNTHETIC_SPEC.exec(spec);
  if (synthetic) {
    const count = Number(synthetic[1]);
    if (count < 1 || count > 1_000_000) throw new CatalogueError(`--books ${spec}: the count must be from 1 to 1000000`);
    return { catalogue: generateSyntheticCatalogue(count, synthetic.at(2) === undefined ? DEFAULT_SYNTHETIC_SEED : Number(synthetic[2])), missing: false, problems: [] };
  }
  return { catalogue: loadCatalogueFile(spec), missing: false, problems: [] };
}
