/** Google Books API v1 in the emulator: the ServiceModule, and one catalogue, search index and shelf model per store. */
import { logLine } from '../core/log';
import { perStore } from '../core/perStore';
import { ServiceDeps, ServiceModule } from '../core/server';
import { Catalogue, loadCatalogue } from './catalogue';
import { BookshelvesModel } from './model';
import { booksRoutes } from './routes';
import { VolumeSearchIndex } from './search';
import { seedBooksDemo } from './seed';

declare module '../core/server' {
  interface EmulatorOptions {
    /**
     * `--books`: a JSON-lines catalogue file of the user's own, or `synthetic:COUNT[:SEED]`; unset means the real
     * catalogue shipped with Desk.
     */
    booksCatalogue?: string;
  }
}

export interface BooksService {
  readonly catalogue: Catalogue;
  readonly model: BookshelvesModel;
  /** The catalogue's search index, built from the emulator's start while other requests go on (shared by every search). */
  searchIndex(): Promise<VolumeSearchIndex>;
}

/** Catalogues are read-only, so one parse and one index per source serve every emulator of the process (tests start many). */
const catalogues = new Map<string, Catalogue>();
const indexes = new WeakMap<Catalogue, Promise<VolumeSearchIndex>>();

function catalogueFor(deps: ServiceDeps): Catalogue {
  const spec = deps.options.booksCatalogue ?? '';
  let catalogue = catalogues.get(spec);
  if (!catalogue) {
    const loaded = loadCatalogue(spec);
    if (loaded.missing && !deps.options.quiet) logLine('[emulator] books: no catalogue found (src/emulator/books/data/catalogue.jsonl); searches will find nothing');
    // Always said, quiet or not: a skipped book is a data bug to fix, and it is one line per bad record.
    for (const problem of loaded.problems) logLine(`[emulator] books: skipped ${loaded.catalogue.source} line ${problem.line}: ${problem.message}`);
    catalogue = loaded.catalogue;
    // A missing catalogue may appear later (it is being written): do not remember the empty one.
    if (!loaded.missing) catalogues.set(spec, catalogue);
  }
  return catalogue;
}

/** One service per store: routes and the demo seed must share the shelf model. */
export const booksServiceFor = perStore((deps: ServiceDeps): BooksService => {
  const catalogue = catalogueFor(deps);
  return {
    catalogue,
    model: new BookshelvesModel(deps.store, deps.now, catalogue),
    searchIndex: () => {
      let index = indexes.get(catalogue);
      if (!index) {
        index = VolumeSearchIndex.build(catalogue);
        indexes.set(catalogue, index);
      }
      return index;
    },
  };
});

/** Books v1 under /books/v1 (Google's base already ends in /books/v1), plus /emulator/v1/books dev routes. */
export const booksModule: ServiceModule = {
  name: 'books',
  register(router, deps) {
    // Loaded here, not lazily: a bad --books file must stop the emulator at start with the line it failed on.
    const service = booksServiceFor(deps);
    router.addAll(booksRoutes(service, deps.store));
    // The search index is built from the start, in time slices beside other requests (once per catalogue and
    // process): the first search no longer waits for it (3 s at 100,000 volumes). A failure shows on that search.
    service.searchIndex().catch(() => undefined);
  },
  seedDemo(deps) {
    seedBooksDemo(booksServiceFor(deps));
  },
};
