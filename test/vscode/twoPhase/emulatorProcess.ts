// The emulator as the offline suites run it: a process of the suite's own on durable data, stopped as a network loss
// and started again on the same port and data as the network's return.
import * as assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import fetch from 'node-fetch';
import * as vscode from 'vscode';
import { EXTENSION_ID } from '../support';

export interface RunningEmulator {
  readonly child: ChildProcess;
  readonly url: string;
}

/** Starts the built emulator on `port` (0: any) with durable data in `dataDir`; resolves once it listens. */
export function startEmulator(dataDir: string, port: number): Promise<RunningEmulator> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension);
  const child = spawn(process.execPath, [path.join(extension.extensionPath, 'dist', 'emulator.js'), '--port', String(port), '--seed', 'demo', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolve({ child, url });
    });
    child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.once('exit', (code) => { reject(new Error(`the emulator exited (${String(code)}): ${output.slice(-500)}`)); });
  });
}

/** Stops it as a network loss would look from Desk (SIGTERM: the emulator flushes its store first). */
export async function stopEmulator(emulator: RunningEmulator): Promise<void> {
  if (emulator.child.exitCode !== null) return;
  const exited = new Promise((resolve) => emulator.child.once('exit', resolve));
  emulator.child.kill('SIGTERM');
  await exited;
}

/** A request to the emulator as alice, outside Desk (what the service holds). */
export async function onEmulator<T>(url: string, method: string, requestPath: string): Promise<T> {
  const token = ((await (await fetch(`${url}/emulator/v1/token?user=alice%40example.com`, { method: 'POST' })).json()) as { access_token: string }).access_token;
  const response = await fetch(`${url}${requestPath}`, { method, headers: { Authorization: `Bearer ${token}` } });
  return (requestPath.includes('alt=media') ? await response.text() : await response.json()) as T;
}
