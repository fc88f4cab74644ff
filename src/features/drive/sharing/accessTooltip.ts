/**
 * The "who has access" lines of a Drive file's tooltip, fetched when the row is hovered (never per listing) and kept
 * per file version: a sharing change gives the file a new etag, so the next hover asks again.
 */
import type { DriveItem } from '../port';
import { accessSummary, sharedWithMeLine, WriteDay } from './access';
import type { SharingApi } from './port';
import type { Translate } from '../../../shared/l10n';

/** One page is plenty for a summary; a longer list says "and others". */
const PAGE = 100;

export class AccessTooltips {
  private readonly cache = new Map<string, { etag: string | undefined; lines: Promise<string[]> }>();

  constructor(private readonly api: () => Pick<SharingApi, 'listPermissions'>, private readonly t: Translate, private readonly log: (message: string) => void = () => undefined, private readonly day?: WriteDay) {}

  /** The lines for `item`; when Drive will not list its permissions (a viewer on some files), what its metadata says. */
  describe(item: DriveItem): Promise<string[]> {
    const cached = this.cache.get(item.id);
    if (cached && cached.etag === item.etag) return cached.lines;
    const lines = this.load(item);
    this.cache.set(item.id, { etag: item.etag, lines });
    return lines;
  }

  /** Forgets every file (sign-out, another backend). */
  reset(): void {
    this.cache.clear();
  }

  private async load(item: DriveItem): Promise<string[]> {
    const shared = sharedWithMeLine(item, this.t, this.day);
    try {
      const page = await this.api().listPermissions(item.id, { maxResults: PAGE });
      return [...accessSummary(page.items, this.t, { more: page.nextPageToken !== undefined }), ...(shared ? [shared] : [])];
    } catch (error) {
      // Not cached: the next hover tries again.
      this.cache.delete(item.id);
      this.log(`Drive: could not list who has access to ${item.id}: ${error instanceof Error ? error.message : String(error)}`);
      return shared ? [shared] : [];
    }
  }
}
