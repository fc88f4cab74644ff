// Debounce timers a test fires by hand (the live searches take a `timers` parameter), so no test waits on time.

import type { Timers } from '../../src/core/timers';

/** Timers the test fires by hand. */
export class ManualTimers implements Timers {
  private readonly due = new Map<number, { run: () => void; ms: number }>();
  private next = 1;
  set(run: () => void, ms: number): unknown {
    const id = this.next++;
    this.due.set(id, { run, ms });
    return id;
  }
  clear(handle: unknown): void {
    this.due.delete(handle as number);
  }
  get pending(): number[] {
    return [...this.due.values()].map((entry) => entry.ms);
  }
  fire(): void {
    const entries = [...this.due.values()];
    this.due.clear();
    for (const entry of entries) entry.run();
  }
}
