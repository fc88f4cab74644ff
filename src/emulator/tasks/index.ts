/** Google Tasks API v1 in the emulator: the ServiceModule, and one model per store. */
import { perStore } from '../core/perStore';
import { ServiceModule } from '../core/server';
import { TasksModel } from './model';
import { taskRoutes } from './routes';
import { seedTasksDemo } from './seed';

/** One model per store: routes and the demo seed must share its in-memory indexes. */
export const tasksModelFor = perStore((deps) => new TasksModel(deps.store, deps.now));

/** Google Tasks API v1 under /tasks/v1. */
export const tasksModule: ServiceModule = {
  name: 'tasks',
  register(router, deps) {
    router.addAll(taskRoutes(tasksModelFor(deps), deps.store));
  },
  seedDemo(deps) {
    seedTasksDemo(tasksModelFor(deps), deps.now());
  },
};
