/**
 * Google's batch endpoints, the one table the client (api/batch.ts) and the emulator (emulator/core/batch.ts) both
 * read: each API's `batchPath` from its discovery document, the root `/batch` that tasks v1, books v1 and admin
 * directory_v1 name (`batchPath: "batch"`), the documented limits on the calls of one batch request, and how many
 * calls Desk's client puts in one.
 */

/** Every batch API documents at most 1000 calls per batch request; more is refused whole. */
export const MAX_BATCH_CALLS = 1000;

/** Drive documents 100 calls per batch (past them, each call is refused with a 403 "soft limit"). */
export const DRIVE_BATCH_SOFT_LIMIT = 100;

/** Calendar's batch page said 50 calls for years (1000 now): a client that sends 50 is safe on both. */
export const CALENDAR_BATCH_SAFE_CALLS = 50;

/** Calls Desk puts in one batch where the API allows 1000 (MAX_BATCH_CALLS): well inside per-user rate limits. */
const CALLS_PER_BATCH = 100;

/** One batch path: what the emulator serves there and how many calls Desk's client sends to it at a time. */
export interface BatchApi {
  readonly path: string;
  /** As the emulator names it in errors. */
  readonly name: string;
  /** Path prefixes of the API this batch path serves (undefined: the root `/batch`, any API of the host). */
  readonly prefixes: readonly string[] | undefined;
  /**
   * Calls past this many in one batch are answered, each, with Drive's 403 "Exceeds allowed inner batch requests
   * soft limit" (Drive documents 100 calls per batch; the per-part 403 is what a client recorded against real
   * Drive, googleapis/google-api-python-client#2201). Undefined: only the hard limit applies.
   */
  readonly softLimit?: number;
  /** The calls Desk's client puts in one batch request to this path. */
  readonly callsPerBatch: number;
}

/**
 * The batch paths the five discovery documents name, plus the root `/batch` three of them keep. Drive takes 100 calls
 * per batch, Calendar 50 (see above); the others the general 1000, of which Desk sends 100 at a time.
 */
export const BATCH_APIS = {
  calendar: { path: '/batch/calendar/v3', name: 'calendar v3', prefixes: ['/calendar/v3/'], callsPerBatch: CALENDAR_BATCH_SAFE_CALLS },
  drive: { path: '/batch/drive/v2', name: 'drive v2', prefixes: ['/drive/v2/'], softLimit: DRIVE_BATCH_SOFT_LIMIT, callsPerBatch: DRIVE_BATCH_SOFT_LIMIT },
  tasks: { path: '/batch/tasks/v1', name: 'tasks v1', prefixes: ['/tasks/v1/'], callsPerBatch: CALLS_PER_BATCH },
  books: { path: '/batch/books/v1', name: 'books v1', prefixes: ['/books/v1/'], callsPerBatch: CALLS_PER_BATCH },
  directory: { path: '/batch/admin/directory_v1', name: 'admin directory_v1', prefixes: ['/admin/directory/', '/admin/directory_v1/'], callsPerBatch: CALLS_PER_BATCH },
  // tasks v1, books v1 and admin directory_v1 give `batchPath: "batch"`: the root batch, for any API of the host.
  root: { path: '/batch', name: 'batch', prefixes: undefined, callsPerBatch: CALLS_PER_BATCH },
} as const satisfies Record<string, BatchApi>;

/**
 * Where Desk's client sends each service's batches: Tasks and the Directory through the root batch their discovery
 * documents name, the others through their own path.
 */
export const CLIENT_BATCH_APIS = {
  tasks: BATCH_APIS.root,
  books: BATCH_APIS.books,
  drive: BATCH_APIS.drive,
  calendar: BATCH_APIS.calendar,
  directory: BATCH_APIS.root,
} as const satisfies Record<string, BatchApi>;
