/** The volume search of the Books emulator: Google's `q` syntax parsed into clauses, run on the term index (termIndex.ts), filtered, ranked, paged and snippeted. */
import type { DownloadFormat, OrderBy, PrintType, VolumeFilter } from '../../shared/schemas/books';
import { escapeHtml } from '../core/html';
import { TimeSlices } from '../core/slices';
import type { Catalogue, CatalogueVolume } from './catalogue';
import { groupsOf } from '../../shared/matchGroups';
import { isbn10To13, isbn13To10 } from './catalogue';
import { QueryNode, TermIndex, TermIndexSource } from './termIndex';

// ---- Text normalisation, shared by the index and the queries so both see the same terms

/** Lower case without accents: "Gödel" and "godel" are the same term, as on Google. */
export function normalizeText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}

/** Words of a text (letters and digits), normalised. */
export function wordsOf(text: string): string[] {
  return normalizeText(text).split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0);
}

/**
 * Words too common to narrow a search. They stay in the index (a book may be called "It") and are dropped from a
 * query only when other words remain, so "the lord of the rings" asks for lord AND rings.
 */
const STOPWORDS: ReadonlySet<string> = new Set(['a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'in', 'is', 'it', 'of', 'on', 'or', 'the', 'to', 'with']);

// ---- The q syntax

/** Where a clause looks: free text looks everywhere; the keyword prefixes name one field (Google's list). */
export type ClauseField = 'any' | 'title' | 'author' | 'publisher' | 'subject' | 'isbn' | 'unsupported';

const PREFIXES: Readonly<Partial<Record<string, ClauseField>>> = {
  intitle: 'title',
  inauthor: 'author',
  inpublisher: 'publisher',
  subject: 'subject',
  isbn: 'isbn',
  // Library of Congress and OCLC numbers are valid syntax but the catalogue has none: such a clause finds nothing.
  lccn: 'unsupported',
  oclc: 'unsupported',
};

export interface QueryClause {
  readonly field: ClauseField;
  /** Normalised words (for isbn: the digits, X upper case). */
  readonly words: readonly string[];
  /** A quoted phrase: its words must be adjacent, in order. */
  readonly phrase: boolean;
}

export interface ParsedQuery {
  readonly clauses: readonly QueryClause[];
  /** The unquoted free text as typed (normalised, stopwords kept), to spot a query that is exactly a title. */
  readonly freeText: string;
}

/** `keyword:"a phrase"`, `keyword:word`, `"a phrase"` or a bare word; a keyword may also stand alone before its value. */
const TOKEN = /(?:([A-Za-z]+):)?(?:"([^"]*)"?|(\S+))?/gy;

/**
 * Parses Google's q: free text, quoted phrases, and intitle:/inauthor:/inpublisher:/subject:/isbn: prefixes that
 * apply to the word or phrase right after them (so `intitle:harry potter` is title "harry" plus free text "potter",
 * as on Google). An unknown prefix such as `re:zero` is plain text. All clauses must match.
 */
export function parseQuery(q: string): ParsedQuery {
  const clauses: QueryClause[] = [];
  let pendingField: ClauseField | undefined;
  let index = 0;
  while (index < q.length) {
    if (/\s/.test(q[index])) {
      index++;
      continue;
    }
    TOKEN.lastIndex = index;
    const match = TOKEN.exec(q);
    if (!match || match[0] === '') {
      index++;
      continue;
    }
    index = TOKEN.lastIndex;
    const [, keyword, quoted, bare] = groupsOf(match);
    let field: ClauseField = pendingField ?? 'any';
    pendingField = undefined;
    let text: string | undefined = quoted ?? bare;
    if (keyword !== undefined) {
      const named = PREFIXES[keyword.toLowerCase()];
      if (named === undefined) {
        text = `${keyword} ${text ?? ''}`;
      } else if (text === undefined) {
        // `intitle: dune`: the keyword applies to the next word.
        pendingField = named;
        continue;
      } else {
        field = named;
      }
    }
    if (text === undefined) continue;
    const phrase = quoted !== undefined;
    const words = field === 'isbn' ? isbnTerms(text) : wordsOf(text);
    if (field === 'unsupported') clauses.push({ field, words: [text], phrase: false });
    else if (words.length > 0) clauses.push({ field, words, phrase: phrase && words.length > 1 });
  }
  const freeText = clauses.filter((clause) => clause.field === 'any' && !clause.phrase).flatMap((clause) => clause.words).join(' ');
  return { clauses: dropStopwords(clauses), freeText };
}

function isbnTerms(text: string): string[] {
  const digits = text.replace(/[^0-9Xx]/g, '').toUpperCase();
  return digits === '' ? [] : [digits];
}

/** Drops stopwords from unquoted clauses as long as something is left to search for. */
function dropStopwords(clauses: QueryClause[]): QueryClause[] {
  const significant = clauses.some((clause) => clause.phrase || clause.field === 'isbn' || clause.words.some((word) => !STOPWORDS.has(word)));
  if (!significant) return clauses;
  return clauses
    .map((clause) => (clause.phrase || clause.field === 'isbn' ? clause : { ...clause, words: clause.words.filter((word) => !STOPWORDS.has(word)) }))
    .filter((clause) => clause.words.length > 0);
}

// ---- The index

type IndexedField = 'title' | 'subtitle' | 'authors' | 'publisher' | 'categories' | 'description' | 'isbn';
const INDEXED_FIELDS: readonly IndexedField[] = ['title', 'subtitle', 'authors', 'publisher', 'categories', 'description', 'isbn'];

const FIELDS_OF: Readonly<Record<Exclude<ClauseField, 'unsupported'>, readonly IndexedField[]>> = {
  any: INDEXED_FIELDS,
  title: ['title', 'subtitle'],
  author: ['authors'],
  publisher: ['publisher'],
  subject: ['categories'],
  isbn: ['isbn'],
};

/**
 * Field weights for BM25: a word in the title counts four times one in the description, so a book called "Dune"
 * outranks a book whose blurb mentions Dune.
 */
const FIELD_BOOST: Record<IndexedField, number> = { title: 4, subtitle: 2, authors: 3, publisher: 1, categories: 1.5, description: 1, isbn: 2 };
/** And a title that is exactly the free-text query gets this on top (Google puts the book itself first). */
const EXACT_TITLE_BOOST = 3;

function fieldText(volume: CatalogueVolume, field: IndexedField): string {
  const { record } = volume;
  switch (field) {
    case 'title': return record.title;
    case 'subtitle': return record.subtitle ?? '';
    case 'authors': return record.authors.join(' ');
    case 'publisher': return record.publisher ?? '';
    case 'categories': return record.categories.join(' ');
    case 'description': return record.description;
    case 'isbn': return isbnField(volume);
  }
}

/** Both ISBN forms, whichever the record gives, so `isbn:` finds a book by its 10 or its 13. */
function isbnField(volume: CatalogueVolume): string {
  const { isbn13, isbn10 } = volume.record;
  const forms = new Set<string>();
  if (isbn13) {
    forms.add(isbn13);
    const ten = isbn13To10(isbn13);
    if (ten) forms.add(ten);
  }
  if (isbn10) {
    forms.add(isbn10);
    forms.add(isbn10To13(isbn10));
  }
  return [...forms].join(' ');
}

export interface SearchRequest {
  readonly query: ParsedQuery;
  readonly startIndex: number;
  readonly maxResults: number;
  readonly orderBy: OrderBy;
  readonly filter?: VolumeFilter;
  readonly printType: PrintType;
  readonly langRestrict?: string;
  readonly download?: DownloadFormat;
  /** Only these volumes (a search within a shelf). */
  readonly within?: ReadonlySet<string>;
}

export interface SearchHit {
  readonly volume: CatalogueVolume;
  readonly score: number;
  /** The indexed terms that matched (after prefix and typo expansion), for the snippet. */
  readonly matchedTerms: readonly string[];
}

export interface SearchPage {
  /** All matches after filters, not just this page. */
  readonly totalItems: number;
  readonly hits: readonly SearchHit[];
}

/** A pause that lets other requests in once the current time slice has run out. */
function pauseInSlices(): () => Promise<void> {
  const slices = new TimeSlices();
  return () => slices.pause();
}

/** What the term index reads of a catalogue: each volume's indexed fields. */
function termSource(catalogue: Catalogue): TermIndexSource {
  const { volumes } = catalogue;
  return {
    documentCount: volumes.length,
    fieldCount: INDEXED_FIELDS.length,
    fieldText: (doc, field) => fieldText(volumes[doc], INDEXED_FIELDS[field]),
    tokenize,
    processTerm,
  };
}

/** The search index over a catalogue, built once (the catalogue does not change while the emulator runs). */
export class VolumeSearchIndex {
  private readonly terms: TermIndex;
  /** Normalised title → numbers of the volumes with exactly that title, for the exact-title boost. */
  private readonly byExactTitle = new Map<string, Set<number>>();
  /** Each volume's rank by publication date (equal dates, equal ranks), for orderBy=newest. */
  private readonly dateRank: Int32Array;

  /** The index of `catalogue`; `terms` when built ahead (VolumeSearchIndex.build), else built here in one go. */
  constructor(private readonly catalogue: Catalogue, terms: TermIndex = new TermIndex(termSource(catalogue))) {
    const { volumes } = catalogue;
    this.terms = terms;
    volumes.forEach((volume, doc) => {
      const key = wordsOf(volume.record.title).join(' ');
      let docs = this.byExactTitle.get(key);
      if (!docs) this.byExactTitle.set(key, (docs = new Set()));
      docs.add(doc);
    });
    const dates = volumes.map((volume) => dateKey(volume.record.publishedDate));
    const distinct = [...new Set(dates)].sort();
    const rankOf = new Map(distinct.map((date, rank) => [date, rank]));
    this.dateRank = Int32Array.from(dates, (date) => rankOf.get(date) as number);
  }

  /** The same index, built letting other requests in every few milliseconds (about a second for 100,000 volumes). */
  static async build(catalogue: Catalogue, pause: () => Promise<void> = pauseInSlices()): Promise<VolumeSearchIndex> {
    return new VolumeSearchIndex(catalogue, await TermIndex.build(termSource(catalogue), pause));
  }

  get termCount(): number {
    return this.terms.termCount;
  }

  search(request: SearchRequest): SearchPage {
    const { clauses } = request.query;
    if (clauses.length === 0 || clauses.some((clause) => clause.field === 'unsupported')) return { totalItems: 0, hits: [] };
    const { freeText } = request.query;
    const exactTitles = freeText === '' ? undefined : this.byExactTitle.get(freeText);
    const phrases = clauses.filter((clause) => clause.phrase);
    const query = this.terms.compile({ kind: 'and', queries: clauses.map(clauseQuery) });
    const matches = this.terms.matches(query, exactTitles ? { docs: exactTitles, factor: EXACT_TITLE_BOOST } : undefined);
    const { volumes } = this.catalogue;
    // Positions into `matches` that pass the filters, in match order (the order that breaks ties).
    let kept: Int32Array;
    if (phrases.length > 0 || request.within !== undefined || request.printType === 'magazines' || request.langRestrict !== undefined || request.download !== undefined || request.filter !== undefined) {
      kept = new Int32Array(matches.docs.length);
      let length = 0;
      for (let position = 0; position < matches.docs.length; position++) {
        const volume = volumes[matches.docs[position]];
        if (passesFilters(volume, request) && (phrases.length === 0 || phrases.every((phrase) => containsPhrase(volume, phrase)))) kept[length++] = position;
      }
      kept = kept.subarray(0, length);
    } else {
      kept = new Int32Array(matches.docs.length);
      for (let position = 0; position < kept.length; position++) kept[position] = position;
    }
    const { scores, docs } = matches;
    const levels = graded(matches.levels, kept);
    const { dateRank } = this;
    // Relevance: how closely every word matched (exact, then prefix, then typo), then score, then match order.
    // Newest: date, then the relevance order (as a stable sort of it would give).
    const byScore = (a: number, b: number): boolean => (scores[a] !== scores[b] ? (scores[a]) > (scores[b]) : a < b);
    const relevance = levels
      ? (a: number, b: number): boolean => (levels[a] !== levels[b] ? (levels[a]) > (levels[b]) : byScore(a, b))
      : byScore;
    const before =
      request.orderBy === 'newest'
        ? (a: number, b: number): boolean => {
            const dateA = dateRank[docs[a]];
            const dateB = dateRank[docs[b]];
            return dateA !== dateB ? dateA > dateB : relevance(a, b);
          }
        : relevance;
    const page = firstInOrder(kept, request.startIndex + request.maxResults, before).slice(request.startIndex);
    return {
      totalItems: kept.length,
      hits: page.map((position) => {
        const doc = docs[position];
        return { volume: volumes[doc], score: scores[position], matchedTerms: this.terms.matchedTerms(query, doc) };
      }),
    };
  }
}

/** The match levels when the kept matches differ in level; undefined when they are all alike (levels then order nothing). */
function graded(levels: Uint8Array | undefined, kept: Int32Array): Uint8Array | undefined {
  if (!levels || kept.length === 0) return undefined;
  const first = levels[kept[0]];
  for (let index = 1; index < kept.length; index++) if (levels[kept[index]] !== first) return levels;
  return undefined;
}

/** The first `count` items in the order `before` defines (a strict total order), without sorting all of them. */
function firstInOrder(items: Int32Array, count: number, before: (a: number, b: number) => boolean): number[] {
  const wanted = Math.min(count, items.length);
  if (wanted <= 0) return [];
  if (wanted > 256) return Array.from(items).sort((a, b) => (before(a, b) ? -1 : 1)).slice(0, wanted);
  const best: number[] = [];
  for (const item of items) {
    if (best.length === wanted && !before(item, best[wanted - 1])) continue;
    let low = 0;
    let high = best.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (before(best[middle], item)) low = middle + 1;
      else high = middle;
    }
    best.splice(low, 0, item);
    if (best.length > wanted) best.pop();
  }
  return best;
}

const tokenize = (text: string): string[] => text.split(/[^\p{L}\p{N}]+/u);
const processTerm = (term: string): string | null => (term === '' ? null : normalizeText(term));

/**
 * One clause as a query tree, as MiniSearch would have run it. Free text forgives: a word of three letters or more
 * also matches longer words (prefix, "tolk" finds Tolkien), one of five or six letters forgives one typo and a
 * longer one two (fuzzy: "tolkein" is a swap, two edits). Field clauses and phrases are exact, as on Google.
 */
function clauseQuery(clause: QueryClause): QueryNode {
  const fieldNames = FIELDS_OF[clause.field === 'unsupported' ? 'any' : clause.field];
  const fields = fieldNames.map((field) => INDEXED_FIELDS.indexOf(field));
  const boosts = fieldNames.map((field) => FIELD_BOOST[field]);
  const forgiving = clause.field === 'any' && !clause.phrase;
  return {
    kind: 'and',
    // A word is tokenised and processed again, as MiniSearch treats a query string.
    queries: clause.words.map((word) => ({
      kind: 'and',
      queries: tokenize(word)
        .map(processTerm)
        .filter((term): term is string => !!term)
        .map((term) => ({
          kind: 'term',
          term,
          prefix: forgiving && term.length >= 3,
          fuzzy: forgiving ? (term.length >= 7 ? 2 : term.length >= 5 ? 1 : 0) : 0,
          fields,
          boosts,
        })),
    })),
  };
}

function passesFilters(volume: CatalogueVolume, request: SearchRequest): boolean {
  if (request.within && !request.within.has(volume.id)) return false;
  // Every catalogue entry is a book: `magazines` finds none, as a books-only corpus would on Google.
  if (request.printType === 'magazines') return false;
  if (request.langRestrict && volume.record.language !== request.langRestrict.toLowerCase().split('-')[0]) return false;
  if (request.download === 'epub' && !volume.isEbook) return false;
  switch (request.filter) {
    case undefined: return true;
    case 'partial': return volume.viewability === 'PARTIAL' || volume.viewability === 'ALL_PAGES';
    case 'full': return volume.viewability === 'ALL_PAGES';
    case 'free-ebooks': return volume.saleability === 'FREE';
    case 'paid-ebooks': return volume.saleability === 'FOR_SALE';
    case 'ebooks': return volume.isEbook;
  }
}

function containsPhrase(volume: CatalogueVolume, clause: QueryClause): boolean {
  const wanted = ` ${clause.words.join(' ')} `;
  const fields = FIELDS_OF[clause.field === 'unsupported' ? 'any' : clause.field];
  return fields.some((field) => ` ${wordsOf(fieldText(volume, field)).join(' ')} `.includes(wanted));
}

/** Sortable publication date: a year alone sorts before any date within it. */
function dateKey(publishedDate: string): string {
  return publishedDate.padEnd(10, '-');
}

// ---- Snippets

const SNIPPET_LENGTH = 200;
const SNIPPET_LEAD = 60;

/**
 * searchInfo.textSnippet as Google gives it: HTML, a stretch of the description around the first matched word,
 * every matched word in <b>, and `&nbsp;...` where the text was cut.
 */
export function textSnippet(description: string, matchedTerms: readonly string[]): string {
  const wanted = new Set(matchedTerms);
  const spans: { start: number; end: number }[] = [];
  for (const match of description.matchAll(/[\p{L}\p{N}]+/gu)) {
    if (wanted.has(normalizeText(match[0]))) spans.push({ start: match.index, end: match.index + match[0].length });
  }
  let start = 0;
  const first = spans.at(0);
  if (first && first.end > SNIPPET_LENGTH) {
    start = first.start - SNIPPET_LEAD;
    // Begin at a word boundary.
    while (start > 0 && /[\p{L}\p{N}]/u.test(description[start - 1])) start++;
  }
  let end = Math.min(description.length, start + SNIPPET_LENGTH);
  while (end < description.length && /[\p{L}\p{N}]/u.test(description[end])) end++;
  let html = start > 0 ? '...&nbsp;' : '';
  let cursor = start;
  for (const span of spans) {
    if (span.start < start || span.end > end) continue;
    html += `${escapeHtml(description.slice(cursor, span.start))}<b>${escapeHtml(description.slice(span.start, span.end))}</b>`;
    cursor = span.end;
  }
  html += escapeHtml(description.slice(cursor, end).trimEnd());
  if (end < description.length) html += '&nbsp;...';
  return html;
}
