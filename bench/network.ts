import { mkdtemp } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { BooksClient } from '../src/api/books';
import { CalendarClient } from '../src/api/calendar';
import { DriveClient } from '../src/api/drive';
import { HttpClient } from '../src/api/http';
import { TasksClient } from '../src/api/tasks';
import { FirstRowsFromCache, ViewCache } from '../src/core/storage/viewCache';
import { startEmulator } from '../src/emulator/emulator';
import { BooksTreeModel, isMyShelvesSnapshot, MY_LIBRARY } from '../src/features/books/tree/model';
import { EventStore } from '../src/features/calendar/sync/eventStore';
import { isAgendaSnapshot } from '../src/features/calendar/tree/model';
import { CalendarTreeProvider } from '../src/features/calendar/tree/treeProvider';
import { adaptDriveClient } from '../src/features/drive/driveAdapter';
import { DriveTreeModel, isMyDriveSnapshot } from '../src/features/drive/tree/model';
import { isTasksSnapshot, TasksTreeModel } from '../src/features/tasks/tree/model';
import type { TaskListNode } from '../src/features/tasks/tree/nodes';
import { fakeVscode } from '../test/support/fakeVscode';
import { machineLoad, runWhenMain } from './support/stats';
import { formatRun, runInVSCode } from './support/vscodeNetwork';

/**
 * Desk at Google's latency (`--latency MS`, default 150, added by the emulator to every API call), in two parts:
 * 1. the views' vscode-free tree models: the time from a fresh start (as after a window reload) to the first rows, with
 *    an empty cache (the network) and with the cache of the previous start, and the requests each costs (fast, no VS Code);
 * 2. Desk in a real VS Code (bench/support/vscodeNetwork.ts): window reload → each view's first rows and fresh rows,
 *    then the everyday actions, each with its requests and round trips from the emulator's request log. It starts
 *    VS Code: run it under the shared lock (`flock /tmp/desk-heavy.lock npm run bench -- network`); `--models-only`
 *    skips it; `--reloads N` (default 3) reloads N times and keeps each view's median. Prints tables; asserts nothing.
 */

interface Row {
  view: string;
  start: 'fresh' | 'from cache';
  firstRowsMs: number;
  freshRowsMs: number;
  requests: number;
}

export async function run(): Promise<void> {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { latency: { type: 'string' }, 'models-only': { type: 'boolean' }, reloads: { type: 'string' } }, strict: false });
  const latencyMs = Number(values.latency ?? 150);
  await modelLevel(latencyMs);
  if (values['models-only']) return;
  console.log('');
  const inVSCode = await runInVSCode(latencyMs, (line) => console.log(`[vscode] ${line}`), Number(values.reloads ?? 3));
  console.log(machineLoad());
  for (const line of formatRun(inVSCode)) console.log(line);
}

/** A view's "fresh rows are in" callback, and the promise it settles. */
function refreshSignal(): { done: Promise<void>; refreshed: () => void } {
  let refreshed: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    refreshed = resolve;
  });
  return { done, refreshed };
}

async function modelLevel(latencyMs: number): Promise<void> {
  const emulator = await startEmulator({ port: 0, seed: 'demo', latencyMs });
  const directory = path.join(await mkdtemp(path.join(os.tmpdir(), 'desk-bench-network-')), 'view-cache');
  try {
    const token = emulator.tokenFor('alice@example.com').accessToken;
    let requests = 0;
    const http = new HttpClient({ rootUrl: () => emulator.url, token: async () => token, onRequest: () => requests++ });
    const cache = new ViewCache({ directory, account: async () => 'alice@example.com' });
    const rows: Row[] = [];

    /** One start of a view: `first` resolves with the first rows shown, `fresh` once the network's rows are in. */
    const measure = async (view: string, start: Row['start'], open: () => Promise<{ fresh: Promise<unknown> }>): Promise<void> => {
      requests = 0;
      const started = performance.now();
      const { fresh } = await open();
      const firstRowsMs = performance.now() - started;
      await fresh;
      rows.push({ view, start, firstRowsMs, freshRowsMs: performance.now() - started, requests });
    };

    const tasksStart = async (): Promise<{ fresh: Promise<unknown> }> => {
      const { done, refreshed } = refreshSignal();
      const model = new TasksTreeModel({
        api: new TasksClient(http), showCompleted: () => false, pageSize: () => 100, withProgress: (work) => work(), log: () => undefined,
        onListLoaded: () => undefined, cache: cache.view('tasks', isTasksSnapshot), onRefreshed: refreshed,
      });
      const roots = await model.roots();
      await model.listChildren(roots[0] as TaskListNode);
      const fromCache = model.refreshing;
      // Fresh: the lists and the first list's tasks (loading in parallel behind the cached rows).
      const fresh = (async () => {
        if (fromCache) await done;
        const lists = await model.roots();
        await model.listChildren(lists[0] as TaskListNode);
        await model.allTasks((lists[0] as TaskListNode).listId);
      })();
      return { fresh };
    };
    const driveStart = async (): Promise<{ fresh: Promise<unknown> }> => {
      const { done, refreshed } = refreshSignal();
      const firstRows = new FirstRowsFromCache(cache.view('drive-my-drive', isMyDriveSnapshot), refreshed);
      const model = new DriveTreeModel(adaptDriveClient(new DriveClient(http)), { cache: firstRows });
      await model.children(model.section('myDrive'));
      const fresh = firstRows.refreshing ? done.then(() => model.children(model.section('myDrive'))) : Promise.resolve();
      return { fresh };
    };
    const booksStart = async (): Promise<{ fresh: Promise<unknown> }> => {
      const { done, refreshed } = refreshSignal();
      const firstRows = new FirstRowsFromCache(cache.view('books', isMyShelvesSnapshot), refreshed);
      const model = new BooksTreeModel(() => new BooksClient(http), { publicLibraries: () => [], cache: firstRows });
      await model.children(model.library(MY_LIBRARY));
      const fresh = firstRows.refreshing ? done.then(() => model.children(model.library(MY_LIBRARY))) : Promise.resolve();
      return { fresh };
    };

    const calendarStart = async (): Promise<{ fresh: Promise<unknown> }> => {
      const vs = fakeVscode() as unknown as Record<string, unknown>;
      vs.Uri = { parse: (text: string) => ({ toString: () => text }) };
      const api = new CalendarClient(http);
      let zone: Promise<string> | undefined;
      let tree: CalendarTreeProvider | undefined;
      const store = new EventStore({ api: () => api, onChange: (id) => tree?.redrawCalendar(id) });
      tree = new CalendarTreeProvider(vs as never, {
        api: () => api, store, daysAhead: () => 14, showHidden: () => false, isSignedIn: async () => true, withProgress: (work) => work(), log: () => undefined,
        timeZone: () => (zone ??= api.getSetting('timezone').then((setting) => setting.value)),
        cache: cache.view('calendar-agenda', isAgendaSnapshot),
      });
      const provider = tree;
      // The cached rows are replaced by a redraw of the whole tree once the calendars and their events are in.
      const refreshed = new Promise<void>((resolve) => provider.onDidChangeTreeData((node) => node === undefined && resolve()));
      const roots = await provider.getChildren();
      const agenda = roots[0];
      await provider.getChildren(agenda);
      const fromCache = provider.getTreeItem(provider.agenda).description === 'refreshing…';
      const fresh = (fromCache ? refreshed : Promise.resolve()).then(async () => provider.getChildren(await provider.getChildren().then((nodes) => nodes[0])));
      return { fresh };
    };

    for (const [view, start] of [['Tasks (lists + first list)', tasksStart], ['Drive: My Drive', driveStart], ['Calendar: agenda', calendarStart], ['Bookshelves: My Library', booksStart]] as const) {
      await cache.clear();
      await measure(view, 'fresh', start);
      await new Promise((resolve) => setTimeout(resolve, 50)); // the cache write after the fresh rows
      await measure(view, 'from cache', start);
    }

    console.log(`First rows after a (model-level) reload, emulator latency ${latencyMs} ms per API call`);
    console.log(machineLoad());
    console.log(`${'view'.padEnd(28)} ${'start'.padEnd(11)} ${'first rows'.padStart(11)} ${'fresh rows'.padStart(11)} ${'requests'.padStart(9)} ${'≈ round trips'.padStart(14)}`);
    for (const row of rows) {
      console.log(`${row.view.padEnd(28)} ${row.start.padEnd(11)} ${`${row.firstRowsMs.toFixed(0)} ms`.padStart(11)} ${`${row.freshRowsMs.toFixed(0)} ms`.padStart(11)} ${String(row.requests).padStart(9)} ${(row.freshRowsMs / latencyMs).toFixed(1).padStart(14)}`);
    }
  } finally {
    await emulator.close();
  }
}

runWhenMain(module, run);
