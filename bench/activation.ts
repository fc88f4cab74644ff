// Activation of Desk inside a real VS Code (code-server's VS Code 1.100.3 through the test harness): how long
// require + activate takes, and how many requests Desk sends to its backend before the user does anything
// (the answer should be 0: activation must not touch the network). A counting proxy between Desk and the
// emulator sees every request Desk makes to the backend it is configured with.
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import type { ActivationProbeResult } from './host/activationProbe';

type Launcher = typeof import('../scripts/vscode/launch');

const RUNS = 5;
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * VS Code's own figure for Desk, as "Developer: Show Running Extensions" shows it (the extension host's code loading +
 * activate call), read from that editor in the workbench.
 */
async function runningExtensionsFigure(page: Page): Promise<number | undefined> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input.input');
  await input.fill('>Show Running Extensions');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Show Running Extensions' }).first().waitFor({ timeout: 15000 });
  await input.press('Enter');
  const editor = page.locator('.part.editor');
  await editor.locator('text=/Activation:/').first().waitFor({ timeout: 15000 });
  // Each extension is a block of lines: its name (Desk's display name, or its id for a development extension),
  // the version, the host, then "…Activation: N ms".
  const lines = (await editor.innerText()).split('\n').map((line) => line.trim());
  const at = lines.findIndex((line) => line === 'Desk' || line === 'desk-dev.desk');
  if (at < 0) return undefined;
  for (const line of lines.slice(at + 1, at + 6)) {
    const found = /Activation:\s*(\d+)\s*ms/i.exec(line);
    if (found) return Number(found[1]);
  }
  return undefined;
}

/** VS Code's own figure in a fresh, ordinary window (no test runner): Desk activates at startup as for a user. */
async function vscodeFigureOnce(launcher: Launcher): Promise<number | undefined> {
  const workbench = await launcher.startWorkbench({ name: 'bench-activation-figure', seed: 'none' });
  try {
    // Desk activates on startup-finished; give the window a moment to get there.
    await workbench.page.waitForTimeout(5000);
    return await runningExtensionsFigure(workbench.page);
  } catch (error) {
    console.log(`  (a window gave no figure: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    return undefined;
  } finally {
    await workbench.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

async function measureOnce(launcher: Launcher): Promise<{ probe: ActivationProbeResult; requests: string[]; windowMs: number }> {
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
      onExit: (code) => finished(code),
      waitForWorkbench: false,
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

export async function run(): Promise<void> {
  const launcher = require(path.join(repoRoot, 'scripts', 'vscode', 'launch.js')) as Launcher;
  const runs: Awaited<ReturnType<typeof measureOnce>>[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await measureOnce(launcher));

  const reported = runs.map((r) => r.probe.reportedActivationMs).filter((ms): ms is number => ms !== undefined);
  const vscodeFigures: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const figure = await vscodeFigureOnce(launcher);
    if (figure !== undefined) vscodeFigures.push(figure);
  }
  const calls = runs.filter((r) => !r.probe.wasActive).map((r) => r.probe.activateCallMs);
  const spread = (values: number[]): string => (values.length ? `min ${Math.min(...values).toFixed(1)}, max ${Math.max(...values).toFixed(1)}` : '');
  console.log(`activation (real VS Code 1.100.3 extension host, ${RUNS} fresh windows, median):`);
  console.log(
    vscodeFigures.length
      ? `  VS Code's own figure ("Show Running Extensions": code loading + activate call): ${median(vscodeFigures).toFixed(0)} ms  (${spread(vscodeFigures)})  [${vscodeFigures.join(', ')}]`
      : '  VS Code\'s own figure: not found in "Show Running Extensions"',
  );
  console.log(
    reported.length
      ? `  Desk's own activationTimeMs (activate call): ${median(reported).toFixed(1)} ms  (${spread(reported)})  [${reported.map((ms) => ms.toFixed(1)).join(', ')}]`
      : "  Desk's activate() exports no activationTimeMs",
  );
  console.log(
    calls.length
      ? `  extension.activate() awaited from the host (code loading + activate call): ${median(calls).toFixed(1)} ms  (${spread(calls)})  [${calls.map((ms) => ms.toFixed(1)).join(', ')}]`
      : '  extension.activate(): Desk was already active when the probe ran (activated at startup)',
  );
  console.log(`  window open to probe done (includes a 3 s idle wait): ${median(runs.map((r) => r.windowMs)).toFixed(0)} ms`);
  const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;
  const first = runs.find((r) => !r.probe.wasActive)?.probe;
  if (first) {
    const total = first.loadedAtActivation.reduce((sum, entry) => sum + entry.bytes, 0);
    console.log(`  loaded during activation: ${kib(total)}  (${first.loadedAtActivation.map((entry) => `${path.basename(entry.file)} ${kib(entry.bytes)}`).join(', ')})`);
    console.log(`  loaded after activation returned: ${first.loadedAfterwards.map((entry) => `${path.relative(path.join(repoRoot, 'dist'), entry.file)} ${kib(entry.bytes)}`).join(', ') || 'nothing'}`);
  }
  const requests = runs.flatMap((r) => r.requests);
  console.log(`  requests to the backend before any user action: ${requests.length}${requests.length ? `  (${[...new Set(requests)].join('; ')})` : ''}`);
  if (requests.length) console.log('  WARNING: activation should not touch the network');
}
