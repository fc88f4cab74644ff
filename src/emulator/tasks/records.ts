/** What the Tasks model stores and answers (task lists, tasks, pages, filters), the API's limits, and the pure rules on one task. */
import { randomBytes } from 'node:crypto';
import { TaskStatus } from '../../shared/schemas/tasks';
import { ApiError } from '../core/errors';

export const LIMITS = {
  listsPerUser: 2000,
  visibleTasksPerList: 20_000,
  tasksPerUser: 100_000,
  subtasksPerTask: 2000,
} as const;

export const DEFAULT_LIST_TITLE = 'My Tasks';

export interface StoredTaskList {
  id: string;
  userId: string;
  title: string;
  /** Epoch ms; also bumped when a task of the list changes, like Google's. */
  updated: number;
  /** Creation order, for a stable listing. */
  created: number;
  etag: string;
}

export interface StoredTask {
  id: string;
  listId: string;
  userId: string;
  title: string;
  notes?: string;
  status: TaskStatus;
  /** `YYYY-MM-DDT00:00:00.000Z` */
  due?: string;
  /** Epoch ms, only when completed. */
  completed?: number;
  deleted: boolean;
  hidden: boolean;
  parent?: string;
  /** 20-digit zero-padded decimal; unique among siblings. */
  position: string;
  updated: number;
  etag: string;
}

export interface StoredUser {
  defaultListId: string;
}

export interface Page<T> {
  items: T[];
  nextPageToken?: string;
  etag: string;
}

export interface TaskFilters {
  showCompleted: boolean;
  showHidden: boolean;
  showDeleted: boolean;
  updatedMin?: number;
  dueMin?: number;
  dueMax?: number;
  completedMin?: number;
  completedMax?: number;
  maxResults: number;
  pageToken?: string;
}

export interface Placement {
  parent?: string;
  previous?: string;
}

export function newId(): string {
  return randomBytes(12).toString('base64url');
}

/** Google keeps only the date of `due`: the date as written, at midnight UTC. */
export function truncateDue(value: string): string {
  return `${value.slice(0, 10)}T00:00:00.000Z`;
}

export function countsOf(task: StoredTask): { visible: number; live: number } {
  return { visible: !task.deleted && !task.hidden ? 1 : 0, live: task.deleted ? 0 : 1 };
}

export function matches(task: StoredTask, filters: TaskFilters): boolean {
  if (task.deleted && !filters.showDeleted) return false;
  if (task.hidden && !filters.showHidden) return false;
  if (task.status === 'completed' && !filters.showCompleted) return false;
  if (filters.updatedMin !== undefined && task.updated < filters.updatedMin) return false;
  if (filters.dueMin !== undefined || filters.dueMax !== undefined) {
    if (task.due === undefined) return false;
    const due = Date.parse(task.due);
    if (filters.dueMin !== undefined && due < filters.dueMin) return false;
    if (filters.dueMax !== undefined && due > filters.dueMax) return false;
  }
  if (filters.completedMin !== undefined || filters.completedMax !== undefined) {
    if (task.completed === undefined) return false;
    if (filters.completedMin !== undefined && task.completed < filters.completedMin) return false;
    if (filters.completedMax !== undefined && task.completed > filters.completedMax) return false;
  }
  return true;
}

export function limitExceeded(message: string): ApiError {
  return new ApiError(403, 'limitExceeded', message, { domain: 'usageLimits' });
}
