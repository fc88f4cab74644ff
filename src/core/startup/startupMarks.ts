/**
 * Moments of a window's start for the network benchmark (bench/support/vscodeNetwork.ts): when the extension host's
 * environment names a file in DESK_STARTUP_MARKS (only the benchmark sets it), each moment is appended to it as a JSON
 * line, on the wall clock the benchmark's page and request log use. Without it (every user) nothing is recorded.
 */
import { appendFileSync } from 'node:fs';

const file = process.env.DESK_STARTUP_MARKS;

/** Whether the benchmark asks for marks (code that only feeds them can stay out of the way otherwise). */
export const startupMarksWanted = Boolean(file);

/** Records `event` (e.g. `activate`, `rows:tasks`) at `atMs` (default now) when the benchmark asked for marks. */
export function markStartup(event: string, atMs = Date.now()): void {
  if (!file) return;
  try {
    appendFileSync(file, `${JSON.stringify({ event, at: atMs, pid: process.pid })}\n`);
  } catch {
    // a benchmark's aid only: never in the way of the extension
  }
}
