// Desk in a real VS Code (code-server's VS Code 1.100.3 in Debian's Chromium, through the UI suite's launcher) against
// the emulator at Google's latency: how long a window reload takes to show each view's first rows (from the cache)
// and its first fresh rows, then how long the everyday actions take, with the requests and round trips of each read
// from the emulator's timed request log. Times come from the page itself (a per-frame check of the DOM, never a
// fixed sleep) on the same clock as the log.
import * as fs from 'node:fs';
import * as path from 'node:path';
import fetch from 'node-fetch';
import type { Page } from 'playwright-core';
import { epochMs, readRequestLog, RequestRecord } from '../../src/emulator/core/requestLog';
import { describeRequest, requestsOf, roundTripFigures, RoundTripFigures, wasAbandoned } from './roundTrips';
import { emulatorToken, repoRoot, runCommand, showOnlyViews, signInThroughConsent } from '../../test/ui/workbench';

type Launcher = typeof import('../../scripts/vscode/launch');

/** A DOM condition: some element matches `selector` (and contains `text`), or, with `absent`, none does. */
interface Condition {
  readonly selector: string;
  readonly text?: string;
  readonly absent?: boolean;
}

/** A moment to time: the first animation frame at which every condition holds (once `after` has its mark, if given). */
interface Watch {
  readonly key: string;
  readonly all: readonly Condition[];
  readonly after?: string;
}

/**
 * Runs in the page (also after each reload, as an init script): checks the watches once per animation frame and
 * records, per key, the first frame's time (epoch ms, the request log's clock). Plain JavaScript: it is sent as text.
 */
const WATCHER_SOURCE = `(watches) => {
  const now = () => performance.timeOrigin + performance.now();
  if (!globalThis.__deskBench) {
    const state = { marks: {}, watches: [] };
    globalThis.__deskBench = state;
    const holds = (condition) => {
      const found = Array.from(document.querySelectorAll(condition.selector))
        // The editor draws spaces as no-break spaces.
        .some((element) => condition.text === undefined || (element.textContent || '').replace(/\u00a0/g, ' ').includes(condition.text));
      return condition.absent ? !found : found;
    };
    const tick = () => {
      for (const watch of state.watches) {
        if (state.marks[watch.key] !== undefined) continue;
        if (watch.after !== undefined && state.marks[watch.after] === undefined) continue;
        if (watch.all.every(holds)) state.marks[watch.key] = now();
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }
  globalThis.__deskBench.watches.push(...watches);
}`;

function watcherCall(watches: readonly Watch[]): string {
  return `(${WATCHER_SOURCE})(${JSON.stringify(watches)})`;
}

async function watch(page: Page, watches: readonly Watch[]): Promise<void> {
  await page.evaluate(watcherCall(watches));
}

/** Waits until every key has its mark (state, polled), and gives the marks. */
async function marksOf(page: Page, keys: readonly string[], timeoutMs = 60000): Promise<Record<string, number>> {
  await page.waitForFunction(`${JSON.stringify(keys)}.every((key) => globalThis.__deskBench && globalThis.__deskBench.marks[key] !== undefined)`, undefined, { timeout: timeoutMs, polling: 50 });
  return page.evaluate(`globalThis.__deskBench.marks`) as Promise<Record<string, number>>;
}

/** The side-bar pane of a Desk view, as a CSS prefix. */
const pane = (title: string): string => `.part.sidebar .pane:has(> .pane-header[aria-label^="${title}"])`;
const rowLabel = (title: string): string => `${pane(title)} .monaco-list-row[role="treeitem"] .label-name`;
const refreshingMark = (title: string, absent = true): Condition => ({ selector: `${pane(title)} .monaco-list-row .label-description`, text: 'refreshing', absent });

interface ViewSpec {
  readonly name: string;
  readonly title: string;
  /** Its contributed view id and its view-cache slot (Desk's startup marks name them). */
  readonly viewId: string;
  readonly slot: string;
  /** Rows that only real data gives (the demo seed's); all must show. */
  readonly rows: readonly Condition[];
  /** The API whose requests are the view's. */
  readonly api: Api;
  /** The round trips its data need after a reload. */
  readonly minimumRoundTrips: number;
  readonly why: string;
}

const VIEWS: readonly ViewSpec[] = [
  {
    name: 'Tasks: the lists', title: 'Tasks', viewId: 'desk.tasks', slot: 'tasks', api: 'tasks', minimumRoundTrips: 1,
    rows: [{ selector: rowLabel('Tasks'), text: 'My Tasks' }],
    why: 'one listing of the lists',
  },
  {
    name: 'Drive: My Drive', title: 'Drive', viewId: 'desk.drive', slot: 'drive-my-drive', api: 'drive', minimumRoundTrips: 1,
    rows: [{ selector: rowLabel('Drive'), text: 'ideas.txt' }],
    why: 'one listing of \'root\'',
  },
  {
    name: 'Calendar: agenda', title: 'Calendar', viewId: 'desk.calendar', slot: 'calendar-agenda', api: 'calendar', minimumRoundTrips: 1,
    rows: [{ selector: `${pane('Calendar')} .monaco-list-row[role="treeitem"][aria-level="3"]` }],
    why: 'the calendars\' events and the due tasks in parallel (their ids are known from the cache)',
  },
  {
    name: 'Bookshelves: My Library', title: 'Bookshelves', viewId: 'desk.books', slot: 'books', api: 'books', minimumRoundTrips: 1,
    rows: [{ selector: rowLabel('Bookshelves'), text: 'To read' }],
    why: 'one listing of the shelves',
  },
];

type Api = 'tasks' | 'drive' | 'calendar' | 'books' | 'any';

/** The API a request belongs to (uploads and batches by the API they carry); sign-in and token calls count for every action. */
function apiOf(record: RequestRecord): Api | 'other' {
  const found = /^\/(?:upload\/|batch\/)?(tasks|drive|calendar|books)\b/.exec(record.target);
  return (found?.[1] as Api | undefined) ?? 'other';
}

/** The Agenda's due tasks: Tasks API listings bounded by a due date, which the Calendar view asks for. */
const isDueTasksListing = (record: RequestRecord): boolean => apiOf(record) === 'tasks' && /[?&]dueMax=/.test(record.target);

const belongsTo = (api: Api) => (record: RequestRecord): boolean => {
  if (api === 'any' || apiOf(record) === 'other') return true;
  if (isDueTasksListing(record)) return api === 'calendar';
  return apiOf(record) === api;
};

export interface MeasuredAction {
  readonly action: string;
  /** From the user's move to the first rows shown (ms). */
  readonly firstMs: number;
  /** From the move to the full, fresh result (ms). */
  readonly freshMs: number;
  /** Reload only: from the reload to the view's pane being shown. */
  readonly shownMs?: number;
  /** Reload only: where the time between the view shown and its first rows went (Desk's startup marks). */
  readonly startup?: StartupSplit;
  readonly figures: RoundTripFigures;
  /** Requests that ended after the result (prefetch, background). */
  readonly after: RequestRecord[];
  /** Requests of the action the client gave up before their answer (not links of its chain). */
  readonly abandoned: RequestRecord[];
  readonly why: string;
}

/**
 * A reload's time from the view shown (the page) to its first rows on screen, split at Desk's startup marks
 * (src/core/startup/startupMarks.ts, on the same wall clock): VS Code's part before Desk runs, and Desk's share.
 */
export interface StartupSplit {
  /** The pane shown → Desk's bundle evaluated (VS Code: the extension host starting, the extensions resolved). */
  readonly shownToBundleMs: number;
  /** Desk's bundle evaluated → activate() called (VS Code: the extension's context, its storage from the window). */
  readonly bundleToActivateMs: number;
  /** activate() → VS Code tells Desk the view is visible (Desk registers the view in activate(): the window's answer). */
  readonly activateToVisibleMs: number;
  /**
   * Desk's share as issue 21 counts it: from activate() or the moment VS Code makes the view visible to Desk,
   * whichever is later, to the first rows on screen.
   */
  readonly deskMs: number;
  /** Of Desk's share: Desk's code answering VS Code's asks for the view's rows (overlapping asks count once). */
  readonly answeringMs: number;
  /** Of Desk's share: the window's (its asks, one tree level at a time, and the rendering). */
  readonly windowMs: number;
  /** activate() → the first rows on screen. */
  readonly fromActivateMs: number;
}

export interface NetworkRun {
  readonly latencyMs: number;
  readonly rows: MeasuredAction[];
  /** Per view, the startup split of each reload. */
  readonly startups: readonly { view: string; splits: readonly StartupSplit[] }[];
}

const FOLDER_TITLE = 'Bench: 500 files';
const FOLDER_SIZE = 500;

/** A folder of 500 small files in alice's My Drive, made over HTTP before the window opens (50 requests at a time). */
async function seedBigFolder(emulatorUrl: string): Promise<void> {
  const token = await emulatorToken(emulatorUrl);
  const create = async (body: unknown): Promise<{ id: string }> => {
    const response = await fetch(`${emulatorUrl}/drive/v2/files`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`seeding the big folder: HTTP ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string };
  };
  const folder = await create({ title: FOLDER_TITLE, mimeType: 'application/vnd.google-apps.folder', parents: [{ id: 'root' }] });
  const names = Array.from({ length: FOLDER_SIZE }, (_, index) => `bench-${String(index + 1).padStart(3, '0')}.txt`);
  for (let at = 0; at < names.length; at += 50) {
    await Promise.all(names.slice(at, at + 50).map((title) => create({ title, mimeType: 'text/plain', parents: [{ id: folder.id }] })));
  }
}

/**
 * Waits until the network is idle: nothing in flight and no request arrived or answered within `quietMs` (nor since
 * `sinceMs`, the user's move, so a request the move sends a moment later is waited for); gives up after `maxMs` (a
 * view that polls keeps it busy). Polls the log; returns when the last activity was.
 */
async function networkIdle(logFile: string, quietMs: number, sinceMs = 0, maxMs = 8000): Promise<number> {
  const started = epochMs();
  for (;;) {
    const { inFlight, lastActivityMs } = readRequestLog(logFile);
    const now = epochMs();
    if (inFlight === 0 && now - Math.max(lastActivityMs, sinceMs) >= quietMs) return Math.max(lastActivityMs, sinceMs);
    if (now - started > maxMs) return now;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface ActionSpec {
  readonly action: string;
  readonly api: Api;
  readonly minimumRoundTrips: number;
  readonly why: string;
  /** Gets the window ready (not timed). */
  readonly prepare?: (page: Page) => Promise<void>;
  /** The user's move; timed from just before it. */
  readonly act: (page: Page) => Promise<void>;
  /** The first visible result. */
  readonly first: readonly Condition[];
  /** The full result, when it shows later than the first rows (default: the first rows are the result). */
  readonly done?: readonly Condition[];
  /** The result is the server's answer to the write, not what the screen shows first (an optimistic checkbox): done when the action's last write ended. */
  readonly doneByWrite?: boolean;
}

function actions(): ActionSpec[] {
  const treeRow = (title: string, label: string) => (page: Page) =>
    page.locator(`${pane(title)} .monaco-list-row[role="treeitem"]`).filter({ has: page.locator('.label-name', { hasText: label }) }).first();
  const editorText = (text: string): Condition => ({ selector: '.editor-group-container .view-lines', text });
  return [
    {
      action: `Drive: expand a folder of ${FOLDER_SIZE} files`, api: 'drive', minimumRoundTrips: 1,
      why: 'one listing per page (the first page shows at once)',
      prepare: async (page) => treeRow('Drive', FOLDER_TITLE)(page).waitFor({ state: 'visible', timeout: 30000 }),
      act: async (page) => treeRow('Drive', FOLDER_TITLE)(page).click(),
      first: [{ selector: rowLabel('Drive'), text: 'bench-001.txt' }],
    },
    {
      action: 'Drive: open a file', api: 'drive', minimumRoundTrips: 1,
      why: 'its content (the metadata is known from the listing, or asked in parallel)',
      prepare: async (page) => {
        // The big folder closes again so ideas.txt is in view.
        await treeRow('Drive', FOLDER_TITLE)(page).click();
        await treeRow('Drive', 'ideas.txt')(page).waitFor({ state: 'visible', timeout: 30000 });
      },
      act: async (page) => treeRow('Drive', 'ideas.txt')(page).click(),
      first: [editorText('Drag files between folders')],
    },
    {
      action: 'Drive: save the file', api: 'drive', minimumRoundTrips: 1,
      why: 'one upload (If-Match carries the version it was read at)',
      prepare: async (page) => {
        await page.locator('.editor-group-container .view-lines', { hasText: 'Drag files between folders' }).first().click();
        await page.keyboard.press('Control+End');
        await page.keyboard.type('\nA line typed by the network benchmark.');
        await page.locator('.editor-group-container .tab.dirty', { hasText: 'ideas.txt' }).first().waitFor({ state: 'visible', timeout: 10000 });
      },
      act: async (page) => page.keyboard.press('Control+S'),
      first: [{ selector: '.editor-group-container .tab.dirty', text: 'ideas.txt', absent: true }],
    },
    {
      // VS Code does not keep an extension tree's expansion across a reload: the list's tasks come on expansion.
      action: 'Tasks: expand a list', api: 'tasks', minimumRoundTrips: 1,
      why: 'one listing of the list\'s tasks per page (the first page shows at once)',
      prepare: async (page) => {
        const myTasks = treeRow('Tasks', 'My Tasks')(page);
        if ((await myTasks.getAttribute('aria-expanded')) === 'true') await myTasks.click();
        await page.locator(rowLabel('Tasks'), { hasText: 'Water the plants' }).first().waitFor({ state: 'detached', timeout: 15000 });
      },
      act: async (page) => treeRow('Tasks', 'My Tasks')(page).click(),
      first: [{ selector: rowLabel('Tasks'), text: 'Water the plants' }],
    },
    {
      action: 'Tasks: open a task\'s notes', api: 'tasks', minimumRoundTrips: 1,
      why: 'the task (or none: the tree has it)',
      prepare: async (page) => {
        await page.keyboard.press('Escape');
        await treeRow('Tasks', 'Renew passport')(page).hover();
        await treeRow('Tasks', 'Renew passport')(page).locator('.actions .action-label[aria-label^="Edit Notes"]').waitFor({ state: 'visible', timeout: 10000 });
      },
      act: async (page) => treeRow('Tasks', 'Renew passport')(page).locator('.actions .action-label[aria-label^="Edit Notes"]').click(),
      first: [editorText('Photos are in the top drawer')],
    },
    {
      action: 'Desk search "plan"', api: 'any', minimumRoundTrips: 1,
      why: 'every service asked in parallel',
      prepare: async (page) => {
        await runCommand(page, 'Desk: Search…');
        await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Search Desk' }).waitFor({ state: 'visible', timeout: 15000 });
      },
      act: async (page) => page.locator('.quick-input-widget input.input').fill('plan'),
      first: [{ selector: '.quick-input-widget .monaco-list-row', text: 'plan' }],
      done: [
        { selector: '.quick-input-widget .monaco-list-row', text: 'Plan the weekend trip' },
        { selector: '.quick-input-widget .monaco-list-row', text: 'Project plan' },
        { selector: '.quick-input-widget .monaco-list-row', text: 'Weekly planning' },
        { selector: '.quick-input-widget .monaco-progress-container.active', absent: true },
      ],
    },
    {
      action: 'Tasks: complete a task', api: 'tasks', minimumRoundTrips: 1,
      why: 'one patch',
      prepare: async (page) => {
        await page.keyboard.press('Escape');
        await treeRow('Tasks', 'Water the plants')(page).waitFor({ state: 'visible', timeout: 15000 });
      },
      act: async (page) => treeRow('Tasks', 'Water the plants')(page).locator('.custom-view-tree-node-item-checkbox').click(),
      first: [{ selector: `${pane('Tasks')} .monaco-list-row[aria-label*="Water the plants"] .custom-view-tree-node-item-checkbox[aria-checked="true"]` }],
      doneByWrite: true,
    },
  ];
}

/** A moment Desk's extension host recorded (DESK_STARTUP_MARKS). */
interface StartupMark {
  readonly event: string;
  readonly at: number;
  readonly pid: number;
}

function readMarks(file: string): StartupMark[] {
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  return text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as StartupMark);
}

/** The marks of the extension host that started after `sinceMs` (the reload's), by event (first occurrence). */
function marksOfReload(file: string, sinceMs: number): Map<string, number> {
  const marks = readMarks(file);
  const activation = marks.find((mark) => mark.event === 'activate' && mark.at >= sinceMs);
  const byEvent = new Map<string, number>();
  for (const mark of marks) if (activation && mark.pid === activation.pid && !byEvent.has(mark.event)) byEvent.set(mark.event, mark.at);
  return byEvent;
}

function startupSplit(marks: Map<string, number>, view: ViewSpec, shownAt: number, firstAt: number): StartupSplit | undefined {
  const bundle = marks.get('bundle');
  const activate = marks.get('activate');
  const visible = marks.get(`visible:${view.viewId}`);
  if (bundle === undefined || activate === undefined || visible === undefined) return undefined;
  const deskStart = Math.max(activate, shownAt, visible);
  // Desk's time answering the view's asks for rows (overlapping asks count once), up to the rows on screen.
  const answers: [number, number][] = [];
  for (const [event, at] of marks) {
    const ask = /^ask:(.+):(\d+)$/.exec(event);
    const answered = ask && ask[1] === view.viewId ? marks.get(`answer:${ask[1]}:${ask[2]}`) : undefined;
    if (answered !== undefined && at < firstAt) answers.push([Math.max(at, deskStart), Math.min(answered, firstAt)]);
  }
  answers.sort((a, b) => a[0] - b[0]);
  let answeringMs = 0;
  let coveredTo = Number.NEGATIVE_INFINITY;
  for (const [from, to] of answers) {
    answeringMs += Math.max(0, to - Math.max(from, coveredTo));
    coveredTo = Math.max(coveredTo, to);
  }
  const deskMs = firstAt - deskStart;
  return {
    shownToBundleMs: bundle - shownAt,
    bundleToActivateMs: activate - bundle,
    activateToVisibleMs: visible - activate,
    deskMs,
    answeringMs,
    windowMs: deskMs - answeringMs,
    fromActivateMs: firstAt - Math.max(activate, shownAt),
  };
}

function measured(action: string, why: string, records: RequestRecord[], window: { fromMs: number; firstMs: number; doneMs: number; idleMs: number; api: Api; minimumRoundTrips: number; shownMs?: number; startup?: StartupSplit }): MeasuredAction {
  const { beforeDone, afterDone } = requestsOf(records, { fromMs: window.fromMs, doneMs: window.doneMs, idleMs: window.idleMs, include: belongsTo(window.api) });
  return {
    action,
    firstMs: window.firstMs - window.fromMs,
    freshMs: window.doneMs - window.fromMs,
    ...(window.shownMs !== undefined ? { shownMs: window.shownMs - window.fromMs } : {}),
    ...(window.startup ? { startup: window.startup } : {}),
    figures: roundTripFigures(beforeDone, window.minimumRoundTrips),
    after: afterDone,
    abandoned: beforeDone.filter(wasAbandoned),
    why,
  };
}

/** The whole run: sign in (the cache fills), reload (first rows from the cache, then fresh), then each action. */
export async function runInVSCode(latencyMs: number, log: (line: string) => void, reloads = 3): Promise<NetworkRun> {
  const launcher = require(path.join(repoRoot, 'scripts', 'vscode', 'launch.js')) as Launcher;
  const runDir = fs.mkdtempSync(path.join(require('node:os').tmpdir() as string, 'desk-bench-net-'));
  const requestLog = path.join(runDir, 'requests.jsonl');
  const startupMarks = path.join(runDir, 'startup-marks.jsonl');
  const quietMs = latencyMs + 300;
  const profileDir = process.env.DESK_BENCH_PROFILE_DIR;
  const workbench = await launcher.startWorkbench({
    name: 'bench-net', seed: 'demo', emulatorLatencyMs: latencyMs, requestLog, viewport: { width: 1400, height: 1600 },
    // The web build saves after a delay by default; the desktop's default (off) makes the save the user's move.
    settings: { 'desk.calendar.daysAhead': 14, 'files.autoSave': 'off' },
    // Desk records its startup moments there (activate(), each view's cached rows handed to VS Code).
    // DESK_BENCH_PROFILE_DIR=DIR: CPU profiles of the last reload, the extension host's (extensionHostProfiler.js) and
    // the window's (window.cpuprofile), to see where a start's time goes.
    env: { DESK_STARTUP_MARKS: startupMarks, ...(profileDir ? { DESK_BENCH_PROFILE_DIR: profileDir, NODE_OPTIONS: `--require ${path.join(repoRoot, 'bench', 'support', 'extensionHostProfiler.js')}` } : {}) },
  });
  const rows: MeasuredAction[] = [];
  const startups: { view: string; splits: StartupSplit[] }[] = [];
  try {
    const { page } = workbench;
    log('seeding the big folder…');
    await seedBigFolder(workbench.emulatorUrl);
    await page.locator('.part.activitybar').waitFor({ state: 'visible', timeout: 60000 });
    const desk = page.locator('.part.activitybar [aria-label^="Desk"]').first();
    await desk.waitFor({ state: 'visible', timeout: 30000 });
    await desk.click();
    log('signing in…');
    await signInThroughConsent(workbench);
    await showOnlyViews(page, VIEWS.map((view) => view.title));
    // The Tasks view shows a list's tasks once the list is expanded (what its cache then keeps too).
    const myTasks = page.locator(`${pane('Tasks')} .monaco-list-row[role="treeitem"]`).filter({ has: page.locator('.label-name', { hasText: 'My Tasks' }) }).first();
    await myTasks.waitFor({ state: 'visible', timeout: 60000 });
    if ((await myTasks.getAttribute('aria-expanded')) !== 'true') await myTasks.click();
    const fresh = (view: ViewSpec): Watch => ({ key: `${view.title}:fresh`, all: [...view.rows, refreshingMark(view.title)] });
    await watch(page, VIEWS.map(fresh));
    await marksOf(page, VIEWS.map((view) => `${view.title}:fresh`));
    await networkIdle(requestLog, quietMs);

    // Window reload: the init script watches the new page from its first frame.
    // The rows of a reload come from the cache, marked "refreshing…": fresh is when that mark has gone again (a view
    // whose mark never shows falls back to the end of its last request, flagged in the table).
    const reloadWatches: Watch[] = VIEWS.flatMap((view) => [
      { key: `${view.title}:shown`, all: [{ selector: `.part.sidebar .pane-header[aria-label^="${view.title}"][aria-expanded="true"]` }] },
      { key: `${view.title}:first`, all: view.rows },
      { key: `${view.title}:marked`, all: [...view.rows, refreshingMark(view.title, false)] },
      { ...fresh(view), after: `${view.title}:marked` },
    ]);
    await page.addInitScript({ content: watcherCall(reloadWatches) });
    const perView = new Map<string, MeasuredAction[]>();
    for (let reload = 1; reload <= reloads; reload++) {
      const reloadAt = epochMs();
      log(`reloading the window (${reload} of ${reloads}) at ${new Date(reloadAt).toISOString()}…`);
      const profiler = profileDir && reload === reloads ? await page.context().newCDPSession(page) : undefined;
      if (profiler) {
        await profiler.send('Profiler.enable');
        await profiler.send('Profiler.setSamplingInterval', { interval: 500 });
        await profiler.send('Profiler.start');
      }
      await page.reload();
      const reloadMarks = await marksOf(page, VIEWS.map((view) => `${view.title}:first`), 120000);
      if (profiler) {
        const { profile } = await profiler.send('Profiler.stop');
        fs.writeFileSync(path.join(profileDir as string, 'window.cpuprofile'), JSON.stringify({ ...profile, deskReloadAt: reloadAt, deskFirstRows: reloadMarks, deskStoppedAt: epochMs() }));
      }
      const reloadIdle = await networkIdle(requestLog, quietMs, reloadAt);
      const settledMarks = await page.evaluate(`globalThis.__deskBench.marks`) as Record<string, number>;
      const afterReload = readRequestLog(requestLog).answered;
      // Wall-clock marks, to set beside Desk's log ("Desk timeline", "View cache … read at") and the extension host's.
      const firstRequest = afterReload.filter((record) => record.startMs >= reloadAt).reduce((first, record) => Math.min(first, record.startMs), Number.POSITIVE_INFINITY);
      log(`  marks: ${VIEWS.map((view) => `${view.title} shown ${new Date(settledMarks[`${view.title}:shown`] ?? 0).toISOString().slice(11)}, first rows ${new Date(settledMarks[`${view.title}:first`] ?? 0).toISOString().slice(11)}`).join('; ')}; first request ${Number.isFinite(firstRequest) ? new Date(firstRequest).toISOString().slice(11) : 'none'}`);
      const deskMarks = marksOfReload(startupMarks, reloadAt);
      log(`  Desk's marks (ms after the reload): ${[...deskMarks].map(([event, at]) => `${event} ${at - reloadAt}`).join(', ')}`);
      for (const view of VIEWS) {
        const marked = settledMarks[`${view.title}:fresh`];
        const lastEnd = afterReload.filter((record) => record.startMs >= reloadAt && belongsTo(view.api)(record)).reduce((latest, record) => Math.max(latest, record.endMs), 0);
        const row = measured(`reload → ${view.name}${marked === undefined ? ' (no "refreshing" mark: fresh = its last answer)' : ''}`, view.why, afterReload, {
          fromMs: reloadAt, firstMs: reloadMarks[`${view.title}:first`] as number, doneMs: marked ?? lastEnd,
          shownMs: settledMarks[`${view.title}:shown`] as number, idleMs: reloadIdle, api: view.api, minimumRoundTrips: view.minimumRoundTrips,
          startup: startupSplit(deskMarks, view, settledMarks[`${view.title}:shown`] as number, reloadMarks[`${view.title}:first`] as number),
        });
        perView.set(view.title, [...(perView.get(view.title) ?? []), row]);
      }
    }
    // Per view, the reload whose fresh rows came at the median time (a loaded machine spreads them); the startup
    // split is each part's median over the reloads.
    for (const view of VIEWS) {
      const runs = [...(perView.get(view.title) ?? [])].sort((a, b) => a.freshMs - b.freshMs);
      const median = runs[Math.floor(runs.length / 2)];
      const splits = runs.flatMap((run) => (run.startup ? [run.startup] : []));
      startups.push({ view: view.name, splits });
      if (median) rows.push({ ...median, action: `${median.action}${runs.length > 1 ? ` (median of ${runs.length})` : ''}` });
    }

    for (const [index, spec] of actions().entries()) {
      log(`${spec.action}…`);
      await spec.prepare?.(page);
      await networkIdle(requestLog, quietMs);
      const keys = { first: `action${index}:first`, done: `action${index}:done` };
      await watch(page, [{ key: keys.first, all: spec.first }, ...(spec.done ? [{ key: keys.done, all: spec.done }] : [])]);
      const fromMs = epochMs();
      await spec.act(page);
      const marks = await marksOf(page, spec.done ? [keys.first, keys.done] : [keys.first], 60000);
      const idleMs = await networkIdle(requestLog, quietMs, fromMs);
      const records = readRequestLog(requestLog).answered;
      const firstMs = marks[keys.first] as number;
      // The server's answer as the result: the end of the action's last write before the network went idle (a
      // refresh the write triggers comes after the result).
      const lastWriteEnd = records
        .filter((record) => record.startMs >= fromMs && record.startMs <= idleMs && record.method !== 'GET' && belongsTo(spec.api)(record))
        .reduce((latest, record) => Math.max(latest, record.endMs), firstMs);
      const doneMs = spec.doneByWrite ? lastWriteEnd : spec.done ? (marks[keys.done] as number) : firstMs;
      rows.push(measured(spec.action, spec.why, records, { fromMs, firstMs, doneMs, idleMs, api: spec.api, minimumRoundTrips: spec.minimumRoundTrips }));
    }
    await page.keyboard.press('Escape');
    return { latencyMs, rows, startups };
  } catch (error) {
    const shot = path.join(repoRoot, 'test-results', 'bench-network-failure.png');
    fs.mkdirSync(path.dirname(shot), { recursive: true });
    await workbench.page.screenshot({ path: shot }).catch(() => undefined);
    log(`failed; screenshot ${shot}`);
    throw error;
  } finally {
    await workbench.close();
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}

/** The table: action | first rows | fresh | requests | round trips | waterfall?, then each action's critical path. */
export function formatRun(run: NetworkRun): string[] {
  const ms = (value: number): string => `${Math.round(value)} ms`;
  const lines = [
    `Desk in VS Code 1.100.3 (code-server), emulator latency ${run.latencyMs} ms per API call; times from the user's move (reload: from page.reload)`,
    '',
    '| Action | First rows | Fresh | Requests | Round trips | Waterfall? |',
    '|---|---|---|---|---|---|',
  ];
  for (const row of run.rows) {
    const first = row.shownMs === undefined ? ms(row.firstMs) : `${ms(row.firstMs)} (view shown at ${ms(row.shownMs)}: +${ms(row.firstMs - row.shownMs)})`;
    const requests = `${row.figures.requests}${row.after.length > 0 ? ` (+${row.after.length} after)` : ''}`;
    const waterfall = row.figures.waterfall ? `yes: ${row.figures.roundTrips} for ${row.figures.needed} needed` : 'no';
    lines.push(`| ${row.action} | ${first} | ${ms(row.freshMs)} | ${requests} | ${row.figures.roundTrips} | ${waterfall} |`);
  }
  lines.push('', ...formatStartups(run.startups));
  lines.push('', 'Critical paths (each arrow is a request that started only after the one before it had ended):');
  for (const row of run.rows) {
    lines.push(`- ${row.action} (needs ${row.figures.needed}: ${row.why}): ${row.figures.chain.map(describeRequest).join(' → ') || 'no request'}`);
    if (row.after.length > 0) lines.push(`    after the result: ${row.after.map(describeRequest).join(', ')}`);
    if (row.abandoned.length > 0) lines.push(`    abandoned by Desk before their answer (not waited on): ${row.abandoned.map(describeRequest).join(', ')}`);
  }
  return lines;
}

/** The reload's split: VS Code's part before Desk runs, and Desk's share (each the median over the reloads). */
function formatStartups(startups: NetworkRun['startups']): string[] {
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
  const ms = (value: number): string => `${Math.round(value)} ms`;
  const lines = [
    'Where a reload\'s time goes from the view shown to its first rows (median over the reloads; Desk\'s marks, DESK_STARTUP_MARKS).',
    'Desk\'s share: from activate() or the view visible to Desk, whichever is later, to the rows on screen; of it, Desk answering VS Code\'s asks for rows, and the window (its asks, one tree level at a time, and rendering).',
    '',
    '| View | VS Code: shown → Desk\'s bundle | VS Code: bundle → activate() | VS Code: activate() → view visible to Desk | Desk\'s share | of which Desk answering | of which the window | Desk\'s share, each reload | activate() → rows on screen |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const { view, splits } of startups) {
    if (splits.length === 0) {
      lines.push(`| ${view} | no marks | | | | | | | |`);
      continue;
    }
    const of = (pick: (split: StartupSplit) => number): string => ms(median(splits.map(pick)));
    lines.push(`| ${view} | ${of((split) => split.shownToBundleMs)} | ${of((split) => split.bundleToActivateMs)} | ${of((split) => split.activateToVisibleMs)} | ${of((split) => split.deskMs)} | ${of((split) => split.answeringMs)} | ${of((split) => split.windowMs)} | ${splits.map((split) => ms(split.deskMs)).join(', ')} | ${of((split) => split.fromActivateMs)} |`);
  }
  return lines;
}
