/**
 * Work in time slices: the emulator serves every client from one thread, so work that may take longer than a few
 * milliseconds (a listing of thousands of instances, a freeBusy answer of megabytes) pauses after each slice and lets
 * other requests in before it goes on (issue 18: the health check answers within 100 ms throughout).
 */
import { performance } from 'node:perf_hooks';
import { stringifyJson } from './json';

/** How long work runs before it lets other requests in. */
export const SLICE_MS = 8;

/** A clock for one piece of work: `pause()` yields to the event loop once the current slice has run SLICE_MS. */
export class TimeSlices {
  private sliceStarted = performance.now();

  /** Whether the current slice has run its time (cheap enough to ask after every small step). */
  get due(): boolean {
    return performance.now() - this.sliceStarted >= SLICE_MS;
  }

  async pause(): Promise<void> {
    if (!this.due) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStarted = performance.now();
  }
}

/** `items.map(map)`, pausing between items once a slice has run its time. */
export async function mapInSlices<T, R>(items: readonly T[], map: (item: T) => R, slices = new TimeSlices()): Promise<R[]> {
  const mapped: R[] = [];
  for (const item of items) {
    mapped.push(map(item));
    await slices.pause();
  }
  return mapped;
}

/**
 * The JSON text of `value` (what stringifyJson gives), serialised member by member down to `levels` levels of
 * objects and arrays, pausing between members: a freeBusy answer of 50 calendars is 6 MB of text.
 */
export async function stringifyInSlices(value: unknown, levels = 2, slices = new TimeSlices()): Promise<string> {
  if (levels <= 0 || value === null || typeof value !== 'object' || value instanceof Date || typeof (value as { toJSON?: unknown }).toJSON === 'function') return stringifyJson(value);
  const parts: string[] = [];
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) {
      parts.push(item === undefined || typeof item === 'function' || typeof item === 'symbol' ? 'null' : await stringifyInSlices(item, levels - 1, slices));
      await slices.pause();
    }
    return `[${parts.join(',')}]`;
  }
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    parts.push(`${JSON.stringify(key)}:${await stringifyInSlices(member, levels - 1, slices)}`);
    await slices.pause();
  }
  return `{${parts.join(',')}}`;
}
