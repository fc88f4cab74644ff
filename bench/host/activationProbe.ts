// Runs inside the VS Code extension host (loaded as an extension "test" module by bench/activation.ts):
// activates Desk and records how long that took, as seen from the host and as Desk reports it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';

export interface ActivationProbeResult {
  /** Desk was already active when the probe ran (an activation event fired first). */
  wasActive: boolean;
  /** Duration of extension.activate() as awaited here; meaningful only when wasActive is false. */
  activateCallMs: number;
  /** What Desk's activate() reported about itself (require + activate), if it exports activationTimeMs. */
  reportedActivationMs: number | undefined;
  /** Desk's files that Node loaded during the activate call, with their sizes in bytes. */
  loadedAtActivation: { file: string; bytes: number }[];
  /** Desk's files loaded by the end of the idle wait (the features, loaded after activation). */
  loadedAfterwards: { file: string; bytes: number }[];
  /** The extension host's own performance marks of extension loading and activation (see hostMarks). */
  marks: HostMark[];
}

export interface HostMark {
  readonly name: string;
  readonly startTime: number;
}

/**
 * VS Code's own marks in this extension host (`code/extHost/willLoadExtensionCode/<id>` …): the extension host
 * keeps them in `globalThis.MonacoPerformanceMarks` (its performance module's Node fallback); the Startup
 * Performance editor shows the same marks.
 */
export function hostMarks(): HostMark[] {
  const store = (globalThis as { MonacoPerformanceMarks?: { getMarks(): unknown[] } }).MonacoPerformanceMarks;
  const marks = (store?.getMarks() ?? []).filter((mark): mark is HostMark => typeof mark === 'object' && mark !== null && 'name' in mark && 'startTime' in mark);
  return marks.filter((mark) => /^code\/extHost\/(will|did)(LoadExtensionCode|ActivateExtension)\//.test(mark.name));
}

/** Desk's own modules in Node's module cache (shared by the whole extension host). */
function deskModules(root: string): Set<string> {
  return new Set(Object.keys(require.cache).filter((file) => file.startsWith(root)));
}

function sizes(files: Iterable<string>): { file: string; bytes: number }[] {
  return [...files].map((file) => ({ file, bytes: fs.statSync(file).size }));
}

function reportedTime(exported: unknown): number | undefined {
  if (typeof exported !== 'object' || exported === null || !('activationTimeMs' in exported)) return undefined;
  const value = exported.activationTimeMs;
  return typeof value === 'number' ? value : undefined;
}

export async function run(): Promise<void> {
  const extension = vscode.extensions.getExtension('desk-dev.desk');
  if (!extension) throw new Error('desk-dev.desk is not loaded');
  const wasActive = extension.isActive;
  const before = deskModules(extension.extensionPath);
  const started = performance.now();
  const exported: unknown = await extension.activate();
  const activateCallMs = performance.now() - started;
  // The host may have required the main module before this probe ran (activation already under way): count it.
  const main = require.resolve(path.join(extension.extensionPath, (extension.packageJSON as { main: string }).main));
  const atActivation = [...new Set([main, ...[...deskModules(extension.extensionPath)].filter((file) => !before.has(file))])];
  // Stay idle a moment so that work activation merely scheduled (timers, promises) is counted by the bench.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const afterwards = [...deskModules(extension.extensionPath)].filter((file) => !before.has(file) && !atActivation.includes(file));
  const result: ActivationProbeResult = {
    wasActive,
    activateCallMs,
    reportedActivationMs: reportedTime(exported),
    loadedAtActivation: sizes(atActivation),
    loadedAfterwards: sizes(afterwards),
    marks: hostMarks(),
  };
  const target = process.env.DESK_TEST_RESULT;
  if (target) fs.writeFileSync(target, JSON.stringify(result));
}
