/** The Tasks feature's port: the part of TasksClient the view, its commands and TODO tracking use (fakes implement it). */
import type { TasksClient } from '../../api/tasks';

/** The part of TasksClient the view and its commands use (a fake in unit tests). */
export type TasksApi = Pick<TasksClient,
  | 'allTaskLists' | 'getTaskList' | 'insertTaskList' | 'updateTaskList' | 'patchTaskList' | 'deleteTaskList'
  | 'listTasks' | 'getTask' | 'insertTask' | 'insertTasks' | 'updateTask' | 'patchTask' | 'deleteTask' | 'clearTasks' | 'moveTask'>;
