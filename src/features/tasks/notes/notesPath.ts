/** Desk's desk-tasks: URIs for a task's notes as a document, and the rules a save of them follows (vscode-free). */
import { english, Translate } from '../../../shared/l10n';
import { NOTES_MAX_LENGTH, type Task } from '../../../shared/schemas/tasks';

/**
 * A task's notes open as `desk-tasks://<account>/<list title>/<task title>.md?list=<listId>&task=<taskId>`: the
 * authority is the account whose task it is (core/accounts/accounts.ts: read and saved as that account only), the path is
 * for people (the tab says "Buy stamps.md", the breadcrumb "Errands › Buy stamps.md"), the ids in the query are
 * what the file system resolves, so a rename of the task or list elsewhere does not break an open editor.
 * `&remote` marks the read-only "version elsewhere" on the left of a conflict diff.
 */
export const NOTES_SCHEME = 'desk-tasks';

export const REMOTE_NOTES_PARAM = 'remote';

export interface NotesTarget {
  readonly listId: string;
  readonly taskId: string;
}

export interface NotesUriParts {
  readonly authority: string;
  readonly path: string;
  readonly query: string;
}

/** `t` (vscode.l10n.t) names an untitled list or task in the path. */
export function notesUriParts(account: string, listId: string, listTitle: string, task: Pick<Task, 'id' | 'title'>, t: Translate = english): NotesUriParts {
  const query = new URLSearchParams({ list: listId, task: task.id }).toString();
  return { authority: account, path: `/${segment(listTitle, t('Untitled list'))}/${segment(task.title, t('Untitled task'))}.md`, query };
}

/** The ids a notes URI names, or undefined for a URI that names no task (a breadcrumb's list folder). */
export function notesTargetOf(uri: { readonly path: string; readonly query: string }): NotesTarget | undefined {
  const params = new URLSearchParams(uri.query);
  const listId = params.get('list');
  const taskId = params.get('task');
  // A dirname VS Code derives from a notes URI keeps the query: only the two-segment path is the task.
  if (!listId || !taskId || uri.path.split('/').filter(Boolean).length !== 2) return undefined;
  return { listId, taskId };
}

export function isRemoteNotes(uri: { readonly query: string }): boolean {
  return new URLSearchParams(uri.query).has(REMOTE_NOTES_PARAM);
}

export function remoteNotesQuery(query: string): string {
  const params = new URLSearchParams(query);
  params.set(REMOTE_NOTES_PARAM, '1');
  return params.toString();
}

/** A title as one path segment: no slashes or control characters, never empty or a dot name. */
function segment(title: string, fallback: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = title.replace(/[/\\]/g, '∕').replace(/[\u0000-\u001f]/g, ' ').trim();
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? fallback : cleaned;
}

/** The document's text as the notes field: Tasks keeps `\n` line ends; an empty document clears the notes. */
export function notesFromText(text: string): string | null {
  const normalized = text.replace(/\r\n?/g, '\n');
  return normalized === '' ? null : normalized;
}

/** The offset in the document's text after which its notes pass `length` characters (a CRLF counts as one). */
export function offsetOfNotesLength(text: string, length: number): number {
  let counted = 0;
  for (let offset = 0; offset < text.length; offset++) {
    if (counted === length) return offset;
    // A CR before an LF is dropped by notesFromText: it does not count.
    if (!(text[offset] === '\r' && text[offset + 1] === '\n')) counted++;
  }
  return text.length;
}

export type SavePlan =
  | { readonly kind: 'save'; readonly notes: string | null }
  | { readonly kind: 'tooLong'; readonly length: number; readonly max: number }
  /** The notes changed elsewhere since the document read them. */
  | { readonly kind: 'conflict'; readonly notes: string | null };

/**
 * What a save does, given the version the editor read (`pinned`) and the task as it is now (`current`). The
 * Tasks API has no If-Match on tasks (nor does Desk's emulator), so the check is the etag read right before the
 * patch. An etag also changes when the task is completed, renamed or a sibling moves; only a change of the
 * notes themselves is a conflict, since the patch sends the notes alone and leaves those changes as they are.
 */
export function planSave(text: string, pinned: Pick<Task, 'etag' | 'notes'> | undefined, current: Pick<Task, 'etag' | 'notes'>): SavePlan {
  const notes = notesFromText(text);
  if (notes !== null && notes.length > NOTES_MAX_LENGTH) return { kind: 'tooLong', length: notes.length, max: NOTES_MAX_LENGTH };
  if (pinned && pinned.etag !== current.etag && (pinned.notes ?? '') !== (current.notes ?? '')) return { kind: 'conflict', notes };
  return { kind: 'save', notes };
}
