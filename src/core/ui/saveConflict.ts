/**
 * Save conflicts of Desk's editable file systems (desk-drive:, desk-tasks:) decided before VS Code writes.
 *
 * Whatever a FileSystemProvider's writeFile throws, VS Code 1.100 reports as "Failed to save 'x': Unable to write
 * file '<uri with its query>' (…)" with Retry / Save As… / **Revert** (textFileSaveErrorHandler). So Desk asks its
 * Compare / Overwrite / Cancel question in the stat VS Code takes just before it writes. A save the user started
 * (Ctrl+S) that is declined there, or that Desk cannot make (notes too long), resolves in writeFile without writing,
 * the document left dirty by keepUnsaved: the user sees Desk's words only. An auto save cannot end that way (the
 * edit that keeps the document dirty would start the next auto save, and the question again): it is refused in the
 * stat (refusingStat), which VS Code reports in its own "the content of the file is newer" notice, with no Revert,
 * and it then stops auto-saving the document until the user saves it.
 */
import type * as vscode from 'vscode';

/** How long a save announced by onWillSaveTextDocument waits for its stat (a save whose write never came). */
const SAVE_ANNOUNCEMENT_MS = 60_000;

/** Who started a save: the user (Ctrl+S, Save All, the close prompt) or VS Code's auto save. */
export type SaveStarter = 'user' | 'auto';

/** The saves VS Code has started for documents of one scheme: their participants ran, the stat comes next. */
export class SavesUnderWay {
  private readonly started = new Map<string, { at: number; by: SaveStarter; uri: vscode.Uri }>();
  /** Saves whose stat was taken: their writeFile comes next. */
  private readonly writing = new Set<string>();
  private readonly subscription: vscode.Disposable;

  constructor(vs: typeof vscode, scheme: string) {
    this.subscription = vs.workspace.onWillSaveTextDocument((event) => {
      if (event.document.uri.scheme === scheme) this.started.set(event.document.uri.toString(), { at: Date.now(), by: event.reason === vs.TextDocumentSaveReason.Manual ? 'user' : 'auto', uri: event.document.uri });
    });
  }

  /** Who started the save VS Code is making of this document now, if any; once per save (the stat before the write). */
  take(uri: vscode.Uri): SaveStarter | undefined {
    const key = uri.toString();
    const started = this.started.get(key);
    this.started.delete(key);
    if (started === undefined || Date.now() - started.at >= SAVE_ANNOUNCEMENT_MS) return undefined;
    if (started.by === 'user') this.writing.add(key);
    return started.by;
  }

  /**
   * The document VS Code has started to save (its stat not taken yet) at this URI or below it: VS Code stats the
   * folder of a document whose own stat failed before it writes. Does not take the save.
   */
  pendingAt(uri: vscode.Uri): vscode.Uri | undefined {
    if (this.started.size === 0) return undefined;
    const key = uri.toString();
    const folder = uri.path.endsWith('/') ? uri.path : `${uri.path}/`;
    for (const [started, save] of this.started) {
      if (Date.now() - save.at >= SAVE_ANNOUNCEMENT_MS) continue;
      const below = save.uri.scheme === uri.scheme && save.uri.authority === uri.authority && save.uri.path.startsWith(folder);
      if (started === key || below) return save.uri;
    }
    return undefined;
  }

  /**
   * How a stat is checked for its account: the stat right before a save (of this document, or of one in this folder)
   * is checked as the save it is, and its refusal ends that save. VS Code stats the document, then (that failing)
   * its folder, whose refusal it shows.
   */
  statCheck(uri: vscode.Uri): { readonly checked: vscode.Uri; readonly action: 'save' | 'open'; readonly refused: () => void } {
    const saving = this.pendingAt(uri);
    const refused = (): void => {
      if (saving && saving.toString() !== uri.toString()) this.take(saving);
    };
    return { checked: saving ?? uri, action: saving ? 'save' : 'open', refused };
  }

  /** Whether this write is the one of a save the user started (its stat came first); true once per save. */
  takeWrite(uri: vscode.Uri): boolean {
    return this.writing.delete(uri.toString());
  }

  dispose(): void {
    this.subscription.dispose();
    this.started.clear();
    this.writing.clear();
  }
}

/** How long the space keepUnsaved adds waits for the save's end to be taken away (a save that never reports back). */
const KEEP_UNSAVED_FALLBACK_MS = 5_000;

/**
 * Leaves a document dirty, its text as typed, after a save Desk declined (Compare, Cancel, notes too long), with
 * nothing of VS Code's own shown. Whatever writeFile throws ends in "Failed to save" with Revert, and a refused stat
 * in VS Code's "the content of the file is newer" notice; but a writeFile that resolves after the document's version
 * moved leaves the document dirty (textFileEditorModel.handleSaveSuccess marks it saved only when the version it
 * wrote is still the current one), and the save reports false. An edit that replaces text with itself is dropped
 * before it reaches the model, so writeFile adds a space at the start; once the save has ended (the extension host
 * then believes the document clean), the space is taken away, which also tells the host it is dirty. The text ends
 * as typed. Undefined when no open document has this URI (a workspace.fs write: throw instead); else `settled`
 * resolves once the text is back as typed (act on the document after it).
 */
export async function keepUnsaved(vs: typeof vscode, uri: vscode.Uri): Promise<{ readonly settled: Promise<void> } | undefined> {
  const key = uri.toString();
  const document = vs.workspace.textDocuments.find((candidate) => candidate.uri.toString() === key);
  if (!document) return undefined;
  const add = new vs.WorkspaceEdit();
  add.insert(uri, new vs.Position(0, 0), ' ');
  if (!(await vs.workspace.applyEdit(add))) return undefined;
  let done = false;
  let settle: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const takeAway = async (): Promise<void> => {
    if (done) return;
    done = true;
    saved.dispose();
    clearTimeout(fallback);
    try {
      if (document.isClosed || document.getText(new vs.Range(0, 0, 0, 1)) !== ' ') return;
      const remove = new vs.WorkspaceEdit();
      remove.delete(uri, new vs.Range(0, 0, 0, 1));
      await vs.workspace.applyEdit(remove);
    } finally {
      settle();
    }
  };
  const saved = vs.workspace.onDidSaveTextDocument((event) => {
    if (event.uri.toString() === key) void takeAway();
  });
  const fallback = setTimeout(() => void takeAway(), KEEP_UNSAVED_FALLBACK_MS);
  return { settled };
}

export interface StatTimes {
  readonly mtime: number;
  readonly size: number;
}

/**
 * The stat that makes VS Code refuse a save as "the content of the file is newer": a later mtime than the one
 * the editor opened, and a size other than the opened one (VS Code compares the opened etag with one made of
 * the opened mtime and the new size) and other than the text being saved (an equal length makes VS Code read
 * the file back to compare, which would pin the other version as the one the editor holds).
 */
export function refusingStat(opened: StatTimes, current: StatTimes, savingBytes: number | undefined): StatTimes {
  let size = current.size;
  while (size === opened.size || size === savingBytes) size += 1;
  return { mtime: Math.max(current.mtime, opened.mtime + 1), size };
}

/** The bytes VS Code is about to write for an open document (utf8, as Desk's documents are). */
export function savingBytes(vs: typeof vscode, uri: vscode.Uri): number | undefined {
  const document = vs.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri.toString());
  return document ? Buffer.byteLength(document.getText(), 'utf8') : undefined;
}

/** Text for one side of a comparison: an untitled document of this content, or a document that exists (a URI). */
export type ComparedText = { readonly content: string; readonly language?: string } | vscode.Uri;

export interface KeptConflict {
  /** What changed elsewhere, e.g. "“Plan.md” was changed on Drive while you were offline." */
  readonly message: string;
  readonly detail: string;
  readonly mine: { readonly content: string; readonly language?: string };
  readonly theirs: () => Promise<ComparedText>;
  /** The diff editor's title, e.g. "Plan.md (Drive) ↔ (yours)". */
  readonly diffTitle: string;
}

/**
 * Compare / Overwrite / Cancel for a change kept offline whose replay meets a change made elsewhere (the offline
 * replays of task notes, Drive saves and event edits). True: overwrite. Compare opens theirs beside the user's text,
 * Cancel the user's text alone, so it is never dropped silently. Answers the choice too, for the log.
 */
export async function askOverwriteKept(vs: typeof vscode, conflict: KeptConflict): Promise<{ overwrite: boolean; choice: 'compare' | 'overwrite' | 'cancel' }> {
  const compare = vs.l10n.t('Compare');
  const overwrite = vs.l10n.t('Overwrite');
  const answer = await vs.window.showWarningMessage(conflict.message, { modal: true, detail: conflict.detail }, compare, overwrite);
  if (answer === overwrite) return { overwrite: true, choice: 'overwrite' };
  const mine = await vs.workspace.openTextDocument({ content: conflict.mine.content, ...(conflict.mine.language ? { language: conflict.mine.language } : {}) });
  if (answer !== compare) {
    await vs.window.showTextDocument(mine, { preview: false });
    return { overwrite: false, choice: 'cancel' };
  }
  const theirs = await conflict.theirs();
  const theirUri = 'content' in theirs ? (await vs.workspace.openTextDocument({ content: theirs.content, ...(theirs.language ? { language: theirs.language } : {}) })).uri : theirs;
  await vs.commands.executeCommand('vscode.diff', theirUri, mine.uri, conflict.diffTitle);
  return { overwrite: false, choice: 'compare' };
}
