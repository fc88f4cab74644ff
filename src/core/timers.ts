/** Timers as a parameter: the live searches debounce through this, so their tests fire the timers by hand instead of waiting. */

export interface Timers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** Node's own setTimeout / clearTimeout. */
export const nodeTimers: Timers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => { clearTimeout(handle as ReturnType<typeof setTimeout>); },
};
