import * as assert from 'node:assert/strict';
import { OrderBy, PrintType, VolumeFilter } from '../../../../src/shared/schemas/books';
import { Catalogue, CatalogueRecord, parseCatalogue } from '../../../../src/emulator/books/catalogue';
import { parseQuery, SearchPage, textSnippet, VolumeSearchIndex } from '../../../../src/emulator/books/search';
import { FIXTURE_RECORDS, fixtureCatalogueText, isbn10, isbn13 } from '../../../support/booksCatalogue';

interface Ask {
  startIndex?: number;
  maxResults?: number;
  orderBy?: OrderBy;
  filter?: VolumeFilter;
  printType?: PrintType;
  langRestrict?: string;
}

describe('books search index', () => {
  let catalogue: Catalogue;
  let index: VolumeSearchIndex;

  before(() => {
    catalogue = parseCatalogue(fixtureCatalogueText(), 'fixture');
    index = new VolumeSearchIndex(catalogue);
  });

  function search(q: string, ask: Ask = {}): SearchPage {
    return index.search({
      query: parseQuery(q),
      startIndex: ask.startIndex ?? 0,
      maxResults: ask.maxResults ?? 40,
      orderBy: ask.orderBy ?? 'relevance',
      printType: ask.printType ?? 'all',
      ...(ask.filter ? { filter: ask.filter } : {}),
      ...(ask.langRestrict ? { langRestrict: ask.langRestrict } : {}),
    });
  }
  const titles = (page: SearchPage): string[] => page.hits.map((hit) => hit.volume.record.title);

  describe('ranking', () => {
    it('puts the book titled exactly like the query before books that only mention it', () => {
      const found = titles(search('dune'));
      assert.equal(found[0], 'Dune');
      assert.ok(found.indexOf('Dune Messiah') < found.indexOf('Desert Worlds'), `title matches outrank a description mention: ${found.join(', ')}`);
      assert.ok(found.includes('Desert Worlds'), 'a description mention still matches');
    });

    it('ranks books holding the very word before books reached through a typo, however strong the typo\'s field', () => {
      // "pride" is one edit from "bride" and "prime": those titles used to outrank a book that says "pride" itself.
      const novel = (title: string, description: string): CatalogueRecord => ({ title, authors: ['Anon'], publisher: 'Fixture Press', publishedDate: '1816', language: 'en', categories: ['Fiction / Classics'], pageCount: 300, description, publicDomain: true });
      const withPride = parseCatalogue(fixtureCatalogueText([
        ...FIXTURE_RECORDS,
        novel('The Bride of Lammermoor', 'A feud, a bride and a prophecy on the Scottish coast.'),
        novel('The Prime of Miss Jean Brodie', 'A teacher in her prime shapes six girls in Edinburgh.'),
        novel('Mansfield Park', 'Fanny Price keeps her quiet principles while the Crawfords wound the pride of Mansfield.'),
      ]), 'fixture with pride');
      const prideIndex = new VolumeSearchIndex(withPride);
      const found = prideIndex.search({ query: parseQuery('pride'), startIndex: 0, maxResults: 40, orderBy: 'relevance', printType: 'all' }).hits.map((hit) => hit.volume.record.title);
      assert.equal(found[0], 'Pride and Prejudice');
      const exact = found.indexOf('Mansfield Park');
      const fuzzy = ['The Bride of Lammermoor', 'The Prime of Miss Jean Brodie'].map((title) => found.indexOf(title));
      assert.ok(exact > 0 && fuzzy.every((position) => position > exact), found.join(' | '));
    });

    it('ranks a title match above an author match above nothing', () => {
      assert.equal(titles(search('emma'))[0], 'Emma');
      assert.deepEqual(titles(search('austen')).sort(), ['Emma', 'Pride and Prejudice']);
    });

    it('combines words with AND, in any field', () => {
      assert.deepEqual(titles(search('herbert jihad')), ['Dune Messiah']);
      assert.deepEqual(titles(search('tolkien dragon')), ['The Hobbit']);
    });
  });

  describe('forgiving free text', () => {
    it('matches word prefixes of three letters or more', () => {
      assert.equal(titles(search('prometh'))[0], 'Frankenstein');
      // "frank" is a whole word too (Frank Herbert): exact matches outrank prefix matches.
      assert.deepEqual(titles(search('frank')).slice(0, 2).sort(), ['Dune', 'Dune Messiah']);
      assert.ok(titles(search('frank')).includes('Frankenstein'));
      assert.ok(titles(search('hobb')).includes('The Hobbit'));
    });

    it('tolerates typos, a swap included', () => {
      assert.equal(titles(search('frankenstien'))[0], 'Frankenstein');
      assert.ok(titles(search('tolkein')).includes('The Hobbit'));
    });

    it('ignores accents and case both ways', () => {
      assert.deepEqual(titles(search('MISERABLES')), ['Les Misérables']);
      assert.deepEqual(titles(search('godel escher')), ['Gödel, Escher, Bach']);
    });

    it('finds a title made of a stopword ("It") and ignores stopwords next to real words', () => {
      assert.equal(titles(search('it'))[0], 'It');
      assert.equal(titles(search('the hobbit'))[0], 'The Hobbit');
    });
  });

  describe('prefixes and phrases', () => {
    it('intitle: looks only at the title and subtitle, exactly', () => {
      assert.deepEqual(titles(search('intitle:dune')).sort(), ['Dune', 'Dune Messiah']);
      assert.deepEqual(titles(search('intitle:prometheus')), ['Frankenstein']);
      assert.deepEqual(titles(search('intitle:frank')), [], 'no prefix matching inside a field clause');
    });

    it('inauthor:, inpublisher: and subject: look at their own field', () => {
      assert.deepEqual(titles(search('inauthor:herbert')).sort(), ['Dune', 'Dune Messiah']);
      assert.deepEqual(titles(search('inpublisher:bantam')), ['A Brief History of Time']);
      assert.deepEqual(titles(search('subject:science')).sort(), ['A Brief History of Time', 'Dune', 'Dune Messiah', 'Gödel, Escher, Bach', 'The Machine Stops', 'The Time Machine']);
      assert.deepEqual(titles(search('subject:philosophy')), ['Gödel, Escher, Bach']);
    });

    it('isbn: finds a book by its ISBN-13, its ISBN-10, and the other form of either', () => {
      const dune13 = isbn13('978044117271');
      assert.deepEqual(titles(search(`isbn:${dune13}`)), ['Dune']);
      assert.deepEqual(titles(search('isbn:0441172717')), ['Dune'], 'the ISBN-10 of a 978 ISBN-13');
      const fellowship10 = isbn10('061857494');
      assert.deepEqual(titles(search(`isbn:${fellowship10}`)), ['The Fellowship of the Ring']);
      assert.deepEqual(titles(search(`isbn:${isbn13(`978${fellowship10.slice(0, 9)}`)}`)), ['The Fellowship of the Ring']);
      assert.deepEqual(titles(search('isbn:9999999999999')), []);
    });

    it('a quoted phrase needs its words adjacent and in order', () => {
      assert.deepEqual(titles(search('"time machine"')), ['The Time Machine']);
      // The Machine Stops has both words ("machine ... a long time") but not as a phrase.
      assert.ok(titles(search('time machine')).includes('The Machine Stops'));
      assert.deepEqual(titles(search('"machine time"')), []);
      assert.deepEqual(titles(search('"lord of the rings"')), ['The Fellowship of the Ring']);
    });

    it('combines a prefix clause with free text', () => {
      assert.deepEqual(titles(search('inauthor:tolkien ring')), ['The Fellowship of the Ring']);
    });

    it('finds nothing for lccn:/oclc: (the catalogue has no such numbers)', () => {
      assert.equal(search('lccn:2001012345 dune').totalItems, 0);
    });
  });

  describe('filters and order', () => {
    it('free-ebooks and full are the public-domain books; paid-ebooks are for sale; ebooks are both', () => {
      const publicDomain = catalogue.volumes.filter((volume) => volume.record.publicDomain).length;
      const all = search('fiction', { filter: 'free-ebooks' });
      assert.ok(all.hits.every((hit) => hit.volume.record.publicDomain && hit.volume.saleability === 'FREE'));
      assert.ok(search('fiction', { filter: 'full' }).hits.every((hit) => hit.volume.viewability === 'ALL_PAGES'));
      const paid = search('fiction', { filter: 'paid-ebooks' });
      assert.ok(paid.hits.every((hit) => hit.volume.saleability === 'FOR_SALE' && hit.volume.price !== undefined));
      const ebooks = search('fiction', { filter: 'ebooks' });
      assert.ok(ebooks.hits.every((hit) => hit.volume.isEbook));
      assert.ok(ebooks.totalItems >= all.totalItems + paid.totalItems);
      assert.ok(publicDomain > 0);
      assert.ok(search('fiction', { filter: 'partial' }).hits.every((hit) => hit.volume.viewability !== 'NO_PAGES'));
    });

    it('printType=magazines finds nothing in a catalogue of books; books and all find the same', () => {
      assert.equal(search('dune', { printType: 'magazines' }).totalItems, 0);
      assert.equal(search('dune', { printType: 'books' }).totalItems, search('dune').totalItems);
    });

    it('langRestrict keeps one language (a region suffix is ignored)', () => {
      assert.deepEqual(titles(search('fiction classics', { langRestrict: 'fr' })), ['Les Misérables']);
      assert.deepEqual(titles(search('fiction classics', { langRestrict: 'de-AT' })), ['Der Process']);
    });

    it('orderBy=newest sorts by publication date, a bare year before the dates inside it', () => {
      const dates = search('fiction', { orderBy: 'newest' }).hits.map((hit) => hit.volume.record.publishedDate);
      const keys = dates.map((date) => date.padEnd(10, '-'));
      assert.deepEqual(keys, [...keys].sort().reverse());
      assert.equal(dates[0], '2004', 'Desert Worlds mentions science fiction');
    });

    it('pages by startIndex and maxResults while totalItems counts every match', () => {
      const all = search('fiction');
      assert.ok(all.totalItems > 5);
      const seen: string[] = [];
      for (let start = 0; start < all.totalItems; start += 3) {
        const page = search('fiction', { startIndex: start, maxResults: 3 });
        assert.equal(page.totalItems, all.totalItems);
        seen.push(...page.hits.map((hit) => hit.volume.id));
      }
      assert.deepEqual(seen, all.hits.map((hit) => hit.volume.id));
      assert.equal(search('fiction', { startIndex: all.totalItems }).hits.length, 0);
      assert.equal(search('fiction', { maxResults: 0 }).hits.length, 0);
    });
  });

  describe('text snippets', () => {
    it('bolds the matched words of the description and escapes the rest as HTML', () => {
      const hit = search('marriage money').hits[0];
      assert.ok(hit);
      const snippet = textSnippet(hit.volume.record.description, hit.matchedTerms);
      assert.equal(snippet, 'Elizabeth Bennet &amp; Mr Darcy misjudge each other in a comedy of manners about &lt;<b>marriage</b>&gt; and <b>money</b>.');
    });

    it('bolds the document word a prefix or typo matched, and cuts long text around the first match', () => {
      const hit = search('dragn').hits.at(0);
      assert.ok(hit?.volume.record.title === 'The Hobbit');
      assert.match(textSnippet(hit.volume.record.description, hit.matchedTerms), /<b>dragon<\/b>/);
      const long = `${'filler words '.repeat(40)}the spice must flow ${'and more '.repeat(40)}`;
      const snippet = textSnippet(long, ['spice']);
      assert.match(snippet, /^\.\.\.&nbsp;/);
      assert.match(snippet, /<b>spice<\/b>/);
      assert.match(snippet, /&nbsp;\.\.\.$/);
      assert.ok(snippet.length < 300);
    });
  });
});
