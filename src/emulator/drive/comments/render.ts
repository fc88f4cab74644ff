/** Drive v2 comment and reply resources as the API returns them (HTML content, authors, anchors). */
import type { StoredComment, StoredReply } from './model';
import type { StoredFile } from '../files/model';
import { driveUser, fileUrl, iso, nextPage, RenderContext } from '../render';
import { DEMO_USERS } from '../../identity/users';
import { escapeHtml } from '../../core/html';
import { CommentList, CommentReply, CommentReplyList, DriveComment } from '../../../shared/schemas/drive/comments';

export function commentUrl(context: RenderContext, fileId: string, commentId: string): string {
  return `${fileUrl(context, fileId)}/comments/${encodeURIComponent(commentId)}`;
}

/** Plain text as the HTML Drive shows: escaped, line breaks kept. */
export function htmlOf(content: string): string {
  return escapeHtml(content).replace(/\r?\n/g, '<br>');
}

/** comments.list: one page of a file's comments; the links name the file as the request did. */
export function renderCommentList(context: RenderContext, requestedFileId: string, file: StoredFile | undefined, comments: readonly StoredComment[], page: { includeDeleted: boolean; nextPageToken?: string | undefined }): CommentList {
  const selfLink = `${fileUrl(context, requestedFileId)}/comments`;
  return {
    kind: 'drive#commentList',
    selfLink,
    items: comments.map((comment) => renderComment(context, file, comment, page.includeDeleted)),
    ...nextPage(page.nextPageToken, (token) => `${selfLink}?pageToken=${encodeURIComponent(token)}`),
  };
}

/** replies.list: one page of a comment's replies. */
export function renderReplyList(context: RenderContext, fileId: string, commentId: string, replies: readonly StoredReply[], nextPageToken: string | undefined): CommentReplyList {
  const selfLink = `${commentUrl(context, fileId, commentId)}/replies`;
  return {
    kind: 'drive#commentReplyList',
    selfLink,
    items: replies.map((reply) => renderReply(context, reply)),
    ...nextPage(nextPageToken, (token) => `${selfLink}?pageToken=${encodeURIComponent(token)}`),
  };
}

export function renderReply(context: RenderContext, reply: StoredReply): CommentReply {
  const resource: CommentReply = {
    kind: 'drive#commentReply',
    replyId: reply.id,
    createdDate: iso(reply.createdDate),
    modifiedDate: iso(reply.modifiedDate),
    author: driveUser(DEMO_USERS.find((user) => user.id === reply.authorId), context.user),
    content: reply.content,
    htmlContent: htmlOf(reply.content),
    deleted: reply.deleted,
  };
  if (reply.verb !== undefined) resource.verb = reply.verb;
  return resource;
}

export function renderComment(context: RenderContext, file: StoredFile | undefined, comment: StoredComment, includeDeleted: boolean): DriveComment {
  const resource: DriveComment = {
    kind: 'drive#comment',
    commentId: comment.id,
    selfLink: commentUrl(context, comment.fileId, comment.id),
    fileId: comment.fileId,
    createdDate: iso(comment.createdDate),
    modifiedDate: iso(comment.modifiedDate),
    author: driveUser(DEMO_USERS.find((user) => user.id === comment.authorId), context.user),
    content: comment.content,
    htmlContent: htmlOf(comment.content),
    status: comment.status,
    deleted: comment.deleted,
    replies: comment.replies.filter((reply) => includeDeleted || !reply.deleted).map((reply) => renderReply(context, reply)),
  };
  if (file) resource.fileTitle = file.title;
  if (comment.anchor !== undefined) resource.anchor = comment.anchor;
  if (comment.context !== undefined) resource.context = { ...comment.context };
  return resource;
}
