import { performance } from 'node:perf_hooks';
import { tasks } from '@googleapis/tasks';
import { HttpClient } from '../src/api/http';
import { TasksClient } from '../src/api/tasks';
import { startEmulator } from '../src/emulator/emulator';
import { machineLoad, runWhenMain } from './support/stats';

/**
 * Calls per second of Desk's TasksClient against the official @googleapis/tasks client, for tasks.get and
 * tasks.list (a page of 100), against the same in-process emulator, and the CPU time per call (client and emulator
 * together; the ratio is the official client's over Desk's, so above 1× Desk costs less). Prints figures; asserts nothing.
 */

const CALLS = 1000;
const CONCURRENCY = [1, 8];

const ROUNDS = 3;

interface Run {
  /** Calls per second (wall clock). */
  readonly rate: number;
  /** CPU time per call (µs, client and emulator together): what a busy machine's other processes do not change. */
  readonly cpuPerCall: number;
}

/** Calls per second and CPU per call of one client, one run. */
async function rate(calls: number, concurrency: number, call: () => Promise<unknown>): Promise<Run> {
  for (let index = 0; index < 20; index++) await call(); // warm up connections and JIT
  let remaining = calls;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const worker = async (): Promise<void> => {
    while (remaining > 0) {
      remaining--;
      await call();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const cpu = process.cpuUsage(cpuBefore);
  return { rate: (calls / (performance.now() - started)) * 1000, cpuPerCall: (cpu.user + cpu.system) / calls };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Desk against the official client on one call: the two alternate for a few rounds (a busy machine drifts
 * between runs) and the medians and their ratio are printed.
 */
async function compare(label: string, calls: number, concurrency: number, ours: () => Promise<unknown>, official: () => Promise<unknown>): Promise<void> {
  const desk: Run[] = [];
  const google: Run[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    desk.push(await rate(calls, concurrency, ours));
    google.push(await rate(calls, concurrency, official));
  }
  const [deskRate, googleRate] = [median(desk.map((run) => run.rate)), median(google.map((run) => run.rate))];
  const [deskCpu, googleCpu] = [median(desk.map((run) => run.cpuPerCall)), median(google.map((run) => run.cpuPerCall))];
  console.log(`${label.padEnd(28)} desk ${deskRate.toFixed(0).padStart(6)} calls/s   googleapis ${googleRate.toFixed(0).padStart(6)} calls/s   ${(deskRate / googleRate).toFixed(2)}×   CPU per call ${deskCpu.toFixed(0)} µs vs ${googleCpu.toFixed(0)} µs (${(googleCpu / deskCpu).toFixed(2)}×)`);
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

    console.log(`TasksClient vs @googleapis/tasks: ${CALLS} calls each, median of ${ROUNDS} alternating rounds, same emulator (HTTP on loopback)`);
    console.log(machineLoad());
    for (const concurrency of CONCURRENCY) {
      await compare(`tasks.get  (x${concurrency})`, CALLS, concurrency, () => ours.getTask(list.id, target), () => official.tasks.get({ tasklist: list.id, task: target }));
      await compare(`tasks.list (100, x${concurrency})`, CALLS / 4, concurrency, () => ours.listTasks(list.id, { maxResults: 100 }), () => official.tasks.list({ tasklist: list.id, maxResults: 100 }));
    }
  } finally {
    await emulator.close();
  }
}

runWhenMain(module, run);
