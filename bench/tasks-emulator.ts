import { performance } from 'node:perf_hooks';
import { startEmulator } from '../src/emulator/emulator';
import { taskListSchema, taskSchema, tasksPageSchema } from '../src/shared/schemas/tasks';
import { machineLoad, ms, runWhenMain, summarize } from './support/stats';

/**
 * Emulator latency and throughput of tasks.insert and tasks.list as one list grows to 20,000 tasks
 * (Google's limit of visible tasks a list), over real HTTP on loopback. Prints figures; asserts nothing.
 */

const MILESTONES = [1000, 5000, 10_000, 20_000];
const LIST_SAMPLES = 100;

export async function run(): Promise<void> {
  const emulator = await startEmulator({ port: 0 });
  try {
    const token = emulator.tokenFor('alice@example.com').accessToken;
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const created = await fetch(`${emulator.url}/tasks/v1/users/@me/lists`, { method: 'POST', headers, body: JSON.stringify({ title: 'Bench' }) });
    const list = taskListSchema.parse(await created.json()).id;
    const base = `${emulator.url}/tasks/v1/lists/${list}/tasks`;

    const timedGet = async (url: string): Promise<{ elapsed: number; nextPageToken?: string }> => {
      const started = performance.now();
      const response = await fetch(url, { headers });
      const page = tasksPageSchema.parse(await response.json());
      return { elapsed: performance.now() - started, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
    };

    console.log('tasks emulator: one list growing to 20,000 tasks (HTTP on loopback, memory store)');
    console.log(machineLoad());
    console.log('size    | insert p50 / p95 / per s        | list first page p50 / p95 / per s | list middle page p50 / p95 | first page after a move');
    let count = 0;
    let previous: string | undefined;
    for (const milestone of MILESTONES) {
      // Inserts: mostly appended after the previous task, every tenth at the top (Google's default position).
      const insertSamples: number[] = [];
      const insertStart = performance.now();
      while (count < milestone) {
        const atTop = count % 10 === 9;
        const query = !atTop && previous ? `?previous=${previous}` : '';
        const started = performance.now();
        const response = await fetch(`${base}${query}`, { method: 'POST', headers, body: JSON.stringify({ title: `Task ${count}`, notes: 'benchmark' }) });
        const task = taskSchema.parse(await response.json());
        insertSamples.push(performance.now() - started);
        if (!atTop) previous = task.id;
        count++;
      }
      const inserts = summarize(insertSamples, performance.now() - insertStart);

      const firstSamples: number[] = [];
      const firstStart = performance.now();
      for (let index = 0; index < LIST_SAMPLES; index++) firstSamples.push((await timedGet(`${base}?maxResults=100`)).elapsed);
      const firstPage = summarize(firstSamples, performance.now() - firstStart);

      // Walk to the middle page once, then time requests for it.
      let token: string | undefined;
      for (let page = 0; page < Math.floor(milestone / 100 / 2); page++) {
        token = (await timedGet(`${base}?maxResults=100${token ? `&pageToken=${token}` : ''}`)).nextPageToken;
      }
      const middleSamples: number[] = [];
      const middleStart = performance.now();
      for (let index = 0; index < LIST_SAMPLES; index++) middleSamples.push((await timedGet(`${base}?maxResults=100&pageToken=${token ?? ''}`)).elapsed);
      const middlePage = summarize(middleSamples, performance.now() - middleStart);

      // A move (of the first task to the top) drops the cached tree order; the next listing rebuilds it (20,000 is the limit, so no inserts here).
      const afterWrite: number[] = [];
      const firstPageNow = tasksPageSchema.parse(await (await fetch(`${base}?maxResults=1`, { headers })).json());
      const target = firstPageNow.items?.[0]?.id as string;
      for (let index = 0; index < 20; index++) {
        await fetch(`${base}/${target}/move`, { method: 'POST', headers });
        afterWrite.push((await timedGet(`${base}?maxResults=100`)).elapsed);
      }
      const rebuilt = summarize(afterWrite, 1);

      console.log(
        `${String(milestone).padStart(6)}  | ${ms(inserts.p50)} / ${ms(inserts.p95)} / ${inserts.perSecond.toFixed(0)}`.padEnd(42) +
          `| ${ms(firstPage.p50)} / ${ms(firstPage.p95)} / ${firstPage.perSecond.toFixed(0)}`.padEnd(36) +
          `| ${ms(middlePage.p50)} / ${ms(middlePage.p95)}`.padEnd(29) +
          `| p50 ${ms(rebuilt.p50)}`,
      );
    }
  } finally {
    await emulator.close();
  }
}

runWhenMain(module, run);
