/** HTTP ↔ model for the 14 Tasks API v1 operations at Google's paths, as one table of named routes, plus the task page webViewLink opens. */
import { taskInputSchema, taskListInputSchema } from '../../shared/schemas/tasks';
import { requireUser } from '../core/context';
import { parseBody, QueryParams } from '../core/params';
import type { Handler, RequestContext, Route } from '../core/router';
import type { Store } from '../store/store';
import type { TasksModel } from './model';
import type { TaskFilters } from './records';
import { renderPage, renderTask, renderTaskList, renderTaskPage } from './render';

const LISTS = '/tasks/v1/users/@me/lists';
const LIST = `${LISTS}/:tasklist`;
const TASKS = '/tasks/v1/lists/:tasklist/tasks';
const TASK = `${TASKS}/:task`;

const TASKS_PAGE = { default: 20, min: 1, max: 100 };
const TASKLISTS_PAGE = { default: 1000, min: 1, max: 1000 };

export function taskRoutes(model: TasksModel, store: Store): readonly Route[] {
  /**
   * A read can create the user's default list (lazily, as Google does); that is made durable before answering, so
   * a crash cannot hand out a list id that a restart would not know.
   */
  const createsDefaultList = (handle: Handler): Handler => async (context) => {
    const reply = await handle(context);
    await store.flush();
    return reply;
  };
  const userOf = (context: RequestContext): string => requireUser(context).id;
  const listOf = (context: RequestContext): string => context.params.tasklist;
  const taskOf = (context: RequestContext): string => context.params.task;
  const updateTaskList = (mode: 'update' | 'patch'): Handler => async (context) => {
    const body = parseBody(taskListInputSchema, await context.json());
    return { json: renderTaskList(model.updateTaskList(userOf(context), listOf(context), body, mode), context.baseUrl) };
  };
  const updateTask = (mode: 'update' | 'patch'): Handler => async (context) => {
    const body = parseBody(taskInputSchema, await context.json());
    return { json: renderTask(model.updateTask(userOf(context), listOf(context), taskOf(context), body, mode), context.baseUrl) };
  };

  return [
    // ---- tasklists
    {
      id: 'tasks.tasklists.list', method: 'GET', path: LISTS,
      handle: createsDefaultList((context) => {
        const page = model.listTaskLists(userOf(context), {
          maxResults: context.query.integer('maxResults', TASKLISTS_PAGE) as number,
          pageToken: nonEmpty(context.query.string('pageToken')),
        });
        return { json: renderPage('tasks#taskLists', page, (list) => renderTaskList(list, context.baseUrl)) };
      }),
    },
    {
      id: 'tasks.tasklists.get', method: 'GET', path: LIST,
      handle: createsDefaultList((context) => ({ json: renderTaskList(model.getTaskList(userOf(context), listOf(context)), context.baseUrl) })),
    },
    {
      id: 'tasks.tasklists.insert', method: 'POST', path: LISTS,
      handle: async (context) => {
        const body = parseBody(taskListInputSchema, await context.json());
        return { json: renderTaskList(model.insertTaskList(userOf(context), body), context.baseUrl) };
      },
    },
    { id: 'tasks.tasklists.update', method: 'PUT', path: LIST, handle: updateTaskList('update') },
    { id: 'tasks.tasklists.patch', method: 'PATCH', path: LIST, handle: updateTaskList('patch') },
    {
      id: 'tasks.tasklists.delete', method: 'DELETE', path: LIST,
      handle: (context) => {
        model.deleteTaskList(userOf(context), listOf(context));
        return { status: 204, empty: true };
      },
    },
    // ---- tasks
    {
      id: 'tasks.tasks.list', method: 'GET', path: TASKS,
      handle: createsDefaultList((context) => {
        const page = model.listTasks(userOf(context), listOf(context), taskFilters(context.query));
        return { json: renderPage('tasks#tasks', page, (task) => renderTask(task, context.baseUrl)) };
      }),
    },
    {
      id: 'tasks.tasks.get', method: 'GET', path: TASK,
      handle: createsDefaultList((context) => ({ json: renderTask(model.getTask(userOf(context), listOf(context), taskOf(context)), context.baseUrl) })),
    },
    {
      id: 'tasks.tasks.insert', method: 'POST', path: TASKS,
      handle: async (context) => {
        const placement = { parent: nonEmpty(context.query.string('parent')), previous: nonEmpty(context.query.string('previous')) };
        const body = parseBody(taskInputSchema, await context.json());
        return { json: renderTask(model.insertTask(userOf(context), listOf(context), body, placement), context.baseUrl) };
      },
    },
    { id: 'tasks.tasks.update', method: 'PUT', path: TASK, handle: updateTask('update') },
    { id: 'tasks.tasks.patch', method: 'PATCH', path: TASK, handle: updateTask('patch') },
    {
      id: 'tasks.tasks.delete', method: 'DELETE', path: TASK,
      handle: (context) => {
        model.deleteTask(userOf(context), listOf(context), taskOf(context));
        return { status: 204, empty: true };
      },
    },
    {
      id: 'tasks.tasks.clear', method: 'POST', path: '/tasks/v1/lists/:tasklist/clear',
      handle: (context) => {
        model.clear(userOf(context), listOf(context));
        return { status: 204, empty: true };
      },
    },
    {
      id: 'tasks.tasks.move', method: 'POST', path: `${TASK}/move`,
      handle: (context) => {
        const task = model.moveTask(userOf(context), listOf(context), taskOf(context), {
          parent: nonEmpty(context.query.string('parent')),
          previous: nonEmpty(context.query.string('previous')),
          destinationTasklist: nonEmpty(context.query.string('destinationTasklist')),
        });
        return { json: renderTask(task, context.baseUrl) };
      },
    },
    // ---- dev routes
    {
      id: 'emulator.tasks.view', method: 'GET', path: '/emulator/v1/tasks/view/:task', auth: false,
      handle: (context) => ({ contentType: 'text/html; charset=utf-8', body: renderTaskPage(context.params.task) }),
    },
  ];
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
