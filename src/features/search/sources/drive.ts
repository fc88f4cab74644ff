/**
 * Drive files for the search: Drive's own search (`fullText contains` or `title contains`, not in the trash, shared
 * drives included), each hit with its owner and its folder path. Folder titles are fetched once per quick pick; the
 * shared drives' names are asked beside the first search, and My Drive's folders come from the Drive view's cache.
 */
import { quoteQuery } from '../../../api/drive/query';
import { DriveFile, isFolder } from '../../../shared/schemas/drive';
import type { SharedDrive } from '../../../shared/schemas/drive/drives';
import { english, Translate } from '../../../shared/l10n';
import type { SearchHit, SearchSource } from '../model';
import type { SearchDriveApi } from '../port';

const MAX_HITS = 20;
/** A folder path deeper than this is shortened with "…" (each level is one files.get the first time). */
const MAX_DEPTH = 8;
/** The shared drives named beside the search (one page): a hit at a drive's top level needs no files.get of its root. */
const SHARED_DRIVES_ASKED = 100;

interface FolderStep {
  readonly title: string;
  readonly parentId: string | undefined;
  readonly parentIsRoot: boolean;
  readonly sharedDriveRoot: boolean;
}

/** files.list `q` for a typed text: every word in the title or the full text, trashed files left out. */
export function driveSearchQuery(text: string): string {
  const words = text.split(/\s+/).filter(Boolean);
  const clauses = words.map((word) => `(fullText contains ${quoteQuery(word)} or title contains ${quoteQuery(word)})`);
  return [...clauses, 'trashed = false'].join(' and ');
}

export class DriveSearchSource implements SearchSource {
  readonly service = 'drive' as const;
  private readonly folders = new Map<string, Promise<FolderStep | undefined>>();
  /** The user's shared drives, asked once per quick pick beside its first search (undefined again after a failure). */
  private sharedDrives: Promise<readonly SharedDrive[] | undefined> | undefined;

  /** `knownRows`: My Drive's rows as the Drive view's cache has them (from disk, no request): their folders' titles. */
  constructor(private readonly api: SearchDriveApi, private readonly t: Translate = english, private readonly knownRows: () => Promise<readonly DriveFile[] | undefined> = () => Promise.resolve(undefined)) {}

  async search(query: string, signal: AbortSignal): Promise<readonly SearchHit[]> {
    const [page, known, drives] = await Promise.all([
      this.api.listFiles({ q: driveSearchQuery(query), maxResults: MAX_HITS, corpora: 'allDrives', includeItemsFromAllDrives: true, signal }),
      this.knownRows().catch(() => undefined),
      this.sharedDriveNames(signal),
    ]);
    // A hit in a folder of My Drive's first rows, or at a shared drive's top level, has its path without a files.get
    // (a round trip after the list).
    for (const folder of known ?? []) if (isFolder(folder) && !this.folders.has(folder.id)) this.folders.set(folder.id, Promise.resolve(stepOf(folder)));
    for (const drive of drives ?? []) {
      if (!this.folders.has(drive.id)) this.folders.set(drive.id, Promise.resolve({ title: drive.name ?? drive.id, parentId: undefined, parentIsRoot: false, sharedDriveRoot: true }));
    }
    return Promise.all(page.items.map(async (file) => this.hit(file, await this.folderPath(file))));
  }

  private hit(file: DriveFile, folderPath: string): SearchHit {
    const owner = file.ownerNames?.[0] ?? file.owners?.[0]?.displayName;
    const context = [folderPath, owner ? this.t('owner {0}', owner) : undefined].filter(Boolean).join(' · ');
    return { title: file.title ?? file.id, context, target: { kind: 'file', fileId: file.id, folder: isFolder(file) } };
  }

  /** "My Drive › Projects", "Shared drives › Team › Plans", or "Shared with me" when the folders are not the user's. */
  private async folderPath(file: DriveFile): Promise<string> {
    const t = this.t;
    const titles: string[] = [];
    let parent = file.parents?.[0];
    for (let depth = 0; parent; depth++) {
      if (parent.isRoot) return [t('My Drive'), ...titles.reverse()].join(' › ');
      if (depth >= MAX_DEPTH) return ['…', ...titles.reverse()].join(' › ');
      const step = parent.id ? await this.folder(parent.id) : undefined;
      if (!step) break;
      titles.push(step.title);
      if (step.sharedDriveRoot) return [t('Shared drives'), ...titles.reverse()].join(' › ');
      parent = step.parentId ? { id: step.parentId, isRoot: step.parentIsRoot } : undefined;
    }
    return [t('Shared with me'), ...titles.reverse()].join(' › ');
  }

  /** drives.list's first page (ids and names only), once; a failure costs the search nothing but files.get later. */
  private sharedDriveNames(signal: AbortSignal): Promise<readonly SharedDrive[] | undefined> {
    this.sharedDrives ??= this.api.listDrives({ maxResults: SHARED_DRIVES_ASKED, fields: 'items(id,name)', signal }).then((list) => list.items, () => {
      this.sharedDrives = undefined;
      return undefined;
    });
    return this.sharedDrives;
  }

  /** One folder's title and parent; a folder the user cannot read ends the path (not the search). */
  private folder(folderId: string): Promise<FolderStep | undefined> {
    let step = this.folders.get(folderId);
    if (!step) {
      step = this.api.getFile(folderId).then(stepOf, () => undefined);
      this.folders.set(folderId, step);
    }
    return step;
  }
}

function stepOf(folder: DriveFile): FolderStep {
  return {
    title: folder.title ?? folder.id,
    parentId: folder.parents?.[0]?.id,
    parentIsRoot: folder.parents?.[0]?.isRoot ?? false,
    sharedDriveRoot: folder.driveId !== undefined && folder.driveId === folder.id,
  };
}
