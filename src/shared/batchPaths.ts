/**
 * Google's batch endpoints, the one table the client (api/batch.ts) and the emulator (emulator/core/batch.ts) both
 * read: each API's `batchPath` from its discovery document, the root `/batch` that tasks v1, books v1 and admin
 * directory_v1 name (`batchPath: "batch"`), and the documented limits on the calls of one batch request.
 */
export const BATCH_PATHS = {
  calendar: '/batch/calendar/v3',
  drive: '/batch/drive/v2',
  tasks: '/batch/tasks/v1',
  books: '/batch/books/v1',
  directory: '/batch/admin/directory_v1',
  /** The root batch: any API served by the same host. */
  root: '/batch',
} as const;

/** Every batch API documents at most 1000 calls per batch request; more is refused whole. */
export const MAX_BATCH_CALLS = 1000;

/** Drive documents 100 calls per batch (past them, each call is refused with a 403 "soft limit"). */
export const DRIVE_BATCH_SOFT_LIMIT = 100;

/** Calendar's batch page said 50 calls for years (1000 now): a client that sends 50 is safe on both. */
export const CALENDAR_BATCH_SAFE_CALLS = 50;
