import { z } from 'zod';

/**
 * Google Tasks API v1 resources and request bodies, shared by the client (src/api/tasks.ts) and the
 * emulator. Response schemas tolerate extra fields (zod strips them) and mark optional what Google omits.
 */

export const TITLE_MAX_LENGTH = 1024;
export const NOTES_MAX_LENGTH = 8192;

/** A full RFC 3339 date-time, as request bodies and filters must carry (Date.parse alone accepts "2026"). */
export const rfc3339DateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i, 'must be an RFC 3339 timestamp')
  .refine((value) => !Number.isNaN(Date.parse(value)), { message: 'must be an RFC 3339 timestamp' });

export const taskStatusSchema = z.enum(['needsAction', 'completed']);
export type TaskStatus = z.infer<typeof taskStatusSchema>;

export const taskLinkSchema = z.object({
  type: z.string().optional(),
  description: z.string().optional(),
  link: z.string().optional(),
});

/** Where an assigned task came from (Docs, Chat); read-only, only tolerated. */
export const assignmentInfoSchema = z.object({
  linkToTask: z.string().optional(),
  surfaceType: z.string().optional(),
  driveResourceInfo: z.object({ driveFileId: z.string().optional(), resourceKey: z.string().optional() }).optional(),
  spaceInfo: z.object({ space: z.string().optional() }).optional(),
});

export const taskListSchema = z.object({
  kind: z.literal('tasks#taskList'),
  id: z.string(),
  etag: z.string(),
  title: z.string().default(''),
  updated: z.string(),
  selfLink: z.string(),
});
export type TaskList = z.infer<typeof taskListSchema>;

export const taskSchema = z.object({
  kind: z.literal('tasks#task'),
  id: z.string(),
  etag: z.string(),
  title: z.string().default(''),
  updated: z.string(),
  selfLink: z.string(),
  /** Absent at the top level. */
  parent: z.string().optional(),
  /** Sibling order: compare as strings. */
  position: z.string(),
  notes: z.string().optional(),
  status: taskStatusSchema,
  /** Date only; the time part is always T00:00:00.000Z. */
  due: z.string().optional(),
  /** Only when status is completed. */
  completed: z.string().optional(),
  deleted: z.boolean().optional(),
  hidden: z.boolean().optional(),
  links: z.array(taskLinkSchema).default([]),
  webViewLink: z.string().optional(),
  assignmentInfo: assignmentInfoSchema.optional(),
});
export type Task = z.infer<typeof taskSchema>;

export const taskListsPageSchema = z.object({
  kind: z.literal('tasks#taskLists'),
  etag: z.string().optional(),
  nextPageToken: z.string().optional(),
  items: z.array(taskListSchema).optional(),
});
export type TaskListsPage = z.infer<typeof taskListsPageSchema>;

export const tasksPageSchema = z.object({
  kind: z.literal('tasks#tasks'),
  etag: z.string().optional(),
  nextPageToken: z.string().optional(),
  items: z.array(taskSchema).optional(),
});
export type TasksPage = z.infer<typeof tasksPageSchema>;

// ---- Request bodies (what the emulator accepts; a client sends the writable subset) ----

/**
 * Read-only fields a client may echo back (the official client sends whole resources on update); they are
 * type-checked so junk is a 400, and otherwise ignored.
 */
const echoedReadOnly = {
  kind: z.string().nullable().optional(),
  id: z.string().nullable().optional(),
  etag: z.string().nullable().optional(),
  updated: z.string().nullable().optional(),
  selfLink: z.string().nullable().optional(),
};

export const taskListBodySchema = z.object({
  ...echoedReadOnly,
  title: z.string().max(TITLE_MAX_LENGTH, `must be at most ${TITLE_MAX_LENGTH} characters`).nullable().optional(),
});
export type TaskListBody = z.infer<typeof taskListBodySchema>;

export const taskBodySchema = z.object({
  ...echoedReadOnly,
  title: z.string().max(TITLE_MAX_LENGTH, `must be at most ${TITLE_MAX_LENGTH} characters`).nullable().optional(),
  notes: z.string().max(NOTES_MAX_LENGTH, `must be at most ${NOTES_MAX_LENGTH} characters`).nullable().optional(),
  status: taskStatusSchema.nullable().optional(),
  due: rfc3339DateTime.nullable().optional(),
  completed: rfc3339DateTime.nullable().optional(),
  deleted: z.boolean().nullable().optional(),
  hidden: z.boolean().nullable().optional(),
  parent: z.string().nullable().optional(),
  position: z.string().nullable().optional(),
  links: z.array(taskLinkSchema).nullable().optional(),
  webViewLink: z.string().nullable().optional(),
  assignmentInfo: assignmentInfoSchema.nullable().optional(),
});
export type TaskBody = z.infer<typeof taskBodySchema>;

/** What Desk itself writes on tasks.insert / update / patch. */
export interface TaskWrite {
  title?: string;
  notes?: string | null;
  status?: TaskStatus;
  due?: string | null;
  completed?: string | null;
  deleted?: boolean;
}
