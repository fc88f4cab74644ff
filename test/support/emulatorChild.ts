/** The emulator as a child process (its CLI bundled from the current sources), for crash tests with kill -9. */
import * as assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import { build } from 'esbuild';
import * as path from 'node:path';
import { createInterface } from 'node:readline';

// out/test/support → the repository root.
const REPO_ROOT = path.resolve(__dirname, '../../..');

export interface Child {
  process: ChildProcess;
  url: string;
}

/** Bundles the emulator CLI from the current sources, so the test never runs a stale dist/. */
export async function bundleEmulator(outfile: string): Promise<void> {
  await build({
    entryPoints: [path.join(REPO_ROOT, 'src/emulator/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'silent',
  });
}

export function startChild(bundle: string, args: string[]): Promise<Child> {
  const child = spawn(process.execPath, [bundle, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once('line', (line) => {
      const found = /listening on (http:\/\/\S+)/.exec(line);
      if (found?.[1]) resolve({ process: child, url: found[1] });
      else reject(new Error(`unexpected first line: ${line}`));
    });
    child.once('exit', (code) => { reject(new Error(`emulator exited early (${String(code)}): ${stderr}`)); });
  });
}

export function killHard(child: Child): Promise<void> {
  return new Promise((resolve) => {
    if (child.process.exitCode !== null || child.process.signalCode !== null) { resolve(); return; }
    child.process.once('exit', () => { resolve(); });
    child.process.kill('SIGKILL');
  });
}

export async function tokenFor(url: string, user: string): Promise<string> {
  const response = await fetch(`${url}/emulator/v1/token?user=${user}`, { method: 'POST' });
  assert.equal(response.status, 200);
  return ((await response.json()) as { access_token: string }).access_token;
}
