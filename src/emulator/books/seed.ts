/** Demo bookshelves for `--seed demo`: a few real catalogue books on alice's, bob's and carol's shelves, public and private. */
import { DEMO_USERS } from '../identity/users';
import type { CatalogueVolume } from './catalogue';
import type { BooksService } from './index';
import { wordsOf } from './search';

interface DemoLibrary {
  /** Shelf id → titles to put there, first title first on the shelf. */
  readonly shelves: Readonly<Record<number, readonly string[]>>;
  /** A custom shelf (Google's ids from 1001), as if made on the Google Books site. */
  readonly custom?: { title: string; access: 'PUBLIC' | 'PRIVATE'; description: string; titles: readonly string[] };
}

/**
 * Titles, not ids: ids derive from the records, and titles read better. A title the catalogue lacks is replaced by
 * the next unused catalogue book, so every demo shelf has something on it whatever catalogue is loaded.
 */
const DEMO: Readonly<Record<string, DemoLibrary>> = {
  'alice@example.com': {
    shelves: {
      0: ['Pride and Prejudice', 'The Hobbit'],
      2: ['Dune', 'The Left Hand of Darkness', 'Middlemarch'],
      3: ['Moby-Dick'],
      4: ['Frankenstein', 'Jane Eyre', 'The Great Gatsby'],
      1: ['The Pragmatic Programmer'],
      6: ['Dracula'],
    },
    custom: { title: 'Book club', access: 'PUBLIC', description: 'What the neighbourhood book club reads next.', titles: ['Beloved', 'Things Fall Apart'] },
  },
  'bob@example.com': {
    shelves: {
      0: ['The Lord of the Rings'],
      2: ['Designing Data-Intensive Applications', 'Structure and Interpretation of Computer Programs'],
      3: ['The Pragmatic Programmer'],
      4: ['Nineteen Eighty-Four', 'Brave New World'],
    },
    custom: { title: 'Gift ideas', access: 'PRIVATE', description: 'Books to give away this winter.', titles: ['The Little Prince'] },
  },
  'carol@example.com': {
    shelves: {
      2: ['War and Peace'],
      4: ['Anna Karenina'],
    },
  },
};

export function seedBooksDemo(service: BooksService): void {
  const { catalogue, model } = service;
  if (catalogue.size === 0) return;
  const byTitle = new Map<string, CatalogueVolume>();
  for (const volume of catalogue.volumes) {
    const key = wordsOf(volume.record.title).join(' ');
    if (!byTitle.has(key)) byTitle.set(key, volume);
  }
  // Substitutes are taken in catalogue order across all shelves, so demo shelves differ from one another.
  let fallback = 0;
  const resolve = (titles: readonly string[]): string[] => {
    const onShelf = new Set<string>();
    for (const title of titles) {
      const found = byTitle.get(wordsOf(title).join(' '));
      if (found && !onShelf.has(found.id)) {
        onShelf.add(found.id);
        continue;
      }
      for (let tries = 0; tries < catalogue.size; tries++) {
        const substitute = catalogue.volumes[fallback++ % catalogue.size] as CatalogueVolume;
        if (!onShelf.has(substitute.id)) {
          onShelf.add(substitute.id);
          break;
        }
      }
    }
    return [...onShelf];
  };

  for (const [email, library] of Object.entries(DEMO)) {
    const user = DEMO_USERS.find((candidate) => candidate.email === email);
    if (!user) continue;
    for (const [shelfId, titles] of Object.entries(library.shelves)) model.seedVolumes(user.id, Number(shelfId), resolve(titles));
    if (library.custom) {
      const shelf = model.createCustomShelfForSeed(user.id, library.custom.title, library.custom.access, library.custom.description);
      model.seedVolumes(user.id, shelf.id, resolve(library.custom.titles));
    }
  }
}
