/**
 * A file's revision history as the extension shows it (pure, no vscode): versions numbered from the oldest (Drive's
 * ids may have gaps, or be long opaque strings), what each allows (pin for files with bytes, publish for Docs
 * Editors files, delete for old versions of files with bytes), and the read-only document URIs of old versions.
 */
import { english, type Translate } from '../../../shared/l10n';
import { GOOGLE_APPS_MIME_PREFIX } from '../../../shared/schemas/drive';
import type { DriveRevision } from '../../../shared/schemas/drive/revisions';
import { sanitizeTitle } from '../fs/drivePath';
import { formatBytes } from '../tree/presentation';

/** The URI scheme of an old version opened read-only. */
export const REVISION_SCHEME = 'desk-drive-revision';

export interface RevisionView {
  readonly revision: DriveRevision;
  /** 1 for the oldest version still kept. */
  readonly number: number;
  /** The current content of the file. */
  readonly isHead: boolean;
  /** Docs Editors files: published, never pinned or deleted, read through an export. */
  readonly isDocs: boolean;
}

/** Newest first, numbered from the oldest; the last revision Drive lists is the head. */
export function revisionViews(revisions: readonly DriveRevision[]): RevisionView[] {
  return revisions.map((revision, index) => ({
    revision,
    number: index + 1,
    isHead: index === revisions.length - 1,
    isDocs: revision.mimeType?.startsWith(GOOGLE_APPS_MIME_PREFIX) === true,
  })).reverse();
}

export function canPin(view: RevisionView): boolean {
  return !view.isDocs;
}

export function canPublish(view: RevisionView): boolean {
  return view.isDocs;
}

/** Only old versions of files with bytes can be deleted (never the head, never a document's). */
export function canDelete(view: RevisionView, total: number): boolean {
  return !view.isDocs && !view.isHead && total > 1;
}

/** The text format an old version of a Docs Editors file is read in (from its exportLinks), or undefined for bytes. */
export function revisionTextType(revision: DriveRevision): string | undefined {
  const targets = Object.keys(revision.exportLinks ?? {});
  if (targets.length === 0) return undefined;
  const preferred = ['text/plain', 'text/csv', 'text/markdown', 'text/tab-separated-values', 'text/html'];
  return preferred.find((type) => targets.includes(type)) ?? targets.find((type) => type.startsWith('text/'));
}

/** Facts beside a version in lists: when, by whom. */
export function revisionDescription(view: RevisionView, formatDate: (date: Date) => string): string {
  const parts: string[] = [];
  if (view.revision.modifiedDate) parts.push(formatDate(new Date(view.revision.modifiedDate)));
  const who = view.revision.lastModifyingUser?.displayName ?? view.revision.lastModifyingUserName;
  if (who) parts.push(who);
  return parts.join(' · ');
}

/** Words for the states a version is in, already translated by `t`. */
export interface RevisionWords {
  readonly current: string;
  readonly pinned: string;
  readonly published: string;
  readonly publishedAuto: string;
}

/** `t` words the size (`{0} KB`…). */
export function revisionDetail(view: RevisionView, words: RevisionWords, t: Translate = english): string {
  const parts: string[] = [];
  if (view.isHead) parts.push(words.current);
  if (!view.isDocs && view.revision.fileSize !== undefined) parts.push(formatBytes(Number(view.revision.fileSize), t));
  if (view.revision.pinned) parts.push(words.pinned);
  if (view.revision.published) parts.push(view.revision.publishAuto ? words.publishedAuto : words.published);
  return parts.join(' · ');
}

/** `notes.txt` → `notes (version 2).txt`: the tab says which version, the extension keeps the language. */
export function versionedTitle(title: string, label: string): string {
  const safe = sanitizeTitle(title);
  const dot = safe.lastIndexOf('.');
  return dot > 0 ? `${safe.slice(0, dot)} (${label})${safe.slice(dot)}` : `${safe} (${label})`;
}

export interface RevisionDocumentRef {
  readonly fileId: string;
  readonly revisionId: string;
  /** Docs Editors files: the export format the version is read in. */
  readonly exportType?: string;
}

/** Path and query of a version's read-only document: `/<fileId>/<revisionId>/<versioned title>[?export=<type>]`. */
export function revisionUriParts(ref: RevisionDocumentRef, tabTitle: string): { path: string; query: string } {
  const path = `/${encodeURIComponent(ref.fileId)}/${encodeURIComponent(ref.revisionId)}/${tabTitle}`;
  return { path, query: ref.exportType ? new URLSearchParams({ export: ref.exportType }).toString() : '' };
}

export function parseRevisionUri(path: string, query: string): RevisionDocumentRef | undefined {
  const [fileId, revisionId] = path.split('/').filter(Boolean);
  if (!fileId || !revisionId) return undefined;
  const exportType = new URLSearchParams(query).get('export') ?? undefined;
  return { fileId: decodeURIComponent(fileId), revisionId: decodeURIComponent(revisionId), ...(exportType ? { exportType } : {}) };
}

/** Bytes as text for a read-only document; undefined when they are not text (a NUL in the first 8 KB). */
export function textOf(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8192).includes(0)) return undefined;
  return bytes.toString('utf8');
}
