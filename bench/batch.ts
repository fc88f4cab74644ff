import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DriveClient } from '../src/api/drive';
import { HttpClient } from '../src/api/http';
import { TasksClient } from '../src/api/tasks';
import { killHard, startChild, tokenFor } from '../test/support/emulatorChild';
import { machineLoad, runWhenMain } from './support/stats';

/**
 * What Desk's batch requests save: 100 items, one call each (as Desk's bulk commands sent them) against one batch
 * request (api/batch.ts), against the built emulator started with `--latency 100` (each HTTP request pays 100 ms,
 * as a round trip to Google costs 100–300 ms). Drive trash (files.trash) and Tasks inserts (Track as Task).
 * Prints figures; asserts nothing.
 */

const ITEMS = 100;
const LATENCY_MS = 100;

async function timed(label: string, work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  const elapsed = performance.now() - started;
  console.log(`${label.padEnd(52)} ${(elapsed / 1000).toFixed(2).padStart(7)} s`);
  return elapsed;
}

export async function run(): Promise<void> {
  console.log(`machine: ${machineLoad()}; emulator --latency ${LATENCY_MS}, ${ITEMS} items`);
  const child = await startChild(path.resolve(__dirname, '../../dist/emulator.js'), ['--memory', '--latency', String(LATENCY_MS)]);
  try {
    const token = await tokenFor(child.url, 'alice@example.com');
    const http = new HttpClient({ rootUrl: () => child.url, token: async () => token });
    const drive = new DriveClient(http);
    const tasks = new TasksClient(http);
    const files = async (prefix: string): Promise<string[]> => {
      const ids = await drive.generateIds(ITEMS);
      const created = await Promise.all(ids.map((id, index) => drive.insertFileWithId({ id, title: `${prefix}-${index}.txt`, mimeType: 'text/plain' })));
      return created.map((file) => file.id);
    };
    const oneByOne = await files('single');
    const batched = await files('batched');
    const single = await timed(`Drive: trash ${ITEMS} files, one request each`, async () => {
      for (const id of oneByOne) await drive.trashFile(id);
    });
    const batch = await timed(`Drive: trash ${ITEMS} files, batched (100 per request)`, async () => {
      const results = await drive.trashFiles(batched);
      if (results.some((result) => !result.ok)) throw new Error('a batched trash failed');
    });
    console.log(`${'Drive: speed-up'.padEnd(52)} ${(single / batch).toFixed(1).padStart(7)} ×`);

    const list = await tasks.insertTaskList('Bench batch');
    const bodies = Array.from({ length: ITEMS }, (_, index) => ({ title: `TODO ${index}` }));
    const singleTasks = await timed(`Tasks: insert ${ITEMS} tasks, one request each`, async () => {
      for (const body of bodies) await tasks.insertTask(list.id, body);
    });
    const batchTasks = await timed(`Tasks: insert ${ITEMS} tasks, batched (100 per request)`, async () => {
      const results = await tasks.insertTasks(list.id, bodies);
      if (results.some((result) => !result.ok)) throw new Error('a batched insert failed');
    });
    console.log(`${'Tasks: speed-up'.padEnd(52)} ${(singleTasks / batchTasks).toFixed(1).padStart(7)} ×`);
  } finally {
    await killHard(child);
  }
}

runWhenMain(module, run);
