import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import {
  CatalogueError,
  findCatalogueFile,
  generateSyntheticCatalogue,
  loadCatalogue,
  loadCatalogueFile,
  parseCatalogue,
  SYNTHETIC_PUBLISHER,
  syntheticRecords,
  volumeIdFor,
} from '../../../../src/emulator/books/catalogue';
import { renderVolume } from '../../../../src/emulator/books/render';
import { volumeSchema } from '../../../../src/shared/schemas/books';
import { FIXTURE_RECORDS, fixtureCatalogueText, writeFixtureCatalogue } from '../../../support/booksCatalogue';

const line = (record: unknown): string => JSON.stringify(record);
const good = FIXTURE_RECORDS[0];

function importError(text: string): string {
  try {
    parseCatalogue(text, 'mine.jsonl');
  } catch (error) {
    assert.ok(error instanceof CatalogueError, String(error));
    return error.message;
  }
  assert.fail('expected a CatalogueError');
}

describe('books catalogue', () => {
  describe('import (--books FILE.jsonl)', () => {
    it('loads valid lines, skipping blank ones', () => {
      const catalogue = parseCatalogue(`${fixtureCatalogueText()}\n\n`, 'fixture');
      assert.equal(catalogue.size, FIXTURE_RECORDS.length);
    });

    it('names the file and line of malformed JSON', () => {
      assert.match(importError(`${line(good)}\n{"title": "Broken"`), /^mine\.jsonl line 2: not valid JSON/);
    });

    it('names the line and field of a record that breaks the format', () => {
      assert.match(importError(line({ ...good, authors: [] })), /^mine\.jsonl line 1: field 'authors' must name at least one author/);
      assert.match(importError(`${line(good)}\n${line({ ...good, title: 'Other', publishedDate: '1965-13-01' })}`), /line 2: field 'publishedDate' must be YYYY, YYYY-MM or YYYY-MM-DD/);
      assert.match(importError(line({ ...good, isbn13: '9780441172710' })), /line 1: field 'isbn13' must be a valid ISBN-13/);
      assert.match(importError(line({ ...good, isbn10: '0441172718' })), /line 1: field 'isbn10' must be a valid ISBN-10/);
      const { description: _dropped, ...withoutDescription } = good as typeof good & Record<string, unknown>;
      assert.match(importError(line(withoutDescription)), /line 1: field 'description'/);
      assert.match(importError('[1, 2]'), /line 1: /);
    });

    it('refuses unknown fields (a typo would otherwise vanish silently)', () => {
      assert.match(importError(line({ ...good, autor: 'x' })), /line 1: .*autor/);
    });

    it('refuses the same book twice, naming both lines', () => {
      assert.match(importError(`${line(good)}\n${line(FIXTURE_RECORDS[1])}\n${line(good)}`), /line 3: the same book as line 1/);
    });

    it('reports an unreadable file by name', () => {
      assert.throws(() => loadCatalogueFile('/nonexistent/books.jsonl'), /cannot read the books catalogue \/nonexistent\/books\.jsonl/);
    });

    it('reads a file given to --books', () => {
      const { file, dir } = writeFixtureCatalogue();
      try {
        assert.equal(loadCatalogue(file).catalogue.size, FIXTURE_RECORDS.length);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('volume ids', () => {
    it('are 12 URL-safe characters derived from the record, not its place in the file', () => {
      const forward = parseCatalogue(fixtureCatalogueText(), 'a');
      const backward = parseCatalogue(fixtureCatalogueText([...FIXTURE_RECORDS].reverse()), 'b');
      for (const volume of forward.volumes) {
        assert.match(volume.id, /^[A-Za-z0-9_-]{12}$/);
        assert.equal(backward.get(volume.id)?.record.title, volume.record.title);
      }
      assert.equal(volumeIdFor(good), forward.volumes[0]?.id);
    });

    it('turn ISBNs into ISBN_13/ISBN_10 identifiers and give other books an OTHER one', () => {
      const catalogue = parseCatalogue(fixtureCatalogueText(), 'fixture');
      const identifiersOf = (title: string): unknown => {
        const volume = catalogue.volumes.find((candidate) => candidate.record.title === title);
        assert.ok(volume);
        return volumeSchema.parse(renderVolume(volume, { baseUrl: 'http://x', projection: 'full' })).volumeInfo.industryIdentifiers;
      };
      assert.deepEqual(identifiersOf('Dune'), [{ type: 'ISBN_13', identifier: FIXTURE_RECORDS[0]?.isbn13 }]);
      assert.deepEqual(identifiersOf('The Fellowship of the Ring'), [{ type: 'ISBN_10', identifier: FIXTURE_RECORDS[4]?.isbn10 }]);
      const emma = catalogue.volumes.find((candidate) => candidate.record.title === 'Emma');
      assert.deepEqual(identifiersOf('Emma'), [{ type: 'OTHER', identifier: `DESK:${String(emma?.id)}` }]);
    });
  });

  describe('lite projection', () => {
    it('keeps only the fields Google marks "(In LITE projection)"', () => {
      const catalogue = parseCatalogue(fixtureCatalogueText(), 'fixture');
      const dune = catalogue.volumes[0];
      assert.ok(dune);
      const full = renderVolume(dune, { baseUrl: 'http://x', projection: 'full' });
      const lite = renderVolume(dune, { baseUrl: 'http://x', projection: 'lite' });
      assert.deepEqual(Object.keys(lite.volumeInfo).sort(), ['authors', 'canonicalVolumeLink', 'contentVersion', 'description', 'infoLink', 'publishedDate', 'publisher', 'title']);
      for (const dropped of ['categories', 'industryIdentifiers', 'pageCount', 'language', 'printType', 'previewLink'] as const) {
        assert.ok(full.volumeInfo[dropped] !== undefined, `${dropped} is in full`);
        assert.equal(lite.volumeInfo[dropped], undefined, `${dropped} is not in lite`);
      }
      assert.equal(lite.saleInfo?.saleability, undefined);
      assert.equal(lite.accessInfo?.viewability, undefined);
      assert.equal(lite.accessInfo?.accessViewStatus, full.accessInfo?.accessViewStatus);
      assert.deepEqual([lite.kind, lite.id, lite.etag, lite.selfLink], [full.kind, full.id, full.etag, full.selfLink]);
    });
  });

  describe('synthetic catalogues', () => {
    it('are deterministic: the same count and seed give the same records and ids', () => {
      const first = generateSyntheticCatalogue(2000, 7);
      const second = generateSyntheticCatalogue(2000, 7);
      assert.deepEqual(first.volumes.map((volume) => volume.id), second.volumes.map((volume) => volume.id));
      assert.deepEqual(syntheticRecords(3, 7), syntheticRecords(3, 7));
      assert.notDeepEqual(syntheticRecords(3, 7), syntheticRecords(3, 8));
      assert.equal(new Set(first.volumes.map((volume) => volume.id)).size, 2000, 'ids are unique');
    });

    it('mark every record as synthetic and keep to the catalogue format', () => {
      const text = syntheticRecords(500, 3).map((record) => JSON.stringify(record)).join('\n');
      const catalogue = parseCatalogue(text, 'synthetic');
      for (const { record } of catalogue.volumes) {
        assert.equal(record.publisher, SYNTHETIC_PUBLISHER);
        assert.match(record.description, /synthetic record .* not a real book/);
        assert.match(record.subtitle ?? '', /^Synthetic volume \d+$/);
        assert.equal(record.isbn13, undefined, 'no invented ISBNs that could collide with real books');
      }
    });

    it('are what --books synthetic:COUNT[:SEED] loads; a bad count is an error', () => {
      assert.equal(loadCatalogue('synthetic:250').catalogue.size, 250);
      assert.deepEqual(loadCatalogue('synthetic:5:9').catalogue.volumes.map((volume) => volume.id), generateSyntheticCatalogue(5, 9).volumes.map((volume) => volume.id));
      assert.throws(() => loadCatalogue('synthetic:0'), CatalogueError);
    });
  });

  describe('the real catalogue', () => {
    it('is found from the compiled tests and every line is a valid record', function () {
      const file = findCatalogueFile();
      if (!file) this.skip();
      const { catalogue, missing, problems } = loadCatalogue(undefined);
      assert.equal(missing, false);
      assert.deepEqual(problems.map((problem) => `line ${problem.line}: ${problem.message}`), [], 'the emulator would skip these books');
      assert.ok(catalogue.size > 0);
      assert.equal(new Set(catalogue.volumes.map((volume) => volume.id)).size, catalogue.size);
    });

    it('is loaded leniently: a bad line of Desk\'s own catalogue is skipped and reported, not fatal', () => {
      const problems: string[] = [];
      const text = `${line(good)}\n{"title":"Broken"}\n${line(FIXTURE_RECORDS[1])}`;
      const catalogue = parseCatalogue(text, 'built-in', { onProblem: (problem) => problems.push(`${problem.line}: ${problem.message}`) });
      assert.equal(catalogue.size, 2);
      assert.deepEqual(problems, ["2: field 'authors' is missing"]);
    });
  });
});
