/**
 * The Drive tree's comment rows: a file known to have comments expands to "Comments (N)", which lists them (author,
 * excerpt, resolved or not); clicking one opens the file at the comment. Rows follow the CommentStore.
 *
 * Drive's file resource carries no comment count and has no batch listing, so counts are learnt lazily, one file at a
 * time: when its row is hovered, when it is opened in an editor, or by Show Comments…. Until then a file row looks
 * like a file (no expand arrow); once it is known to have comments it gets the arrow and "N comments".
 */
import type * as vscode from 'vscode';
import { errorMessage } from '../../../api/errors';
import { escapeMarkdown } from '../../../core/text/markdown';
import type { Translate } from '../../../shared/l10n';
import { NotSignedInError } from '../../../core/accounts/session';
import { Disposable } from '../../../core/disposable';
import type { DriveComment } from '../../../shared/schemas/drive/comments';
import type { DriveTreeComments } from '../tree/treeProvider';
import type { DriveNode, FileNode, MessageNode } from '../tree/model';
import { excerpt, quoteOf } from './anchors';
import { authorName, commentLabel, CommentNode, commentNodes, commentRowContextValue, CommentsNode, commentsNode, fileOfCommentRow, hasCommentsRow, isResolved } from './nodes';
import type { CommentStore } from './store';
import { DRIVE_COMMAND } from '../../../config/commandIds';


export interface CommentsTreeOptions {
  readonly store: CommentStore;
  /** The loaded tree rows of a file (a file in two folders shows twice). */
  readonly nodesForFile: (fileId: string) => readonly FileNode[];
  readonly rerender: (node: DriveNode) => void;
  readonly log: (message: string) => void;
}

export class DriveCommentsTree extends Disposable implements DriveTreeComments {
  /** The comment count each file's rows were last drawn with, so a load re-renders them only when it changed. */
  private readonly drawnCounts = new Map<string, number>();

  constructor(private readonly vs: typeof vscode, private readonly options: CommentsTreeOptions) {
    super();
    const rerender = (fileId: string): void => {
      for (const node of options.nodesForFile(fileId)) options.rerender(node);
    };
    this._register(options.store.onDidChange(rerender));
    this._register(options.store.onDidLoad((fileId) => {
      if ((this.drawnCounts.get(fileId) ?? 0) !== this.count(fileId)) rerender(fileId);
    }));
  }

  /** Only a file known to have comments expands: the rest look like the files they are. */
  expandable(node: FileNode): boolean {
    const count = hasCommentsRow(node) ? this.count(node.item.id) : 0;
    this.drawnCounts.set(node.item.id, count);
    return count > 0;
  }

  /** "2 comments" beside a file known to have some. */
  describe(node: FileNode): string | undefined {
    const count = hasCommentsRow(node) ? this.count(node.item.id) : 0;
    if (count === 0) return undefined;
    return count === 1 ? this.vs.l10n.t('1 comment') : this.vs.l10n.t('{0} comments', count);
  }

  /** Learns a file's comments in the background (its row was hovered); the row follows when it has some. */
  prime(node: FileNode): void {
    if (!hasCommentsRow(node) || this.options.store.cached(node.item.id) !== undefined) return;
    this.options.store.load(node.item.id).catch((error: unknown) => {
      if (!(error instanceof NotSignedInError)) this.options.log(`Drive: could not load the comments of ${node.item.title ?? node.item.id}: ${errorMessage(error)}`);
    });
  }

  private count(fileId: string): number {
    return this.options.store.cached(fileId)?.length ?? 0;
  }

  async children(node: FileNode | CommentsNode): Promise<DriveNode[]> {
    const t = this.vs.l10n.t;
    const file = node.kind === 'file' ? node : node.parent;
    let comments: readonly DriveComment[];
    try {
      comments = (node.kind === 'comments' ? this.options.store.cached(file.item.id) : undefined) ?? (await this.options.store.load(file.item.id));
    } catch (error) {
      if (error instanceof NotSignedInError) return [];
      this.options.log(`Drive: could not load the comments of ${file.item.title ?? file.item.id}: ${errorMessage(error)}`);
      const message: MessageNode = { kind: 'message', id: `${file.id}/…comments…error`, parent: file, text: t('Could not load comments: {0}', errorMessage(error, t)) };
      return [message];
    }
    if (node.kind === 'comments') return commentNodes(node, comments, t);
    if (comments.length === 0) return [{ kind: 'message', id: `${file.id}/…nocomments`, parent: file, text: t('No comments') }];
    return [commentsNode(file, comments.length, t)];
  }

  treeItem(node: CommentsNode | CommentNode): vscode.TreeItem {
    const vs = this.vs;
    const t = vs.l10n.t;
    if (node.kind === 'comments') {
      const item = new vs.TreeItem(t('Comments ({0})', node.count), vs.TreeItemCollapsibleState.Expanded);
      item.id = node.id;
      item.iconPath = new vs.ThemeIcon('comment-discussion');
      item.contextValue = commentRowContextValue(node);
      return item;
    }
    const comment = node.comment;
    const item = new vs.TreeItem(commentLabel(comment, t), vs.TreeItemCollapsibleState.None);
    item.id = node.id;
    const replies = (comment.replies ?? []).filter((reply) => !reply.deleted && reply.content).length;
    const status = isResolved(comment) ? t('Resolved') : undefined;
    item.description = [status, replies > 0 ? t('{0} replies', replies) : undefined].filter(Boolean).join(' · ') || undefined;
    item.iconPath = new vs.ThemeIcon(isResolved(comment) ? 'pass' : 'comment');
    item.contextValue = commentRowContextValue(node);
    item.tooltip = new vs.MarkdownString(tooltipOf(comment, t));
    item.command = { command: DRIVE_COMMAND.openComment, title: t('Open at Comment'), arguments: [node] };
    return item;
  }

  refresh(node: CommentsNode | CommentNode): void {
    const file = fileOfCommentRow(node);
    this.options.store.invalidate(file.item.id);
    this.options.rerender(file);
  }
}

/** The whole discussion, for the row's tooltip. */
function tooltipOf(comment: DriveComment, t: Translate): string {
  const author = `**${escapeMarkdown(authorName(comment, t))}**`;
  const lines = [comment.status === 'resolved' ? t('{0} · resolved', author) : author, '', escapeMarkdown(comment.content ?? '')];
  const quote = quoteOf(comment.context);
  if (quote) lines.push('', `> ${escapeMarkdown(excerpt(quote, 200))}`);
  for (const reply of comment.replies ?? []) {
    if (reply.deleted || !reply.content) continue;
    lines.push('', t('{0}: {1}', `**${escapeMarkdown(authorName(reply, t))}**`, escapeMarkdown(reply.content)));
  }
  return lines.join('  \n');
}
