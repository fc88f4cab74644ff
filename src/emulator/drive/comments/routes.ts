/** Drive's comments and replies routes (six operations each). */
import { renderComment, renderCommentList, renderReply, renderReplyList } from './render';
import type { DriveRouteKit } from '../routing';
import { requireUser } from '../../core/context';
import { parseBody } from '../../core/params';
import type { Reply, RequestContext, Route } from '../../core/router';
import { commentInputSchema, commentReplyInputSchema } from '../../../shared/schemas/drive/comments';

const BASE = '/drive/v2/files/:fileId/comments';

export function commentRoutes(kit: DriveRouteKit): Route[] {
  const { comments } = kit.service;
  return [
    { id: 'drive.comments.list', method: 'GET', path: BASE, handle: listComments },
    { id: 'drive.comments.insert', method: 'POST', path: BASE, handle: insertComment },
    { id: 'drive.comments.get', method: 'GET', path: `${BASE}/:commentId`, handle: getComment },
    { id: 'drive.comments.update', method: 'PUT', path: `${BASE}/:commentId`, handle: updateComment },
    { id: 'drive.comments.patch', method: 'PATCH', path: `${BASE}/:commentId`, handle: patchComment },
    { id: 'drive.comments.delete', method: 'DELETE', path: `${BASE}/:commentId`, handle: deleteComment },
    { id: 'drive.replies.list', method: 'GET', path: `${BASE}/:commentId/replies`, handle: listReplies },
    { id: 'drive.replies.insert', method: 'POST', path: `${BASE}/:commentId/replies`, handle: insertReply },
    { id: 'drive.replies.get', method: 'GET', path: `${BASE}/:commentId/replies/:replyId`, handle: getReply },
    { id: 'drive.replies.update', method: 'PUT', path: `${BASE}/:commentId/replies/:replyId`, handle: updateReply },
    { id: 'drive.replies.patch', method: 'PATCH', path: `${BASE}/:commentId/replies/:replyId`, handle: patchReply },
    { id: 'drive.replies.delete', method: 'DELETE', path: `${BASE}/:commentId/replies/:replyId`, handle: deleteReply },
  ];

  function ids(context: RequestContext): { fileId: string; commentId: string; replyId: string } {
    return { fileId: context.params.fileId, commentId: context.params.commentId, replyId: context.params.replyId };
  }

  function listComments(context: RequestContext): Reply {
    const user = requireUser(context);
    const includeDeleted = context.query.boolean('includeDeleted', false);
    const maxResults = context.query.integer('maxResults', { min: 0, max: 100, default: 20 }) || 20;
    const pageToken = context.query.string('pageToken', 512);
    const updatedMin = context.query.timestamp('updatedMin');
    const page = comments.list(user, ids(context).fileId, { includeDeleted, maxResults, ...(pageToken !== undefined ? { pageToken } : {}), ...(updatedMin !== undefined ? { updatedMin } : {}) });
    const fileId = page.comments[0]?.fileId ?? ids(context).fileId;
    const file = kit.service.model.peek(fileId);
    return { json: renderCommentList(kit.renderContext(context), ids(context).fileId, file, page.comments, { includeDeleted, nextPageToken: page.nextPageToken }) };
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
    return { json: renderReplyList(kit.renderContext(context), page.file.id, page.comment.id, page.replies, page.nextPageToken) };
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

