// Runs inside the VS Code extension host (loaded as an extension "test" module by bench/activation.ts):
// activates Desk and records how long that took, as seen from the host and as Desk reports it.
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';

export interface ActivationProbeResult {
  /** Desk was already active when the probe ran (an activation event fired first). */
  wasActive: boolean;
  /** Duration of extension.activate() as awaited here; meaningful only when wasActive is false. */
  activateCallMs: number;
  /** What Desk's activate() reported about itself (require + activate), if it exports activationTimeMs. */
  reportedActivationMs: number | undefined;
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
  const started = performance.now();
  const exported: unknown = await extension.activate();
  const result: ActivationProbeResult = {
    wasActive,
    activateCallMs: performance.now() - started,
    reportedActivationMs: reportedTime(exported),
  };
  // Stay idle a moment so that work activation merely scheduled (timers, promises) is counted by the bench.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const target = process.env.DESK_TEST_RESULT;
  if (target) fs.writeFileSync(target, JSON.stringify(result));
}
