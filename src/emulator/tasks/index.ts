import { ServiceDeps, ServiceModule } from '../core/server';
import { TasksModel } from './model';
import { registerTaskRoutes } from './routes';
import { seedTasksDemo } from './seed';

/** One model per store: routes and the demo seed must share its in-memory indexes. */
const models = new WeakMap<object, TasksModel>();

export function tasksModelFor(deps: ServiceDeps): TasksModel {
  let model = models.get(deps.store);
  if (!model) {
    model = new TasksModel(deps.store, deps.now);
    models.set(deps.store, model);
  }
  return model;
}

/** Google Tasks API v1 under /tasks/v1. */
export const tasksModule: ServiceModule = {
  name: 'tasks',
  register(router, deps) {
    registerTaskRoutes(router, tasksModelFor(deps), deps.store);
  },
  seedDemo(deps) {
    seedTasksDemo(tasksModelFor(deps), deps.now());
  },
};
