// Time until the first rows of a big task list are visible in the Tasks tree, in a real VS Code (code-server's
// VS Code 1.100.3 in Chromium, through the UI test harness): from the click that expands the list to the first
// task row in the DOM (and painted), and to the whole list loaded (the list row's "N open"). A 10,000-task list
// against a 100-task one shows whether the tree waits for every page before it shows anything.
// Also prints the raw tasks.list times over HTTP, to tell the network part from the view's own cost.
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Locator, Page } from 'playwright-core';
import type * as vscode from 'vscode';
import { tasksPageSchema, type Task } from '../src/shared/schemas/tasks';
import type { TasksApi } from '../src/features/tasks/port';
import { TasksTreeProvider } from '../src/features/tasks/tree/treeProvider';
import { FakeEventEmitter } from '../test/support/fakeVscode';

type Launcher = typeof import('../scripts/vscode/launch');

const SIZES = [100, 10_000];
const RUNS = 3;
const SEED_CONCURRENCY = 8;
const PAGE_SIZE = 100;
const repoRoot = path.resolve(__dirname, '..', '..');

interface Emulator {
  readonly url: string;
  readonly headers: Record<string, string>;
}

async function emulatorAs(url: string, account: string): Promise<Emulator> {
  const response = await fetch(`${url}/emulator/v1/token?user=${encodeURIComponent(account)}`, { method: 'POST' });
  const { access_token: token } = (await response.json()) as { access_token: string };
  return { url, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } };
}

async function post<T>(emulator: Emulator, pathname: string, body: unknown): Promise<T> {
  const response = await fetch(`${emulator.url}${pathname}`, { method: 'POST', headers: emulator.headers, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`POST ${pathname}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A list of `count` tasks (inserted by a few workers in parallel; order does not matter here). */
async function seedList(emulator: Emulator, title: string, count: number): Promise<string> {
  const list = await post<{ id: string }>(emulator, '/tasks/v1/users/@me/lists', { title });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      await post(emulator, `/tasks/v1/lists/${encodeURIComponent(list.id)}/tasks`, { title: `Task ${String(index + 1).padStart(5, '0')}` });
    }
  };
  await Promise.all(Array.from({ length: SEED_CONCURRENCY }, worker));
  return list.id;
}

/** tasks.list over HTTP as the extension asks for it: the first page, and every page in turn. */
async function httpFigures(emulator: Emulator, listId: string): Promise<{ firstMs: number; allMs: number; pages: number }> {
  const started = performance.now();
  let firstMs = 0;
  let pages = 0;
  let pageToken: string | undefined;
  do {
    const query = new URLSearchParams({ maxResults: String(PAGE_SIZE), showCompleted: 'true', showHidden: 'false' });
    if (pageToken) query.set('pageToken', pageToken);
    const response = await fetch(`${emulator.url}/tasks/v1/lists/${encodeURIComponent(listId)}/tasks?${query.toString()}`, { headers: emulator.headers });
    const page = (await response.json()) as { nextPageToken?: string };
    pages++;
    if (pages === 1) firstMs = performance.now() - started;
    pageToken = page.nextPageToken;
  } while (pageToken);
  return { firstMs, allMs: performance.now() - started, pages };
}

const tasksPane = (page: Page): Locator => page.locator('.part.sidebar .pane').filter({ has: page.locator('.pane-header[aria-label^="Tasks"]') });
const treeRow = (page: Page, label: string): Locator =>
  tasksPane(page).locator('.monaco-list-row[role="treeitem"]').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) }).first();

interface ExpandTiming {
  /** Expand click (mousedown) → first task row in the DOM. */
  firstRowMs: number;
  /** … → the frame after it (the row on screen). */
  firstPaintMs: number;
  /** … → the list row says "N open" (every page loaded and shown). */
  allLoadedMs: number;
  /** The longest main-thread task of the window between the click and the whole list shown. */
  longestTaskMs: number;
  /** Task rows in the DOM at the end (the tree is virtual: only what fits the pane). */
  rowsInDom: number;
}

/**
 * Runs in the page (plain JS: this project compiles without DOM types). A capturing mousedown listener notes
 * the expand click; a MutationObserver on the Tasks pane notes the first task row (rows with a checkbox), the
 * frame after it, and the list row's "N open" (shown once every page is in).
 */
const INSTALL_PROBE = `function (title) {
  if (window.__deskBench && window.__deskBench.observer) window.__deskBench.observer.disconnect();
  if (window.__deskBench && window.__deskBench.longTasks) window.__deskBench.longTasks.disconnect();
  const pane = [...document.querySelectorAll('.part.sidebar .pane')].find((candidate) => candidate.querySelector('.pane-header[aria-label^="Tasks"]'));
  if (!pane) throw new Error('no Tasks pane');
  const marks = { click: 0, first: 0, paint: 0, done: 0, longest: 0 };
  window.__deskBench = marks;
  // The longest main-thread task of the window while the list loads: does the workbench freeze meanwhile?
  const longTasks = new PerformanceObserver((entries) => {
    for (const entry of entries.getEntries()) if (marks.click && !marks.done) marks.longest = Math.max(marks.longest, entry.duration);
  });
  longTasks.observe({ type: 'longtask' });
  marks.longTasks = longTasks;
  pane.addEventListener('mousedown', () => { if (!marks.click) marks.click = performance.now(); }, { capture: true, once: true });
  const check = () => {
    if (!marks.click) return;
    if (!marks.first && pane.querySelector('.monaco-list-row[role="treeitem"] .custom-view-tree-node-item-checkbox')) {
      marks.first = performance.now();
      requestAnimationFrame(() => { marks.paint = performance.now(); });
    }
    if (!marks.done) {
      const listRow = [...pane.querySelectorAll('.monaco-list-row[role="treeitem"]')].find((candidate) => (candidate.querySelector('.label-name')?.textContent ?? '').trim() === title);
      const description = listRow?.querySelector('.label-description')?.textContent ?? '';
      if (/\\bopen\\b/.test(description)) marks.done = performance.now();
    }
  };
  marks.observer = new MutationObserver(check);
  marks.observer.observe(pane, { subtree: true, childList: true, attributes: true, characterData: true });
}`;
const READ_PROBE = `(() => {
  const marks = window.__deskBench;
  marks.observer.disconnect();
  marks.longTasks.disconnect();
  return { click: marks.click, first: marks.first, paint: marks.paint, done: marks.done, longest: marks.longest };
})()`;

/** Expands the list row and times it inside the page (INSTALL_PROBE). */
async function timeExpand(page: Page, listTitle: string, timeoutMs: number): Promise<ExpandTiming> {
  const row = treeRow(page, listTitle);
  await row.waitFor({ state: 'visible', timeout: 30000 });
  await page.evaluate(`(${INSTALL_PROBE})(${JSON.stringify(listTitle)})`);
  await row.click();
  await page.waitForFunction('Boolean(window.__deskBench && window.__deskBench.paint && window.__deskBench.done)', undefined, { timeout: timeoutMs, polling: 50 });
  const marks = await page.evaluate<{ click: number; first: number; paint: number; done: number; longest: number }>(READ_PROBE);
  const rowsInDom = await tasksPane(page).locator('.monaco-list-row[role="treeitem"] .custom-view-tree-node-item-checkbox').count();
  return { firstRowMs: marks.first - marks.click, firstPaintMs: marks.paint - marks.click, allLoadedMs: marks.done - marks.click, longestTaskMs: marks.longest, rowsInDom };
}

/** Collapses the list row again (a second click) and waits until no task row is left. */
async function collapse(page: Page, listTitle: string): Promise<void> {
  const row = treeRow(page, listTitle);
  if ((await row.getAttribute('aria-expanded')) === 'true') await row.click();
  await tasksPane(page).locator('.monaco-list-row[role="treeitem"] .custom-view-tree-node-item-checkbox').first().waitFor({ state: 'detached', timeout: 30000 });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

const ms = (value: number): string => `${Math.round(value)} ms`.padStart(9);

/**
 * Desk's own CPU for a whole 10,000-task list, without VS Code or network: parsing 100 pages with the shared
 * schema, building the rows (getChildren) and their TreeItems. What the workbench figure has on top of this and
 * of the HTTP time is VS Code's tree machinery (extension host → renderer).
 */
async function deskCpuFigures(count: number): Promise<{ parseMs: number; childrenMs: number; treeItemsMs: number }> {
  const tasks: Task[] = Array.from({ length: count }, (_, index) => ({
    kind: 'tasks#task', id: `task${index}`, etag: '"e"', title: `Task ${index + 1}`, updated: '2026-01-01T00:00:00.000Z',
    selfLink: `http://127.0.0.1/tasks/${index}`, position: String(index).padStart(20, '0'), status: 'needsAction', links: [],
  }));
  const pages = Array.from({ length: Math.ceil(count / PAGE_SIZE) }, (_, index) =>
    JSON.stringify({ kind: 'tasks#tasks', items: tasks.slice(index * PAGE_SIZE, (index + 1) * PAGE_SIZE) }));
  let started = performance.now();
  for (const page of pages) tasksPageSchema.parse(JSON.parse(page));
  const parseMs = performance.now() - started;

  class TreeItem {
    constructor(readonly label: string, readonly collapsibleState: number) {}
  }
  const fakeVs = {
    EventEmitter: FakeEventEmitter,
    TreeItem,
    TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    TreeItemCheckboxState: { Unchecked: 0, Checked: 1 },
    ThemeIcon: class { constructor(readonly id: string) {} },
    MarkdownString: class { constructor(readonly value: string) {} },
    l10n: { t: (message: string, ...args: unknown[]) => message.replace(/\{(\d+)\}/g, (_, at: string) => String(args[Number(at)])) },
  } as unknown as typeof vscode;
  const api = {
    async *allTaskLists() {
      yield { kind: 'tasks#taskList' as const, id: 'L', etag: 'e', title: 'Big', updated: '2026-01-01T00:00:00.000Z', selfLink: 'x' };
    },
    async listTasks(_list: string, options: { pageToken?: string }) {
      const index = Number(options.pageToken ?? 0);
      const next = (index + 1) * PAGE_SIZE < count ? String(index + 1) : undefined;
      return { kind: 'tasks#tasks' as const, items: tasks.slice(index * PAGE_SIZE, (index + 1) * PAGE_SIZE), ...(next ? { nextPageToken: next } : {}) };
    },
  } as unknown as TasksApi;
  const tree = new TasksTreeProvider(fakeVs, { api, showCompleted: () => true, pageSize: () => PAGE_SIZE, withProgress: (work) => work(), isSignedIn: async () => true, log: () => undefined });
  const listNode = (await tree.getChildren()).at(0);
  if (!listNode) throw new Error('no list row');
  await tree.allTasks(listNode.kind === 'list' ? listNode.listId : 'L');
  started = performance.now();
  const rows = await tree.getChildren(listNode);
  const childrenMs = performance.now() - started;
  started = performance.now();
  for (const row of rows) tree.getTreeItem(row);
  const treeItemsMs = performance.now() - started;
  tree.dispose();
  return { parseMs, childrenMs, treeItemsMs };
}

export async function run(): Promise<void> {
  const cpu = await deskCpuFigures(10_000);
  console.log(`Desk's own CPU for a whole 10,000-task list (no VS Code, no network): parse 100 pages ${ms(cpu.parseMs)}, rows (getChildren) ${ms(cpu.childrenMs)}, TreeItems ${ms(cpu.treeItemsMs)}\n`);

  const launcher = require(path.join(repoRoot, 'scripts', 'vscode', 'launch.js')) as Launcher;
  const ui = require(path.join(repoRoot, 'out', 'test', 'ui', 'workbench.js')) as typeof import('../test/ui/workbench');
  const workbench = await launcher.startWorkbench({ name: 'bench-tree', seed: 'none', viewport: { width: 1400, height: 900 } });
  try {
    const { page } = workbench;
    await page.locator('.part.activitybar').waitFor({ state: 'visible', timeout: 60000 });
    const alice = await emulatorAs(workbench.emulatorUrl, 'alice@example.com');
    const lists = new Map<number, { title: string; id: string }>();
    for (const size of SIZES) {
      const started = performance.now();
      const title = `Bench ${size}`;
      lists.set(size, { title, id: await seedList(alice, title, size) });
      console.log(`seeded "${title}" over HTTP in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }

    console.log('\ntasks.list over HTTP (pages of 100, as the tree asks):');
    for (const size of SIZES) {
      const list = lists.get(size);
      if (!list) continue;
      const figures = await httpFigures(alice, list.id);
      console.log(`  ${String(size).padStart(6)} tasks: first page ${ms(figures.firstMs)}, all ${figures.pages} pages ${ms(figures.allMs)}`);
    }

    await ui.openDeskContainer(page);
    await ui.signInThroughConsent(workbench, { within: tasksPane(page) });
    for (const list of lists.values()) await treeRow(page, list.title).waitFor({ state: 'visible', timeout: 60000 });

    const results = new Map<number, ExpandTiming[]>();
    for (let runIndex = 0; runIndex < RUNS; runIndex++) {
      for (const size of SIZES) {
        const list = lists.get(size);
        if (!list) continue;
        // A fresh load each time: Refresh forgets what the tree had loaded (the rows stay collapsed).
        await ui.runCommand(page, 'Desk: Refresh Tasks');
        await treeRow(page, list.title).waitFor({ state: 'visible', timeout: 30000 });
        const timing = await timeExpand(page, list.title, 180000);
        results.set(size, [...(results.get(size) ?? []), timing]);
        if (runIndex === 0 && size === SIZES[SIZES.length - 1]) await workbench.page.screenshot({ path: path.join(repoRoot, 'test-results', 'bench-tasks-tree.png') }).catch(() => undefined);
        await collapse(page, list.title);
      }
    }

    console.log(`\nTasks tree in VS Code: expand click → first task row (median of ${RUNS}; each a fresh load)`);
    console.log('  size     | first row in DOM | first row painted | whole list loaded ("N open") | longest UI task | rows in DOM');
    for (const size of SIZES) {
      const timings = results.get(size) ?? [];
      const pick = (key: keyof ExpandTiming): number => median(timings.map((timing) => timing[key]));
      console.log(`  ${String(size).padStart(6)}   | ${ms(pick('firstRowMs'))}        | ${ms(pick('firstPaintMs'))}         | ${ms(pick('allLoadedMs'))}                    | ${ms(pick('longestTaskMs'))}       | ${pick('rowsInDom')}`);
      console.log(`           runs: first row ${timings.map((timing) => Math.round(timing.firstRowMs)).join(' / ')} ms; all ${timings.map((timing) => Math.round(timing.allLoadedMs)).join(' / ')} ms`);
    }
  } finally {
    await workbench.close();
  }
}

if (require.main === module) {
  run().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      process.exit(1);
    },
  );
}
