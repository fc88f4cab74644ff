import { taskBodySchema, taskListBodySchema } from '../../shared/schemas/tasks';
import { requireUser } from '../core/context';
import { escapeHtml } from '../core/html';
import { parseBody, QueryParams } from '../core/params';
import { Handler, RequestContext, Router } from '../core/router';
import { Store } from '../store/store';
import { Page, StoredTask, StoredTaskList, TaskFilters, TasksModel } from './model';

/** HTTP ↔ model for the 14 Tasks API v1 operations, at Google's paths. */

const LISTS = '/tasks/v1/users/@me/lists';
const TASKS = '/tasks/v1/lists/:tasklist/tasks';

const TASKS_PAGE = { default: 20, min: 1, max: 100 };
const TASKLISTS_PAGE = { default: 1000, min: 1, max: 1000 };

/** A page as Google answers it: `nextPageToken` only when there is more, and no `items` at all on an empty page. */
function pageJson<T>(kind: string, page: Page<T>, render: (item: T) => unknown): Record<string, unknown> {
  return {
    kind,
    etag: page.etag,
    ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
    ...(page.items.length > 0 ? { items: page.items.map(render) } : {}),
  };
}

export function registerTaskRoutes(router: Router, model: TasksModel, store: Store): void {
  // A read can create the user's default list (lazily, as Google does); make that durable before
  // answering, so a crash cannot hand out a list id that a restart would not know.
  const read = (pattern: string, handler: Handler): void =>
    router.get(pattern, async (context) => {
      const reply = await handler(context);
      await store.flush();
      return reply;
    });
  // ---- tasklists
  read(LISTS, (context) => {
    const page = model.listTaskLists(requireUser(context).id, {
      maxResults: context.query.integer('maxResults', TASKLISTS_PAGE) as number,
      pageToken: nonEmpty(context.query.string('pageToken')),
    });
    return { json: pageJson('tasks#taskLists', page, (list) => renderTaskList(list, context.baseUrl)) };
  });
  read(`${LISTS}/:tasklist`, (context) => ({
    json: renderTaskList(model.getTaskList(requireUser(context).id, context.params.tasklist as string), context.baseUrl),
  }));
  router.post(LISTS, async (context) => {
    const body = parseBody(taskListBodySchema, await context.json());
    return { json: renderTaskList(model.insertTaskList(requireUser(context).id, body), context.baseUrl) };
  });
  for (const mode of ['update', 'patch'] as const) {
    const handler = async (context: RequestContext): Promise<{ json: unknown }> => {
      const body = parseBody(taskListBodySchema, await context.json());
      const list = model.updateTaskList(requireUser(context).id, context.params.tasklist as string, body, mode);
      return { json: renderTaskList(list, context.baseUrl) };
    };
    if (mode === 'update') router.put(`${LISTS}/:tasklist`, handler);
    else router.patch(`${LISTS}/:tasklist`, handler);
  }
  router.delete(`${LISTS}/:tasklist`, (context) => {
    model.deleteTaskList(requireUser(context).id, context.params.tasklist as string);
    return { status: 204, empty: true };
  });

  // ---- tasks
  read(TASKS, (context) => {
    const page = model.listTasks(requireUser(context).id, context.params.tasklist as string, taskFilters(context.query));
    return { json: pageJson('tasks#tasks', page, (task) => renderTask(task, context.baseUrl)) };
  });
  read(`${TASKS}/:task`, (context) => ({
    json: renderTask(model.getTask(requireUser(context).id, context.params.tasklist as string, context.params.task as string), context.baseUrl),
  }));
  router.post(TASKS, async (context) => {
    const placement = { parent: nonEmpty(context.query.string('parent')), previous: nonEmpty(context.query.string('previous')) };
    const body = parseBody(taskBodySchema, await context.json());
    const task = model.insertTask(requireUser(context).id, context.params.tasklist as string, body, placement);
    return { json: renderTask(task, context.baseUrl) };
  });
  for (const mode of ['update', 'patch'] as const) {
    const handler = async (context: RequestContext): Promise<{ json: unknown }> => {
      const body = parseBody(taskBodySchema, await context.json());
      const task = model.updateTask(requireUser(context).id, context.params.tasklist as string, context.params.task as string, body, mode);
      return { json: renderTask(task, context.baseUrl) };
    };
    if (mode === 'update') router.put(`${TASKS}/:task`, handler);
    else router.patch(`${TASKS}/:task`, handler);
  }
  router.delete(`${TASKS}/:task`, (context) => {
    model.deleteTask(requireUser(context).id, context.params.tasklist as string, context.params.task as string);
    return { status: 204, empty: true };
  });
  router.post('/tasks/v1/lists/:tasklist/clear', (context) => {
    model.clear(requireUser(context).id, context.params.tasklist as string);
    return { status: 204, empty: true };
  });
  // The target of webViewLink. A browser carries no bearer token, so the page names the task but shows
  // none of its content (another user's data must not leak to whoever opens the address).
  router.get('/emulator/v1/tasks/view/:task', (context) => ({
    contentType: 'text/html; charset=utf-8',
    body: `<!doctype html><title>Desk emulator task</title><p>Task <code>${escapeHtml(context.params.task ?? '')}</code> lives in the Desk emulator. Open it from the Tasks view in VS Code.</p>`,
  }), { auth: false });
  router.post(`${TASKS}/:task/move`, (context) => {
    const task = model.moveTask(requireUser(context).id, context.params.tasklist as string, context.params.task as string, {
      parent: nonEmpty(context.query.string('parent')),
      previous: nonEmpty(context.query.string('previous')),
      destinationTasklist: nonEmpty(context.query.string('destinationTasklist')),
    });
    return { json: renderTask(task, context.baseUrl) };
  });
}



function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function taskFilters(query: QueryParams): TaskFilters {
  const filters: TaskFilters = {
    showCompleted: query.boolean('showCompleted', true),
    showHidden: query.boolean('showHidden', false),
    showDeleted: query.boolean('showDeleted', false),
    maxResults: query.integer('maxResults', TASKS_PAGE) as number,
  };
  // The official client sends showAssigned; Desk's emulator has no assigned tasks, so it only validates it.
  query.boolean('showAssigned', false);
  const pageToken = nonEmpty(query.string('pageToken'));
  if (pageToken !== undefined) filters.pageToken = pageToken;
  for (const name of ['updatedMin', 'dueMin', 'dueMax', 'completedMin', 'completedMax'] as const) {
    const value = query.timestamp(name);
    if (value !== undefined) filters[name] = value;
  }
  return filters;
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
