/** Desk's desk-drive: URIs and the resolution of their paths to Drive files (vscode-free). */
import { GOOGLE_APPS_MIME_PREFIX, isFolder, isNative } from '../../../shared/schemas/drive';
import type { DriveItem } from '../port';

/**
 * Desk's Drive URIs. A file opened from the tree is
 * `desk-drive://alice@example.com/My Drive/Projects/Desk/roadmap.txt?id=<fileId>&depth=4`: the authority is the
 * account whose Drive it is (core/accounts/accounts.ts: the file system runs every operation as that account, or refuses it);
 * the path is the human folder path at open time (what the breadcrumb and the tab show), the file id travels in
 * the query, and resolution is by that id alone, so a rename or move elsewhere does not break an open editor (its
 * URI stays; reopening from the tree gives the new path). `depth` is the number of path segments the id names:
 * URIs VS Code derives from this one (the breadcrumb's folders are `dirname`s, their children `joinPath`s) keep the
 * query but not the depth, and resolve by path instead. (The id cannot go in the authority: VS Code lower-cases
 * authorities, and Drive ids are case-sensitive.)
 *
 * Paths without an id resolve segment by segment: `My Drive` (or a file id, `root` for My Drive) first, then child
 * titles, so `desk-drive://<account>/My Drive/Notes/new.txt` names a file to create and
 * `desk-drive://<account>/<fileId>/<title>` (the older form, still what a conflict's read-only "remote version" uses)
 * names a file by id. `desk-drive://<account>/` is a directory holding My Drive as `root`. A URI without an account
 * (saved before Desk named accounts) resolves only where Desk recorded whose it is (workspace folders it added).
 */
export const DRIVE_SCHEME = 'desk-drive';

/** Query of the read-only "remote version" shown on the left of a conflict diff. */
export const REMOTE_VERSION_QUERY = 'remote';

/** The first path segment that stands for My Drive (the tree's section name). */
export const MY_DRIVE_SEGMENT = 'My Drive';

/** The first path segment of a shared drive's files (the tree's section name); the drive's name follows. */
export const SHARED_DRIVES_SEGMENT = 'Shared drives';

export interface DriveUriParts {
  readonly authority: string;
  readonly path: string;
  readonly query: string;
}

/**
 * The parts of a file's URI: `folders` are the titles above it as the tree shows them (its section first,
 * e.g. ['My Drive', 'Projects', 'Desk']); without them the path is just the title.
 */
export function driveUriParts(account: string, item: Pick<DriveItem, 'id' | 'title'>, folders: readonly string[] = []): DriveUriParts {
  const segments = [...folders, item.title ?? item.id].map(sanitizeTitle);
  return { authority: account, path: `/${segments.join('/')}`, query: `id=${encodeURIComponent(item.id)}&depth=${segments.length}` };
}

/** The read-only "remote version" of a file: by id, so it resolves whatever the file is called now. */
export function remoteVersionParts(account: string, item: Pick<DriveItem, 'id' | 'title'>): DriveUriParts {
  return { authority: account, path: `/${item.id}/${sanitizeTitle(item.title ?? item.id)}`, query: REMOTE_VERSION_QUERY };
}

export function isRemoteVersion(uri: { readonly query: string }): boolean {
  return new URLSearchParams(uri.query).has(REMOTE_VERSION_QUERY);
}

/** The file id a URI names through its query (see above), or undefined when it is to be resolved by path. */
export function queryFileId(uri: { readonly authority: string; readonly path: string; readonly query: string }): string | undefined {
  const params = new URLSearchParams(uri.query);
  const id = params.get('id');
  if (!id) return undefined;
  const depth = params.get('depth');
  return depth === null || Number(depth) === uriSegments(uri).length ? id : undefined;
}

/** The id-then-titles segments of a URI: its path's (the authority is the account, not a segment). */
export function uriSegments(uri: { readonly path: string }): string[] {
  return segmentsOf(uri.path);
}

/** A title as one path segment: no slashes, never empty or a dot name. */
export function sanitizeTitle(title: string): string {
  // Control characters cannot appear in a path segment: they become spaces.
  // eslint-disable-next-line no-control-regex
  const cleaned = title.replace(/[/\\]/g, '∕').replace(/[\u0000-\u001f]/g, ' ').trim();
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? '_' : cleaned;
}

export interface PathLookup {
  getFile(fileId: string): Promise<DriveItem>;
  /** The live (untrashed) child with this title, or undefined. */
  findChild(folderId: string, title: string): Promise<DriveItem | undefined>;
  /** The top folder of the user's shared drive with this name, or undefined. */
  findDrive?(name: string): Promise<DriveItem | undefined>;
}

export type ResolvedPath =
  | { readonly kind: 'root' }
  | { readonly kind: 'item'; readonly item: DriveItem }
  /** Nothing there yet: a create would make `title` inside `parentId`. */
  | { readonly kind: 'missing'; readonly parentId: string; readonly title: string };

export class PathNotFound extends Error {
  constructor(readonly path: string) {
    super(`No Drive file at ${path}`);
    this.name = 'PathNotFound';
  }
}

/** The segments of a URI path (VS Code's Uri.path is already decoded). */
export function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment.length > 0);
}

/**
 * Resolves segments (see uriSegments): the first is a file id (`root` is My Drive) or `My Drive`; a following
 * segment equal to that file's title is its readable name; every further segment is a child title. The last
 * segment may name a file that does not exist yet (`missing`), for creates.
 */
export async function resolveDrivePath(segments: readonly string[], lookup: PathLookup): Promise<ResolvedPath> {
  const path = `/${segments.join('/')}`;
  const first = segments.at(0);
  if (first === undefined) return { kind: 'root' };
  // `My Drive` cannot be a file id (ids have no spaces): it is the path of a URI opened from the tree.
  if (first === MY_DRIVE_SEGMENT) return resolveBelow(await lookup.getFile('root'), segments, 1, path, lookup);
  // `Shared drives/<name>/…`: a shared drive by its name, then its folders.
  if (first === SHARED_DRIVES_SEGMENT && lookup.findDrive) {
    const driveName = segments.at(1);
    const top = driveName !== undefined ? await lookup.findDrive(driveName) : undefined;
    if (!top) throw new PathNotFound(path);
    return resolveBelow(top, segments, 2, path, lookup);
  }
  const current = await lookup.getFile(first);
  let index = 1;
  const second = segments.at(index);
  if (second !== undefined && sanitizeTitle(current.title ?? current.id) === second) index++;
  // `/root/My Drive` is My Drive itself even though Drive's root folder has its own title.
  else if (first === 'root' && second === MY_DRIVE_SEGMENT) index++;
  return resolveBelow(current, segments, index, path, lookup);
}

/** Walks child titles from `segments[index]` down, starting at `current`. */
async function resolveBelow(current: DriveItem, segments: readonly string[], index: number, path: string, lookup: PathLookup): Promise<ResolvedPath> {
  for (; index < segments.length; index++) {
    const title = segments[index];
    if (!isFolder(current)) throw new PathNotFound(path);
    const child = await lookup.findChild(current.id, title);
    if (!child) {
      if (index === segments.length - 1) return { kind: 'missing', parentId: current.id, title };
      throw new PathNotFound(path);
    }
    current = child;
  }
  return { kind: 'item', item: current };
}

/** Native documents open as a text export: the best text target Drive offers for the type. */
export function textExportType(mimeType: string | undefined, exportFormats: readonly { source: string; targets: readonly string[] }[]): string | undefined {
  if (!mimeType?.startsWith(GOOGLE_APPS_MIME_PREFIX)) return undefined;
  const targets = exportFormats.find((format) => format.source === mimeType)?.targets ?? [];
  const preferred = ['text/plain', 'text/csv', 'text/markdown', 'text/tab-separated-values', 'image/svg+xml', 'text/html'];
  for (const type of preferred) if (targets.includes(type)) return type;
  if (targets.length > 0) return targets.find((type) => type.startsWith('text/'));
  // No formats listed (an older server): Drive's usual ones.
  if (mimeType === 'application/vnd.google-apps.spreadsheet') return 'text/csv';
  if (mimeType === 'application/vnd.google-apps.document' || mimeType === 'application/vnd.google-apps.presentation') return 'text/plain';
  return undefined;
}

export function isReadOnlyItem(item: DriveItem): boolean {
  return isNative(item) || item.editable === false || item.labels?.trashed === true;
}
