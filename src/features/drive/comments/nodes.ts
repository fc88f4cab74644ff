/**
 * The Drive tree's comment rows (pure): a "Comments (N)" node under a file, and one node per comment below it,
 * with stable ids under the file's node and the words menus match on.
 */
import { english, type Translate } from '../../../shared/l10n';
import { isFolder } from '../../../shared/schemas/drive';
import type { DriveComment } from '../../../shared/schemas/drive/comments';
import type { FileNode } from '../tree/model';
import { sectionOf } from '../tree/model';
import { excerpt } from './anchors';

export interface CommentsNode {
  readonly kind: 'comments';
  readonly id: string;
  readonly parent: FileNode;
  /** "Comments (N)": the provider localizes it; kept here for logs and tests. */
  readonly label: string;
  readonly count: number;
}

export interface CommentNode {
  readonly kind: 'comment';
  readonly id: string;
  readonly parent: CommentsNode;
  /** "Author: excerpt". */
  readonly label: string;
  readonly comment: DriveComment;
}

/** Files that can carry comments in the tree: anything but folders, and nothing in the trash. */
export function hasCommentsRow(node: FileNode): boolean {
  return !isFolder(node.item) && sectionOf(node) !== 'trash';
}

export function commentsNode(file: FileNode, count: number, t: Translate = english): CommentsNode {
  return { kind: 'comments', id: `${file.id}/…comments`, parent: file, label: t('Comments ({0})', count), count };
}

export function commentNodes(parent: CommentsNode, comments: readonly DriveComment[], t: Translate = english): CommentNode[] {
  return comments.map((comment) => ({ kind: 'comment', id: `${parent.id}/${comment.commentId}`, parent, label: commentLabel(comment, t), comment }));
}

/** "Author: excerpt", a comment's row. */
export function commentLabel(comment: DriveComment, t: Translate = english): string {
  return t('{0}: {1}', authorName(comment, t), excerpt(comment.content ?? ''));
}

/** Who wrote it: a name, an address, or (Drive hides both for deleted accounts) "Unknown user" through `t`. */
export function authorName(entry: Pick<DriveComment, 'author'>, t: Translate = english): string {
  return entry.author?.displayName ?? entry.author?.emailAddress ?? t('Unknown user');
}

/** Whether Desk's user wrote it: Drive says so per author (`isAuthenticatedUser`). */
export function isMine(entry: Pick<DriveComment, 'author'>): boolean {
  return entry.author?.isAuthenticatedUser === true;
}

export function isResolved(comment: Pick<DriveComment, 'status'>): boolean {
  return comment.status === 'resolved';
}

/** Words for `when` clauses, shared by the editor's threads and the tree's rows: status, and whether it is mine. */
export function commentWords(comment: DriveComment): string[] {
  const words = [isResolved(comment) ? 'resolved' : 'open'];
  if (isMine(comment)) words.push('mine');
  return words;
}

/** The file a comment row belongs to. */
export function fileOfCommentRow(node: CommentsNode | CommentNode): FileNode {
  return node.kind === 'comments' ? node.parent : node.parent.parent;
}

/** The tree's `viewItem` words: `driveComments`, or `driveComment open mine` and the like. */
export function commentRowContextValue(node: CommentsNode | CommentNode): string {
  return node.kind === 'comments' ? 'driveComments' : ['driveComment', ...commentWords(node.comment)].join(' ');
}
