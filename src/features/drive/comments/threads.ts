/** How one Drive comment looks as a VS Code comment thread: its entries (the comment, then its replies), label and context words. */
import type * as vscode from 'vscode';
import type { CommentReply, DriveComment } from '../../../shared/schemas/drive/comments';
import { CommentPlace, excerpt, quoteOf } from './anchors';
import { authorName, commentWords, isMine, isResolved } from './nodes';

/** The comment or reply an editor entry stands for. */
export interface CommentTarget {
  readonly fileId: string;
  readonly commentId: string;
  /** Set for a reply; undefined for the comment itself. */
  readonly replyId?: string | undefined;
}

/**
 * One comment or reply in a thread. VS Code hands this same object back to the thread's actions (Edit, Delete,
 * Save, Cancel), and writes the edited text into `body` before Save runs.
 */
export class DriveCommentEntry implements vscode.Comment {
  body: string;
  mode: vscode.CommentMode;
  author: vscode.CommentAuthorInformation;
  contextValue: string;
  label?: string;
  timestamp?: Date;
  /** The text before an edit started, for Cancel. */
  savedBody: string;
  /** The thread it is shown in (set when the thread is built). */
  thread: vscode.CommentThread | undefined;

  constructor(readonly target: CommentTarget, init: { body: string; mode: vscode.CommentMode; author: string; contextValue: string; label?: string | undefined; timestamp?: Date | undefined }) {
    this.body = init.body;
    this.savedBody = init.body;
    this.mode = init.mode;
    this.author = { name: init.author };
    this.contextValue = init.contextValue;
    if (init.label !== undefined) this.label = init.label;
    if (init.timestamp !== undefined) this.timestamp = init.timestamp;
  }

  get text(): string {
    return typeof this.body === 'string' ? this.body : (this.body as vscode.MarkdownString).value;
  }

  /** Same comment or reply, same words: an entry being edited can stay as it is. */
  sameAs(other: DriveCommentEntry): boolean {
    return this.target.commentId === other.target.commentId && this.target.replyId === other.target.replyId;
  }
}

/** The thread's `commentThread` words for menus: `driveThread open mine`, `driveThread resolved`. */
export function threadContextValue(comment: DriveComment): string {
  return ['driveThread', ...commentWords(comment)].join(' ');
}

/** The entries of a thread, first the comment and then its replies (deleted ones are not shown). */
export function threadEntries(vs: typeof vscode, fileId: string, comment: DriveComment): DriveCommentEntry[] {
  const t = vs.l10n.t;
  const root = new DriveCommentEntry({ fileId, commentId: comment.commentId }, {
    body: comment.content ?? '',
    mode: vs.CommentMode.Preview,
    author: authorName(comment, t),
    contextValue: entryContextValue('comment', comment),
    timestamp: dateOf(comment.createdDate),
  });
  const replies = (comment.replies ?? []).filter((reply) => !reply.deleted).map((reply) => new DriveCommentEntry({ fileId, commentId: comment.commentId, replyId: reply.replyId }, {
    body: reply.content || verbText(t, reply),
    mode: vs.CommentMode.Preview,
    author: authorName(reply, t),
    contextValue: entryContextValue('reply', reply),
    label: reply.verb === 'resolve' ? t('resolved') : reply.verb === 'reopen' ? t('reopened') : undefined,
    timestamp: dateOf(reply.createdDate),
  }));
  return [root, ...replies];
}

/** The thread's header: the quoted text, and a word when that text is not in the file any more. */
export function threadLabel(t: typeof vscode.l10n.t, comment: DriveComment, place: CommentPlace): string | undefined {
  const quote = quoteOf(comment.context);
  const anchored = comment.anchor !== undefined || quote !== undefined;
  if (place.via === 'top' && anchored) return quote ? t('“{0}” (no longer in this file)', excerpt(quote, 50)) : t('Anchored to a part of the file Desk cannot show');
  if (quote) return `“${excerpt(quote, 60)}”`;
  return undefined;
}

export function threadState(vs: typeof vscode, comment: DriveComment): vscode.CommentThreadState {
  return isResolved(comment) ? vs.CommentThreadState.Resolved : vs.CommentThreadState.Unresolved;
}

function entryContextValue(kind: 'comment' | 'reply', entry: Pick<DriveComment, 'author'>): string {
  return ['driveComment', kind, ...(isMine(entry) ? ['mine'] : [])].join(' ');
}

function verbText(t: typeof vscode.l10n.t, reply: CommentReply): string {
  if (reply.verb === 'resolve') return t('Marked as resolved.');
  if (reply.verb === 'reopen') return t('Reopened.');
  return '';
}

function dateOf(value: string | undefined): Date | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
