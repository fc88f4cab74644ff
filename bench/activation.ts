// Activation of Desk inside a real VS Code (code-server's VS Code 1.100.3 through the test harness), for the
// production build the .vsix ships: VS Code's own figure ("Show Running Extensions": code loading + activate call)
// in ordinary windows where Desk activates at startup as for a user, alternated window by window with an extension
// whose activate() does nothing (same activation events, also installed from a .vsix), that figure taken apart
// with the extension host's own performance marks, the bytes loaded at activation, and how many requests Desk sends
// to its backend before the user does anything (the answer should be 0: activation must not touch the network; a
// counting proxy between Desk and the emulator sees every request). The start-up budget (README, "Benchmarks"):
// Desk's median at most twice the do-nothing extension's, at most 50 KB loaded at activation; over it, run() throws.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as esbuild from 'esbuild';
import type { Page } from 'playwright-core';
import type { ActivationProbeResult, HostMark } from './host/activationProbe';

type Launcher = typeof import('../scripts/vscode/launch');

/** Windows of Desk and of the do-nothing extension, one of each per alternation (`--alternations N`). */
const ALTERNATIONS = numberFlag('--alternations') ?? 10;
/** Probe windows, for the bytes loaded at activation and the requests before any user action (`--probes N`). */
const PROBES = numberFlag('--probes') ?? 3;
const DESK_ID = 'desk-dev.desk';
/** The start-up budget: Desk's median activation at most this many times the do-nothing extension's… */
const MAX_RATIO = 2;
/** …and at most this many bytes of Desk's files loaded at activation. */
const MAX_BYTES_AT_ACTIVATION = 50_000;

/** An extension as the running-extensions editor names it and the extension host's marks identify it. */
interface Subject {
  readonly label: string;
  readonly id: string;
  readonly displayName: string;
  readonly vsix: string;
}

function numberFlag(name: string): number | undefined {
  const at = process.argv.indexOf(name);
  const value = at >= 0 ? Number(process.argv[at + 1]) : NaN;
  return Number.isInteger(value) && value > 0 ? value : undefined;
}
const repoRoot = path.resolve(__dirname, '..', '..');

interface CountingProxy {
  url: string;
  requests: () => string[];
  close: () => Promise<void>;
}

/** Forwards to `target` and remembers each request's method and path. */
async function startCountingProxy(target: string): Promise<CountingProxy> {
  const seen: string[] = [];
  const upstream = new URL(target);
  const server = http.createServer((request, response) => {
    seen.push(`${request.method ?? 'GET'} ${request.url ?? '/'}`);
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: request.headers },
      (reply) => {
        response.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(response);
      },
    );
    forward.on('error', () => {
      response.writeHead(502);
      response.end();
    });
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => [...seen],
    close: () => new Promise<void>((resolve) => server.close(() => { resolve(); })),
  };
}

interface ProductionBuild {
  /** The extension folder: production bundles and the manifest, as the .vsix holds them. */
  readonly dir: string;
  readonly vsix: string;
}

/**
 * The production bundles (esbuild.js's own options) and the files the .vsix ships, in a temporary folder, packaged
 * with vsce as scripts/package.js does. Built aside so the shared dist/ (a development build) is left alone.
 */
async function productionBuild(): Promise<ProductionBuild> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-bench-prod-'));
  const { build } = require(path.join(repoRoot, 'node_modules', 'esbuild')) as typeof esbuild;
  const { bundleOptions } = require(path.join(repoRoot, 'esbuild.js')) as { bundleOptions: (mode: { production: boolean }) => esbuild.BuildOptions[] };
  await Promise.all(bundleOptions({ production: true }).map((options) =>
    build({ ...options, absWorkingDir: repoRoot, outfile: path.join(dir, options.outfile ?? ''), logLevel: 'silent' })));
  for (const file of ['package.json', 'package.nls.json', 'package.nls.qps-ploc.json', 'README.md', 'LICENSE', 'CHANGELOG.md', '.vscodeignore']) {
    fs.copyFileSync(path.join(repoRoot, file), path.join(dir, file));
  }
  for (const folder of ['l10n', 'media']) fs.cpSync(path.join(repoRoot, folder), path.join(dir, folder), { recursive: true });
  const vsix = path.join(dir, 'desk-bench.vsix');
  execFileSync(process.execPath, [path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--out', vsix], { cwd: dir, stdio: 'pipe' });
  return { dir, vsix };
}

/**
 * A development extension beside the installed Desk that hands the bench the extension host's marks. It activates
 * only on its command, which the bench runs after startup, so it is not part of the activation it observes.
 */
function marksProbeExtension(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-bench-marks-'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({
    name: 'desk-bench-marks',
    publisher: 'desk-bench',
    version: '0.0.1',
    engines: { vscode: '^1.100.0' },
    main: './extension.js',
    activationEvents: [],
    contributes: { commands: [{ command: 'deskBench.recordMarks', title: 'Desk Bench: Record Extension Host Marks' }] },
  }));
  fs.writeFileSync(path.join(dir, 'extension.js'), `const vscode = require('vscode');
const fs = require('fs');
exports.activate = (context) => {
  context.subscriptions.push(vscode.commands.registerCommand('deskBench.recordMarks', () => {
    const store = globalThis.MonacoPerformanceMarks;
    const marks = (store ? store.getMarks() : []).filter((m) => /^code\\/extHost\\/(will|did)(LoadExtensionCode|ActivateExtension)\\//.test(m.name));
    fs.writeFileSync(process.env.DESK_TEST_RESULT, JSON.stringify(marks));
  }));
};
`);
  return dir;
}

const DO_NOTHING = { publisher: 'desk-bench', name: 'do-nothing', displayName: 'Desk Bench Do Nothing' };

/**
 * The yardstick: an extension whose activate() is empty, with Desk's activation events, packaged with vsce as Desk
 * is, so both are installed, loaded and activated the same way and only what Desk does at activation differs.
 */
function doNothingExtension(activationEvents: readonly string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-bench-nothing-'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({
    ...DO_NOTHING,
    description: 'Activates on Desk\'s events and does nothing: the activation benchmark\'s yardstick.',
    version: '0.0.1',
    license: 'MIT',
    repository: { type: 'git', url: 'https://example.invalid/desk-bench-do-nothing.git' },
    engines: { vscode: '^1.100.0' },
    main: './extension.js',
    activationEvents,
  }));
  fs.writeFileSync(path.join(dir, 'extension.js'), 'exports.activate = () => {};\nexports.deactivate = () => {};\n');
  fs.writeFileSync(path.join(dir, 'README.md'), '# Do nothing\n\nThe activation benchmark\'s yardstick.\n');
  fs.writeFileSync(path.join(dir, 'LICENSE'), 'MIT\n');
  const vsix = path.join(dir, 'do-nothing.vsix');
  execFileSync(process.execPath, [path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--out', vsix], { cwd: dir, stdio: 'pipe' });
  return vsix;
}

async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input.input');
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 15000 });
  await input.press('Enter');
}

/**
 * VS Code's own figure for `subject`, as "Developer: Show Running Extensions" shows it (the extension host's code
 * loading + activate call), read from that editor in the workbench.
 */
async function runningExtensionsFigure(page: Page, subject: Subject): Promise<number | undefined> {
  await runCommand(page, 'Show Running Extensions');
  const editor = page.locator('.part.editor');
  await editor.locator('text=/Activation:/').first().waitFor({ timeout: 15000 });
  // On a busy machine the subject may still be activating when the editor opens (its row shows no figure yet): ask
  // again for a while. Each extension is a block of lines: its name (its display name, or its id for a development
  // extension), the version, the host, then "…Activation: N ms".
  const deadline = Date.now() + 20000;
  let lines: string[] = [];
  do {
    lines = (await editor.innerText()).split('\n').map((line) => line.trim());
    const at = lines.findIndex((line) => line === subject.displayName || line === subject.id);
    const found = at < 0 ? undefined : lines.slice(at + 1, at + 6).map((line) => /Activation:\s*(\d+)\s*ms/i.exec(line)).find((match) => match !== null);
    if (found) return Number(found[1]);
    await page.waitForTimeout(500);
  } while (Date.now() < deadline);
  console.log(`  (no figure of ${subject.label} in the running extensions: ${lines.filter((line) => line && !/^[\d.]+$|:\d+$/.test(line)).join(' | ').slice(0, 300)})`);
  return undefined;
}

/** An extension's activation taken apart with the extension host's marks (milliseconds; Date.now() resolution). */
interface MarkFigures {
  /** require() of dist/extension.js, as the host marks it around the require alone. */
  readonly loadMs: number;
  /** From "will activate" to "did activate": the activate call (its returned value resolves at once). */
  readonly activateMs: number;
  /**
   * The extensions whose code the host loaded in the same activation batch just before Desk's, and how long that
   * took. VS Code starts the code-loading clock of every extension of a batch (e.g. all onStartupFinished ones)
   * together and then loads them one after another, so this time is inside Desk's "code loading" figure.
   */
  readonly aheadMs: number;
  readonly ahead: string[];
}

function markFigures(marks: readonly HostMark[], id = DESK_ID): MarkFigures | undefined {
  const time = (name: string): number | undefined => marks.find((mark) => mark.name === name)?.startTime;
  const [willLoad, didLoad, willActivate, didActivate] = ['willLoadExtensionCode', 'didLoadExtensionCode', 'willActivateExtension', 'didActivateExtension'].map((what) => time(`code/extHost/${what}/${id}`));
  if (willLoad === undefined || didLoad === undefined || willActivate === undefined || didActivate === undefined) return undefined;
  // Walk back through back-to-back loads: each ended (didLoad) when the next one started (willLoad).
  const loads = marks.filter((mark) => /LoadExtensionCode\//.test(mark.name));
  const ahead: string[] = [];
  let start = willLoad;
  let index = loads.findIndex((mark) => mark.name === `code/extHost/willLoadExtensionCode/${id}`);
  while (index >= 2) {
    const previousEnd = loads.at(index - 1);
    const previousStart = loads.at(index - 2);
    if (!previousEnd || !previousStart || !previousEnd.name.includes('/didLoadExtensionCode/') || !previousStart.name.includes('/willLoadExtensionCode/')) break;
    if (start - previousEnd.startTime > 1) break;
    ahead.unshift(previousStart.name.slice(previousStart.name.lastIndexOf('/') + 1));
    start = previousStart.startTime;
    index -= 2;
  }
  return { loadMs: didLoad - willLoad, activateMs: didActivate - willActivate, aheadMs: willLoad - start, ahead };
}

interface OrdinaryWindow {
  readonly figure: number | undefined;
  readonly marks: MarkFigures | undefined;
  /** The machine's one-minute load average as the window opened. */
  readonly load: number;
}

/** A fresh, ordinary window with the subject's .vsix installed: it activates at startup as for a user. */
async function ordinaryWindowOnce(launcher: Launcher, subject: Subject, marksProbe: string): Promise<OrdinaryWindow> {
  const load = os.loadavg()[0] ?? NaN;
  const workbench = await launcher.startWorkbench({ name: 'bench-activation-figure', seed: 'none', vsix: subject.vsix, extensionPath: marksProbe });
  try {
    // Desk activates on startup-finished; give the window a moment to get there.
    await workbench.page.waitForTimeout(5000);
    let marks: MarkFigures | undefined;
    try {
      await runCommand(workbench.page, 'Desk Bench: Record Extension Host Marks');
      // The probe extension activates on its command first: on a busy machine that alone takes seconds.
      for (let waited = 0; waited < 15000 && !fs.existsSync(workbench.resultFile); waited += 250) await workbench.page.waitForTimeout(250);
      marks = markFigures(JSON.parse(fs.readFileSync(workbench.resultFile, 'utf8')) as HostMark[], subject.id);
    } catch {
      marks = undefined;
    }
    await workbench.page.keyboard.press('Escape');
    return { figure: await runningExtensionsFigure(workbench.page, subject), marks, load };
  } catch (error) {
    console.log(`  (a window of ${subject.label} gave no figure: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    return { figure: undefined, marks: undefined, load };
  } finally {
    await workbench.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

/** A probe window: the production build as the development extension, activated by the probe (alone, not in a batch). */
async function probeWindowOnce(launcher: Launcher, build: ProductionBuild): Promise<{ probe: ActivationProbeResult; requests: string[]; windowMs: number }> {
  const emulator = await launcher.startEmulator({ seed: 'demo' });
  const proxy = await startCountingProxy(emulator.url);
  let workbench: Awaited<ReturnType<Launcher['startWorkbench']>> | undefined;
  try {
    let finished: (code: number) => void = () => undefined;
    const exited = new Promise<number>((resolve) => (finished = resolve));
    const started = Date.now();
    workbench = await launcher.startWorkbench({
      name: 'bench-activation',
      seed: 'none',
      settings: { 'desk.emulator.url': proxy.url },
      testsPath: path.join(repoRoot, 'out', 'bench', 'host', 'activationProbe'),
      onExit: (code) => { finished(code); },
      waitForWorkbench: false,
      // Not DESK_VSIX: the probe runs as an extension test, which needs a development extension.
      vsix: '',
      extensionPath: build.dir,
    });
    const code = await launcher.withTimeout(exited, 120000, 'the activation probe');
    const windowMs = Date.now() - started;
    if (code !== 0) throw new Error(`the activation probe failed (exit ${code}); see ${workbench.serverLog}`);
    const probe = JSON.parse(fs.readFileSync(workbench.resultFile, 'utf8')) as ActivationProbeResult;
    return { probe, requests: proxy.requests(), windowMs };
  } finally {
    await workbench?.close();
    await proxy.close();
    await emulator.stop();
  }
}

const spread = (values: number[], digits = 0): string => (values.length ? `${median(values).toFixed(digits)} ms  (min ${Math.min(...values).toFixed(digits)}, max ${Math.max(...values).toFixed(digits)})  [${values.map((value) => value.toFixed(digits)).join(', ')}]` : 'n/a');
const kb = (bytes: number): string => `${(bytes / 1000).toFixed(1)} KB`;
/** How busy the machine was while windows opened: figures from a busy machine are not comparable. */
const loadOf = (windows: readonly OrdinaryWindow[]): string => {
  const loads = windows.map((window) => window.load);
  return `load average ${median(loads).toFixed(1)} (${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}) on ${os.cpus().length} CPUs`;
};

export async function run(): Promise<void> {
  const launcher = require(path.join(repoRoot, 'scripts', 'vscode', 'launch.js')) as Launcher;
  const build = await productionBuild();
  const marksProbe = marksProbeExtension();
  const { activationEvents = [] } = JSON.parse(fs.readFileSync(path.join(build.dir, 'package.json'), 'utf8')) as { activationEvents?: string[] };
  const nothingVsix = doNothingExtension(activationEvents);
  const desk: Subject = { label: 'Desk', id: DESK_ID, displayName: 'Desk', vsix: build.vsix };
  const nothing: Subject = { label: 'do-nothing', id: `${DO_NOTHING.publisher}.${DO_NOTHING.name}`, displayName: DO_NOTHING.displayName, vsix: nothingVsix };
  try {
    const windows = new Map<Subject, OrdinaryWindow[]>([[desk, []], [nothing, []]]);
    for (let i = 0; i < ALTERNATIONS; i++) {
      // Each pair starts with the other one than the last, so a machine growing busier or quieter weighs on both alike.
      for (const subject of i % 2 === 0 ? [desk, nothing] : [nothing, desk]) windows.get(subject)?.push(await ordinaryWindowOnce(launcher, subject, marksProbe));
    }
    const probes: Awaited<ReturnType<typeof probeWindowOnce>>[] = [];
    for (let i = 0; i < PROBES; i++) probes.push(await probeWindowOnce(launcher, build));

    const deskWindows = windows.get(desk) ?? [];
    const nothingWindows = windows.get(nothing) ?? [];
    const figuresOf = (list: readonly OrdinaryWindow[]): number[] => list.map((window) => window.figure).filter((ms): ms is number => ms !== undefined);
    const marksOf = (list: readonly OrdinaryWindow[]): MarkFigures[] => list.map((window) => window.marks).filter((figure): figure is MarkFigures => figure !== undefined);
    const deskFigures = figuresOf(deskWindows);
    const nothingFigures = figuresOf(nothingWindows);
    const ratio = median(deskFigures) / median(nothingFigures);
    console.log(`activation of the production build (${kb(fs.statSync(build.vsix).size)} .vsix) in a real VS Code 1.100.3 extension host, ${ALTERNATIONS} alternations of fresh windows: Desk, and an extension with Desk's activation events whose activate() does nothing, each installed from a .vsix and activated at startup; medians:`);
    console.log('  VS Code\'s own figure ("Show Running Extensions": code loading + activate call):');
    console.log(`    Desk:       ${spread(deskFigures)}  ${loadOf(deskWindows)}`);
    console.log(`    do-nothing: ${spread(nothingFigures)}  ${loadOf(nothingWindows)}`);
    console.log(`    ratio of the medians, Desk / do-nothing: ${ratio.toFixed(2)}×  (budget: at most ${MAX_RATIO}×)`);
    const deskMarks = marksOf(deskWindows);
    const nothingMarks = marksOf(nothingWindows);
    if (deskMarks.length) {
      console.log('  the same windows, from the extension host\'s own marks:');
      console.log(`    Desk's code loading (the require of dist/extension.js): ${spread(deskMarks.map((figure) => figure.loadMs))}`);
      console.log(`    Desk's activate call: ${spread(deskMarks.map((figure) => figure.activateMs))}`);
      console.log(`    Desk's own share of VS Code's figure (load + activate call): ${spread(deskMarks.map((figure) => figure.loadMs + figure.activateMs))}`);
      if (nothingMarks.length) console.log(`    the do-nothing extension's (load + activate call): ${spread(nothingMarks.map((figure) => figure.loadMs + figure.activateMs))}`);
      const ahead = [...new Set(deskMarks.flatMap((figure) => figure.ahead))];
      console.log(`    loading the extensions ahead of Desk in its activation batch (${ahead.join(', ') || 'none'}), counted in Desk's figure by VS Code: ${spread(deskMarks.map((figure) => figure.aheadMs))}`);
    } else {
      console.log('  (no extension host marks were recorded)');
    }

    const alone = probes.map((r) => markFigures(r.probe.marks)).filter((figure): figure is MarkFigures => figure !== undefined);
    const reported = probes.map((r) => r.probe.reportedActivationMs).filter((ms): ms is number => ms !== undefined);
    const calls = probes.filter((r) => !r.probe.wasActive).map((r) => r.probe.activateCallMs);
    console.log(`  activated alone (by the benchmark's probe, the production build as a development extension, ${PROBES} windows):`);
    if (alone.length) console.log(`    VS Code's marks, code loading + activate call: ${spread(alone.map((figure) => figure.loadMs + figure.activateMs))}`);
    console.log(`    Desk's own activationTimeMs (activate call): ${reported.length ? spread(reported, 1) : 'not exported'}`);
    console.log(calls.length ? `    extension.activate() awaited from the host (code loading + activate call): ${spread(calls, 1)}` : '    extension.activate(): Desk was already active when the probe ran');
    console.log(`    window open to probe done (includes a 3 s idle wait): ${median(probes.map((r) => r.windowMs)).toFixed(0)} ms`);
    const first = probes.find((r) => !r.probe.wasActive)?.probe;
    const bytesAtActivation = first?.loadedAtActivation.reduce((sum, entry) => sum + entry.bytes, 0);
    if (first) {
      console.log(`  loaded during activation: ${kb(bytesAtActivation ?? 0)} in ${first.loadedAtActivation.length} files (${first.loadedAtActivation.map((entry) => `${path.relative(build.dir, entry.file)} ${kb(entry.bytes)}`).join(', ')})  (budget: at most ${kb(MAX_BYTES_AT_ACTIVATION)})`);
      console.log(`  loaded after activation returned: ${first.loadedAfterwards.map((entry) => `${path.relative(build.dir, entry.file)} ${kb(entry.bytes)}`).join(', ') || 'nothing'}`);
    }
    const requests = probes.flatMap((r) => r.requests);
    console.log(`  requests to the backend before any user action: ${requests.length}${requests.length ? `  (${[...new Set(requests)].join('; ')})` : ''}`);
    if (requests.length) console.log('  WARNING: activation should not touch the network');

    const overBudget = budgetBreaches({ deskFigures, nothingFigures, windowsEach: ALTERNATIONS, ratio, bytesAtActivation });
    if (overBudget.length) {
      const banner = '!'.repeat(100);
      console.error(`${banner}\nSTART-UP BUDGET EXCEEDED (README, "Benchmarks"):\n${overBudget.map((line) => `  - ${line}`).join('\n')}\n${banner}`);
      throw new Error(`the start-up budget is exceeded: ${overBudget.join('; ')}`);
    }
    console.log(`  within the start-up budget: ${ratio.toFixed(2)}× the do-nothing extension (at most ${MAX_RATIO}×), ${kb(bytesAtActivation ?? 0)} at activation (at most ${kb(MAX_BYTES_AT_ACTIVATION)})`);
  } finally {
    fs.rmSync(build.dir, { recursive: true, force: true });
    fs.rmSync(marksProbe, { recursive: true, force: true });
    fs.rmSync(path.dirname(nothingVsix), { recursive: true, force: true });
  }
}

/** What breaks the start-up budget, in words; also a run that could not measure it (too few figures) breaks it. */
function budgetBreaches(measured: { deskFigures: number[]; nothingFigures: number[]; windowsEach: number; ratio: number; bytesAtActivation: number | undefined }): string[] {
  const breaches: string[] = [];
  const enough = Math.ceil(measured.windowsEach / 2);
  if (measured.deskFigures.length < enough || measured.nothingFigures.length < enough) {
    breaches.push(`too few windows gave a figure to compare (Desk ${measured.deskFigures.length}, do-nothing ${measured.nothingFigures.length} of ${measured.windowsEach} each)`);
  } else if (!(measured.ratio <= MAX_RATIO)) {
    breaches.push(`Desk's median activation is ${measured.ratio.toFixed(2)}× the do-nothing extension's (${median(measured.deskFigures)} ms against ${median(measured.nothingFigures)} ms), over ${MAX_RATIO}×`);
  }
  if (measured.bytesAtActivation === undefined) breaches.push('no probe saw Desk activate (it was already active each time), so the bytes loaded at activation are unknown');
  else if (measured.bytesAtActivation > MAX_BYTES_AT_ACTIVATION) breaches.push(`Desk loads ${kb(measured.bytesAtActivation)} at activation, over ${kb(MAX_BYTES_AT_ACTIVATION)}`);
  return breaches;
}
