/**
 * Books for the search: the volumes on the user's own shelves that match (mylibrary volumes.list `q`, each shelf asked
 * at once, those the Books view's cache knows even before the shelf list answers; the list is read once per quick
 * pick), then the catalogue's (volumes.list `q`), leaving out what is already shown from a shelf. A failing catalogue leaves the shelf hits, and the other way round.
 */
import type { Bookshelf, Volume } from '../../../shared/schemas/books';
import { english, Translate } from '../../../shared/l10n';
import { askedNow, SearchHit, SearchSource, startEarly, untilAborted } from '../model';
import type { SearchBooksApi } from '../port';

const CATALOGUE_HITS = 10;
const SHELF_HITS = 10;

export class BooksSearchSource implements SearchSource {
  readonly service = 'books' as const;
  private shelves: Promise<readonly Bookshelf[]> | undefined;

  /** `knownShelves`: My Library's shelves as the Books view's cache has them (read from disk, no request). */
  constructor(private readonly api: SearchBooksApi, private readonly t: Translate = english, private readonly knownShelves: () => Promise<readonly Bookshelf[] | undefined> = () => Promise.resolve(undefined)) {}

  async search(query: string, signal: AbortSignal): Promise<readonly SearchHit[]> {
    const [onShelves, inCatalogue] = await Promise.allSettled([this.shelfHits(query, signal), this.api.searchVolumes(query, { maxResults: CATALOGUE_HITS, signal })]);
    if (onShelves.status === 'rejected' && inCatalogue.status === 'rejected') throw onShelves.reason;
    const hits: SearchHit[] = onShelves.status === 'fulfilled' ? [...onShelves.value] : [];
    const shown = new Set(hits.map((hit) => (hit.target.kind === 'volume' ? hit.target.volumeId : '')));
    for (const volume of inCatalogue.status === 'fulfilled' ? inCatalogue.value.items ?? [] : []) {
      if (shown.has(volume.id)) continue;
      shown.add(volume.id);
      hits.push({ title: titleOf(volume, this.t), context: [this.t('Google Books'), byline(volume)].filter(Boolean).join(' · '), target: { kind: 'volume', volumeId: volume.id } });
    }
    return hits;
  }

  private async shelfHits(query: string, signal: AbortSignal): Promise<readonly SearchHit[]> {
    const withVolumes = (shelf: Bookshelf): boolean => (shelf.volumeCount ?? 1) > 0;
    // The shelves the cache knows are searched beside the shelf list (one round trip); the list then decides.
    // The shelf list is asked for at once: reading the view's cache is a disk read, not worth a wait before it.
    const listed = askedNow(this.shelfList());
    const known = (await this.knownShelves().catch(() => undefined)) ?? [];
    const volumesOn = startEarly(known.filter(withVolumes).map((shelf) => shelf.id), async (id) => (await this.api.listMyShelfVolumes(id, { q: query, maxResults: SHELF_HITS, signal })).items ?? []);
    const shelves = (await untilAborted(listed, signal)).filter(withVolumes);
    const perShelf = await Promise.all(shelves.map(async (shelf) => ({ shelf, volumes: await volumesOn(shelf.id) })));
    // The same book on two shelves is one hit naming both.
    const byVolume = new Map<string, { volume: Volume; shelves: Bookshelf[] }>();
    for (const { shelf, volumes } of perShelf) {
      for (const volume of volumes) {
        const entry = byVolume.get(volume.id) ?? { volume, shelves: [] };
        entry.shelves.push(shelf);
        byVolume.set(volume.id, entry);
      }
    }
    return [...byVolume.values()].map(({ volume, shelves: on }) => ({
      title: titleOf(volume, this.t),
      context: [this.t('On {0}', on.map((shelf) => shelf.title).join(', ')), byline(volume)].filter(Boolean).join(' · '),
      target: { kind: 'volume', volumeId: volume.id, ...(on[0] ? { shelfId: on[0].id } : {}) },
    }));
  }

  private shelfList(): Promise<readonly Bookshelf[]> {
    this.shelves ??= this.api.listMyBookshelves().then((answer) => answer.items ?? []).catch((error: unknown) => {
      this.shelves = undefined;
      throw error;
    });
    return this.shelves;
  }
}

function titleOf(volume: Volume, t: Translate): string {
  return volume.volumeInfo.title ?? t('(untitled volume)');
}

/** "Ursula K. Le Guin, 1969". */
function byline(volume: Volume): string {
  return [volume.volumeInfo.authors?.join(', '), volume.volumeInfo.publishedDate?.slice(0, 4)].filter(Boolean).join(', ');
}
