import * as assert from 'node:assert/strict';
import { parseQuery, QueryClause } from '../../../../src/emulator/books/search';

/** The clauses as plain objects, for deepEqual. */
function clauses(q: string): { field: string; words: string[]; phrase: boolean }[] {
  return parseQuery(q).clauses.map((clause: QueryClause) => ({ field: clause.field, words: [...clause.words], phrase: clause.phrase }));
}

describe('books q syntax', () => {
  it('splits free text into words, lower-cased and without accents', () => {
    assert.deepEqual(clauses('Les  Misérables'), [
      { field: 'any', words: ['les'], phrase: false },
      { field: 'any', words: ['miserables'], phrase: false },
    ]);
  });

  it('applies a keyword prefix to the next word only, as Google does', () => {
    assert.deepEqual(clauses('intitle:harry potter'), [
      { field: 'title', words: ['harry'], phrase: false },
      { field: 'any', words: ['potter'], phrase: false },
    ]);
  });

  it('reads every documented prefix, case-insensitively', () => {
    assert.deepEqual(clauses('inauthor:Tolkien inpublisher:Bantam SUBJECT:science'), [
      { field: 'author', words: ['tolkien'], phrase: false },
      { field: 'publisher', words: ['bantam'], phrase: false },
      { field: 'subject', words: ['science'], phrase: false },
    ]);
  });

  it('keeps quoted phrases together, with or without a prefix, and tolerates a missing closing quote', () => {
    assert.deepEqual(clauses('"time machine" inauthor:"h. g. wells"'), [
      { field: 'any', words: ['time', 'machine'], phrase: true },
      { field: 'author', words: ['h', 'g', 'wells'], phrase: true },
    ]);
    assert.deepEqual(clauses('"brief history'), [{ field: 'any', words: ['brief', 'history'], phrase: true }]);
  });

  it('lets a keyword stand before its value (intitle: dune)', () => {
    assert.deepEqual(clauses('intitle: dune'), [{ field: 'title', words: ['dune'], phrase: false }]);
  });

  it('normalises isbn: values (hyphens and spaces dropped, X kept)', () => {
    assert.deepEqual(clauses('isbn:0-8044-2957-x'), [{ field: 'isbn', words: ['080442957X'], phrase: false }]);
  });

  it('treats an unknown prefix as text and lccn/oclc as unsupported clauses', () => {
    assert.deepEqual(clauses('re:zero'), [{ field: 'any', words: ['re', 'zero'], phrase: false }]);
    assert.equal(clauses('lccn:2001012345')[0]?.field, 'unsupported');
  });

  it('drops stopwords only while something else is left to search for', () => {
    assert.deepEqual(clauses('the lord of the rings'), [
      { field: 'any', words: ['lord'], phrase: false },
      { field: 'any', words: ['rings'], phrase: false },
    ]);
    assert.deepEqual(clauses('It'), [{ field: 'any', words: ['it'], phrase: false }]);
    // Phrases keep their stopwords: adjacency is checked on the real words.
    assert.deepEqual(clauses('"lord of the rings"'), [{ field: 'any', words: ['lord', 'of', 'the', 'rings'], phrase: true }]);
  });

  it('keeps the typed free text for the exact-title boost', () => {
    assert.equal(parseQuery('The Time  Machine').freeText, 'the time machine');
  });

  it('yields no clauses for blank or punctuation-only queries', () => {
    assert.deepEqual(clauses('   '), []);
    assert.deepEqual(clauses('"" ,;'), []);
  });
});
