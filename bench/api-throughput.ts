import { performance } from 'node:perf_hooks';
import { tasks } from '@googleapis/tasks';
import { HttpClient } from '../src/api/http';
import { TasksClient } from '../src/api/tasks';
import { startEmulator } from '../src/emulator/emulator';
import { machineLoad, runWhenMain } from './support/stats';

/**
 * Calls per second of Desk's TasksClient against the official @googleapis/tasks client, for tasks.get and
 * tasks.list (a page of 100), against the same in-process emulator. Prints figures; asserts nothing.
 */

const CALLS = 1000;
const CONCURRENCY = [1, 8];

async function measure(label: string, calls: number, concurrency: number, call: () => Promise<unknown>): Promise<void> {
  for (let index = 0; index < 20; index++) await call(); // warm up connections and JIT
  let remaining = calls;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (remaining > 0) {
      remaining--;
      await call();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = performance.now() - started;
  console.log(`${label.padEnd(44)} ${((calls / elapsed) * 1000).toFixed(0).padStart(6)} calls/s  (${(elapsed / calls).toFixed(3)} ms/call)`);
}

export async function run(): Promise<void> {
  const emulator = await startEmulator({ port: 0 });
  try {
    const token = emulator.tokenFor('alice@example.com').accessToken;
    const ours = new TasksClient(new HttpClient({ rootUrl: () => emulator.url, token: async () => token }));
    const official = tasks({ version: 'v1', rootUrl: `${emulator.url}/`, headers: { Authorization: `Bearer ${token}` } });

    const list = await ours.insertTaskList('Throughput');
    let previous: string | undefined;
    for (let index = 0; index < 300; index++) {
      previous = (await ours.insertTask(list.id, { title: `Task ${index}`, notes: 'n'.repeat(200), due: '2026-12-01T00:00:00Z' }, { previous })).id;
    }
    const target = previous as string;

    console.log(`TasksClient vs @googleapis/tasks: ${CALLS} calls each, same emulator (HTTP on loopback)`);
    console.log(machineLoad());
    for (const concurrency of CONCURRENCY) {
      await measure(`desk TasksClient   tasks.get  (x${concurrency})`, CALLS, concurrency, () => ours.getTask(list.id, target));
      await measure(`googleapis client  tasks.get  (x${concurrency})`, CALLS, concurrency, () => official.tasks.get({ tasklist: list.id, task: target }));
      await measure(`desk TasksClient   tasks.list (100, x${concurrency})`, CALLS / 4, concurrency, () => ours.listTasks(list.id, { maxResults: 100 }));
      await measure(`googleapis client  tasks.list (100, x${concurrency})`, CALLS / 4, concurrency, () => official.tasks.list({ tasklist: list.id, maxResults: 100 }));
    }
  } finally {
    await emulator.close();
  }
}

runWhenMain(module, run);
