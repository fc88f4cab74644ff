import * as z from './zod';

/**
 * Google Tasks API v1 resources and request bodies (see reference/tasks.v1.discovery.json), shared by the client
 * (src/api/tasks.ts) and the emulator (src/emulator/tasks). Response schemas are tolerant: everything Google may omit
 * is optional and unknown fields are stripped. Request schemas (`*InputSchema`) are strict about types, since the
 * emulator answers bad input with a 400 naming the field.
 */

export const TITLE_MAX_LENGTH = 1024;
export const NOTES_MAX_LENGTH = 8192;

/** A full RFC 3339 date-time, as request bodies and filters must carry (Date.parse alone accepts "2026"). */
export const rfc3339DateTime = z
  .string()
  .check(
    z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i, 'must be an RFC 3339 timestamp'),
    z.refine((value) => !Number.isNaN(Date.parse(value)), { error: 'must be an RFC 3339 timestamp' }),
  );

export const taskStatusSchema = z.enum(['needsAction', 'completed']);
export type TaskStatus = z.infer<typeof taskStatusSchema>;

export const taskLinkSchema = z.object({
  type: z.optional(z.string()),
  description: z.optional(z.string()),
  link: z.optional(z.string()),
});

/** Where an assigned task came from (Docs, Chat); read-only, only tolerated. */
export const assignmentInfoSchema = z.object({
  linkToTask: z.optional(z.string()),
  surfaceType: z.optional(z.string()),
  driveResourceInfo: z.optional(z.object({ driveFileId: z.optional(z.string()), resourceKey: z.optional(z.string()) })),
  spaceInfo: z.optional(z.object({ space: z.optional(z.string()) })),
});

/*
 * Listings Desk's views read ask only for what they show (`fields=`, see api/tasks.ts): kind and selfLink, which no
 * view reads, may then be absent; everything the views rely on stays required.
 */
export const taskListSchema = z.object({
  kind: z.optional(z.literal('tasks#taskList')),
  id: z.string(),
  etag: z.string(),
  title: z._default(z.string(), ''),
  updated: z.string(),
  selfLink: z.optional(z.string()),
});
export type TaskList = z.infer<typeof taskListSchema>;

export const taskSchema = z.object({
  kind: z.optional(z.literal('tasks#task')),
  id: z.string(),
  etag: z.string(),
  title: z._default(z.string(), ''),
  updated: z.string(),
  selfLink: z.optional(z.string()),
  /** Absent at the top level. */
  parent: z.optional(z.string()),
  /** Sibling order: compare as strings. */
  position: z.string(),
  notes: z.optional(z.string()),
  status: taskStatusSchema,
  /** Date only; the time part is always T00:00:00.000Z. */
  due: z.optional(z.string()),
  /** Only when status is completed. */
  completed: z.optional(z.string()),
  deleted: z.optional(z.boolean()),
  hidden: z.optional(z.boolean()),
  links: z._default(z.array(taskLinkSchema), []),
  webViewLink: z.optional(z.string()),
  assignmentInfo: z.optional(assignmentInfoSchema),
});
export type Task = z.infer<typeof taskSchema>;

export const taskListsPageSchema = z.object({
  kind: z.optional(z.literal('tasks#taskLists')),
  etag: z.optional(z.string()),
  nextPageToken: z.optional(z.string()),
  items: z.optional(z.array(taskListSchema)),
});
export type TaskListsPage = z.infer<typeof taskListsPageSchema>;

export const tasksPageSchema = z.object({
  kind: z.optional(z.literal('tasks#tasks')),
  etag: z.optional(z.string()),
  nextPageToken: z.optional(z.string()),
  items: z.optional(z.array(taskSchema)),
});
export type TasksPage = z.infer<typeof tasksPageSchema>;

// ---- Request bodies (`*InputSchema`: what the emulator accepts; a client sends the writable subset) ----

/**
 * Read-only fields a client may echo back (the official client sends whole resources on update); they are
 * type-checked so junk is a 400, and otherwise ignored.
 */
const echoedReadOnly = {
  kind: z.optional(z.nullable(z.string())),
  id: z.optional(z.nullable(z.string())),
  etag: z.optional(z.nullable(z.string())),
  updated: z.optional(z.nullable(z.string())),
  selfLink: z.optional(z.nullable(z.string())),
};

export const taskListInputSchema = z.object({
  ...echoedReadOnly,
  title: z.optional(z.nullable(z.string().check(z.maxLength(TITLE_MAX_LENGTH, `must be at most ${TITLE_MAX_LENGTH} characters`)))),
});
export type TaskListInput = z.infer<typeof taskListInputSchema>;

export const taskInputSchema = z.object({
  ...echoedReadOnly,
  title: z.optional(z.nullable(z.string().check(z.maxLength(TITLE_MAX_LENGTH, `must be at most ${TITLE_MAX_LENGTH} characters`)))),
  notes: z.optional(z.nullable(z.string().check(z.maxLength(NOTES_MAX_LENGTH, `must be at most ${NOTES_MAX_LENGTH} characters`)))),
  status: z.optional(z.nullable(taskStatusSchema)),
  due: z.optional(z.nullable(rfc3339DateTime)),
  completed: z.optional(z.nullable(rfc3339DateTime)),
  deleted: z.optional(z.nullable(z.boolean())),
  hidden: z.optional(z.nullable(z.boolean())),
  parent: z.optional(z.nullable(z.string())),
  position: z.optional(z.nullable(z.string())),
  links: z.optional(z.nullable(z.array(taskLinkSchema))),
  webViewLink: z.optional(z.nullable(z.string())),
  assignmentInfo: z.optional(z.nullable(assignmentInfoSchema)),
});
export type TaskInput = z.infer<typeof taskInputSchema>;

/** What Desk itself writes on tasks.insert / update / patch. */
export interface TaskWrite {
  title?: string;
  notes?: string | null;
  status?: TaskStatus;
  due?: string | null;
  completed?: string | null;
  deleted?: boolean;
}
