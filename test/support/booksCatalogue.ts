/** A small, fixed Books catalogue for tests (real books, chosen so ranking, phrases, filters and accents have something to prove), and a temp-file writer for `booksCatalogue`. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CatalogueRecord } from '../../src/emulator/books/catalogue';

/** ISBN-13 from its first 12 digits (the check digit computed, so fixtures never carry a typo). */
export function isbn13(first12: string): string {
  let sum = 0;
  for (let index = 0; index < 12; index++) sum += Number(first12[index]) * (index % 2 ? 3 : 1);
  return first12 + String((10 - (sum % 10)) % 10);
}

/** ISBN-10 from its first 9 digits. */
export function isbn10(first9: string): string {
  let sum = 0;
  for (let index = 0; index < 9; index++) sum += Number(first9[index]) * (10 - index);
  const check = (11 - (sum % 11)) % 11;
  return first9 + (check === 10 ? 'X' : String(check));
}

export const FIXTURE_RECORDS: readonly CatalogueRecord[] = [
  { title: 'Dune', authors: ['Frank Herbert'], publisher: 'Chilton Books', publishedDate: '1965-08-01', language: 'en', categories: ['Fiction / Science Fiction'], pageCount: 412, description: 'On the desert planet Arrakis, Paul Atreides is drawn into a war over the spice that the whole galaxy depends on.', isbn13: isbn13('978044117271'), publicDomain: false },
  { title: 'Dune Messiah', authors: ['Frank Herbert'], publisher: 'Putnam', publishedDate: '1969', language: 'en', categories: ['Fiction / Science Fiction'], pageCount: 256, description: 'Twelve years after taking the throne, Paul Atreides faces a conspiracy of those who fear his jihad.', publicDomain: false },
  { title: 'Desert Worlds', subtitle: 'A Reader\'s Guide', authors: ['Ada Castellano'], publisher: 'Fixture Press', publishedDate: '2004', language: 'en', categories: ['Literary Criticism'], pageCount: 190, description: 'A survey of science fiction deserts, from the sands of Dune to the salt flats of Tatooine.', publicDomain: false },
  { title: 'The Hobbit', subtitle: 'or There and Back Again', authors: ['J. R. R. Tolkien'], publisher: 'George Allen & Unwin', publishedDate: '1937-09-21', language: 'en', categories: ['Juvenile Fiction'], pageCount: 310, description: 'Bilbo Baggins is swept into a quest with thirteen dwarves to reclaim treasure guarded by the dragon Smaug.', isbn13: isbn13('978054792822'), publicDomain: false },
  { title: 'The Fellowship of the Ring', authors: ['J. R. R. Tolkien'], publisher: 'George Allen & Unwin', publishedDate: '1954-07-29', language: 'en', categories: ['Fiction / Fantasy'], pageCount: 423, description: 'The first volume of The Lord of the Rings: Frodo sets out to destroy the One Ring.', isbn10: isbn10('061857494'), publicDomain: false },
  { title: 'Pride and Prejudice', authors: ['Jane Austen'], publisher: 'T. Egerton', publishedDate: '1813-01-28', language: 'en', categories: ['Fiction / Classics'], pageCount: 432, description: 'Elizabeth Bennet & Mr Darcy misjudge each other in a comedy of manners about <marriage> and money.', publicDomain: true },
  { title: 'Emma', authors: ['Jane Austen'], publisher: 'John Murray', publishedDate: '1815-12-23', language: 'en', categories: ['Fiction / Classics'], pageCount: 474, description: 'A clever young woman of Highbury meddles in the romances of her friends.', publicDomain: true },
  { title: 'Frankenstein', subtitle: 'or, The Modern Prometheus', authors: ['Mary Shelley'], publisher: 'Lackington, Hughes, Harding, Mavor & Jones', publishedDate: '1818-01-01', language: 'en', categories: ['Fiction / Horror'], pageCount: 280, description: 'A young scientist creates a living being from dead matter and abandons it.', publicDomain: true },
  { title: 'The Time Machine', authors: ['H. G. Wells'], publisher: 'William Heinemann', publishedDate: '1895', language: 'en', categories: ['Fiction / Science Fiction'], pageCount: 118, description: 'A Victorian inventor travels to the year 802,701 and finds humanity divided into the Eloi and the Morlocks.', publicDomain: true },
  { title: 'The Machine Stops', authors: ['E. M. Forster'], publisher: 'Oxford and Cambridge Review', publishedDate: '1909-11', language: 'en', categories: ['Fiction / Science Fiction'], pageCount: 48, description: 'Humanity lives underground, served by a vast machine; for a long time nobody asks what happens if it stops.', publicDomain: true },
  { title: 'A Brief History of Time', subtitle: 'From the Big Bang to Black Holes', authors: ['Stephen Hawking'], publisher: 'Bantam Books', publishedDate: '1988', language: 'en', categories: ['Science'], pageCount: 212, description: 'Cosmology for the general reader: the origin, shape and fate of the universe.', isbn13: isbn13('978055338016'), publicDomain: false },
  { title: 'Les Misérables', authors: ['Victor Hugo'], publisher: 'A. Lacroix, Verboeckhoven & Cie', publishedDate: '1862', language: 'fr', categories: ['Fiction / Classics'], pageCount: 1463, description: 'Jean Valjean, ancien forçat, cherche la rédemption dans la France du XIXe siècle.', publicDomain: true },
  { title: 'Der Process', authors: ['Franz Kafka'], publisher: 'Verlag Die Schmiede', publishedDate: '1925', language: 'de', categories: ['Fiction / Classics'], pageCount: 280, description: 'Josef K. wird eines Morgens verhaftet, ohne dass er weiß, wessen man ihn beschuldigt.', publicDomain: true },
  { title: 'Gödel, Escher, Bach', subtitle: 'An Eternal Golden Braid', authors: ['Douglas R. Hofstadter'], publisher: 'Basic Books', publishedDate: '1979', language: 'en', categories: ['Science', 'Philosophy'], pageCount: 777, description: 'Self-reference and formal systems, through the mathematics of Gödel, the art of Escher and the music of Bach.', isbn13: isbn13('978046502656'), publicDomain: false },
  { title: 'Nineteen Eighty-Four', authors: ['George Orwell'], publisher: 'Secker & Warburg', publishedDate: '1949-06-08', language: 'en', categories: ['Fiction / Dystopian'], pageCount: 328, description: 'Winston Smith rebels against Big Brother in a state that rewrites the past.', isbn13: isbn13('978045152493'), publicDomain: false },
  { title: 'It', authors: ['Stephen King'], publisher: 'Viking', publishedDate: '1986-09-15', language: 'en', categories: ['Fiction / Horror'], pageCount: 1138, description: 'Seven friends in Derry, Maine, face a shape-shifting evil that returns every twenty-seven years.', publicDomain: false },
];

export function fixtureCatalogueText(records: readonly CatalogueRecord[] = FIXTURE_RECORDS): string {
  return `${records.map((record) => JSON.stringify(record)).join('\n')}\n`;
}

/** Writes a catalogue to a temp file (for `booksCatalogue`, i.e. `--books FILE`); the caller removes the folder. */
export function writeFixtureCatalogue(text: string = fixtureCatalogueText()): { file: string; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-books-'));
  const file = path.join(dir, 'catalogue.jsonl');
  fs.writeFileSync(file, text);
  return { file, dir };
}
