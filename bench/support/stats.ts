// Helpers shared by the benchmarks. This folder holds no benchmark: scripts/bench.js runs only bench/*.ts.
import { cpus, loadavg } from 'node:os';

export interface Percentiles {
  p50: number;
  p95: number;
  max: number;
}

/** p50, p95 and max of timing samples (NaN without samples). */
export function percentiles(samples: readonly number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (share: number): number => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? NaN;
  return { p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] ?? NaN };
}

/** Percentiles plus the rate: samples per second over the wall-clock time they took. */
export function summarize(samples: readonly number[], wallMs: number): Percentiles & { perSecond: number } {
  return { ...percentiles(samples), perSecond: (samples.length / wallMs) * 1000 };
}

/** Milliseconds as printed in the tables. */
export const ms = (value: number, digits = 2): string => `${value.toFixed(digits)} ms`;

/** Figures from a busy machine are not comparable: a line that says how busy it was. */
export function machineLoad(): string {
  return `(${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(1)} at start)`;
}

/** Runs a benchmark when its file is run directly with node (scripts/bench.js calls run() itself). */
export function runWhenMain(benchModule: NodeJS.Module, run: () => Promise<void>): void {
  if (require.main !== benchModule) return;
  run().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
