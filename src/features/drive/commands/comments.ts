/**
 * Comments on Drive files: add on a selection, reply, resolve / reopen, edit and delete, from a comment thread in
 * the editor, from a comment row in the tree, or from the palette (then a quick pick of the file's comments).
 * The file is the thread's, the row's, the active editor's Drive document, or the file selected in the tree.
 */
import type * as vscode from 'vscode';
import { attempt } from '../../../core/commands';
import { confirmModal } from '../../../core/ui/confirm';
import type { DriveComment } from '../../../shared/schemas/drive/comments';
import { excerpt } from '../comments/anchors';
import { authorName, commentLabel, CommentNode, fileOfCommentRow, isMine, isResolved } from '../comments/nodes';
import { CommentTarget, DriveCommentEntry } from '../comments/threads';
import { driveUri, fileIdOf } from '../fs/driveFileSystem';
import { DriveNode, folderTitles } from '../tree/model';
import { DriveCommandPart } from './context';

/** The file a command acts on, and how to open it. */
interface FileContext {
  readonly fileId: string;
  readonly title: string;
  readonly uri: vscode.Uri | undefined;
}

type PickItem = vscode.QuickPickItem & { readonly target: CommentTarget; readonly comment: DriveComment };

/** What VS Code and the tree hand a comment command: an entry, a thread, the reply box, a tree row, or nothing. */
export type CommentArg = DriveCommentEntry | vscode.CommentThread | vscode.CommentReply | DriveNode | undefined;

function isReplyBox(arg: CommentArg): arg is vscode.CommentReply {
  return typeof arg === 'object' && 'thread' in arg && 'text' in arg;
}

function isThread(arg: CommentArg): arg is vscode.CommentThread {
  return typeof arg === 'object' && !(arg instanceof DriveCommentEntry) && 'uri' in arg && 'comments' in arg;
}

function isCommentRow(arg: CommentArg): arg is CommentNode {
  return typeof arg === 'object' && 'kind' in arg && arg.kind === 'comment';
}

export class DriveCommentCommands extends DriveCommandPart {
  /** The comment threads and their store. */
  private get comments() {
    return this.host.comments;
  }

  /** The file of a tree row, of the active Drive editor, or of the tree's selection (in that order). */
  private fileContext(node?: DriveNode): FileContext | undefined {
    const row = node && (node.kind === 'comments' || node.kind === 'comment') ? fileOfCommentRow(node) : node?.kind === 'file' ? node : undefined;
    if (row) return { fileId: row.item.id, title: row.item.title ?? row.item.id, uri: driveUri(this.vs, this.desk.session.viewAccount(), row.item, folderTitles(row)) };
    const document = this.vs.window.activeTextEditor?.document;
    const fileId = document && this.comments.isDriveDocument(document) ? fileIdOf(document.uri) : undefined;
    if (document && fileId) return { fileId, title: document.uri.path.split('/').pop() ?? fileId, uri: document.uri };
    const selected = this.context.fileNodes().at(0);
    if (selected) return { fileId: selected.item.id, title: selected.item.title ?? selected.item.id, uri: driveUri(this.vs, this.desk.session.viewAccount(), selected.item, folderTitles(selected)) };
    void this.vs.window.showInformationMessage(this.t('Open a file from Drive, or select one in the Drive view, first.'));
    return undefined;
  }

  /** A quick pick over the file's comments (and, with `replies`, the user's own replies) that pass `keep`. */
  private async pick(file: FileContext, placeHolder: string, keep: (comment: DriveComment) => boolean, none: string, replies = false): Promise<PickItem | undefined> {
    const all = await this.comments.store.load(file.fileId, 0);
    const items: PickItem[] = [];
    for (const comment of all) {
      const target = { fileId: file.fileId, commentId: comment.commentId };
      if (keep(comment)) {
        items.push({
          label: `$(${isResolved(comment) ? 'pass' : 'comment'}) ${commentLabel(comment, this.t)}`,
          description: isResolved(comment) ? this.t('Resolved') : undefined,
          target,
          comment,
        });
      }
      if (!replies) continue;
      for (const reply of comment.replies ?? []) {
        if (reply.deleted || !isMine(reply) || !reply.content) continue;
        items.push({ label: `$(reply) ${excerpt(reply.content)}`, description: this.t('your reply to {0}', authorName(comment, this.t)), target: { ...target, replyId: reply.replyId }, comment });
      }
    }
    if (items.length === 0) {
      void this.vs.window.showInformationMessage(none);
      return undefined;
    }
    return this.vs.window.showQuickPick(items, { placeHolder, matchOnDescription: true });
  }

  /** The comment a thread, tree row or reply box names; undefined for anything else. */
  private targetOf(arg: CommentArg): CommentTarget | undefined {
    if (arg instanceof DriveCommentEntry) return arg.target;
    if (isReplyBox(arg)) return this.comments.targetOfThread(arg.thread);
    if (isThread(arg)) return this.comments.targetOfThread(arg);
    if (isCommentRow(arg)) return { fileId: fileOfCommentRow(arg).item.id, commentId: arg.comment.commentId };
    return undefined;
  }

  /**
   * A comment's text, starting with what was typed in the same box for the same comment last time and not sent
   * (Escape, a click elsewhere, a failed request); `send` posts it, and only its success drops that text.
   */
  private async writeText<T>(draftKey: string, prompt: string, original: string, send: (text: string) => Promise<T>): Promise<T | undefined> {
    const draft = this.context.drafts.open(draftKey, { text: original });
    const text = await draft.ask('text', prompt, this.t, (box) => this.vs.window.showInputBox(box), (typed) => (typed.trim() === '' ? this.t('Write something first') : undefined));
    if (text === undefined) return undefined;
    const sent = await send(text.trim());
    draft.drop();
    return sent;
  }

  /** Resolve or reopen: from a thread's title, its reply box (the typed text goes with it), a row, or a pick. */
  private setStatus(verb: 'resolve' | 'reopen') {
    return (arg?: CommentArg) =>
      attempt(this.desk, async () => {
        let target = this.targetOf(arg);
        if (!target) {
          const file = this.fileContext(arg as DriveNode | undefined);
          if (!file) return;
          const picked = verb === 'resolve'
            ? await this.pick(file, this.t('Resolve which comment?'), (comment) => !isResolved(comment), this.t('“{0}” has no open comments.', file.title))
            : await this.pick(file, this.t('Reopen which comment?'), isResolved, this.t('“{0}” has no resolved comments.', file.title));
          target = picked?.target;
        }
        if (!target) return;
        await this.comments.reply(target, isReplyBox(arg) ? arg.text.trim() : '', verb);
      }, { action: verb === 'resolve' ? this.t('Could not resolve the comment') : this.t('Could not reopen the comment') });
  }

  /** Add Comment on Selection: the selected lines (or the cursor's line) of the active Drive document. */
  add() {
    return attempt(this.desk, async () => {
      const editor = this.vs.window.activeTextEditor;
      if (!editor || !this.comments.isDriveDocument(editor.document)) {
        void this.vs.window.showInformationMessage(this.t('Open a file from Drive and select the text to comment on.'));
        return undefined;
      }
      const selection = editor.selection;
      // A selection that ends at the start of a line does not take that line in.
      const end = selection.end.line > selection.start.line && selection.end.character === 0 ? selection.end.line - 1 : selection.end.line;
      const span = { start: selection.start.line, end };
      const prompt = span.end > span.start ? this.t('Comment on lines {0}–{1}', span.start + 1, span.end + 1) : this.t('Comment on line {0}', span.start + 1);
      return this.writeText(`add-comment/${editor.document.uri.toString()}/${span.start}-${span.end}`, prompt, '', (text) => this.comments.add(editor.document, span, text));
    }, { action: this.t('Could not add the comment') });
  }

  /** The Add button of a new, empty thread (the gutter's +): the thread's lines and the typed text. */
  create(reply: vscode.CommentReply) {
    return attempt(this.desk, async () => {
      const text = reply.text.trim();
      if (text === '') return undefined;
      const uri = reply.thread.uri.toString();
      const document = this.vs.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri) ?? (await this.vs.workspace.openTextDocument(reply.thread.uri));
      const range = reply.thread.range;
      const comment = await this.comments.add(document, range ? { start: range.start.line, end: range.end.line } : { start: 0, end: 0 }, text);
      // Drive's thread for the new comment replaces the draft one.
      reply.thread.dispose();
      return comment;
    }, { action: this.t('Could not add the comment') });
  }

  reply(arg?: CommentArg) {
    return attempt(this.desk, async () => {
      if (isReplyBox(arg)) {
        const target = this.targetOf(arg);
        if (target && arg.text.trim() !== '') await this.comments.reply(target, arg.text.trim());
        return;
      }
      let target = this.targetOf(arg);
      let about = isCommentRow(arg) ? arg.comment : undefined;
      if (!target) {
        const file = this.fileContext(arg as DriveNode | undefined);
        const picked = file ? await this.pick(file, this.t('Reply to which comment?'), () => true, this.t('“{0}” has no comments.', file.title)) : undefined;
        target = picked?.target;
        about = picked?.comment;
      }
      if (!target) return;
      const replyTo = target;
      await this.writeText(`reply/${replyTo.fileId}/${replyTo.commentId}`, about ? this.t('Reply to {0}', authorName(about, this.t)) : this.t('Reply'), '', (text) => this.comments.reply(replyTo, text));
    }, { action: this.t('Could not reply') });
  }

  readonly resolve = this.setStatus('resolve');

  readonly reopen = this.setStatus('reopen');

  edit(arg?: CommentArg) {
    return attempt(this.desk, async () => {
      if (arg instanceof DriveCommentEntry) {
        this.comments.startEdit(arg);
        return;
      }
      let target = this.targetOf(arg);
      let current = isCommentRow(arg) ? arg.comment.content : undefined;
      if (!target) {
        const file = this.fileContext(arg as DriveNode | undefined);
        const picked = file ? await this.pick(file, this.t('Edit which of your comments?'), isMine, this.t('You have no comments on “{0}”.', file.title), true) : undefined;
        target = picked?.target;
        current = picked ? (target?.replyId ? picked.comment.replies?.find((reply) => reply.replyId === target?.replyId)?.content : picked.comment.content) : undefined;
      }
      if (!target) return;
      const edited = target;
      await this.writeText(`edit-comment/${edited.fileId}/${edited.commentId}/${edited.replyId ?? ''}`, this.t('Edit the comment'), current ?? '', async (text) => {
        if (text !== current) await this.comments.edit(edited, text);
      });
    }, { action: this.t('Could not edit the comment') });
  }

  save(entry: DriveCommentEntry) {
    return attempt(this.desk, () => this.comments.saveEdit(entry), { action: this.t('Could not save the comment') });
  }

  cancel(entry: DriveCommentEntry) {
    this.comments.cancelEdit(entry);
  }

  delete(arg?: CommentArg) {
    return attempt(this.desk, async () => {
      let target = this.targetOf(arg);
      if (!target) {
        const file = this.fileContext(arg as DriveNode | undefined);
        const picked = file ? await this.pick(file, this.t('Delete which of your comments?'), isMine, this.t('You have no comments on “{0}”.', file.title), true) : undefined;
        target = picked?.target;
      }
      if (!target) return false;
      const question = target.replyId ? this.t('Delete this reply?') : this.t('Delete this comment and its replies?');
      if (!(await confirmModal(this.vs, question, this.t('Everyone who can open the file stops seeing it. This cannot be undone.'), this.t('Delete')))) return false;
      await this.comments.remove(target);
      return true;
    }, { action: this.t('Could not delete the comment') });
  }

  /** Show Comments: a pick of the file's comments; the chosen one opens at its place in the file. */
  show(node?: DriveNode) {
    return attempt(this.desk, async () => {
      const file = this.fileContext(node);
      const picked = file ? await this.pick(file, this.t('Comments on “{0}”', file.title), () => true, this.t('“{0}” has no comments.', file.title)) : undefined;
      if (file && picked) await this.comments.reveal(file.fileId, picked.comment, file.uri, file.title);
    }, { action: this.t('Could not show the comments'), retry: true });
  }

  /** A comment row's click: the file opens at the comment. */
  open(node: CommentNode) {
    return attempt(this.desk, async () => {
      const file = fileOfCommentRow(node);
      await this.comments.reveal(file.item.id, node.comment, driveUri(this.vs, this.desk.session.viewAccount(), file.item, folderTitles(file)), file.item.title);
    }, { action: this.t('Could not open the comment'), retry: true });
  }

  refresh(arg?: CommentArg) {
    return attempt(this.desk, async () => {
      if (typeof arg === 'object' && 'kind' in arg && (arg.kind === 'comments' || arg.kind === 'comment')) {
        this.host.provider.refresh(arg);
        return;
      }
      const target = this.targetOf(arg);
      const file = target ? { fileId: target.fileId } : this.fileContext(arg as DriveNode | undefined);
      if (!file) return;
      this.comments.fileChanged(file.fileId);
      await this.comments.store.load(file.fileId);
    }, { action: this.t('Could not reload the comments'), retry: true });
  }
}
