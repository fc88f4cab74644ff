import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import type * as vscode from 'vscode';
import type { DeskContext } from '../src/core/deskContext';
import { EmulatorUser, findUser } from '../src/emulator/identity/users';
import { calendarModule, calendarServiceFor } from '../src/emulator/calendar';
import { driveModule } from '../src/emulator/drive';
import { ChangeFeed } from '../src/emulator/drive/changes/model';
import { driveServiceFor } from '../src/emulator/drive/service';
import { RunningEmulator, startEmulator } from '../src/emulator/emulator';
import { MemoryStore } from '../src/emulator/store/store';
import { tasksModelFor, tasksModule } from '../src/emulator/tasks';
import { TodoWorkspace } from '../src/features/tasks/todo/todoView';
import { FOLDER_MIME_TYPE } from '../src/shared/schemas/drive';
import { CalendarClient } from '../src/api/calendar';
import { HttpClient } from '../src/api/http';
import { EventStore } from '../src/features/calendar/sync/eventStore';
import { groupByDay, occurrenceOf } from '../src/features/calendar/tree/model';
import { AGENDA_SNAPSHOT, type AgendaSnapshot } from '../src/features/calendar/tree/snapshot';
import { CalendarTreeProvider } from '../src/features/calendar/tree/treeProvider';
import { ViewCache } from '../src/core/storage/viewCache';
import { machineLoad, ms, percentiles, runWhenMain } from './support/stats';

/**
 * Cost against the size of the account (issue 34), printed as one table, never asserted: for 1,000 / 10,000 /
 * 100,000 items, the emulator over HTTP on loopback (memory store) and the TODOs view's batch update.
 *  - Drive: one folder of N files: a page (p50 of the 2nd page of 100), every page (1,000 a page), changes.list after
 *    one change (the feed holds N changes).
 *  - Tasks: one list of N tasks: a page (2nd page of 100), every page (100 a page).
 *  - Calendar: N events, 1% of them weekly series without end: a page of stored events (2nd of 250), a page of
 *    expanded instances over one year (2nd of 250, singleEvents + orderBy=startTime), every page of stored events
 *    (2,500 a page), and a sync with the token after one change.
 *  - Agenda: Desk's client, event store and tree model on that calendar, 7 days shown: first rows cold (no view
 *    cache: the first days read alone) and warm (a new model over the view cache the cold start left, as after a
 *    reload), the whole window, a sync after one change, the rows again from the store, and the heap it all keeps.
 *  - TODOs: a workspace of N files (every fifth holds a TODO), a branch switch that rewrites min(N, 10,000) files
 *    (1% of them new) applied in one batch by the view's model (VS Code faked, Debian's or VS Code's rg).
 *  - Memory: heap growth of seeding each service at that size (after a full GC).
 *  - Last: 1,000,000 changes recorded in one Drive change feed (500,000 files changed twice), then listed.
 * Options: --sizes 1000,10000 (default 1000,10000,100000); --skip todo,changes to leave parts out.
 */

const DEFAULT_SIZES = [1000, 10_000, 100_000];
const SAMPLES = 15;
const TASKS_PER_LIST = 20_000;
const DAY_MS = 86_400_000;
const BASE = Date.parse('2026-01-05T00:00:00Z');

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

/** A full GC where node allows one (the flag set at run time, the function taken from a fresh context). */
const collect: () => void = (() => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as unknown;
  return typeof gc === 'function' ? () => { (gc as () => void)(); } : () => undefined;
})();

function heapMb(): number {
  collect();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

async function p50(samples: number, action: () => Promise<void>): Promise<number> {
  const values: number[] = [];
  for (let index = 0; index < samples; index++) {
    const started = performance.now();
    await action();
    values.push(performance.now() - started);
  }
  return percentiles(values).p50;
}

async function once(action: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

type Json = Record<string, unknown>;

function client(emulator: RunningEmulator, user: EmulatorUser): (url: string, init?: { method: string; body: unknown }) => Promise<Json> {
  const token = emulator.tokenFor(user.email).accessToken;
  return async (url, init) => {
    const response = await fetch(`${emulator.url}${url}`, {
      method: init?.method ?? 'GET',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      ...(init ? { body: JSON.stringify(init.body) } : {}),
    });
    if (!response.ok) throw new Error(`${url} → ${response.status} ${(await response.text()).slice(0, 300)}`);
    return (await response.json()) as Json;
  };
}

/** The next page token of a listing, whichever name the API gives it. */
const nextOf = (page: Json): string | undefined => (typeof page.nextPageToken === 'string' ? page.nextPageToken : undefined);

type Get = ReturnType<typeof client>;

/** p50 of reading the second page of `listing` (a URL with a query), as a user paging on would. */
async function secondPageP50(get: Get, listing: string): Promise<number> {
  const second = nextOf(await get(listing)) ?? '';
  return p50(SAMPLES, async () => {
    await get(`${listing}&pageToken=${encodeURIComponent(second)}`);
  });
}

/** Reads every page of `listing` in order (`onPage` sees each); answers how many items they held. */
async function countAllPages(get: Get, listing: string, onPage: (page: Json) => void = () => undefined): Promise<number> {
  let seen = 0;
  let token: string | undefined;
  do {
    const page = await get(`${listing}${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`);
    seen += ((page.items as unknown[] | undefined) ?? []).length;
    onPage(page);
    token = nextOf(page);
  } while (token);
  return seen;
}

interface Row {
  readonly part: string;
  readonly figures: Map<number, string>;
}

class Table {
  private readonly rows: Row[] = [];
  set(part: string, size: number, value: string): void {
    let row = this.rows.find((candidate) => candidate.part === part);
    if (!row) {
      row = { part, figures: new Map() };
      this.rows.push(row);
    }
    row.figures.set(size, value);
  }
  print(sizes: readonly number[]): void {
    const width = Math.max(...this.rows.map((row) => row.part.length), 4);
    console.log(`\n| ${'what'.padEnd(width)} | ${sizes.map((size) => size.toLocaleString('en-US').padStart(12)).join(' | ')} |`);
    console.log(`|${'-'.repeat(width + 2)}|${sizes.map(() => `${'-'.repeat(13)}:`).join('|')}|`);
    for (const row of this.rows) console.log(`| ${row.part.padEnd(width)} | ${sizes.map((size) => (row.figures.get(size) ?? '–').padStart(12)).join(' | ')} |`);
  }
}

async function driveRows(size: number, table: Table): Promise<void> {
  const emulator = await startEmulator({ port: 0 }, [driveModule]);
  try {
    const alice = findUser('alice@example.com') as EmulatorUser;
    const { model } = driveServiceFor(emulator.deps);
    const get = client(emulator, alice);
    const before = heapMb();
    const folder = model.insert(alice, { title: 'Big folder', mimeType: FOLDER_MIME_TYPE });
    const files: string[] = [];
    for (let index = 0; index < size; index++) files.push(model.insert(alice, { title: `file-${index}.txt`, parents: [{ id: folder.id }] }).id);
    table.set('memory: Drive folder + changes (MB)', size, (heapMb() - before).toFixed(0));
    const q = encodeURIComponent(`'${folder.id}' in parents and trashed = false`);
    table.set('Drive folder: a page of 100 (p50)', size, ms(await secondPageP50(get, `/drive/v2/files?q=${q}&maxResults=100`)));
    let seen = 0;
    table.set('Drive folder: all pages (1,000 a page)', size, ms(await once(async () => {
      seen = await countAllPages(get, `/drive/v2/files?q=${q}&maxResults=1000`);
    }), 0));
    if (seen !== size) throw new Error(`Drive listed ${seen} of ${size} files`);
    let step = 0;
    table.set('Drive changes: list after one change (p50)', size, ms(await p50(SAMPLES, async () => {
      const start = (await get('/drive/v2/changes/startPageToken')).startPageToken as string;
      model.update(alice, files[step++ % files.length], { title: `renamed-${step}` }, {});
      const page = await get(`/drive/v2/changes?pageToken=${start}&maxResults=100`);
      if ((page.items as unknown[]).length !== 1) throw new Error(`expected 1 change, got ${(page.items as unknown[]).length}`);
    })));
  } finally {
    await emulator.close();
  }
}

async function taskRows(size: number, table: Table): Promise<void> {
  const emulator = await startEmulator({ port: 0 }, [tasksModule]);
  try {
    const alice = findUser('alice@example.com') as EmulatorUser;
    const model = tasksModelFor(emulator.deps);
    const get = client(emulator, alice);
    const before = heapMb();
    // A list holds at most 20,000 visible tasks (as on Google): larger accounts fill several lists; the first is measured.
    const lists: string[] = [];
    for (let filled = 0; filled < size; filled += TASKS_PER_LIST) {
      const id = model.insertTaskList(alice.id, { title: `Big list ${lists.length + 1}` }).id;
      lists.push(id);
      let previous: string | undefined;
      for (let index = filled; index < Math.min(size, filled + TASKS_PER_LIST); index++) previous = model.insertTask(alice.id, id, { title: `Task ${index}` }, previous ? { previous } : {}).id;
    }
    const list = { id: lists[0] };
    table.set('memory: Tasks (MB)', size, (heapMb() - before).toFixed(0));
    table.set('Tasks: a page of 100 in a list of min(N, 20,000) (p50)', size, ms(await secondPageP50(get, `/tasks/v1/lists/${list.id}/tasks?maxResults=100`)));
    let seen = 0;
    table.set('Tasks: all pages, every list (100 a page)', size, ms(await once(async () => {
      for (const id of lists) seen += await countAllPages(get, `/tasks/v1/lists/${id}/tasks?maxResults=100`);
    }), 0));
    if (seen !== size) throw new Error(`Tasks listed ${seen} of ${size} tasks`);
  } finally {
    await emulator.close();
  }
}

async function calendarRows(size: number, table: Table): Promise<void> {
  const emulator = await startEmulator({ port: 0 }, [calendarModule]);
  try {
    const alice = findUser('alice@example.com') as EmulatorUser;
    const service = calendarServiceFor(emulator.deps);
    const get = client(emulator, alice);
    const before = heapMb();
    const big = service.calendars.insert(alice, { summary: 'Big', timeZone: 'Europe/Berlin' });
    const series = Math.max(1, Math.floor(size / 100));
    const seedStarted = performance.now();
    for (let index = 0; index < size - series; index++) {
      // Spread over about two years, a few a day.
      const start = BASE + Math.floor((index * 730 * DAY_MS) / size / 60_000) * 60_000;
      service.events.insert(alice, big.id, { summary: `Event ${index}`, start: { dateTime: new Date(start).toISOString() }, end: { dateTime: new Date(start + 45 * 60_000).toISOString() } }, { conferenceDataVersion: 0 });
    }
    for (let index = 0; index < series; index++) {
      const start = BASE + (index % 7) * DAY_MS + (8 + (index % 10)) * 3_600_000;
      service.events.insert(alice, big.id, {
        summary: `Weekly ${index}`,
        start: { dateTime: new Date(start).toISOString(), timeZone: 'Europe/Berlin' },
        end: { dateTime: new Date(start + 30 * 60_000).toISOString(), timeZone: 'Europe/Berlin' },
        recurrence: ['RRULE:FREQ=WEEKLY'],
      }, { conferenceDataVersion: 0 });
    }
    table.set('Calendar: seeding (events.insert, all)', size, ms(performance.now() - seedStarted, 0));
    table.set('memory: Calendar (MB)', size, (heapMb() - before).toFixed(0));
    const base = `/calendar/v3/calendars/${encodeURIComponent(big.id)}/events`;
    table.set('Calendar: a page of 250 stored (p50)', size, ms(await secondPageP50(get, `${base}?maxResults=250`)));
    const window = `timeMin=${encodeURIComponent(new Date(BASE + 30 * DAY_MS).toISOString())}&timeMax=${encodeURIComponent(new Date(BASE + 395 * DAY_MS).toISOString())}`;
    table.set('Calendar: a page of 250 instances, 1 year (p50)', size, ms(await secondPageP50(get, `${base}?singleEvents=true&orderBy=startTime&${window}&maxResults=250`)));
    let syncToken = '';
    let seen = 0;
    table.set('Calendar: all pages stored (2,500 a page)', size, ms(await once(async () => {
      seen = await countAllPages(get, `${base}?maxResults=2500`, (page) => {
        if (typeof page.nextSyncToken === 'string') syncToken = page.nextSyncToken;
      });
    }), 0));
    if (seen !== size) throw new Error(`Calendar listed ${seen} of ${size} events`);
    let step = 0;
    table.set('Calendar: sync after one change (p50)', size, ms(await p50(SAMPLES, async () => {
      const start = BASE + 800 * DAY_MS + step++ * 3_600_000;
      await get(base, { method: 'POST', body: { summary: `Change ${step}`, start: { dateTime: new Date(start).toISOString() }, end: { dateTime: new Date(start + 1_800_000).toISOString() } } });
      const page = await get(`${base}?syncToken=${encodeURIComponent(syncToken)}`);
      if (((page.items as unknown[] | undefined) ?? []).length !== 1) throw new Error(`sync: expected 1 change, got ${((page.items as unknown[] | undefined) ?? []).length}`);
      syncToken = page.nextSyncToken as string;
    })));
    await agendaRows(emulator, big.id, size, table);
  } finally {
    await emulator.close();
  }
}

/** Just enough of VS Code for the Calendar tree's rows without a window (no TreeItems are drawn). */
function fakeTreeVs(): typeof vscode {
  class EventEmitter {
    readonly event = (): { dispose(): void } => ({ dispose: () => undefined });
    fire(): void {}
    dispose(): void {}
  }
  return { EventEmitter, l10n: { t: (message: string) => message } } as unknown as typeof vscode;
}

/**
 * The Agenda over HTTP with Desk's own client, event store and tree model, a year into the calendar, 7 days shown:
 * cold (no view cache: the calendars, then the events, then the rows), warm (a new model, as after a window reload,
 * with the view cache the cold start left: the rows come from it while the events load behind), one sync after a
 * change, the rows again from the store (each redraw) and the heap the store keeps.
 */
async function agendaRows(emulator: RunningEmulator, calendarId: string, size: number, table: Table): Promise<void> {
  const token = emulator.tokenFor('alice@example.com').accessToken;
  const api = new CalendarClient(new HttpClient({ rootUrl: () => emulator.url, token: async () => token }));
  const now = BASE + 365 * DAY_MS;
  const zone = 'Europe/Berlin';
  const days = 7;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-bench-scale-cache-'));
  const vs = fakeTreeVs();
  /** One start of the Agenda's model: a new store and tree over the same view cache directory. */
  const start = (): { store: EventStore; tree: CalendarTreeProvider; written: () => Promise<void> } => {
    const slot = new ViewCache({ directory, accounts: async () => ['alice@example.com'] }).slot(AGENDA_SNAPSHOT);
    let lastWrite: Promise<void> = Promise.resolve();
    const cache = { ...slot, write: (value: AgendaSnapshot) => (lastWrite = slot.write(value)) };
    const store = new EventStore({ api: () => api, onChange: () => undefined, now: () => now, timeZone: () => zone, horizonDays: () => days + 1, firstDays: () => days });
    const tree = new CalendarTreeProvider(vs, {
      api: () => api,
      store,
      timeZone: async () => zone,
      daysAhead: () => days,
      showHidden: () => false,
      isSignedIn: async () => true,
      withProgress: (work) => work(),
      log: () => undefined,
      now: () => now,
      cache,
    });
    return { store, tree, written: () => lastWrite };
  };
  /** The root rows, then the Agenda's: what VS Code asks for when the view opens. */
  const firstRows = async (tree: CalendarTreeProvider): Promise<number> => {
    await tree.getChildren();
    const rows = await tree.getChildren(tree.agenda);
    return rows.filter((row) => row.kind === 'day').length;
  };
  try {
    const before = heapMb();
    const cold = start();
    let dayRows = 0;
    table.set('Agenda: first rows, cold (first days read, grouped)', size, ms(await once(async () => {
      dayRows = await firstRows(cold.tree);
    }), 0));
    if (dayRows === 0) throw new Error('the Agenda showed no rows');
    table.set('Agenda: whole window in, cold (2 x 31 days)', size, ms(await once(() => cold.store.fullLoad(calendarId).then(() => undefined)), 0));
    table.set('memory: Agenda store + rows (MB)', size, (heapMb() - before).toFixed(0));
    await cold.written();
    const warm = start();
    let warmRows = 0;
    table.set('Agenda: first rows, warm (view cache, new model)', size, ms(await once(async () => {
      warmRows = await firstRows(warm.tree);
    })));
    if (warmRows === 0) throw new Error('the warm Agenda showed no rows');
    await warm.store.ensureLoaded(calendarId);
    await warm.store.fullLoad(calendarId);
    await api.insertEvent(calendarId, { summary: 'One more', start: { dateTime: new Date(now + 3_600_000).toISOString() }, end: { dateTime: new Date(now + 7_200_000).toISOString() } });
    table.set('Agenda: sync after one change', size, ms(await once(() => cold.store.sync(calendarId))));
    const rowsOf = (store: EventStore): number => groupByDay(store.events(calendarId).flatMap((event) => occurrenceOf(calendarId, event, zone) ?? []), { now, timeZone: zone, days }).reduce((sum, day) => sum + day.occurrences.length, 0);
    table.set('Agenda: rows again from the store (p50)', size, ms(await p50(SAMPLES, async () => {
      rowsOf(cold.store);
    })));
    cold.tree.dispose();
    warm.tree.dispose();
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

/** The ripgrep VS Code bundles (the test build's) or Debian's, under a fake app root where the view looks for it. */
function ripgrepAppRoot(): string {
  const repoRoot = path.resolve(__dirname, '..', '..');
  const bundled = path.join(repoRoot, '.vscode-test', 'code-server', 'node_modules', 'code-server', 'lib', 'vscode');
  if (fs.existsSync(path.join(bundled, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg'))) return bundled;
  const system = ['/usr/bin/rg', '/usr/local/bin/rg'].find((file) => fs.existsSync(file));
  if (!system) throw new Error('no ripgrep: install Debian\'s ripgrep or the test VS Code');
  const appRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-bench-rg-'));
  fs.mkdirSync(path.join(appRoot, 'node_modules', '@vscode', 'ripgrep', 'bin'), { recursive: true });
  fs.symlinkSync(system, path.join(appRoot, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg'));
  return appRoot;
}

interface FileUri {
  readonly scheme: 'file';
  readonly path: string;
  readonly fsPath: string;
  toString(): string;
}

function fileUri(absolute: string): FileUri {
  return { scheme: 'file', path: absolute, fsPath: absolute, toString: () => `file://${absolute}` };
}

/** Just enough of VS Code for the TODOs view without a window: one folder, no open documents, no settings. */
function fakeDesk(root: string, appRoot: string): DeskContext {
  const disposable = { dispose: (): void => undefined };
  const event = (): typeof disposable => disposable;
  const folder = { uri: fileUri(root), name: path.basename(root), index: 0 };
  class EventEmitter {
    readonly event = event;
    fire(): void {}
    dispose(): void {}
  }
  const vs = {
    EventEmitter,
    Uri: {
      file: fileUri,
      parse: (text: string) => fileUri(text.replace(/^file:\/\//, '')),
      joinPath: (base: FileUri, ...parts: string[]) => fileUri(path.posix.join(base.path, ...parts)),
    },
    env: { appRoot },
    l10n: { t: (message: string) => message },
    commands: { executeCommand: async () => undefined },
    window: {
      createTreeView: () => disposable,
      withProgress: async <R>(_options: unknown, task: () => Promise<R>): Promise<R> => task(),
    },
    workspace: {
      workspaceFolders: [folder],
      textDocuments: [],
      getWorkspaceFolder: (uri: FileUri) => (uri.path === root || uri.path.startsWith(`${root}/`) ? folder : undefined),
      getConfiguration: () => ({ get: () => undefined }),
      createFileSystemWatcher: () => ({ onDidChange: event, onDidCreate: event, onDidDelete: event, dispose: disposable.dispose }),
      onDidChangeTextDocument: event,
      onDidCloseTextDocument: event,
      onDidChangeConfiguration: event,
      onDidChangeWorkspaceFolders: event,
    },
  };
  const log = { warn: (message: string) => { console.warn(message); }, info: () => undefined, error: () => undefined };
  return { vs: vs as unknown as typeof vscode, log } as unknown as DeskContext;
}

/** N files of ~20 lines in folders of 100, every fifth with a TODO; returns the paths relative to `root`. */
function generateWorkspace(root: string, size: number): string[] {
  const filler = Array.from({ length: 10 }, (_, line) => `export const value${line} = ${line}; // not a to-do`).join('\n');
  const files: string[] = [];
  for (let index = 0; index < size; index++) {
    const relative = `src/module${String(Math.floor(index / 100)).padStart(4, '0')}/file${index}.ts`;
    if (index % 100 === 0) fs.mkdirSync(path.join(root, path.dirname(relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), `${filler}\n${index % 5 === 0 ? `// TODO: item ${index}\n` : ''}${filler}\n`);
    files.push(relative);
  }
  fs.writeFileSync(path.join(root, '.gitignore'), 'build/\n');
  return files;
}

async function todoRow(size: number, table: Table, appRoot: string): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-bench-scale-todo-'));
  try {
    const files = generateWorkspace(root, size);
    const view = new TodoWorkspace(fakeDesk(root, appRoot), { keywords: () => ['TODO', 'FIXME'], lookup: async () => ({ found: false }), isSignedIn: () => false });
    await view.ready();
    // A branch switch: min(N, 10,000) files rewritten, 1% of them new (in new folders).
    const batch = Math.min(size, 10_000);
    const created = Math.max(1, Math.floor(batch / 100));
    const uris: FileUri[] = [];
    for (let index = 0; index < batch - created; index++) {
      const relative = files[index];
      fs.writeFileSync(path.join(root, relative), `// FIXME: switched ${index}\n`);
      uris.push(fileUri(path.join(root, relative)));
    }
    for (let index = 0; index < created; index++) {
      const relative = `lib/new${Math.floor(index / 100)}/added${index}.ts`;
      fs.mkdirSync(path.join(root, path.dirname(relative)), { recursive: true });
      fs.writeFileSync(path.join(root, relative), `// TODO: added ${index}\n`);
      uris.push(fileUri(path.join(root, relative)));
    }
    const elapsed = await once(() => view.updateFiles(uris as unknown as vscode.Uri[]));
    const todos = await view.todos();
    const untouchedWithTodo = files.slice(batch - created).filter((_, offset) => (offset + batch - created) % 5 === 0).length;
    if (todos.length !== batch + untouchedWithTodo) throw new Error(`TODO batch: ${todos.length} TODOs, expected ${batch + untouchedWithTodo}`);
    table.set(`TODO batch of min(N, 10,000) files`, size, ms(elapsed, 0));
    view.dispose();
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** 1,000,000 changes in one feed (500,000 files changed twice): past ~130,000 live changes a spread overflowed. */
function millionChanges(): string {
  const feed = new ChangeFeed(new MemoryStore(), () => BASE);
  const started = performance.now();
  try {
    for (let round = 0; round < 2; round++) for (let file = 0; file < 500_000; file++) feed.record('alice', `file-${file}`, false);
    let seen = 0;
    let token: string | undefined = '1';
    while (token !== undefined) {
      const page = feed.list('alice', { pageToken: token, maxResults: 1000, includeDeleted: true });
      seen += page.changes.length;
      token = page.nextPageToken;
    }
    return `ok: ${seen.toLocaleString('en-US')} changes listed (${ms(performance.now() - started, 0)})`;
  } catch (error) {
    return `failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export async function run(): Promise<void> {
  const sizes = (option('sizes') ?? DEFAULT_SIZES.join(',')).split(',').map(Number);
  const skip = new Set((option('skip') ?? '').split(',').filter(Boolean));
  console.log(`scale: emulator over HTTP on loopback (memory store), TODOs view model ${machineLoad()}`);
  const table = new Table();
  const appRoot = skip.has('todo') ? '' : ripgrepAppRoot();
  for (const size of sizes) {
    const started = performance.now();
    const parts: Array<[string, () => Promise<void>]> = [
      ['drive', () => driveRows(size, table)],
      ['tasks', () => taskRows(size, table)],
      ['calendar', () => calendarRows(size, table)],
      ['todo', () => todoRow(size, table, appRoot)],
    ];
    for (const [name, part] of parts) {
      if (skip.has(name)) continue;
      // One part failing leaves the others' figures.
      try {
        await part();
      } catch (error) {
        table.set(`${name}: failed`, size, 'error');
        console.error(`${name} at ${size}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    console.log(`${size.toLocaleString('en-US')} done in ${ms(performance.now() - started, 0)}`);
    // Printed after every size: the largest may take long.
    table.print(sizes);
  }
  if (!skip.has('changes')) console.log(`\n1,000,000 changes in one Drive feed: ${millionChanges()}`);
}

runWhenMain(module, run);
