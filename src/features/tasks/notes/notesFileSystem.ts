/** The desk-tasks: file system: a task's notes as a writable markdown document, saved back with tasks.patch. */
import type * as vscode from 'vscode';
import { errorMessage, GoogleApiError, isUnreachable } from '../../../api/errors';
import { AccountAction, AccountRefusedError, displayNameOf, UriAccounts } from '../../../core/accounts/accounts';
import { Disposable } from '../../../core/disposable';
import { keepUnsaved, refusingStat, savingBytes, SavesUnderWay } from '../../../core/ui/saveConflict';
import { NOTES_MAX_LENGTH, type Task } from '../../../shared/schemas/tasks';
import type { TasksApi } from '../port';
import { isRemoteNotes, NOTES_SCHEME, notesFromText, notesTargetOf, NotesTarget, offsetOfNotesLength, planSave, remoteNotesQuery } from './notesPath';

/** A task's notes' update time and size as a FileStat reports them. */
function notesStatTimes(task: Task): { mtime: number; size: number } {
  return { mtime: Date.parse(task.updated) || 0, size: Buffer.byteLength(task.notes ?? '') };
}

export type NotesConflictChoice = 'compare' | 'overwrite' | 'cancel';

export interface NotesFsOptions {
  readonly api: () => Pick<TasksApi, 'getTask' | 'patchTask'>;
  /** Whose task each URI names (its authority): read and saved as that account only, or refused in Desk's words. */
  readonly accounts: UriAccounts;
  /** After a save: the tree shows the new notes (and the new etag). */
  readonly onSaved?: (listId: string, task: Task) => void;
  readonly log?: (message: string) => void;
  /**
   * Offline: keeps a save in Desk's write queue (sent when the service is back) and answers the version the editor
   * holds now. Without it, a save offline fails as any other.
   */
  readonly keepOffline?: (listId: string, pinned: Task, notes: string | null) => Promise<Task>;
}

/** How long a task read for a stat stands in for the read right after it (VS Code reads within milliseconds). */
const JUST_STATTED_MS = 2_000;

/**
 * Task notes as files (`desk-tasks:`, see notesPath.ts). Reading pins the version the editor holds; saving
 * reads the task again and refuses when its notes changed elsewhere in the meantime: the user chooses compare,
 * overwrite or cancel, and the edited text stays in the editor (as Drive's file system does). Notes longer
 * than the API allows are refused before anything is sent. Nothing can be created, renamed or deleted here.
 */
export class TaskNotesFileSystemProvider extends Disposable implements vscode.FileSystemProvider {
  private readonly changeEmitter: vscode.EventEmitter<vscode.FileChangeEvent[]>;
  readonly onDidChangeFile: vscode.Event<vscode.FileChangeEvent[]>;
  /** The version of each task whose notes an editor holds, by task id. */
  private readonly pinned = new Map<string, Task>();
  /** Tasks whose newer notes the user chose to overwrite in the stat before the save (see core/ui/saveConflict.ts). */
  private readonly approved = new Map<string, string>();
  private readonly saves: SavesUnderWay;
  /**
   * The task a stat just read, by task id: VS Code reads the file right after its stat, and the same task read
   * twice is a round trip for nothing. Kept briefly, and taken once.
   */
  private readonly justStatted = new Map<string, { readonly task: Promise<Task>; readonly at: number }>();

  constructor(private readonly vs: typeof vscode, private readonly options: NotesFsOptions) {
    super();
    this.changeEmitter = this._register(new vs.EventEmitter<vscode.FileChangeEvent[]>());
    this.onDidChangeFile = this.changeEmitter.event;
    this.saves = this._register(new SavesUnderWay(vs, NOTES_SCHEME));
  }

  /** Forget the pinned versions (backend or account change). */
  reset(): void {
    this.justStatted.clear();
    this.pinned.clear();
    this.approved.clear();
  }

  watch(): vscode.Disposable {
    return new this.vs.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const { checked, action, refused } = this.saves.statCheck(uri);
    return this.asAccount(checked, action, () => this.statAs(uri), refused);
  }

  private async statAs(uri: vscode.Uri): Promise<vscode.FileStat> {
    // The list "folder" a notes path shows (the breadcrumb's first part; VS Code checks a parent exists before a
    // write): a directory with nothing to list, since its children's URIs would inherit the task's query.
    if (uri.path.split('/').filter(Boolean).length < 2) return { type: this.vs.FileType.Directory, ctime: 0, mtime: 0, size: 0, permissions: this.vs.FilePermission.Readonly };
    const target = this.target(uri);
    const remote = isRemoteNotes(uri);
    // The pinned version, so VS Code's own "file is newer" check passes and the conflict is ours to explain.
    const pinned = remote ? undefined : this.pinned.get(target.taskId);
    const task = pinned ?? (await this.fetchForStat(uri, target, remote));
    const stat: vscode.FileStat = { type: this.vs.FileType.File, ctime: 0, ...notesStatTimes(task) };
    if (remote || task.deleted) stat.permissions = this.vs.FilePermission.Readonly;
    // The stat VS Code takes right before it writes. A save the user started answers from the pinned version with no
    // request: writeFile reads the task anyway and asks there (keepUnsaved keeps the text). An auto save cannot be
    // declined in writeFile (core/ui/saveConflict.ts): its conflict is settled here, where refusing keeps the text.
    const starter = pinned && !pinned.deleted ? this.saves.take(uri) : undefined;
    if (pinned && starter === 'auto') return { ...stat, ...(await this.settleBeforeAutoSave(uri, target, pinned)) };
    return stat;
  }

  /** Before VS Code auto-saves: notes changed elsewhere since the editor opened them are the user's to decide. */
  private async settleBeforeAutoSave(uri: vscode.Uri, target: NotesTarget, pinned: Task): Promise<{ mtime: number; size: number }> {
    const opened = notesStatTimes(pinned);
    let current: Task;
    try {
      current = await this.options.api().getTask(target.listId, target.taskId);
    } catch (error) {
      // Offline: the save goes to the queue (writeFile), and its replay checks for a change elsewhere.
      if (isUnreachable(error) && this.options.keepOffline) return opened;
      throw this.toFsError(uri, error);
    }
    // Notes too long: Desk says so, and the save is refused here.
    const text = this.vs.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString())?.getText();
    const length = text === undefined ? 0 : notesFromText(text)?.length ?? 0;
    if (text !== undefined && length > NOTES_MAX_LENGTH) {
      await this.askTooLong(uri, current, text, NOTES_MAX_LENGTH, undefined);
      return refusingStat(opened, notesStatTimes(current), savingBytes(this.vs, uri));
    }
    // Deleted meanwhile: writeFile says so.
    if (current.deleted || planSave('', pinned, current).kind !== 'conflict') return opened;
    const choice = await this.askConflict(uri, current);
    if (choice === 'overwrite') {
      this.approved.set(target.taskId, current.etag);
      return opened;
    }
    if (choice === 'compare') await this.openComparison(uri, current);
    return refusingStat(opened, notesStatTimes(current), savingBytes(this.vs, uri));
  }

  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    if (uri.path.split('/').filter(Boolean).length < 2) return [];
    throw this.vs.FileSystemError.FileNotADirectory(uri);
  }

  createDirectory(uri: vscode.Uri): void {
    throw this.vs.FileSystemError.NoPermissions(uri);
  }

  readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return this.asAccount(uri, 'open', () => this.readFileAs(uri));
  }

  private async readFileAs(uri: vscode.Uri): Promise<Uint8Array> {
    const target = this.target(uri);
    const remote = isRemoteNotes(uri);
    const statted = remote ? undefined : this.justStatted.get(target.taskId);
    this.justStatted.delete(target.taskId);
    const task = statted && Date.now() - statted.at < JUST_STATTED_MS ? await statted.task : await this.fetch(uri, target);
    if (!isRemoteNotes(uri)) this.pinned.set(task.id, task);
    return Buffer.from(task.notes ?? '', 'utf8');
  }

  writeFile(uri: vscode.Uri, content: Uint8Array, options: { readonly create: boolean; readonly overwrite: boolean }): Promise<void> {
    return this.asAccount(uri, 'save', () => this.writeFileAs(uri, content, options));
  }

  private async writeFileAs(uri: vscode.Uri, content: Uint8Array, options: { readonly create: boolean; readonly overwrite: boolean }): Promise<void> {
    const { FileSystemError, l10n } = this.vs;
    if (isRemoteNotes(uri)) throw FileSystemError.NoPermissions(uri);
    const target = this.target(uri);
    if (!options.overwrite) throw FileSystemError.FileExists(uri);
    // A save of the open document the user started (VS Code's stat came first): a declined one keeps it dirty, no error.
    const saving = this.saves.takeWrite(uri);
    const text = Buffer.from(content).toString('utf8');
    let current: Task;
    try {
      current = await this.options.api().getTask(target.listId, target.taskId);
    } catch (error) {
      if (isUnreachable(error) && (await this.keptOffline(uri, target, text, saving))) return;
      throw this.toFsError(uri, error);
    }
    if (current.deleted) throw FileSystemError.Unavailable(l10n.t('“{0}” was deleted: its notes cannot be saved.', current.title));
    const plan = planSave(text, this.pinned.get(target.taskId), current);
    if (plan.kind === 'tooLong') {
      if (saving && (await this.declineTooLong(uri, current, text, plan.max))) return;
      // Unavailable, not NoPermissions: VS Code then shows this message as it is, without a "retry as admin".
      throw FileSystemError.Unavailable(l10n.t('Notes can be at most {0} characters; these have {1}. Nothing was saved: shorten them and save again.', plan.max, plan.length));
    }
    const approved = this.approved.get(target.taskId);
    this.approved.delete(target.taskId);
    // Changed elsewhere since the editor read them (an Overwrite chosen before an auto save is not asked again).
    if (plan.kind === 'conflict' && approved !== current.etag) {
      const choice = await this.askConflict(uri, current);
      if (choice === 'compare') await this.openComparison(uri, current);
      if (choice !== 'overwrite') {
        if (saving && (await keepUnsaved(this.vs, uri))) return;
        throw FileSystemError.Unavailable(choice === 'compare'
          ? l10n.t('The notes of “{0}” changed elsewhere since you opened them. Compare, then save again to choose.', current.title)
          : l10n.t('Save cancelled: the notes of “{0}” changed elsewhere since you opened them. Your text is still in the editor.', current.title));
      }
    }
    let saved: Task;
    try {
      saved = await this.options.api().patchTask(target.listId, target.taskId, { notes: plan.notes });
    } catch (error) {
      if (isUnreachable(error) && (await this.keptOffline(uri, target, text, saving))) return;
      throw this.toFsError(uri, error);
    }
    this.pinned.set(saved.id, saved);
    this.options.onSaved?.(target.listId, saved);
  }

  /**
   * A save while the service cannot be reached: accepted into Desk's write queue (no "Failed to save", no Revert), the
   * editor's version becomes the one saved. Too long notes are still refused here. False when it cannot be kept.
   */
  private async keptOffline(uri: vscode.Uri, target: NotesTarget, text: string, saving: boolean): Promise<boolean> {
    const pinned = this.pinned.get(target.taskId);
    if (!this.options.keepOffline || !pinned) return false;
    const notes = notesFromText(text);
    if (notes !== null && notes.length > NOTES_MAX_LENGTH) {
      if (saving && (await this.declineTooLong(uri, pinned, text, NOTES_MAX_LENGTH))) return true;
      throw this.vs.FileSystemError.Unavailable(this.vs.l10n.t('Notes can be at most {0} characters; these have {1}. Nothing was saved: shorten them and save again.', NOTES_MAX_LENGTH, notes.length));
    }
    const local = await this.options.keepOffline(target.listId, pinned, notes);
    this.pinned.set(local.id, local);
    this.options.log?.(`Tasks: notes of ${target.taskId} kept offline`);
    return true;
  }

  delete(uri: vscode.Uri): void {
    throw this.vs.FileSystemError.NoPermissions(uri);
  }

  rename(oldUri: vscode.Uri): void {
    throw this.vs.FileSystemError.NoPermissions(oldUri);
  }

  // ---- helpers

  /** Runs an operation as the URI's account; refused, with nothing sent, when that account is not signed in. */
  private async asAccount<T>(uri: vscode.Uri, action: AccountAction, work: () => Promise<T>, onRefused?: () => void): Promise<T> {
    try {
      return await this.options.accounts.run(uri, action, displayNameOf(uri), work);
    } catch (error) {
      // Unavailable: VS Code shows the message as it is, and a refused save keeps the editor's text.
      if (!(error instanceof AccountRefusedError)) throw error;
      onRefused?.();
      throw this.vs.FileSystemError.Unavailable(error.message);
    }
  }

  private target(uri: vscode.Uri): NotesTarget {
    const target = notesTargetOf(uri);
    if (!target) throw this.vs.FileSystemError.FileNotFound(uri);
    return target;
  }

  /** The task for a stat; kept for the read that follows it (not for remote versions, never pinned). */
  private fetchForStat(uri: vscode.Uri, target: NotesTarget, remote: boolean): Promise<Task> {
    const task = this.fetch(uri, target);
    if (!remote) {
      this.justStatted.set(target.taskId, { task, at: Date.now() });
      task.catch(() => this.justStatted.delete(target.taskId));
    }
    return task;
  }

  private async fetch(uri: vscode.Uri, target: NotesTarget): Promise<Task> {
    try {
      return await this.options.api().getTask(target.listId, target.taskId);
    } catch (error) {
      throw this.toFsError(uri, error);
    }
  }

  /**
   * Notes longer than Tasks keeps: Desk says so in its own words and offers ways to keep the text (select what is
   * too long, so it can be cut; open a copy in a new editor); nothing is sent and the editor stays dirty.
   */
  private async declineTooLong(uri: vscode.Uri, task: Task, text: string, max: number): Promise<boolean> {
    const kept = await keepUnsaved(this.vs, uri);
    if (!kept) return false;
    await this.askTooLong(uri, task, text, max, kept.settled);
    return true;
  }

  /** Desk's words for notes too long, and its help once `settled` (the text back as typed; now when undefined). */
  private async askTooLong(uri: vscode.Uri, task: Task, text: string, max: number, settled: Promise<void> | undefined): Promise<void> {
    const vs = this.vs;
    const length = notesFromText(text)?.length ?? 0;
    const select = vs.l10n.t('Select the Excess');
    const copy = vs.l10n.t('Open a Copy in a New Editor');
    const choice = await vs.window.showWarningMessage(
      vs.l10n.t('The notes of “{0}” are too long for Google Tasks: at most {1} characters, these have {2}.', task.title, max, length),
      { modal: true, detail: vs.l10n.t('Nothing was saved, and your text stays in the editor. Shorten it and save again.') },
      select,
      copy,
    );
    this.options.log?.(`Tasks: notes of ${uri.toString()} too long (${length} > ${max}): ${choice ?? 'cancel'}`);
    // After the declined save has ended and the text is back as typed.
    void (settled ?? Promise.resolve())
      .then(() => this.helpShorten(uri, text, max, choice === copy ? 'copy' : choice === select ? 'select' : undefined))
      .catch((error: unknown) => this.options.log?.(`Tasks: could not help shorten the notes: ${String(error)}`));
  }

  private async helpShorten(uri: vscode.Uri, text: string, max: number, how: 'copy' | 'select' | undefined): Promise<void> {
    const vs = this.vs;
    if (how === 'copy') {
      const document = await vs.workspace.openTextDocument({ language: 'markdown', content: text });
      await vs.window.showTextDocument(document, { preview: false });
    } else if (how === 'select') {
      const editor = await vs.window.showTextDocument(uri, { preview: false });
      // The first `max` characters of the notes (line ends counted as one) stay; the rest is selected and shown.
      const start = editor.document.positionAt(offsetOfNotesLength(editor.document.getText(), max));
      const end = editor.document.positionAt(editor.document.getText().length);
      editor.selection = new vs.Selection(start, end);
      editor.revealRange(new vs.Range(start, end), vs.TextEditorRevealType.InCenterIfOutsideViewport);
    }
  }

  private async askConflict(uri: vscode.Uri, current: Task): Promise<NotesConflictChoice> {
    const vs = this.vs;
    const compare = vs.l10n.t('Compare');
    const overwrite = vs.l10n.t('Overwrite');
    const choice = await vs.window.showWarningMessage(
      vs.l10n.t('The notes of “{0}” were changed elsewhere since you opened them.', current.title),
      { modal: true, detail: vs.l10n.t('Compare their version with yours, overwrite it with yours, or cancel and keep editing. Nothing is saved until you choose.') },
      compare,
      overwrite,
    );
    this.options.log?.(`Tasks: notes save conflict on ${uri.toString()}: ${choice ?? 'cancel'}`);
    return choice === compare ? 'compare' : choice === overwrite ? 'overwrite' : 'cancel';
  }

  private async openComparison(uri: vscode.Uri, current: Task): Promise<void> {
    const remote = uri.with({ query: remoteNotesQuery(uri.query) });
    await this.vs.commands.executeCommand('vscode.diff', remote, uri, this.vs.l10n.t('{0} (Tasks) ↔ (yours)', current.title));
  }

  /** VS Code understands FileSystemErrors (not found, no permissions); everything else keeps its message. */
  private toFsError(uri: vscode.Uri, error: unknown): Error {
    const { FileSystemError } = this.vs;
    if (error instanceof FileSystemError) return error;
    if (error instanceof GoogleApiError) {
      if (error.status === 404) return FileSystemError.FileNotFound(uri);
      if (error.status === 403 || error.status === 401) return FileSystemError.NoPermissions(errorMessage(error, this.vs.l10n.t));
      return FileSystemError.Unavailable(errorMessage(error, this.vs.l10n.t));
    }
    return FileSystemError.Unavailable(errorMessage(error, this.vs.l10n.t));
  }
}
