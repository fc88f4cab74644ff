/** Desk's desk-drive: URIs and the resolution of their paths to Drive files (vscode-free). */
import { GOOGLE_APPS_MIME_PREFIX, isFolder, isNative } from '../../../shared/schemas/drive';
import type { DriveItem } from '../port';

/**
 * Desk's Drive URIs: `desk-drive:/<fileId>/<title>`. The id keeps the URI stable through renames and duplicate
 * titles; the title makes editor tabs readable. (The id cannot go in the authority: VS Code lower-cases
 * authorities, and Drive ids are case-sensitive.) Paths below a folder (what readDirectory hands out) continue
 * with child titles: `desk-drive:/<folderId>/<folderTitle>/<childTitle>`. `desk-drive:/` is a directory holding
 * My Drive as `root`. An authority, if a URI has one, is read as the id.
 */
export const DRIVE_SCHEME = 'desk-drive';

/** Query of the read-only "remote version" shown on the left of a conflict diff. */
export const REMOTE_VERSION_QUERY = 'remote';

/** The authority and path of a file's URI. */
export function driveUriParts(item: Pick<DriveItem, 'id' | 'title'>): { authority: string; path: string } {
  return { authority: '', path: `/${item.id}/${sanitizeTitle(item.title ?? item.id)}` };
}

/** The id-then-titles segments of a URI: the authority (when set) first, then the path's segments. */
export function uriSegments(uri: { readonly authority: string; readonly path: string }): string[] {
  const path = segmentsOf(uri.path);
  return uri.authority ? [uri.authority, ...path] : path;
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
 * Resolves segments (see uriSegments): the first is a file id (`root` is My Drive); a following segment equal
 * to that file's title is its readable name; every further segment is a child title. The last segment may
 * name a file that does not exist yet (`missing`), for creates.
 */
export async function resolveDrivePath(segments: readonly string[], lookup: PathLookup): Promise<ResolvedPath> {
  const path = `/${segments.join('/')}`;
  const first = segments[0];
  if (first === undefined) return { kind: 'root' };
  let current = await lookup.getFile(first);
  let index = 1;
  if (segments[index] !== undefined && sanitizeTitle(current.title ?? current.id) === segments[index]) index++;
  // `/root/My Drive` is My Drive itself even though Drive's root folder has its own title.
  else if (first === 'root' && segments[index] === 'My Drive') index++;
  for (; index < segments.length; index++) {
    const title = segments[index] as string;
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
