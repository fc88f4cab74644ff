/**
 * Drive's comments and replies resources (six operations each). Idempotency, per method: reads, update (PUT) and
 * delete are idempotent by method (a repeated delete of a comment already marked deleted changes nothing); patch sets
 * the content to a given value, so a repeat is safe; insert makes a new comment or reply each time and the API has
 * no idempotency key, so it is never repeated after an unclear failure (a duplicate comment is worse than an error).
 */
import {
  CommentInput,
  CommentList,
  commentListSchema,
  CommentReply,
  CommentReplyInput,
  CommentReplyList,
  commentReplyListSchema,
  commentReplySchema,
  commentSchema,
  DriveComment,
} from '../../shared/schemas/drive/comments';
import { path } from '../http';
import type { DriveContext } from './context';

export interface ListCommentsOptions {
  includeDeleted?: boolean;
  /** RFC 3339: only comments modified at or after it. */
  updatedMin?: string;
  /** Default 20, at most 100. */
  maxResults?: number;
  pageToken?: string;
  signal?: AbortSignal;
}

export interface ListRepliesOptions {
  includeDeleted?: boolean;
  maxResults?: number;
  pageToken?: string;
  signal?: AbortSignal;
}

export function listComments(drive: DriveContext, fileId: string, options: ListCommentsOptions = {}): Promise<CommentList> {
  return drive.http.json(commentListSchema, { method: 'GET', path: path`/drive/v2/files/${fileId}/comments`, query: { includeDeleted: options.includeDeleted, updatedMin: options.updatedMin, maxResults: options.maxResults, pageToken: options.pageToken }, signal: options.signal, operation: 'drive.comments.list' });
}

export function getComment(drive: DriveContext, fileId: string, commentId: string, options: { includeDeleted?: boolean; signal?: AbortSignal } = {}): Promise<DriveComment> {
  return drive.http.json(commentSchema, { method: 'GET', path: path`/drive/v2/files/${fileId}/comments/${commentId}`, query: { includeDeleted: options.includeDeleted }, signal: options.signal, operation: 'drive.comments.get' });
}

export function insertComment(drive: DriveContext, fileId: string, comment: CommentInput, signal?: AbortSignal): Promise<DriveComment> {
  return drive.http.json(commentSchema, { method: 'POST', path: path`/drive/v2/files/${fileId}/comments`, json: comment, signal, operation: 'drive.comments.insert' });
}

export function updateComment(drive: DriveContext, fileId: string, commentId: string, comment: CommentInput, signal?: AbortSignal): Promise<DriveComment> {
  return drive.http.json(commentSchema, { method: 'PUT', path: path`/drive/v2/files/${fileId}/comments/${commentId}`, json: comment, signal, operation: 'drive.comments.update' });
}

export function patchComment(drive: DriveContext, fileId: string, commentId: string, comment: CommentInput, signal?: AbortSignal): Promise<DriveComment> {
  return drive.http.json(commentSchema, { method: 'PATCH', path: path`/drive/v2/files/${fileId}/comments/${commentId}`, json: comment, signal, idempotent: true, operation: 'drive.comments.patch' });
}

export function deleteComment(drive: DriveContext, fileId: string, commentId: string, signal?: AbortSignal): Promise<void> {
  return drive.http.empty({ method: 'DELETE', path: path`/drive/v2/files/${fileId}/comments/${commentId}`, signal, operation: 'drive.comments.delete' });
}

export function listReplies(drive: DriveContext, fileId: string, commentId: string, options: ListRepliesOptions = {}): Promise<CommentReplyList> {
  return drive.http.json(commentReplyListSchema, { method: 'GET', path: path`/drive/v2/files/${fileId}/comments/${commentId}/replies`, query: { includeDeleted: options.includeDeleted, maxResults: options.maxResults, pageToken: options.pageToken }, signal: options.signal, operation: 'drive.replies.list' });
}

export function getReply(drive: DriveContext, fileId: string, commentId: string, replyId: string, options: { includeDeleted?: boolean; signal?: AbortSignal } = {}): Promise<CommentReply> {
  return drive.http.json(commentReplySchema, { method: 'GET', path: path`/drive/v2/files/${fileId}/comments/${commentId}/replies/${replyId}`, query: { includeDeleted: options.includeDeleted }, signal: options.signal, operation: 'drive.replies.get' });
}

/** A reply; `verb: 'resolve' | 'reopen'` changes the comment's status. */
export function insertReply(drive: DriveContext, fileId: string, commentId: string, reply: CommentReplyInput, signal?: AbortSignal): Promise<CommentReply> {
  return drive.http.json(commentReplySchema, { method: 'POST', path: path`/drive/v2/files/${fileId}/comments/${commentId}/replies`, json: reply, signal, operation: 'drive.replies.insert' });
}

export function updateReply(drive: DriveContext, fileId: string, commentId: string, replyId: string, reply: CommentReplyInput, signal?: AbortSignal): Promise<CommentReply> {
  return drive.http.json(commentReplySchema, { method: 'PUT', path: path`/drive/v2/files/${fileId}/comments/${commentId}/replies/${replyId}`, json: reply, signal, operation: 'drive.replies.update' });
}

export function patchReply(drive: DriveContext, fileId: string, commentId: string, replyId: string, reply: CommentReplyInput, signal?: AbortSignal): Promise<CommentReply> {
  return drive.http.json(commentReplySchema, { method: 'PATCH', path: path`/drive/v2/files/${fileId}/comments/${commentId}/replies/${replyId}`, json: reply, signal, idempotent: true, operation: 'drive.replies.patch' });
}

export function deleteReply(drive: DriveContext, fileId: string, commentId: string, replyId: string, signal?: AbortSignal): Promise<void> {
  return drive.http.empty({ method: 'DELETE', path: path`/drive/v2/files/${fileId}/comments/${commentId}/replies/${replyId}`, signal, operation: 'drive.replies.delete' });
}
