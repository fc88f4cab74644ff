/**
 * Figures for the Drive side of the extension (printed; nothing passes or fails on speed):
 *  1. time to the first visible page of a 10,000-file folder through DriveClient + the tree model (no window),
 *     and to every page through "Load more";
 *  2. latency from a change made by another client to the change poller noticing it: long poll vs polling;
 *  3. requests per hour of the poller's schedule (active, idle, unfocused, network down), from a fake clock
 *     run through a simulated hour;
 *  4. the same 10,000-file folder expanded in the real Drive tree (code-server's VS Code through the test
 *     harness): from the click to the first child row on screen, and for one "Load more…".
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DriveClient } from '../src/api/drive';
import { HttpClient } from '../src/api/http';
import { Clock, DEFAULT_SCHEDULE, TokenStore } from '../src/core/sync/poller';
import { ChangePage, ChangePoller, ChangeSource } from '../src/features/drive/changes/poller';
import { driveServiceFor } from '../src/emulator/drive/service';
import { findUser } from '../src/emulator/identity/users';
import { startEmulator, RunningEmulator } from '../src/emulator/emulator';
import { FOLDER_MIME_TYPE } from '../src/shared/schemas/drive';
import { adaptDriveClient, changeSourceFor, isInvalidPageToken } from '../src/features/drive/driveAdapter';
import { DriveTreeModel, FileNode } from '../src/features/drive/tree/model';
import { ms as milliseconds, percentiles, runWhenMain } from './support/stats';

const ms = (value: number): string => milliseconds(value, 1);

function clientFor(emulator: RunningEmulator, email: string): DriveClient {
  const token = emulator.tokenFor(email).accessToken;
  return new DriveClient(new HttpClient({ rootUrl: () => emulator.url, token: async () => token }));
}

async function bigFolder(): Promise<void> {
  const emulator = await startEmulator({ port: 0 });
  try {
    const alice = findUser('alice@example.com');
    if (!alice) throw new Error('no demo user alice');
    const { model } = driveServiceFor(emulator.deps);
    const folder = model.insert(alice, { title: 'big folder', mimeType: FOLDER_MIME_TYPE });
    for (let index = 0; index < 200; index++) model.insert(alice, { title: `sub-${index}`, mimeType: FOLDER_MIME_TYPE, parents: [{ id: folder.id }] });
    for (let index = 0; index < 9_800; index++) model.insert(alice, { title: `file-${index}.txt`, parents: [{ id: folder.id }] });
    await emulator.deps.store.flush();

    console.log('drive tree: a 10,000-file folder (200 subfolders) expanded through DriveClient + DriveTreeModel (over HTTP, memory store, no window)');
    console.log('page size | first visible page p50 / p95 (fresh client each time) | every page via "Load more" | pages');
    for (const pageSize of [100, 200, 1000]) {
      const firstPage: number[] = [];
      let allPages = 0;
      let pages = 0;
      for (let run = 0; run < 8; run++) {
        const tree = new DriveTreeModel(adaptDriveClient(clientFor(emulator, 'alice@example.com')), { pageSize });
        const node: FileNode = { kind: 'file', id: `drive:myDrive/${folder.id}`, parent: tree.section('myDrive'), item: { id: folder.id, title: 'big folder', mimeType: FOLDER_MIME_TYPE } };
        const started = performance.now();
        const children = await tree.children(node);
        firstPage.push(performance.now() - started);
        if (children[0]?.kind !== 'file' || !children[0].item.title?.startsWith('sub-')) throw new Error('folders did not come first');
        if (run === 0) {
          pages = 1;
          while (await tree.loadMore(node)) pages++;
          allPages = performance.now() - started;
          const all = await tree.children(node);
          if (all.filter((entry) => entry.kind === 'file').length !== 10_000) throw new Error('not every file was listed');
        }
      }
      const { p50, p95 } = percentiles(firstPage);
      console.log(`${String(pageSize).padStart(9)} | ${`${ms(p50)} / ${ms(p95)}`.padEnd(54)} | ${ms(allPages).padEnd(26)} | ${pages}`);
    }
  } finally {
    await emulator.close();
  }
}

async function changeLatency(): Promise<void> {
  const emulator = await startEmulator({ port: 0, seed: 'demo' });
  try {
    console.log('\nchange poller: latency from another client\'s insert to the poller reporting it (focused, active window)');
    console.log('mode                           | samples | p50       | p95       | max');
    for (const mode of ['long poll (emulator)', `polling every ${DEFAULT_SCHEDULE.activeMs / 1000} s (Google)`] as const) {
      const longPoll = mode.startsWith('long');
      const client = clientFor(emulator, 'alice@example.com');
      const real = changeSourceFor(client);
      // Against Google the poller never hears of long polling: hide the announcement and the wait.
      const source: ChangeSource = longPoll ? real : {
        startToken: (signal) => real.startToken(signal),
        listPage: async (request) => ({ ...(await real.listPage({ pageToken: request.pageToken, signal: request.signal })), longPollAvailable: false }),
      };
      const values = new Map<string, string>();
      const tokens: TokenStore = { get: (key) => values.get(key), set: (key, value) => void (value === undefined ? values.delete(key) : values.set(key, value)) };
      const waiting = new Map<string, (at: number) => void>();
      const poller = new ChangePoller({
        source,
        tokens,
        tokenKey: 'bench',
        onChanges: (outcome) => {
          const now = performance.now();
          for (const change of outcome.changes) waiting.get(change.file?.title ?? '')?.(now);
        },
        isInvalidToken: isInvalidPageToken,
      });
      poller.setSignedIn(true);
      poller.start();
      const other = clientFor(emulator, 'alice@example.com');
      const samples: number[] = [];
      try {
        while (!values.get('bench') || poller.polls < 2) await new Promise((resolve) => setTimeout(resolve, 20));
        for (let sample = 0; sample < 12; sample++) {
          poller.noteActivity();
          // Changes arrive at random moments relative to the poll schedule.
          await new Promise((resolve) => setTimeout(resolve, Math.random() * DEFAULT_SCHEDULE.activeMs));
          const title = `bench-${mode.slice(0, 4)}-${sample}`;
          const noticed = new Promise<number>((resolve) => waiting.set(title, resolve));
          const started = performance.now();
          await other.insertFile({ title, mimeType: 'text/plain', parents: [{ id: 'root' }] });
          samples.push((await noticed) - started);
        }
      } finally {
        poller.stop();
      }
      const { p50, p95, max } = percentiles(samples);
      console.log(`${mode.padEnd(30)} | ${String(samples.length).padStart(7)} | ${ms(p50).padEnd(9)} | ${ms(p95).padEnd(9)} | ${ms(max)}${longPoll ? `  (long poll used: ${poller.usesLongPoll})` : ''}`);
    }
  } finally {
    await emulator.close();
  }
}

/** Time stands still until advanced; timers fire in order. */
class SimulatedClock implements Clock {
  private time = 0;
  private next = 1;
  private readonly timers = new Map<number, { at: number; callback: () => void }>();
  now(): number { return this.time; }
  setTimeout(callback: () => void, delay: number): unknown {
    const id = this.next++;
    this.timers.set(id, { at: this.time + delay, callback });
    return id;
  }
  clearTimeout(handle: unknown): void { this.timers.delete(handle as number); }
  async runUntil(end: number, onTick?: (now: number) => void): Promise<void> {
    for (;;) {
      for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
      let due: [number, { at: number; callback: () => void }] | undefined;
      for (const entry of this.timers) if (entry[1].at <= end && (!due || entry[1].at < due[1].at)) due = entry;
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      onTick?.(this.time);
      due[1].callback();
    }
    this.time = end;
  }
}

async function requestsPerHour(): Promise<void> {
  console.log('\nchange poller: requests in one simulated hour (fake clock; nothing changes unless said)');
  console.log('situation                                   | requests/hour');
  const scenarios: { name: string; focused: boolean; activeEverySeconds?: number; failing?: boolean; changeEveryMinutes?: number; longPoll?: boolean }[] = [
    { name: 'focused, user active all hour (polling)', focused: true, activeEverySeconds: 10 },
    { name: 'focused, user active all hour (long poll)', focused: true, activeEverySeconds: 10, longPoll: true },
    { name: 'focused but idle', focused: true },
    { name: 'unfocused', focused: false },
    { name: 'unfocused, a change every 10 min', focused: false, changeEveryMinutes: 10 },
    { name: 'unfocused, network down', focused: false, failing: true },
  ];
  for (const scenario of scenarios) {
    const clock = new SimulatedClock();
    let token = 1;
    let pending = 0;
    const source: ChangeSource = {
      startToken: async () => String(token),
      listPage: async (request): Promise<ChangePage> => {
        if (scenario.failing) throw new Error('network down');
        // A long poll the server holds: modelled as answering after the full wait (nothing changed).
        if (request.waitSeconds !== undefined && pending === 0) await new Promise<void>((resolve) => clock.setTimeout(resolve, request.waitSeconds as number * 1000));
        const items = Array.from({ length: pending }, (_, index) => ({ fileId: `f${token + index}` }));
        token += pending;
        pending = 0;
        return { items, resumeToken: String(token), longPollAvailable: scenario.longPoll === true };
      },
    };
    const values = new Map<string, string>([['sim', '1']]);
    const poller = new ChangePoller({
      source,
      tokens: { get: (key) => values.get(key), set: (key, value) => void (value === undefined ? values.delete(key) : values.set(key, value)) },
      tokenKey: 'sim',
      clock,
      onChanges: () => undefined,
      onError: () => undefined,
    });
    poller.setFocused(scenario.focused);
    poller.setSignedIn(true);
    poller.start();
    if (scenario.longPoll) await clock.runUntil(DEFAULT_SCHEDULE.activeMs * 2);
    const warmup = clock.now();
    const before = poller.requestCount;
    const hour = 3_600_000;
    let lastActivity = warmup;
    let lastChange = warmup;
    // Step in one-second slices so activity and changes happen between polls.
    for (let time = warmup; time < warmup + hour; time += 1000) {
      if (scenario.activeEverySeconds && time - lastActivity >= scenario.activeEverySeconds * 1000) {
        poller.noteActivity();
        lastActivity = time;
      }
      if (scenario.changeEveryMinutes && time - lastChange >= scenario.changeEveryMinutes * 60_000) {
        pending++;
        lastChange = time;
      }
      await clock.runUntil(time + 1000);
    }
    poller.stop();
    console.log(`${scenario.name.padEnd(43)} | ${poller.requestCount - before}`);
  }
}

type Launcher = typeof import('../scripts/vscode/launch');
const repoRoot = path.resolve(__dirname, '..', '..');

export async function realTree(): Promise<void> {
  const launcherPath = path.join(repoRoot, 'scripts', 'vscode', 'launch.js');
  const paths = require(path.join(repoRoot, 'scripts', 'vscode', 'paths.js')) as { serverMainPath(): string };
  if (!fs.existsSync(paths.serverMainPath())) {
    console.log('\nreal tree: skipped (code-server is not installed: node scripts/vscode/install-code-server.js)');
    return;
  }
  const launcher = require(launcherPath) as Launcher;
  const ui = require(path.join(repoRoot, 'out', 'test', 'ui', 'workbench.js')) as typeof import('../test/ui/workbench');
  // Prepare the emulator's data folder in-process (fast inserts), then hand it to the harness's emulator.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-bench-drive-'));
  const seeding = await startEmulator({ port: 0, seed: 'demo', dataDir });
  const alice = findUser('alice@example.com');
  if (!alice) throw new Error('no demo user alice');
  const { model } = driveServiceFor(seeding.deps);
  // One folder per run, so every run expands a folder Desk has never listed.
  const RUNS = 3;
  for (let run = 0; run < RUNS; run++) {
    const folder = model.insert(alice, { title: `big folder ${run}`, mimeType: FOLDER_MIME_TYPE });
    for (let index = 0; index < 200; index++) model.insert(alice, { title: `sub-${run}-${index}`, mimeType: FOLDER_MIME_TYPE, parents: [{ id: folder.id }] });
    for (let index = 0; index < 9_800; index++) model.insert(alice, { title: `file-${run}-${index}.txt`, parents: [{ id: folder.id }] });
  }
  await seeding.deps.store.flush();
  await seeding.close();

  const workbench = await launcher.startWorkbench({ name: 'bench-drive', seed: 'demo', dataDir });
  try {
    const { page } = workbench;
    const rows = page.locator('.part.sidebar .monaco-list-row[role="treeitem"]');
    const row = (label: string) => rows.filter({ has: page.locator('.label-name', { hasText: label }) }).first();
    await page.locator('.part.activitybar [aria-label^="Desk"]').first().click();
    await ui.signInThroughConsent(workbench, { consentTimeoutMs: 60000 });
    await ui.collapseView(page, 'Tasks');
    await row('big folder 0').waitFor({ state: 'visible', timeout: 60000 });

    const expand: number[] = [];
    const loadMore: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const big = row(`big folder ${run}`);
      await big.waitFor({ state: 'visible', timeout: 30000 });
      let started = performance.now();
      await big.locator('.monaco-tl-twistie').click();
      await row(`sub-${run}-0`).waitFor({ state: 'visible', timeout: 30000 });
      expand.push(performance.now() - started);
      // "Load more…" sits after the first page of 200: bring it on screen with the tree's own scrolling.
      const more = row('Load more…');
      await more.scrollIntoViewIfNeeded({ timeout: 30000 }).catch(() => undefined);
      await page.keyboard.press('End');
      await more.waitFor({ state: 'visible', timeout: 30000 });
      started = performance.now();
      await more.click();
      // Page 2 holds the first files; sorted after the 200 folders, the first one lands where "Load more…" was.
      await row(`file-${run}-0.txt`).waitFor({ state: 'visible', timeout: 30000 });
      loadMore.push(performance.now() - started);
      // Collapse again so the next folder's row is on screen.
      await page.keyboard.press('Home');
      const expanded = row(`big folder ${run}`);
      await expanded.waitFor({ state: 'visible', timeout: 30000 });
      await expanded.locator('.monaco-tl-twistie').click();
    }
    const first = percentiles(expand);
    const more = percentiles(loadMore);
    console.log('\nreal Drive tree (code-server VS Code 1.100.3, headless Chromium): 10,000-file folder, page size 200');
    console.log(`click → first child row on screen: p50 ${ms(first.p50)}, max ${ms(first.max)} (3 runs, each a folder not listed before)`);
    console.log(`click "Load more…" → rows updated:  p50 ${ms(more.p50)}, max ${ms(more.max)}`);
  } catch (error) {
    const file = path.join(repoRoot, 'test-results', 'bench-drive-real-tree-failed.png');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await workbench.page.screenshot({ path: file }).catch(() => undefined);
    throw error;
  } finally {
    await workbench.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  await bigFolder();
  await changeLatency();
  await requestsPerHour();
  await realTree();
}

runWhenMain(module, run);
