import * as assert from 'node:assert/strict';
import MiniSearch, { Query, SearchResult } from 'minisearch';
import { Catalogue, CatalogueVolume, generateSyntheticCatalogue, isbn10To13, isbn13To10, parseCatalogue } from '../../../../src/emulator/books/catalogue';
import { normalizeText, parseQuery, QueryClause, VolumeSearchIndex, wordsOf } from '../../../../src/emulator/books/search';
import { fixtureCatalogueText } from '../../../support/booksCatalogue';

/**
 * The volume search scores on its own postings (termIndex.ts) but must rank as MiniSearch.search did with the same
 * options: same matches, same scores, same matched terms, and MiniSearch's order (ties included) within each level of
 * closeness: documents holding every query word itself first, then those reached through a longer word (prefix), then
 * through a typo. The oracle below is the MiniSearch set-up the emulator used, field weights and exact-title boost
 * included, its results stably sorted by that level (phrases and filters are checks on these matches, the same code
 * either way, and have their own tests in search.test.ts).
 */
const FIELDS = ['title', 'subtitle', 'authors', 'publisher', 'categories', 'description', 'isbn'] as const;
type Field = (typeof FIELDS)[number];
const FIELDS_OF: Record<string, readonly Field[]> = { any: FIELDS, title: ['title', 'subtitle'], author: ['authors'], publisher: ['publisher'], subject: ['categories'], isbn: ['isbn'] };
const BOOST: Record<Field, number> = { title: 4, subtitle: 2, authors: 3, publisher: 1, categories: 1.5, description: 1, isbn: 2 };

function text(volume: CatalogueVolume, field: Field): string {
  const { record } = volume;
  if (field === 'authors') return record.authors.join(' ');
  if (field === 'categories') return record.categories.join(' ');
  if (field === 'isbn') {
    const forms = new Set<string>();
    if (record.isbn13) [record.isbn13, isbn13To10(record.isbn13)].forEach((form) => form && forms.add(form));
    if (record.isbn10) [record.isbn10, isbn10To13(record.isbn10)].forEach((form) => forms.add(form));
    return [...forms].join(' ');
  }
  return record[field] ?? '';
}

function oracle(catalogue: Catalogue): (q: string) => SearchResult[] {
  const index = new MiniSearch<CatalogueVolume>({
    idField: 'id',
    fields: [...FIELDS],
    extractField: (volume, field) => (field === 'id' ? volume.id : text(volume, field as Field)),
    tokenize: (value) => value.split(/[^\p{L}\p{N}]+/u),
    processTerm: (term) => (term === '' ? null : normalizeText(term)),
  });
  index.addAll(catalogue.volumes);
  const titles = new Map<string, Set<string>>();
  for (const volume of catalogue.volumes) {
    const key = wordsOf(volume.record.title).join(' ');
    titles.set(key, (titles.get(key) ?? new Set()).add(volume.id));
  }
  const clauseQuery = (clause: QueryClause): Query => {
    const forgiving = clause.field === 'any' && !clause.phrase;
    return {
      combineWith: 'AND',
      fields: [...(FIELDS_OF[clause.field] ?? FIELDS)],
      queries: [...clause.words],
      prefix: forgiving ? (term: string) => term.length >= 3 : false,
      fuzzy: forgiving ? (term: string) => (term.length >= 7 ? 2 : term.length >= 5 ? 1 : false) : false,
    };
  };
  /** 2: the document has every query word itself; 1: some only as the start of a longer word; 0: some only through a typo. */
  const level = (clauses: readonly QueryClause[], result: SearchResult): number => {
    let loosest = 2;
    for (const clause of clauses) {
      if (clause.field !== 'any' || clause.phrase) continue;
      for (const word of clause.words) {
        if (result.terms.includes(word)) continue;
        loosest = Math.min(loosest, word.length >= 3 && result.terms.some((term) => term.startsWith(word)) ? 1 : 0);
      }
    }
    return loosest;
  };
  return (q) => {
    const { clauses, freeText } = parseQuery(q);
    const exact = titles.get(freeText);
    const results = index.search(
      { combineWith: 'AND', queries: clauses.map(clauseQuery) },
      { boost: BOOST, ...(exact ? { boostDocument: (id: string) => (exact.has(id) ? 3 : 1) } : {}) },
    );
    // Array.prototype.sort is stable: MiniSearch's order stays within a level.
    return results.map((result) => ({ result, level: level(clauses, result) })).sort((a, b) => b.level - a.level).map(({ result }) => result);
  };
}

function assertSameRanking(catalogue: Catalogue, queries: readonly string[], startIndexes: readonly number[]): number {
  const expected = oracle(catalogue);
  const index = new VolumeSearchIndex(catalogue);
  let compared = 0;
  for (const q of queries) {
    const want = expected(q);
    for (const startIndex of startIndexes) {
      const page = index.search({ query: parseQuery(q), startIndex, maxResults: 10, orderBy: 'relevance', printType: 'all' });
      assert.equal(page.totalItems, want.length, `totalItems of ${q}`);
      const got = page.hits.map((hit) => ({ id: hit.volume.id, score: hit.score, terms: hit.matchedTerms }));
      const wanted = want.slice(startIndex, startIndex + 10).map((result) => ({ id: result.id as string, score: result.score, terms: result.terms }));
      assert.deepEqual(got, wanted, `${q} from ${startIndex}`);
      compared += got.length;
    }
  }
  return compared;
}

describe('books search ranking', () => {
  it('ranks the fixture catalogue exactly as MiniSearch does: typos, prefixes, fields, exact titles, isbn', () => {
    const catalogue = parseCatalogue(fixtureCatalogueText(), 'fixture');
    const queries = ['dune', 'frank', 'prometh', 'frankenstien', 'tolkein', 'the hobbit', 'time machine', 'intitle:dune', 'inauthor:tolkien ring', 'subject:science', 'fiction', 'fiction classics', 'austen', 'godel escher', 'it', 'isbn:0441172717', 'dragn'];
    assert.ok(assertSameRanking(catalogue, queries, [0, 3]) > 40);
  });

  it('builds the same index in steps, letting other work in between (the first search must not hold the emulator)', async () => {
    const catalogue = generateSyntheticCatalogue(3000);
    let pauses = 0;
    const stepped = await VolumeSearchIndex.build(catalogue, async () => {
      pauses++;
      await new Promise<void>((resolve) => setImmediate(resolve));
    });
    assert.ok(pauses >= 3000 / 64 - 1, `paused ${pauses} times over 3,000 volumes`);
    const whole = new VolumeSearchIndex(catalogue);
    assert.equal(stepped.termCount, whole.termCount);
    for (const q of ['harbor', 'silent garden', 'gard', 'lanturn', 'inauthor:novak', 'volume 42']) {
      const request = { query: parseQuery(q), startIndex: 0, maxResults: 400, orderBy: 'relevance', printType: 'all' } as const;
      assert.deepEqual(stepped.search(request), whole.search(request), q);
    }
  });

  it('ranks a 3,000-volume synthetic catalogue exactly as MiniSearch does, equal scores in the same order, on every page', () => {
    const catalogue = generateSyntheticCatalogue(3000);
    const queries = ['harbor', 'silent garden', 'gard', 'lanturn', 'intitle:orchard', 'inauthor:novak', 'subject:poetry', 'tides memory', 'the silent harbor', 'synthetic', 'volume 42', 'cartografy'];
    // 0 and 30 select the page among the matches; 400 sorts them all.
    assert.ok(assertSameRanking(catalogue, queries, [0, 30, 400]) > 200);
  });
});
