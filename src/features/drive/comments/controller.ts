/**
 * Drive comments in the editor: each comment of a `desk-drive:` document is a VS Code comment thread at the lines
 * its anchor (or quoted text) names, its replies below it; resolved comments are resolved, collapsed threads.
 * Threads load when a document opens and reload when it is reopened or Drive reports the file changed; every
 * change Desk makes goes through the shared CommentStore, so threads and the tree's Comments rows follow it.
 */
import type * as vscode from 'vscode';
import { errorMessage } from '../../../api/errors';
import { accountOfUri } from '../../../core/accounts/accounts';
import { NotSignedInError } from '../../../core/accounts/session';
import { Disposable } from '../../../core/disposable';
import type { CommentReplyInput, DriveComment } from '../../../shared/schemas/drive/comments';
import { driveUri, fileIdOf } from '../fs/driveFileSystem';
import { isRemoteVersion } from '../fs/drivePath';
import { CommentPlace, commentPlacer, LineSpan, lineAnchor, placeComment, quoteContext } from './anchors';
import { isResolved } from './nodes';
import { CommentsApi, CommentStore } from './store';
import { CommentTarget, DriveCommentEntry, threadContextValue, threadEntries, threadLabel, threadState } from './threads';

export const COMMENT_CONTROLLER_ID = 'desk.drive.comments';

export interface DriveCommentsOptions {
  readonly api: () => CommentsApi;
  readonly isSignedIn: () => boolean;
  /** The account whose Drive the views show: a comment's file opens in it. */
  readonly account: () => string;
  /** The same, undefined when signed out: only its documents show comments (another account's stay without). */
  readonly currentAccount: () => string | undefined;
  readonly log: (message: string) => void;
}

interface ThreadRecord {
  readonly thread: vscode.CommentThread;
  readonly fileId: string;
  readonly commentId: string;
  status: string | undefined;
}

/** Re-placing threads after a reload or save waits this long, so a burst of changes lays them out once. */
const RELAYOUT_DELAY_MS = 150;

export class DriveComments extends Disposable {
  readonly store: CommentStore;
  private readonly controller: vscode.CommentController;
  /** Threads per document URI, by comment id. */
  private readonly threads = new Map<string, Map<string, ThreadRecord>>();
  private readonly records = new WeakMap<vscode.CommentThread, ThreadRecord>();
  private readonly relayouts = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly vs: typeof vscode, private readonly options: DriveCommentsOptions) {
    super();
    const t = vs.l10n.t;
    this.store = new CommentStore(options.api);
    this.controller = this._register(vs.comments.createCommentController(COMMENT_CONTROLLER_ID, t('Drive comments')));
    this.controller.options = { prompt: t('Reply…'), placeHolder: t('Write a comment (everyone who can open the file sees it)') };
    this.controller.commentingRangeProvider = {
      provideCommentingRanges: (document) => (this.isDriveDocument(document) ? [new vs.Range(0, 0, Math.max(0, document.lineCount - 1), 0)] : undefined),
    };
    this._register(this.store.onDidChange((fileId) => {
      for (const document of this.documentsOf(fileId)) this.render(document);
    }));
    this._register(vs.workspace.onDidOpenTextDocument((document) => void this.load(document, true)));
    this._register(vs.workspace.onDidCloseTextDocument((document) => { this.forget(document.uri.toString()); }));
    // Closing a tab need not close its document, so a reopened file is seen as a new tab: its comments reload.
    this._register(vs.window.tabGroups.onDidChangeTabs((event) => {
      for (const tab of event.opened) {
        const uri = tab.input instanceof vs.TabInputText ? tab.input.uri.toString() : undefined;
        const document = uri ? vs.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri) : undefined;
        if (document) void this.load(document, true);
      }
    }));
    // Editors restored with the window open their documents before Desk is signed in: load them when seen.
    this._register(vs.window.onDidChangeVisibleTextEditors((editors) => {
      for (const editor of editors) if (!this.threads.has(editor.document.uri.toString())) void this.load(editor.document, false);
    }));
    this._register(vs.workspace.onDidChangeTextDocument((event) => {
      if (!event.document.isDirty && this.threads.has(event.document.uri.toString())) this.relayoutSoon(event.document);
    }));
    this._register(vs.workspace.onDidSaveTextDocument((document) => {
      if (this.threads.has(document.uri.toString())) this.relayoutSoon(document);
    }));
    this._register({ dispose: () => { for (const timer of this.relayouts.values()) clearTimeout(timer); } });
  }

  /** Open Drive documents of the signed-in account (not the read-only remote side of a diff). */
  isDriveDocument(document: vscode.TextDocument): boolean {
    return fileIdOf(document.uri) !== undefined && !isRemoteVersion(document.uri) && accountOfUri(document.uri) === this.options.currentAccount();
  }

  documentsOf(fileId: string): vscode.TextDocument[] {
    return this.vs.workspace.textDocuments.filter((document) => this.isDriveDocument(document) && fileIdOf(document.uri) === fileId);
  }

  /** Loads (fresh, or from the store's recent copy) and shows the comments of a Drive document. */
  async load(document: vscode.TextDocument, fresh: boolean): Promise<readonly DriveComment[]> {
    const fileId = fileIdOf(document.uri);
    if (!fileId || !this.isDriveDocument(document) || !this.options.isSignedIn()) return [];
    try {
      const comments = await this.store.load(fileId, fresh ? 0 : undefined);
      this.render(document);
      return comments;
    } catch (error) {
      if (!(error instanceof NotSignedInError)) this.options.log(`Drive: could not load the comments of ${document.uri.path}: ${errorMessage(error)}`);
      return [];
    }
  }

  /** Drive reported the file changed: reload its comments where they are shown, else forget the stale copy. */
  fileChanged(fileId: string): void {
    this.store.invalidate(fileId);
    for (const document of this.documentsOf(fileId)) void this.load(document, true);
  }

  /** Sign-out, another account or backend: no threads, no cached comments (then, if signed in, those of the files in view). */
  reset(): void {
    this.store.reset();
    for (const uri of [...this.threads.keys()]) this.forget(uri);
    for (const editor of this.vs.window.visibleTextEditors) void this.load(editor.document, true);
  }

  // ---- what threads and commands act on

  /** The comment a thread shows, or undefined for a thread that is not one of Drive's (a new, empty one). */
  targetOfThread(thread: vscode.CommentThread): CommentTarget | undefined {
    const record = this.records.get(thread);
    return record ? { fileId: record.fileId, commentId: record.commentId } : undefined;
  }

  /** The thread showing a comment in `document`, if it is shown. */
  threadOf(document: vscode.TextDocument, commentId: string): vscode.CommentThread | undefined {
    return this.threads.get(document.uri.toString())?.get(commentId)?.thread;
  }

  /** Where a comment is shown in a document now. */
  placeIn(document: vscode.TextDocument, comment: DriveComment): CommentPlace {
    return placeComment(comment, document.getText());
  }

  // ---- changes (each updates the store, which re-renders threads and tree rows)

  async add(document: vscode.TextDocument, span: LineSpan, content: string): Promise<DriveComment> {
    const fileId = this.requireFileId(document);
    const last = Math.min(span.end, document.lineCount - 1);
    const range = new this.vs.Range(span.start, 0, last, document.lineAt(last).text.length);
    const quote = document.getText(range);
    const input = { content, anchor: lineAnchor({ start: span.start, end: last }, document.lineCount), ...(quote.trim() !== '' ? { context: quoteContext(quote) } : {}) };
    const comment = await this.options.api().insertComment(fileId, input);
    this.store.upsert(fileId, comment);
    return comment;
  }

  async reply(target: CommentTarget, content: string, verb?: CommentReplyInput['verb']): Promise<void> {
    const input: CommentReplyInput = { ...(content !== '' ? { content } : {}), ...(verb ? { verb } : {}) };
    const reply = await this.options.api().insertReply(target.fileId, target.commentId, input);
    this.store.addReply(target.fileId, target.commentId, reply);
    // A resolve or reopen changes the comment itself (its status): read it back whole (comments.get), as Drive has it.
    if (verb) this.store.upsert(target.fileId, await this.options.api().getComment(target.fileId, target.commentId));
  }

  async edit(target: CommentTarget, content: string): Promise<void> {
    if (target.replyId) {
      const reply = await this.options.api().patchReply(target.fileId, target.commentId, target.replyId, { content });
      this.store.replaceReply(target.fileId, target.commentId, target.replyId, reply);
    } else {
      this.store.upsert(target.fileId, await this.options.api().patchComment(target.fileId, target.commentId, { content }));
    }
  }

  async remove(target: CommentTarget): Promise<void> {
    if (target.replyId) {
      await this.options.api().deleteReply(target.fileId, target.commentId, target.replyId);
      this.store.replaceReply(target.fileId, target.commentId, target.replyId, undefined);
    } else {
      await this.options.api().deleteComment(target.fileId, target.commentId);
      this.store.remove(target.fileId, target.commentId);
    }
  }

  /** Puts an entry into edit mode in its thread (Save and Cancel end it). */
  startEdit(entry: DriveCommentEntry): void {
    entry.savedBody = entry.text;
    entry.mode = this.vs.CommentMode.Editing;
    this.touch(entry.thread);
  }

  cancelEdit(entry: DriveCommentEntry): void {
    entry.body = entry.savedBody;
    entry.mode = this.vs.CommentMode.Preview;
    this.touch(entry.thread);
  }

  async saveEdit(entry: DriveCommentEntry): Promise<void> {
    const text = entry.text.trim();
    if (text === '') return;
    await this.edit(entry.target, text);
    entry.mode = this.vs.CommentMode.Preview;
    this.touch(entry.thread);
  }

  /** Opens the comment's file (at `uri`, or by id) and shows its thread expanded at its lines. */
  async reveal(fileId: string, comment: DriveComment, uri?: vscode.Uri, title?: string): Promise<void> {
    const vs = this.vs;
    const open = this.documentsOf(fileId).at(0);
    const document = open ?? (await vs.workspace.openTextDocument(uri ?? driveUri(vs, this.options.account(), { id: fileId, title: title ?? comment.fileTitle ?? fileId })));
    const editor = await vs.window.showTextDocument(document, { preview: true });
    if (!this.threadOf(document, comment.commentId)) await this.load(document, false);
    const place = this.placeIn(document, comment);
    const start = new vs.Position(place.start, 0);
    editor.selection = new vs.Selection(start, start);
    editor.revealRange(new vs.Range(start, start), vs.TextEditorRevealType.InCenterIfOutsideViewport);
    const thread = this.threadOf(document, comment.commentId);
    if (thread) thread.collapsibleState = vs.CommentThreadCollapsibleState.Expanded;
  }

  // ---- rendering

  /** Builds, updates or removes the threads of a document from the store's copy of its comments. */
  private render(document: vscode.TextDocument): void {
    const vs = this.vs;
    const fileId = fileIdOf(document.uri);
    const comments = fileId ? this.store.cached(fileId) : undefined;
    if (!fileId || !comments || document.isClosed) return;
    const key = document.uri.toString();
    const shown = this.threads.get(key) ?? new Map<string, ThreadRecord>();
    this.threads.set(key, shown);
    const placeOf = commentPlacer(document.getText());
    const seen = new Set<string>();
    for (const comment of comments) {
      seen.add(comment.commentId);
      const place = placeOf(comment);
      const last = Math.min(place.end, document.lineCount - 1);
      const range = new vs.Range(place.start, 0, last, document.lineAt(last).text.length);
      let record = shown.get(comment.commentId);
      if (!record) {
        const thread = this.controller.createCommentThread(document.uri, range, []);
        thread.canReply = true;
        thread.collapsibleState = isResolved(comment) ? vs.CommentThreadCollapsibleState.Collapsed : vs.CommentThreadCollapsibleState.Expanded;
        record = { thread, fileId, commentId: comment.commentId, status: comment.status };
        shown.set(comment.commentId, record);
        this.records.set(thread, record);
      } else if (record.status !== comment.status) {
        // Resolving folds a thread away; reopening brings it back.
        record.thread.collapsibleState = isResolved(comment) ? vs.CommentThreadCollapsibleState.Collapsed : vs.CommentThreadCollapsibleState.Expanded;
        record.status = comment.status;
      }
      const thread = record.thread;
      if (!thread.range || !thread.range.isEqual(range)) thread.range = range;
      thread.contextValue = threadContextValue(comment);
      thread.state = threadState(vs, comment);
      const label = threadLabel(vs.l10n.t, comment, place);
      if (thread.label !== label) thread.label = label;
      thread.comments = this.keepEdits(thread, threadEntries(vs, fileId, comment));
    }
    for (const [commentId, record] of [...shown]) {
      if (seen.has(commentId)) continue;
      record.thread.dispose();
      shown.delete(commentId);
    }
  }

  /** New entries for a thread, except the ones being edited right now, which stay as the user has them. */
  private keepEdits(thread: vscode.CommentThread, entries: DriveCommentEntry[]): DriveCommentEntry[] {
    const editing = thread.comments.filter((entry): entry is DriveCommentEntry => entry instanceof DriveCommentEntry && entry.mode === this.vs.CommentMode.Editing);
    return entries.map((entry) => {
      const kept = editing.find((candidate) => candidate.sameAs(entry)) ?? entry;
      kept.thread = thread;
      return kept;
    });
  }

  /** Reassigning the comments array is how VS Code learns that an entry changed. */
  private touch(thread: vscode.CommentThread | undefined): void {
    if (thread) thread.comments = [...thread.comments];
  }

  private relayoutSoon(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    clearTimeout(this.relayouts.get(key));
    this.relayouts.set(key, setTimeout(() => {
      this.relayouts.delete(key);
      this.render(document);
    }, RELAYOUT_DELAY_MS));
  }

  private forget(key: string): void {
    clearTimeout(this.relayouts.get(key));
    this.relayouts.delete(key);
    for (const record of this.threads.get(key)?.values() ?? []) record.thread.dispose();
    this.threads.delete(key);
  }

  private requireFileId(document: vscode.TextDocument): string {
    const fileId = this.isDriveDocument(document) ? fileIdOf(document.uri) : undefined;
    if (!fileId) throw new Error(this.vs.l10n.t('Comments are for files opened from Drive.'));
    return fileId;
  }
}
