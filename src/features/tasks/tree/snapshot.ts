/**
 * Where the Tasks view's cache is (core/storage/viewCache.ts): the slot of the view's first rows, the check of what is read
 * back, and the reader for other features (search). The tree model (model.ts) reads and writes the slot.
 */
import type { ViewCache, ViewCacheSlot } from '../../../core/storage/viewCache';
import * as z from '../../../shared/schemas/zod';
import { taskListSchema, taskSchema, type TaskList } from '../../../shared/schemas/tasks';

/** What the Tasks view keeps for its next start: the lists and the first tasks of the lists that were loaded. */
const tasksSnapshotSchema = z.object({ lists: z.array(taskListSchema), tasks: z.record(z.string(), z.array(taskSchema)) });
export type TasksSnapshot = z.infer<typeof tasksSnapshotSchema>;
export const isTasksSnapshot = (data: unknown): data is TasksSnapshot => tasksSnapshotSchema.safeParse(data).success;

/** The view's slot (one file per account): the lists and the first tasks as last shown. */
export const TASKS_SNAPSHOT: ViewCacheSlot<TasksSnapshot> = { name: 'tasks', isValid: isTasksSnapshot };

/** The task lists as the Tasks view last showed them for `account` (default: the first signed in), from disk, no request. */
export async function cachedTaskLists(cache: ViewCache, account?: string): Promise<TaskList[] | undefined> {
  return (await cache.slot(TASKS_SNAPSHOT, account).read())?.lists;
}
