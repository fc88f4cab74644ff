/**
 * Comments and their replies on a file. Pure: no HTTP. A comment is one store record holding its replies;
 * deleted comments and replies are kept (content removed, `deleted: true`) and shown only with includeDeleted.
 * Readers may read, commenters and above comment, only an author edits or deletes their own words.
 */
import { randomBytes } from 'node:crypto';
import type { CommentInput, CommentReplyInput } from '../../../shared/schemas/drive/comments';
import type { EmulatorUser } from '../../identity/users';
import { ApiError, forbidden, required } from '../../core/errors';
import { offsetPage } from '../../core/paging';
import type { Collection, Store } from '../../store/store';
import type { DriveModel, StoredFile } from '../files/model';

export interface StoredReply {
  id: string;
  authorId: string;
  content: string;
  verb?: 'resolve' | 'reopen';
  deleted: boolean;
  createdDate: number;
  modifiedDate: number;
}

export interface StoredComment {
  id: string;
  fileId: string;
  authorId: string;
  content: string;
  anchor?: string;
  context?: { type?: string; value?: string };
  status: 'open' | 'resolved';
  deleted: boolean;
  createdDate: number;
  modifiedDate: number;
  replies: StoredReply[];
}

export interface CommentPage {
  comments: StoredComment[];
  nextPageToken?: string;
}

const newId = (): string => `AAAA${randomBytes(9).toString('base64url')}`;

export class CommentsModel {
  private readonly comments: Collection<StoredComment>;
  /** Comment ids per file, in creation order. */
  private readonly byFile = new Map<string, string[]>();

  constructor(store: Store, private readonly files: DriveModel, private readonly now: () => number) {
    this.comments = store.collection<StoredComment>('drive.comments');
    const all = [...this.comments.values()].sort((a, b) => a.createdDate - b.createdDate || a.id.localeCompare(b.id));
    for (const comment of all) this.idsOf(comment.fileId).push(comment.id);
    // A file deleted for good takes its comments with it.
    files.onDelete.push((file) => this.dropFile(file.id));
  }

  list(user: EmulatorUser, fileId: string, options: { includeDeleted: boolean; updatedMin?: number; maxResults: number; pageToken?: string }): CommentPage {
    const file = this.files.require(user, fileId, 'read');
    const matching = this.idsOf(file.id)
      .map((id) => this.comments.get(id))
      .filter((comment): comment is StoredComment => comment !== undefined)
      .filter((comment) => (options.includeDeleted || !comment.deleted) && (options.updatedMin === undefined || comment.modifiedDate >= options.updatedMin));
    const page = offsetPage(matching, { scope: `comments:${file.id}:${options.includeDeleted}:${options.updatedMin ?? ''}`, pageToken: options.pageToken, maxResults: options.maxResults });
    return page.nextPageToken !== undefined ? { comments: page.items, nextPageToken: page.nextPageToken } : { comments: page.items };
  }

  get(user: EmulatorUser, fileId: string, commentId: string, includeDeleted = false): { file: StoredFile; comment: StoredComment } {
    const file = this.files.require(user, fileId, 'read');
    const comment = this.comments.get(commentId);
    if (!comment || comment.fileId !== file.id || (comment.deleted && !includeDeleted)) throw new ApiError(404, 'notFound', `Comment not found: ${commentId}.`, { location: 'commentId', locationType: 'parameter' });
    return { file, comment };
  }

  insert(user: EmulatorUser, fileId: string, input: CommentInput): { file: StoredFile; comment: StoredComment } {
    const file = this.files.require(user, fileId, 'comment');
    if (input.content === undefined || input.content.trim() === '') throw required('content', 'body');
    const time = this.now();
    const comment: StoredComment = { id: newId(), fileId: file.id, authorId: user.id, content: input.content, status: 'open', deleted: false, createdDate: time, modifiedDate: time, replies: [] };
    if (input.anchor !== undefined) comment.anchor = input.anchor;
    if (input.context !== undefined) comment.context = { ...input.context };
    this.comments.set(comment.id, comment);
    this.idsOf(file.id).push(comment.id);
    return { file, comment };
  }

  /** Changes the content (update and patch alike: content is the only writable field once a comment exists). */
  update(user: EmulatorUser, fileId: string, commentId: string, input: CommentInput, replace: boolean): { file: StoredFile; comment: StoredComment } {
    const { file, comment } = this.get(user, fileId, commentId);
    this.files.require(user, file.id, 'comment');
    if (comment.authorId !== user.id) throw forbidden('Only the author of a comment can change it.', 'insufficientPermissions');
    if (replace && (input.content === undefined || input.content.trim() === '')) throw required('content', 'body');
    if (input.content !== undefined && input.content.trim() === '') throw required('content', 'body');
    const changed: StoredComment = { ...comment, modifiedDate: this.now() };
    if (input.content !== undefined) changed.content = input.content;
    if (input.anchor !== undefined) changed.anchor = input.anchor;
    if (input.context !== undefined) changed.context = { ...input.context };
    this.comments.set(changed.id, changed);
    return { file, comment: changed };
  }

  /** Marks the comment deleted (its words go, the record stays for includeDeleted); the author or the file's owner may. */
  delete(user: EmulatorUser, fileId: string, commentId: string): void {
    const { file, comment } = this.get(user, fileId, commentId);
    if (comment.authorId !== user.id && file.ownerId !== user.id) throw forbidden('Only the author of a comment can delete it.', 'insufficientPermissions');
    this.comments.set(comment.id, { ...comment, deleted: true, content: '', modifiedDate: this.now() });
  }

  // ---- replies ----

  listReplies(user: EmulatorUser, fileId: string, commentId: string, options: { includeDeleted: boolean; maxResults: number; pageToken?: string }): { file: StoredFile; comment: StoredComment; replies: StoredReply[]; nextPageToken?: string } {
    const { file, comment } = this.get(user, fileId, commentId);
    const matching = comment.replies.filter((reply) => options.includeDeleted || !reply.deleted);
    const page = offsetPage(matching, { scope: `replies:${comment.id}:${options.includeDeleted}`, pageToken: options.pageToken, maxResults: options.maxResults });
    return { file, comment, replies: page.items, ...(page.nextPageToken !== undefined ? { nextPageToken: page.nextPageToken } : {}) };
  }

  getReply(user: EmulatorUser, fileId: string, commentId: string, replyId: string, includeDeleted = false): { file: StoredFile; comment: StoredComment; reply: StoredReply } {
    const { file, comment } = this.get(user, fileId, commentId);
    const reply = comment.replies.find((candidate) => candidate.id === replyId);
    if (!reply || (reply.deleted && !includeDeleted)) throw new ApiError(404, 'notFound', `Reply not found: ${replyId}.`, { location: 'replyId', locationType: 'parameter' });
    return { file, comment, reply };
  }

  /** Adds a reply; verb resolve/reopen sets the comment's status (a bare verb needs no content). */
  insertReply(user: EmulatorUser, fileId: string, commentId: string, input: CommentReplyInput): { file: StoredFile; comment: StoredComment; reply: StoredReply } {
    const { file, comment } = this.get(user, fileId, commentId);
    this.files.require(user, file.id, 'comment');
    if (input.verb === undefined && (input.content === undefined || input.content.trim() === '')) throw required('content', 'body');
    const time = this.now();
    const reply: StoredReply = { id: newId(), authorId: user.id, content: input.content ?? '', deleted: false, createdDate: time, modifiedDate: time };
    if (input.verb !== undefined) reply.verb = input.verb;
    const changed: StoredComment = { ...comment, replies: [...comment.replies, reply], modifiedDate: time };
    if (input.verb === 'resolve') changed.status = 'resolved';
    if (input.verb === 'reopen') changed.status = 'open';
    this.comments.set(changed.id, changed);
    return { file, comment: changed, reply };
  }

  updateReply(user: EmulatorUser, fileId: string, commentId: string, replyId: string, input: CommentReplyInput, replace: boolean): { file: StoredFile; comment: StoredComment; reply: StoredReply } {
    const { file, comment, reply } = this.getReply(user, fileId, commentId, replyId);
    this.files.require(user, file.id, 'comment');
    if (reply.authorId !== user.id) throw forbidden('Only the author of a reply can change it.', 'insufficientPermissions');
    if (input.verb !== undefined && input.verb !== reply.verb) throw forbidden('The verb of a reply cannot change; post a new reply to resolve or reopen.', 'invalid');
    if ((replace && input.content === undefined) || (input.content !== undefined && input.content.trim() === '' && reply.verb === undefined)) throw required('content', 'body');
    const time = this.now();
    const changedReply: StoredReply = { ...reply, content: input.content ?? reply.content, modifiedDate: time };
    const changed: StoredComment = { ...comment, replies: comment.replies.map((candidate) => (candidate.id === reply.id ? changedReply : candidate)), modifiedDate: time };
    this.comments.set(changed.id, changed);
    return { file, comment: changed, reply: changedReply };
  }

  deleteReply(user: EmulatorUser, fileId: string, commentId: string, replyId: string): void {
    const { file, comment, reply } = this.getReply(user, fileId, commentId, replyId);
    if (reply.authorId !== user.id && file.ownerId !== user.id) throw forbidden('Only the author of a reply can delete it.', 'insufficientPermissions');
    const time = this.now();
    const deleted: StoredReply = { ...reply, deleted: true, content: '', modifiedDate: time };
    this.comments.set(comment.id, { ...comment, replies: comment.replies.map((candidate) => (candidate.id === reply.id ? deleted : candidate)), modifiedDate: time });
  }

  private idsOf(fileId: string): string[] {
    let ids = this.byFile.get(fileId);
    if (!ids) {
      ids = [];
      this.byFile.set(fileId, ids);
    }
    return ids;
  }

  private dropFile(fileId: string): void {
    for (const id of this.byFile.get(fileId) ?? []) this.comments.delete(id);
    this.byFile.delete(fileId);
  }
}
