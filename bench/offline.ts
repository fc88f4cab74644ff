import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { isUnreachable, ServiceUnreachableError } from '../src/api/errors';
import { HttpClient, probeService, RetryPolicy } from '../src/api/http';
import { TasksClient } from '../src/api/tasks';
import type { DeskContext } from '../src/core/deskContext';
import { Connectivity } from '../src/core/offline/connectivity';
import { WriteQueue } from '../src/core/offline/writeQueue';
import { nodeTimers } from '../src/core/timers';
import { startEmulator } from '../src/emulator/emulator';
import { LOCAL_TASK_PREFIX, TasksOfflineWrites } from '../src/features/tasks/offline';
import type { Task } from '../src/shared/schemas/tasks';
import { runWhenMain } from './support/stats';

/**
 * Offline soak (npm run bench -- offline): Desk's offline engine — the HTTP pipeline's "cannot reach the service",
 * the connectivity owner's probes, the durable write queue and the Tasks replayers, as the extension wires them —
 * against an emulator with durable data that is stopped and started at random every 1–4 s. OFFLINE_ACTIONS (default
 * 240) random Tasks actions (add, complete/reopen, notes) are made as the commands make them: sent, or kept when the
 * service cannot be reached. Half-way the "extension host is reloaded": a new queue, connectivity and replayers over
 * the same storage. At the end the emulator stays up and the run waits for the queue to empty with no help.
 * Prints actions done, applied, lost (goal 0), duplicated (goal 0) and the time to catch up after the last reconnect.
 * No VS Code here: the extension-host test (test/vscode/offline.test.ts) runs the walkthrough in a real one.
 */

const ACTIONS = Number(process.env.OFFLINE_ACTIONS ?? 240);
const RETRY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 50, maxRetryAfterMs: 5 };
const ACCOUNT = 'alice@example.com';

/** The memento of the extension's global state, kept across the simulated reload. */
class Storage {
  private readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, JSON.parse(JSON.stringify(value)) as unknown);
  }
}

/** Just what the Tasks replayers touch of vscode: words, and no dialog (a conflict here would be a bug). */
const quietVscode = {
  l10n: { t: (message: string, ...args: unknown[]) => message.replace(/\{(\d+)\}/g, (_match, index: string) => String(args[Number(index)])) },
  window: { showWarningMessage: async () => undefined, showTextDocument: async () => undefined },
  workspace: { openTextDocument: async () => ({ uri: '' }) },
  commands: { executeCommand: async () => undefined },
} as unknown as typeof vscode;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function run(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-offline-bench-'));
  let emulator = await startEmulator({ port: 0, dataDir, seed: 'none', host: '127.0.0.1' });
  const url = emulator.url;
  const port = Number(new URL(url).port);
  const token = emulator.tokenFor(ACCOUNT).accessToken;
  const storage = new Storage();

  /** One "extension host": connectivity, queue, client and replayers over the shared storage. */
  function host(): { connectivity: Connectivity; queue: WriteQueue; api: TasksClient; writes: TasksOfflineWrites; dispose(): void } {
    const connectivity = new Connectivity({ timers: nodeTimers, now: () => Date.now(), probe: () => probeService(url, 1000), firstProbeMs: 200, maxProbeMs: 2000 });
    const queue = new WriteQueue({ memento: storage, account: () => `emulator ${ACCOUNT}`, now: () => Date.now(), isOffline: isUnreachable });
    const api = new TasksClient(new HttpClient({ rootUrl: () => url, token: async () => token, retry: RETRY, reachability: connectivity }));
    const desk = { vs: quietVscode, offlineQueue: queue, log: { info: () => undefined }, showError: async () => undefined } as unknown as DeskContext;
    // As the tree does: a task added offline is known by the service's id once its add is replayed.
    const replaceLocalTask = (_listId: string, localId: string, task: Task): void => {
      const index = known.findIndex((candidate) => candidate.id === localId);
      if (index !== -1) known[index] = task;
    };
    const writes = new TasksOfflineWrites({ desk, api, tree: { applyLocalTask: () => undefined, addLocalTask: () => undefined, replaceLocalTask, removeLocalTask: () => undefined, moveLocalTask: () => undefined } });
    const replayers = writes.register();
    const online = connectivity.onDidChange((event) => void (event.online ? queue.replay() : undefined));
    return { connectivity, queue, api, writes, dispose: () => { connectivity.dispose(); online.dispose(); for (const replayer of replayers) replayer.dispose(); queue.dispose(); } };
  }

  /** The tasks as the view shows them: each action starts from the version its row holds, as the commands do. */
  const known: Task[] = [];
  let current = host();
  const list = await current.api.insertTaskList('Offline soak');

  // Chaos: the emulator stops and starts at random every 1–4 s until the actions are done.
  let chaos = true;
  let up = true;
  let lastStart = Date.now();
  let outages = 0;
  const chaosLoop = (async () => {
    while (chaos) {
      await sleep(1000 + Math.random() * 3000);
      if (!chaos) break;
      if (up) {
        await emulator.close();
        up = false;
        outages++;
      } else {
        emulator = await startEmulator({ port, dataDir, seed: 'none', host: '127.0.0.1' });
        up = true;
        lastStart = Date.now();
      }
    }
  })();

  /** What the user meant, to check against the service at the end. */
  const titles = new Set<string>();
  const wantedStatus = new Map<string, boolean>();
  const wantedNotes = new Map<string, string>();
  const deletedTitles = new Set<string>();
  const counts = { done: 0, sentAtOnce: 0, kept: 0 };
  for (let action = 0; action < ACTIONS; action++) {
    if (action === Math.floor(ACTIONS / 2)) {
      // The extension host is reloaded: nothing of the old one survives but the storage.
      current.dispose();
      current = host();
    }
    const { api, writes } = current;
    const choice = known.length < 3 ? 0 : Math.random();
    if (choice < 0.4) {
      const title = `soak ${action}`;
      titles.add(title);
      const result = await writes.orKeep(() => api.insertTask(list.id, { title }), (mayHaveLanded) => writes.insert(list.id, 'Offline soak', title, {}, mayHaveLanded));
      known.push(result.value);
      counts[result.kept ? 'kept' : 'sentAtOnce']++;
    } else {
      const index = Math.floor(Math.random() * known.length);
      const task = known[index] as Task;
      const shown = (value: Task): void => {
        if (known[index]?.id === task.id) known[index] = value;
      };
      // A task added offline has Desk's own id until its add is replayed: a change to it waits behind that add.
      const local = task.id.startsWith(LOCAL_TASK_PREFIX);
      const send = <T>(write: () => Promise<T>): (() => Promise<T>) => (local ? () => Promise.reject(new ServiceUnreachableError('bench', Object.assign(new Error('queued behind its add'), { code: 'ECONNREFUSED' }))) : write);
      if (choice > 0.9) {
        // Delete: the task leaves; what was wanted of it no longer counts, and it must not be on the service.
        const result = await writes.orKeep(send(() => api.deleteTask(list.id, task.id)), () => writes.delete(list.id, task));
        known.splice(index, 1);
        titles.delete(task.title);
        wantedStatus.delete(task.title);
        wantedNotes.delete(task.title);
        deletedTitles.add(task.title);
        counts[result.kept ? 'kept' : 'sentAtOnce']++;
      } else if (choice < 0.75) {
        const completed = !(wantedStatus.get(task.title) ?? false);
        wantedStatus.set(task.title, completed);
        const result = await writes.orKeep(send(() => api.patchTask(list.id, task.id, completed ? { status: 'completed' } : { status: 'needsAction', completed: null })), () => writes.setStatus(list.id, task, completed));
        shown(result.value);
        counts[result.kept ? 'kept' : 'sentAtOnce']++;
      } else {
        const notes = `notes ${action}`;
        wantedNotes.set(task.title, notes);
        const result = await writes.orKeep(send(() => api.patchTask(list.id, task.id, { notes })), () => writes.saveNotes(list.id, task, notes));
        shown(result.value);
        counts[result.kept ? 'kept' : 'sentAtOnce']++;
      }
    }
    counts.done++;
    if (current.connectivity.online && current.queue.size > 0) void current.queue.replay();
    await sleep(50 + Math.random() * 100);
  }
  chaos = false;
  await chaosLoop;
  // The run ends offline with changes waiting, then the service comes back: the catch-up is timed from there.
  if (up) await emulator.close();
  for (let extra = 0; current.queue.size === 0 && extra < 5; extra++) {
    const task = known[extra % known.length] as Task;
    const notes = `notes at the end ${extra}`;
    wantedNotes.set(task.title, notes);
    counts.kept++;
    known[extra % known.length] = (await current.writes.orKeep(() => current.api.patchTask(list.id, task.id, { notes }), () => current.writes.saveNotes(list.id, task, notes))).value;
    counts.done++;
  }
  emulator = await startEmulator({ port, dataDir, seed: 'none', host: '127.0.0.1' });
  lastStart = Date.now();
  // Caught up with no help: the probes notice the service and the queue replays.
  const deadline = Date.now() + 120_000;
  while ((current.queue.size > 0 || !current.connectivity.online) && Date.now() < deadline) {
    if (current.connectivity.online && current.queue.size > 0) void current.queue.replay();
    await sleep(50);
  }
  await current.queue.settled();
  const catchUpMs = Date.now() - lastStart;

  const onService: Task[] = [];
  for await (const task of current.api.allTasks(list.id, { showCompleted: true, showHidden: true })) onService.push(task);
  const byTitle = new Map<string, Task[]>();
  for (const task of onService) byTitle.set(task.title, [...(byTitle.get(task.title) ?? []), task]);
  const duplicated = [...byTitle.values()].filter((tasks) => tasks.length > 1).length;
  let lost = [...titles].filter((title) => !byTitle.has(title)).length;
  for (const [title, completed] of wantedStatus) if (byTitle.get(title)?.[0] && (byTitle.get(title)?.[0]?.status === 'completed') !== completed) lost++;
  for (const [title, notes] of wantedNotes) if (byTitle.get(title)?.[0] && byTitle.get(title)?.[0]?.notes !== notes) lost++;
  for (const title of deletedTitles) if (byTitle.has(title)) lost++;
  const waiting = current.queue.size;
  current.dispose();
  await emulator.close();
  fs.rmSync(dataDir, { recursive: true, force: true });

  console.log(`actions done:        ${counts.done} (${counts.sentAtOnce} sent at once, ${counts.kept} kept offline), ${outages} outages, one reload`);
  console.log(`applied:             ${counts.done - lost - waiting} (${titles.size + deletedTitles.size} tasks added, ${deletedTitles.size} of them deleted, ${wantedStatus.size} tasks completed or reopened, ${wantedNotes.size} notes)`);
  console.log(`lost:                ${lost} (goal 0)${waiting > 0 ? `; ${waiting} still waiting` : ''}`);
  console.log(`duplicated:          ${duplicated} (goal 0)`);
  console.log(`caught up after the last reconnect in ${(catchUpMs / 1000).toFixed(1)} s`);
}

runWhenMain(module, run);
