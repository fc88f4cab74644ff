/** Drive's comments and replies routes (six operations each), with their typed rendering. */
import {
  CommentList,
  commentInputSchema,
  CommentReply,
  CommentReplyList,
  commentReplyInputSchema,
  DriveComment,
} from '../../../shared/schemas/drive/comments';
import { DEMO_USERS } from '../../auth/users';
import { requireUser } from '../../core/context';
import { escapeHtml } from '../../core/html';
import { parseBody } from '../../core/params';
import type { Reply, RequestContext } from '../../core/router';
import type { StoredFile } from '../files/model';
import { driveUser, fileUrl, iso, RenderContext } from '../render';
import type { DriveRoute, DriveRouteKit } from '../routing';
import type { StoredComment, StoredReply } from './model';

const BASE = '/drive/v2/files/:fileId/comments';

export function commentRoutes(kit: DriveRouteKit): DriveRoute[] {
  const { comments } = kit.service;
  return [
    ['GET', BASE, listComments],
    ['POST', BASE, insertComment],
    ['GET', `${BASE}/:commentId`, getComment],
    ['PUT', `${BASE}/:commentId`, updateComment],
    ['PATCH', `${BASE}/:commentId`, patchComment],
    ['DELETE', `${BASE}/:commentId`, deleteComment],
    ['GET', `${BASE}/:commentId/replies`, listReplies],
    ['POST', `${BASE}/:commentId/replies`, insertReply],
    ['GET', `${BASE}/:commentId/replies/:replyId`, getReply],
    ['PUT', `${BASE}/:commentId/replies/:replyId`, updateReply],
    ['PATCH', `${BASE}/:commentId/replies/:replyId`, patchReply],
    ['DELETE', `${BASE}/:commentId/replies/:replyId`, deleteReply],
  ];

  function ids(context: RequestContext): { fileId: string; commentId: string; replyId: string } {
    return { fileId: context.params.fileId as string, commentId: context.params.commentId as string, replyId: context.params.replyId as string };
  }

  function listComments(context: RequestContext): Reply {
    const user = requireUser(context);
    const includeDeleted = context.query.boolean('includeDeleted', false);
    const maxResults = context.query.integer('maxResults', { min: 0, max: 100, default: 20 }) || 20;
    const pageToken = context.query.string('pageToken', 512);
    const updatedMin = context.query.timestamp('updatedMin');
    const page = comments.list(user, ids(context).fileId, { includeDeleted, maxResults, ...(pageToken !== undefined ? { pageToken } : {}), ...(updatedMin !== undefined ? { updatedMin } : {}) });
    const render = kit.renderContext(context);
    const fileId = page.comments[0]?.fileId ?? ids(context).fileId;
    const file = kit.service.model.peek(fileId);
    const selfLink = `${context.baseUrl}/drive/v2/files/${encodeURIComponent(ids(context).fileId)}/comments`;
    const list: CommentList = { kind: 'drive#commentList', selfLink, items: page.comments.map((comment) => renderComment(render, file, comment, includeDeleted)) };
    if (page.nextPageToken !== undefined) {
      list.nextPageToken = page.nextPageToken;
      list.nextLink = `${selfLink}?pageToken=${encodeURIComponent(page.nextPageToken)}`;
    }
    return { json: list };
  }

  function getComment(context: RequestContext): Reply {
    const includeDeleted = context.query.boolean('includeDeleted', false);
    const { file, comment } = comments.get(requireUser(context), ids(context).fileId, ids(context).commentId, includeDeleted);
    return { json: renderComment(kit.renderContext(context), file, comment, includeDeleted) };
  }

  async function insertComment(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const input = parseBody(commentInputSchema, await context.json());
    const { file, comment } = comments.insert(user, ids(context).fileId, input);
    return { json: renderComment(kit.renderContext(context), file, comment, false) };
  }

  async function changeComment(context: RequestContext, replace: boolean): Promise<Reply> {
    const user = requireUser(context);
    const input = parseBody(commentInputSchema, await context.json());
    const { file, comment } = comments.update(user, ids(context).fileId, ids(context).commentId, input, replace);
    return { json: renderComment(kit.renderContext(context), file, comment, false) };
  }

  function updateComment(context: RequestContext): Promise<Reply> {
    return changeComment(context, true);
  }

  function patchComment(context: RequestContext): Promise<Reply> {
    return changeComment(context, false);
  }

  function deleteComment(context: RequestContext): Reply {
    comments.delete(requireUser(context), ids(context).fileId, ids(context).commentId);
    return { status: 204, empty: true };
  }

  function listReplies(context: RequestContext): Reply {
    const user = requireUser(context);
    const includeDeleted = context.query.boolean('includeDeleted', false);
    const maxResults = context.query.integer('maxResults', { min: 0, max: 100, default: 20 }) || 20;
    const pageToken = context.query.string('pageToken', 512);
    const page = comments.listReplies(user, ids(context).fileId, ids(context).commentId, { includeDeleted, maxResults, ...(pageToken !== undefined ? { pageToken } : {}) });
    const render = kit.renderContext(context);
    const selfLink = `${commentUrl(render, page.file.id, page.comment.id)}/replies`;
    const list: CommentReplyList = { kind: 'drive#commentReplyList', selfLink, items: page.replies.map((reply) => renderReply(render, reply)) };
    if (page.nextPageToken !== undefined) {
      list.nextPageToken = page.nextPageToken;
      list.nextLink = `${selfLink}?pageToken=${encodeURIComponent(page.nextPageToken)}`;
    }
    return { json: list };
  }

  function getReply(context: RequestContext): Reply {
    const includeDeleted = context.query.boolean('includeDeleted', false);
    const { reply } = comments.getReply(requireUser(context), ids(context).fileId, ids(context).commentId, ids(context).replyId, includeDeleted);
    return { json: renderReply(kit.renderContext(context), reply) };
  }

  async function insertReply(context: RequestContext): Promise<Reply> {
    const user = requireUser(context);
    const input = parseBody(commentReplyInputSchema, await context.json());
    const { reply } = comments.insertReply(user, ids(context).fileId, ids(context).commentId, input);
    return { json: renderReply(kit.renderContext(context), reply) };
  }

  async function changeReply(context: RequestContext, replace: boolean): Promise<Reply> {
    const user = requireUser(context);
    const input = parseBody(commentReplyInputSchema, await context.json());
    const { reply } = comments.updateReply(user, ids(context).fileId, ids(context).commentId, ids(context).replyId, input, replace);
    return { json: renderReply(kit.renderContext(context), reply) };
  }

  function updateReply(context: RequestContext): Promise<Reply> {
    return changeReply(context, true);
  }

  function patchReply(context: RequestContext): Promise<Reply> {
    return changeReply(context, false);
  }

  function deleteReply(context: RequestContext): Reply {
    comments.deleteReply(requireUser(context), ids(context).fileId, ids(context).commentId, ids(context).replyId);
    return { status: 204, empty: true };
  }
}

function commentUrl(context: RenderContext, fileId: string, commentId: string): string {
  return `${fileUrl(context, fileId)}/comments/${encodeURIComponent(commentId)}`;
}

/** Plain text as the HTML Drive shows: escaped, line breaks kept. */
export function htmlOf(content: string): string {
  return escapeHtml(content).replace(/\r?\n/g, '<br>');
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
