/** Drive v2 revisions (a file's versions): responses tolerant, inputs strict, shared by the client and the emulator. */
import * as z from '../zod';
import { driveUserSchema } from './files';
import { int64String } from '../int64';

export const revisionSchema = z.object({
  kind: z.optional(z.string()),
  etag: z.optional(z.string()),
  id: z.string(),
  selfLink: z.optional(z.string()),
  mimeType: z.optional(z.string()),
  modifiedDate: z.optional(z.string()),
  lastModifyingUser: z.optional(driveUserSchema),
  lastModifyingUserName: z.optional(z.string()),
  originalFilename: z.optional(z.string()),
  fileSize: z.optional(int64String),
  md5Checksum: z.optional(z.string()),
  /** Files with bytes (not Docs Editors files): an old version's bytes. */
  downloadUrl: z.optional(z.string()),
  /** Docs Editors files: the version exported to each format. */
  exportLinks: z.optional(z.record(z.string(), z.string())),
  /** Files with bytes only: kept forever instead of purged 30 days after newer content. */
  pinned: z.optional(z.boolean()),
  /** Docs Editors files only. */
  published: z.optional(z.boolean()),
  publishAuto: z.optional(z.boolean()),
  publishedOutsideDomain: z.optional(z.boolean()),
  publishedLink: z.optional(z.string()),
});
export type DriveRevision = z.infer<typeof revisionSchema>;

export const revisionListSchema = z.object({
  kind: z.optional(z.string()),
  etag: z.optional(z.string()),
  selfLink: z.optional(z.string()),
  nextPageToken: z.optional(z.string()),
  items: z._default(z.array(revisionSchema), []),
});
export type RevisionList = z.infer<typeof revisionListSchema>;

/**
 * revisions.update / patch bodies: the writable fields. Output-only fields a client echoes back (a fetched
 * revision sent as the body) are accepted and ignored, as Google does.
 */
export const revisionInputSchema = z.object({
  pinned: z.optional(z.boolean()),
  published: z.optional(z.boolean()),
  publishAuto: z.optional(z.boolean()),
  publishedOutsideDomain: z.optional(z.boolean()),
});
export type RevisionInput = z.infer<typeof revisionInputSchema>;

/** revisions.list: default and largest page (discovery document). */
export const REVISIONS_DEFAULT_PAGE = 200;
export const REVISIONS_MAX_PAGE = 1000;
