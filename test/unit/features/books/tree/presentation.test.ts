import * as assert from 'node:assert/strict';
import type { LibraryNode, ShelfNode, VolumeNode } from '../../../../../src/features/books/tree/model';
import { formatDay } from '../../../../../src/core/text/clock';
import { authorsText, contextValueFor, htmlToText, safeLink, shelfDescription, shelfDetailsMarkdown, shelfTooltip, volumeDescription, volumeDetailsMarkdown, volumeTooltip, yearOf } from '../../../../../src/features/books/tree/presentation';
import { fakeVolume } from '../../../../support/fakes/books';

describe('Books presentation', () => {
  it('describes a volume row as authors · year · pages', () => {
    assert.equal(volumeDescription(fakeVolume('v', 'Dune', { authors: ['Frank Herbert'], publishedDate: '1965-08-01', pageCount: 412 })), 'Frank Herbert · 1965 · 412 pages');
    assert.equal(volumeDescription(fakeVolume('v', 'X', { authors: [], publishedDate: undefined, pageCount: 1 })), '1 page');
    assert.equal(authorsText(['A', 'B']), 'A and B');
    assert.equal(authorsText(['A', 'B', 'C', 'D']), 'A, B and 2 more');
    assert.equal(yearOf('2004-11'), '2004');
    assert.equal(yearOf('unknown'), undefined);
  });

  it('describes a shelf by volume count and access; its hover says when Google keeps it', () => {
    const shelf = { kind: 'books#bookshelf' as const, id: 1, title: 'Purchased', access: 'PRIVATE', volumeCount: 1 };
    assert.equal(shelfDescription(shelf), '1 volume · private');
    assert.equal(shelfDescription({ ...shelf, id: 2, access: 'PUBLIC', volumeCount: 3 }), '3 volumes · public');
    assert.match(shelfTooltip(shelf, { mine: true, writable: false, owner: 'me' }), /^\*\*Purchased\*\* {2}\n {2}\nRead\\-only: Google Books fills this shelf\\./);
    assert.match(shelfTooltip({ ...shelf, access: 'PUBLIC' }, { mine: false, writable: false, owner: '42' }), /Public shelf of user 42 \\\(read\\-only\\\)/);
    // When its volumes last changed, as Desk's clock writes a day (never the ISO timestamp).
    const day = (ms: number): string => formatDay(ms, 'Europe/London', 'en-GB', Date.UTC(2026, 10, 27));
    assert.match(shelfTooltip({ ...shelf, volumesLastUpdated: '2026-11-20T09:00:00.000Z' }, { mine: true, writable: false, owner: 'me', day }), /Volumes last changed Fri,? 20 Nov$/);
  });

  it('turns Google\'s HTML descriptions into text and escapes markdown in hovers', () => {
    assert.equal(htmlToText('<p>One <b>bold</b> &amp; <i>two</i></p><p>Three<br>four &#233;&#x41;</p>'), 'One bold & two\n\nThree\nfourA'.replace('fourA', 'four éA'));
    const tooltip = volumeTooltip(fakeVolume('v', '[click](command:x)', { description: '<b>*hi*</b>', industryIdentifiers: [{ type: 'ISBN_13', identifier: '9780441172719' }] }));
    assert.ok(tooltip.includes('\\[click\\]\\(command:x\\)'), tooltip);
    assert.ok(tooltip.includes('\\*hi\\*'));
    assert.ok(tooltip.includes('ISBN\\-13: 9780441172719'));
  });

  it('renders the details page with identifiers, categories, publisher, date, and only web links', () => {
    const markdown = volumeDetailsMarkdown(fakeVolume('v1', 'Dune', {
      subtitle: 'A novel',
      publisher: 'Chilton Books',
      publishedDate: '1965-08-01',
      categories: ['Fiction / Science Fiction'],
      industryIdentifiers: [{ type: 'ISBN_10', identifier: '0441172717' }],
      description: 'Spice.',
      infoLink: 'https://books.example/v1',
      previewLink: 'javascript:alert(1)',
    }));
    for (const expected of ['# Dune', '_A novel_', '| Publisher | Chilton Books |', '| Published | 1965\\-08\\-01 |', 'Fiction / Science Fiction', '- ISBN\\-10: 0441172717', '## Description', 'Spice\\.', '[More about this book](https://books.example/v1)']) {
      assert.ok(markdown.includes(expected), `missing ${expected} in\n${markdown}`);
    }
    assert.ok(!markdown.includes('javascript'), 'a non-web link was rendered');
    assert.equal(safeLink('command:desk.signOut'), undefined);
    assert.equal(safeLink('https://x/a b(c)'), 'https://x/a%20b%28c%29');
  });

  it('says in words what Google\'s values mean (kind, reading, sale, language, a scan\'s catalogue number)', () => {
    const volume = fakeVolume('v2', 'Persuasion', { printType: 'BOOK', language: 'en', industryIdentifiers: [{ type: 'OTHER', identifier: 'DESK:v2' }] });
    const markdown = volumeDetailsMarkdown({ ...volume, accessInfo: { viewability: 'ALL_PAGES' }, saleInfo: { saleability: 'FOR_SALE', isEbook: true, retailPrice: { amount: 4.99, currencyCode: 'GBP' } } }, undefined, 'en-GB');
    for (const expected of ['| Kind | Book |', '| Language | English |', '| Reading | Full view: every page can be read |', '| Sale | For sale, £4\\.99 |', '- Catalogue number: DESK:v2']) {
      assert.ok(markdown.includes(expected), `missing ${expected} in\n${markdown}`);
    }
    for (const raw of ['BOOK', 'ALL_PAGES', 'FOR_SALE', 'OTHER']) assert.ok(!markdown.includes(raw), `${raw} shown raw in\n${markdown}`);
  });

  it('renders shelf details', () => {
    const markdown = shelfDetailsMarkdown({ kind: 'books#bookshelf', id: 1001, title: 'Book club', description: 'Next reads', access: 'PUBLIC', volumeCount: 2, created: '2026-01-01T00:00:00.000Z' }, { mine: false, writable: false, owner: '42' });
    assert.ok(markdown.startsWith('# Book club'));
    assert.ok(markdown.includes('| Library | User 42 |'));
    assert.ok(markdown.includes("Read\\-only \\(another user's shelf\\)"), markdown);
  });

  it('gives menus words: kind, whose, and whether it may change', () => {
    const mine: LibraryNode = { kind: 'library', id: 'library/me', parent: undefined, owner: 'me', mine: true };
    const other: LibraryNode = { kind: 'library', id: 'library/42', parent: undefined, owner: '42', mine: false };
    const shelf: ShelfNode = { kind: 'shelf', id: 'shelf/me/2', parent: mine, shelf: { kind: 'books#bookshelf', id: 2, title: 'To read', volumeCount: 0 }, writable: true };
    const purchased: ShelfNode = { kind: 'shelf', id: 'shelf/me/1', parent: mine, shelf: { kind: 'books#bookshelf', id: 1, title: 'Purchased', volumeCount: 3 }, writable: false };
    const volume: VolumeNode = { kind: 'volume', id: 'volume/me/1/v', parent: purchased, volume: fakeVolume('v', 'V'), position: 0 };
    assert.equal(contextValueFor(mine), 'booksLibrary mine');
    assert.equal(contextValueFor(other), 'booksLibrary public');
    assert.equal(contextValueFor(shelf), 'bookshelf mine writable empty');
    assert.equal(contextValueFor(purchased), 'bookshelf mine readonly nonEmpty');
    assert.equal(contextValueFor(volume), 'volume mine readonly');
  });
});
