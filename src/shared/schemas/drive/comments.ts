/** Drive v2 comments and replies: responses tolerant, inputs strict, shared by the client and the emulator. */
import * as z from '../zod';
import { driveUserSchema } from './files';

export const COMMENT_STATUSES = ['open', 'resolved'] as const;
export const REPLY_VERBS = ['resolve', 'reopen'] as const;

export const commentReplySchema = z.object({
  kind: z.optional(z.string()),
  replyId: z.string(),
  createdDate: z.optional(z.string()),
  modifiedDate: z.optional(z.string()),
  author: z.optional(driveUserSchema),
  content: z.optional(z.string()),
  htmlContent: z.optional(z.string()),
  deleted: z.optional(z.boolean()),
  verb: z.optional(z.string()),
});
export type CommentReply = z.infer<typeof commentReplySchema>;

export const commentSchema = z.object({
  kind: z.optional(z.string()),
  commentId: z.string(),
  selfLink: z.optional(z.string()),
  fileId: z.optional(z.string()),
  fileTitle: z.optional(z.string()),
  createdDate: z.optional(z.string()),
  modifiedDate: z.optional(z.string()),
  author: z.optional(driveUserSchema),
  content: z.optional(z.string()),
  htmlContent: z.optional(z.string()),
  anchor: z.optional(z.string()),
  context: z.optional(z.object({ type: z.optional(z.string()), value: z.optional(z.string()) })),
  status: z.optional(z.string()),
  deleted: z.optional(z.boolean()),
  replies: z.optional(z.array(commentReplySchema)),
});
export type DriveComment = z.infer<typeof commentSchema>;

export const commentListSchema = z.object({
  kind: z.optional(z.string()),
  selfLink: z.optional(z.string()),
  nextPageToken: z.optional(z.string()),
  nextLink: z.optional(z.string()),
  items: z._default(z.array(commentSchema), []),
});
export type CommentList = z.infer<typeof commentListSchema>;

export const commentReplyListSchema = z.object({
  kind: z.optional(z.string()),
  selfLink: z.optional(z.string()),
  nextPageToken: z.optional(z.string()),
  nextLink: z.optional(z.string()),
  items: z._default(z.array(commentReplySchema), []),
});
export type CommentReplyList = z.infer<typeof commentReplyListSchema>;

const MAX_CONTENT = 30_000;

/** comments.insert / update / patch: plain-text content, an anchor and the quoted context; the rest is output only. */
export const commentInputSchema = z.object({
  content: z.optional(z.string().check(z.maxLength(MAX_CONTENT))),
  anchor: z.optional(z.string().check(z.maxLength(4096))),
  context: z.optional(z.object({ type: z.optional(z.string().check(z.maxLength(255))), value: z.optional(z.string().check(z.maxLength(MAX_CONTENT))) })),
});
export type CommentInput = z.infer<typeof commentInputSchema>;

/** replies.insert / update / patch: content, and on insert a verb that resolves or reopens the comment. */
export const commentReplyInputSchema = z.object({
  content: z.optional(z.string().check(z.maxLength(MAX_CONTENT))),
  verb: z.optional(z.enum(REPLY_VERBS)),
});
export type CommentReplyInput = z.infer<typeof commentReplyInputSchema>;
