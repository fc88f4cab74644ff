import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { GoogleApiError, isUnreachable, ServiceUnreachableError } from '../src/api/errors';
import { HttpClient, probeService, RetryPolicy } from '../src/api/http';
import { BooksClient } from '../src/api/books';
import { CalendarClient } from '../src/api/calendar';
import { DriveClient } from '../src/api/drive';
import { TasksClient } from '../src/api/tasks';
import type { DeskContext } from '../src/core/deskContext';
import { Connectivity } from '../src/core/offline/connectivity';
import { WriteQueue } from '../src/core/offline/writeQueue';
import { nodeTimers } from '../src/core/timers';
import { startEmulator } from '../src/emulator/emulator';
import { BooksOfflineWrites } from '../src/features/books/offline';
import { CalendarOfflineWrites, clientEventId, seenOf } from '../src/features/calendar/offline';
import { adaptDriveClient } from '../src/features/drive/driveAdapter';
import { DriveOfflineChanges } from '../src/features/drive/offlineChanges';
import type { DriveApi, DriveItem } from '../src/features/drive/port';
import { LOCAL_TASK_PREFIX, TasksOfflineWrites } from '../src/features/tasks/offline';
import type { CalendarEvent, CalendarListEntry } from '../src/shared/schemas/calendar';
import type { Task } from '../src/shared/schemas/tasks';
import { runWhenMain } from './support/stats';

/**
 * Offline soak (npm run bench -- offline): Desk's offline engine — the HTTP pipeline's "cannot reach the service",
 * the connectivity owner's probes, the durable write queue and the Tasks replayers, as the extension wires them —
 * against an emulator with durable data that is stopped and started at random every 1–4 s. OFFLINE_ACTIONS (default
 * 240) random Tasks actions (add, complete/reopen, notes) are made as the commands make them: sent, or kept when the
 * service cannot be reached; and, as often, the other services' queueable actions: Drive rename, new folder and new
 * file, Calendar new event and edit, Books add to and remove from a shelf. Half-way the "extension host is reloaded": a new queue, connectivity and replayers over
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
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- vscode.Memento's signature
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
  interface Host {
    connectivity: Connectivity; queue: WriteQueue; api: TasksClient; writes: TasksOfflineWrites;
    drive: DriveApi; driveChanges: DriveOfflineChanges; calendar: CalendarClient; calendarWrites: CalendarOfflineWrites; books: BooksClient; booksWrites: BooksOfflineWrites;
    dispose(): void;
  }
  function host(): Host {
    const connectivity = new Connectivity({ timers: nodeTimers, now: () => Date.now(), probe: () => probeService(url, 1000), firstProbeMs: 200, maxProbeMs: 2000 });
    const queue = new WriteQueue({ memento: storage, account: () => `emulator ${ACCOUNT}`, now: () => Date.now(), isOffline: isUnreachable });
    const http = new HttpClient({ rootUrl: () => url, token: async () => token, retry: RETRY, reachability: connectivity });
    const api = new TasksClient(http);
    const drive = adaptDriveClient(new DriveClient(http));
    const calendar = new CalendarClient(http);
    const books = new BooksClient(http);
    const desk = { vs: quietVscode, offlineQueue: queue, log: { info: () => undefined }, showError: async () => undefined } as unknown as DeskContext;
    // As the tree does: a task added offline is known by the service's id once its add is replayed.
    const replaceLocalTask = (_listId: string, localId: string, task: Task): void => {
      const index = known.findIndex((candidate) => candidate.id === localId);
      if (index !== -1) known[index] = task;
    };
    const writes = new TasksOfflineWrites({ desk, api, tree: { applyLocalTask: () => undefined, addLocalTask: () => undefined, replaceLocalTask, removeLocalTask: () => undefined, moveLocalTask: () => undefined } });
    const driveChanges = new DriveOfflineChanges({ desk, api: () => drive, show: async () => undefined });
    const calendarWrites = new CalendarOfflineWrites({ desk, api: () => calendar, store: { apply: () => undefined }, onInserted: () => undefined });
    const booksWrites = new BooksOfflineWrites({ desk, api: () => books });
    const replayers = [...writes.register(), ...driveChanges.register(), ...calendarWrites.register(), ...booksWrites.register()];
    const online = connectivity.onDidChange((event) => void (event.online ? queue.replay() : undefined));
    return { connectivity, queue, api, writes, drive, driveChanges, calendar, calendarWrites, books, booksWrites, dispose: () => { connectivity.dispose(); online.dispose(); for (const replayer of replayers) replayer.dispose(); queue.dispose(); } };
  }

  /** The tasks as the view shows them: each action starts from the version its row holds, as the commands do. */
  const known: Task[] = [];
  let current = host();
  const list = await current.api.insertTaskList('Offline soak');
  // What the other services' actions start from, made while the service is up: files to rename, events to edit,
  // volumes to put on and take off a shelf.
  const rootId = (await current.drive.about()).rootFolderId ?? 'root';
  const driveFiles: DriveItem[] = [];
  for (let i = 0; i < 3; i++) driveFiles.push(await current.drive.insertEmptyFile(`soak file ${i}.md`, rootId));
  const calendarEntry = { id: ACCOUNT, summary: ACCOUNT } as CalendarListEntry;
  const events: CalendarEvent[] = [];
  for (let i = 0; i < 3; i++) events.push(await current.calendar.insertEvent(ACCOUNT, { summary: `soak event ${i}`, start: { dateTime: new Date(Date.now() + (i + 1) * 86_400_000).toISOString() }, end: { dateTime: new Date(Date.now() + (i + 1) * 86_400_000 + 1_800_000).toISOString() } }));
  const volumeIds = ((await current.books.searchVolumes('novel', { maxResults: 6 })).items ?? []).map((volume) => volume.id);
  const FAVORITES = 0;

  // Chaos: the emulator stops and starts at random every 1–4 s until the actions are done.
  // The run ends the chaos and the chaos loop changes `up` while the other awaits (`as boolean`: TypeScript does not see that).
  let chaos = true as boolean;
  let up = true as boolean;
  let lastStart = Date.now();
  let outages = 0;
  const chaosLoop = (async () => {
    while (chaos) {
      await sleep(1000 + Math.random() * 3000);
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the run ends the chaos while this sleeps
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
  /** What the user meant of the other services: each made once, renamed/edited to the last value, on the shelf or not. */
  const wantedDrive = { made: new Set<string>(), titles: new Map<string, string>() };
  const wantedEvents = { made: new Set<string>(), summaries: new Map<string, string>() };
  const wantedShelf = new Map<string, boolean>();
  /** One Drive, Calendar or Books action, as its command makes it (sent, or kept); answers whether it was kept. */
  async function otherServiceAction(now: Host, action: number): Promise<boolean> {
    const pick = Math.random();
    if (pick < 0.15 || (pick < 0.5 && pick >= 0.35)) {
      if (pick < 0.1) {
        const index = action % driveFiles.length;
        const item = driveFiles[index];
        const title = `renamed ${action}.md`;
        wantedDrive.titles.set(item.id, title);
        const result = await now.writes.orKeep<DriveItem>(() => now.drive.patchFile(item.id, { title }), async () => {
          await now.driveChanges.rename(item, title);
          return { ...item, title };
        });
        driveFiles[index] = result.value;
        return result.kept;
      }
      const title = `soak ${pick < 0.15 ? 'folder' : 'new file'} ${action}`;
      wantedDrive.made.add(title);
      const result = pick < 0.15
        ? await now.writes.orKeep(() => now.drive.insertFolder(title, rootId), (mayHaveLanded) => now.driveChanges.newFolder(title, rootId, 'My Drive', mayHaveLanded))
        : await now.writes.orKeep(() => now.drive.insertEmptyFile(title, rootId), () => now.driveChanges.newFile(title, rootId, 'My Drive'));
      return result.kept;
    }
    if (pick < 0.35) {
      if (pick < 0.25) {
        const summary = `soak new event ${action}`;
        wantedEvents.made.add(summary);
        // As Create Event does: the id chosen before the first send.
        const body = { id: clientEventId(), summary, start: { dateTime: new Date(Date.now() + 5 * 86_400_000).toISOString() }, end: { dateTime: new Date(Date.now() + 5 * 86_400_000 + 1_800_000).toISOString() } };
        return (await now.writes.orKeep(() => now.calendar.insertEvent(ACCOUNT, body), () => now.calendarWrites.insertEvent(calendarEntry, body))).kept;
      }
      const index = action % events.length;
      const base = events[index];
      const summary = `soak edited ${action}`;
      wantedEvents.summaries.set(base.id, summary);
      // As Edit Event does: with the etag of the version shown; a 412 over the same content (an earlier change of this
      // user's, replayed) is no one else's change, and the edit goes without it.
      const patch = (ifMatch: string | undefined): Promise<CalendarEvent> => now.calendar.patchEvent(ACCOUNT, base.id, { summary }, ifMatch ? { ifMatch } : {});
      const send = async (): Promise<CalendarEvent> => {
        try {
          return await patch(base.etag);
        } catch (error) {
          if (!(error instanceof GoogleApiError && error.isConflict) || seenOf(await now.calendar.getEvent(ACCOUNT, base.id)) !== seenOf(base)) throw error;
          return patch(undefined);
        }
      };
      const result = await now.writes.orKeep(send, () => now.calendarWrites.patchEvent(ACCOUNT, base, { summary }, base.summary ?? ''));
      events[index] = result.value;
      return result.kept;
    }
    const volumeId = volumeIds.at(action % Math.max(volumeIds.length, 1));
    if (volumeId === undefined) return false;
    const add = !(wantedShelf.get(volumeId) ?? false);
    wantedShelf.set(volumeId, add);
    const result = await now.writes.orKeep(
      () => (add ? now.books.addVolume(FAVORITES, volumeId) : now.books.removeVolume(FAVORITES, volumeId)),
      () => now.booksWrites.keep(add ? 'add' : 'remove', FAVORITES, volumeId, `${add ? 'Add' : 'Remove'} ${volumeId}`),
    );
    return result.kept;
  }
  for (let action = 0; action < ACTIONS; action++) {
    if (action === Math.floor(ACTIONS / 2)) {
      // The extension host is reloaded: nothing of the old one survives but the storage.
      current.dispose();
      current = host();
    }
    const { api, writes } = current;
    const service = Math.random();
    if (service < 0.5) {
      counts[(await otherServiceAction(current, action)) ? 'kept' : 'sentAtOnce']++;
      counts.done++;
      if (current.connectivity.online && current.queue.size > 0) void current.queue.replay();
      await sleep(50 + Math.random() * 100);
      continue;
    }
    const choice = known.length < 3 ? 0 : Math.random();
    if (choice < 0.4) {
      const title = `soak ${action}`;
      titles.add(title);
      const result = await writes.orKeep(() => api.insertTask(list.id, { title }), (mayHaveLanded) => writes.insert(list.id, 'Offline soak', title, {}, mayHaveLanded));
      known.push(result.value);
      counts[result.kept ? 'kept' : 'sentAtOnce']++;
    } else {
      const index = Math.floor(Math.random() * known.length);
      const task = known[index];
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
    const task = known[extra % known.length];
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
  let duplicated = [...byTitle.values()].filter((tasks) => tasks.length > 1).length;
  let lost = [...titles].filter((title) => !byTitle.has(title)).length;
  for (const [title, completed] of wantedStatus) if (byTitle.get(title)?.[0] && (byTitle.get(title)?.[0]?.status === 'completed') !== completed) lost++;
  for (const [title, notes] of wantedNotes) if (byTitle.get(title)?.[0] && byTitle.get(title)?.[0]?.notes !== notes) lost++;
  for (const title of deletedTitles) if (byTitle.has(title)) lost++;
  // The other services: made once, at their last name or summary, on the shelf as last wanted.
  const driveTitles: string[] = [];
  for (let pageToken: string | undefined, first = true; first || pageToken; first = false) {
    const page = await current.drive.listFiles({ q: `'${rootId}' in parents and trashed = false`, maxResults: 1000, pageToken });
    driveTitles.push(...page.items.map((item) => item.title ?? ''));
    pageToken = page.nextPageToken ?? undefined;
  }
  const made = (title: string, titles: readonly string[]): number => titles.filter((candidate) => candidate === title).length;
  for (const title of wantedDrive.made) {
    const count = made(title, driveTitles);
    if (count === 0) lost++;
    if (count > 1) duplicated++;
  }
  for (const [fileId, title] of wantedDrive.titles) if ((await current.drive.getFile(fileId)).title !== title) lost++;
  const eventSummaries = ((await current.calendar.listEvents(ACCOUNT, { maxResults: 2500 })).items).filter((event) => event.status !== 'cancelled').map((event) => event.summary ?? '');
  for (const summary of wantedEvents.made) {
    const count = made(summary, eventSummaries);
    if (count === 0) lost++;
    if (count > 1) duplicated++;
  }
  for (const [eventId, summary] of wantedEvents.summaries) if ((await current.calendar.getEvent(ACCOUNT, eventId)).summary !== summary) lost++;
  const onShelf = new Set(((await current.books.listMyShelfVolumes(FAVORITES, { maxResults: 40 })).items ?? []).map((volume) => volume.id));
  for (const [volumeId, wanted] of wantedShelf) if (onShelf.has(volumeId) !== wanted) lost++;
  const waiting = current.queue.size;
  current.dispose();
  await emulator.close();
  fs.rmSync(dataDir, { recursive: true, force: true });

  console.log(`actions done:        ${counts.done} (${counts.sentAtOnce} sent at once, ${counts.kept} kept offline), ${outages} outages, one reload`);
  console.log(`applied:             ${counts.done - lost - waiting} (Tasks: ${titles.size + deletedTitles.size} added, ${deletedTitles.size} of them deleted, ${wantedStatus.size} completed or reopened, ${wantedNotes.size} notes; Drive: ${wantedDrive.made.size} folders and files made, ${wantedDrive.titles.size} renamed; Calendar: ${wantedEvents.made.size} events made, ${wantedEvents.summaries.size} edited; Books: ${wantedShelf.size} volumes added or removed)`);
  console.log(`lost:                ${lost} (goal 0)${waiting > 0 ? `; ${waiting} still waiting` : ''}`);
  console.log(`duplicated:          ${duplicated} (goal 0)`);
  console.log(`caught up after the last reconnect in ${(catchUpMs / 1000).toFixed(1)} s`);
}

runWhenMain(module, run);
