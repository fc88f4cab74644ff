/** Tasks v1 resources as the API returns them: task lists, tasks and their pages. */
import { escapeHtml } from '../core/html';
import type { Page, StoredTask, StoredTaskList } from './records';

/** A page as Google answers it: `nextPageToken` only when there is more, and no `items` at all on an empty page. */
export function renderPage<T>(kind: string, page: Page<T>, render: (item: T) => unknown): Record<string, unknown> {
  return {
    kind,
    etag: page.etag,
    ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
    ...(page.items.length > 0 ? { items: page.items.map(render) } : {}),
  };
}

export function renderTaskList(list: StoredTaskList, baseUrl: string): Record<string, unknown> {
  return {
    kind: 'tasks#taskList',
    id: list.id,
    etag: list.etag,
    title: list.title,
    updated: new Date(list.updated).toISOString(),
    selfLink: `${baseUrl}/tasks/v1/users/@me/lists/${encodeURIComponent(list.id)}`,
  };
}

export function renderTask(task: StoredTask, baseUrl: string): Record<string, unknown> {
  const json: Record<string, unknown> = {
    kind: 'tasks#task',
    id: task.id,
    etag: task.etag,
    title: task.title,
    updated: new Date(task.updated).toISOString(),
    selfLink: `${baseUrl}/tasks/v1/lists/${encodeURIComponent(task.listId)}/tasks/${encodeURIComponent(task.id)}`,
  };
  if (task.parent !== undefined) json.parent = task.parent;
  json.position = task.position;
  if (task.notes !== undefined) json.notes = task.notes;
  json.status = task.status;
  if (task.due !== undefined) json.due = task.due;
  if (task.completed !== undefined) json.completed = new Date(task.completed).toISOString();
  if (task.deleted) json.deleted = true;
  if (task.hidden) json.hidden = true;
  json.links = [];
  json.webViewLink = `${baseUrl}/emulator/v1/tasks/view/${encodeURIComponent(task.id)}`;
  return json;
}

/**
 * The target of webViewLink. A browser carries no bearer token, so the page names the task but shows none of its
 * content (another user's data must not leak to whoever opens the address).
 */
export function renderTaskPage(taskId: string): string {
  return `<!doctype html><title>Desk emulator task</title><p>Task <code>${escapeHtml(taskId)}</code> lives in the Desk emulator. Open it from the Tasks view in VS Code.</p>`;
}
