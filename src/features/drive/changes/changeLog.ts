/** What the change poller found, as news for the user: Desk's own writes filtered out, one entry per file. */
import { english, Translate } from '../../../shared/l10n';
import type { PolledChange } from './poller';
import { compareVersions, isDriveVersion } from '../port';

/** What happened to a file, in words for the status bar and quick pick. */
export type ChangeKind = 'created' | 'modified' | 'trashed' | 'removed';

export interface ChangeEntry {
  readonly fileId: string;
  readonly title: string;
  readonly kind: ChangeKind;
  /** Milliseconds since the epoch, from the change (or when we saw it). */
  readonly time: number;
  readonly mimeType?: string | undefined;
  readonly by?: string | undefined;
}

/** A creation shows modifiedDate equal to createdDate (within a second: servers round differently). */
export function classifyChange(change: PolledChange): ChangeKind {
  if (change.deleted || !change.file) return 'removed';
  if (change.file.labels?.trashed) return 'trashed';
  const created = Date.parse(change.file.createdDate ?? '');
  const modified = Date.parse(change.file.modifiedDate ?? '');
  if (!Number.isNaN(created) && !Number.isNaN(modified) && Math.abs(modified - created) < 1_000) return 'created';
  return 'modified';
}

/** In words, through `t` (vscode.l10n.t from the status bar). */
export function describeKind(kind: ChangeKind, t: Translate = english): string {
  switch (kind) {
    case 'created': return t('added');
    case 'modified': return t('changed');
    case 'trashed': return t('moved to the trash');
    case 'removed': return t('removed');
  }
}

/** After Desk itself acts on a file (shares it, stars it, labels it…), the changes of that file this soon are its own. */
export const OWN_ACTION_WINDOW_MS = 30_000;

/** The file a request of Desk's changes (`POST /drive/v2/files/{id}/permissions`, `PATCH …/files/{id}`), if any. */
export function fileChangedBy(method: string, path: string): string | undefined {
  if (method === 'GET' || method === 'HEAD') return undefined;
  const match = /^\/(?:upload\/)?drive\/v2\/files\/([^/?]+)(\/[^?]*)?/.exec(path);
  // Watching a file changes nothing in it; emptying the trash is on no one file.
  if (!match?.[1] || match[1] === 'trash' || match[2] === '/watch') return undefined;
  return decodeURIComponent(match[1]);
}

/**
 * The unseen changes behind the status-bar item: one entry per file (its latest change), newest first.
 * Writes Desk made itself are not news to the user: they are suppressed by the etag the write returned, and
 * any change of a file Desk acted on moments before (see OWN_ACTION_WINDOW_MS).
 */
export class ChangeLog {
  private readonly unseen = new Map<string, ChangeEntry>();
  private readonly titles = new Map<string, string>();
  private readonly ownWrites = new Map<string, string>();
  /** The latest `version` Desk wrote of each file. */
  private readonly ownVersions = new Map<string, string>();
  /** When Desk last acted on each file (sharing, properties, labels: actions that answer no file etag). */
  private readonly ownActions = new Map<string, number>();
  /** The modification date each file had in the last change seen: an edit shows as a newer one. */
  private readonly lastModified = new Map<string, string>();

  /**
   * `knownModifiedDate`: the modification date of the version Desk shows of a file (an open editor, a row), the
   * baseline for a file no poll has shown yet, so another app's edit right after Desk commented is still news.
   */
  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 200,
    private readonly knownModifiedDate: (fileId: string) => string | undefined = () => undefined,
  ) {}

  /**
   * Records a file version this client wrote; a change carrying the same etag is not shown, nor one of the same or
   * an earlier `version` (a poll answered between two of Desk's writes reports the first after the second landed).
   */
  noteOwnWrite(fileId: string, etag: string | undefined, version?: string): void {
    if (etag) this.ownWrites.set(fileId, etag);
    const before = this.ownVersions.get(fileId);
    if (isDriveVersion(version) && (before === undefined || (compareVersions(version, before) ?? 0) > 0)) this.ownVersions.set(fileId, version);
  }

  /** Records that this Desk session just changed a file: its changes in the next moments are not news. */
  noteOwnAction(fileId: string): void {
    this.ownActions.set(fileId, this.now());
  }

  private isOwnAction(fileId: string): boolean {
    const at = this.ownActions.get(fileId);
    if (at === undefined) return false;
    if (this.now() - at <= OWN_ACTION_WINDOW_MS) return true;
    this.ownActions.delete(fileId);
    return false;
  }

  /** Adds the changes of one poll; returns the entries that are news to the user. */
  add(changes: readonly PolledChange[]): ChangeEntry[] {
    const added: ChangeEntry[] = [];
    for (const change of changes) {
      const fileId = change.fileId ?? change.file?.id;
      if (!fileId) continue;
      if (change.file?.title) this.titles.set(fileId, change.file.title);
      const modified = change.file?.modifiedDate;
      const modifiedBefore = this.lastModified.get(fileId) ?? this.knownModifiedDate(fileId);
      if (modified !== undefined) this.lastModified.set(fileId, modified);
      // A version this client wrote itself (the etag its write answered) is no news.
      const own = this.ownWrites.get(fileId);
      if (own !== undefined && change.file?.etag === own) continue;
      const sinceOwn = compareVersions(change.file?.version, this.ownVersions.get(fileId));
      if (sinceOwn !== undefined && sinceOwn <= 0) continue;
      // A share, a star, a label or a comment answers no file etag and leaves the modification date alone: such a
      // change of a file Desk just acted on is Desk's own, not "another app or person". A newer modification date is
      // someone's edit, whoever acted on the file moments before.
      const edited = modifiedBefore !== undefined && modified !== undefined && modified !== modifiedBefore;
      if (!edited && this.isOwnAction(fileId)) continue;
      const parsed = Date.parse(change.modificationDate ?? change.file?.modifiedDate ?? '');
      const entry: ChangeEntry = {
        fileId,
        title: change.file?.title ?? this.titles.get(fileId) ?? fileId,
        kind: classifyChange(change),
        time: Number.isNaN(parsed) ? this.now() : parsed,
        mimeType: change.file?.mimeType,
        by: change.file?.lastModifyingUserName,
      };
      // A re-inserted key moves to the end of the Map: iteration order stays oldest→newest.
      this.unseen.delete(fileId);
      this.unseen.set(fileId, entry);
      added.push(entry);
    }
    while (this.unseen.size > this.maxEntries) {
      const oldest = this.unseen.keys().next().value;
      if (oldest === undefined) break;
      this.unseen.delete(oldest);
    }
    return added;
  }

  get count(): number {
    return this.unseen.size;
  }

  /** Newest first. */
  entries(): ChangeEntry[] {
    return [...this.unseen.values()].reverse();
  }

  markSeen(fileId?: string): void {
    if (fileId === undefined) this.unseen.clear();
    else this.unseen.delete(fileId);
  }

  /** "$(cloud) 3 Drive changes" / "$(cloud) notes.txt changed". */
  statusText(t: Translate = english): string {
    const entries = this.entries();
    const newest = entries.at(0);
    if (!newest) return `$(cloud) ${t('Drive')}`;
    if (entries.length === 1) return `$(cloud) ${t('{0} {1}', truncate(newest.title, 30), describeKind(newest.kind, t))}`;
    return `$(cloud) ${t('{0} Drive changes', entries.length)}`;
  }

  /** A short summary for the tooltip: the newest few changes. */
  summary(limit = 5, t: Translate = english): string {
    const entries = this.entries();
    if (entries.length === 0) return t('No new Drive changes');
    const lines = entries.slice(0, limit).map((entry) => (entry.by ? t('{0} {1} by {2}', entry.title, describeKind(entry.kind, t), entry.by) : t('{0} {1}', entry.title, describeKind(entry.kind, t))));
    if (entries.length > limit) lines.push(t('and {0} more', entries.length - limit));
    return lines.join('\n');
  }
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
