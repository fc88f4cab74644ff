/**
 * What a client needs to reconcile a write the API gives no idempotency key for: a memory of the resource ids it has
 * already seen, so that after an unclear failure "a matching resource I had not seen before I sent this" can be told
 * from "a matching resource that was there already".
 */

/**
 * How far the server's clock may be behind ours. A write found by reconciliation must carry an `updated` time no
 * earlier than the first attempt minus this; the wider the window, the likelier a look-alike written elsewhere
 * in it is taken for ours, which is why the ids already seen are excluded as well.
 */
export const CLOCK_SKEW_MS = 2 * 60_000;

/** Bounded, so a long session does not grow without end; an id forgotten falls back on the time window alone. */
const DEFAULT_CAPACITY = 50_000;

/**
 * Ids in the order they were first seen in an answer, and which of them a write of this client already returned as
 * its result (claimed): a second write with the same fields, running at the same time, must not take the first
 * one's resource for its own. Order is a counter, not the clock: an answer and the next request often share a millisecond.
 */
export class SeenIds {
  private readonly firstSeen = new Map<string, { order: number; claimed: boolean }>();
  private counter = 0;

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  /** A point in the order, taken before a write is first sent. */
  mark(): number {
    return this.counter;
  }

  /** Records the ids of an answer; returns it unchanged, to sit in a `.then`. */
  note<T extends { id: string } | { items?: readonly { id: string }[] | undefined }>(answer: T): T {
    if ('id' in answer && typeof answer.id === 'string') this.entry(answer.id);
    if ('items' in answer) for (const item of answer.items ?? []) this.entry(item.id);
    return answer;
  }

  /** Records a write's result: it belongs to that write and no other. */
  claim<T extends { id: string }>(result: T): T {
    this.entry(result.id).claimed = true;
    return result;
  }

  /**
   * Whether a resource found after an unclear failure may be the result of a write sent at `mark`: not seen in
   * any answer before then, and not already the result of another write.
   */
  mayBeNewSince(id: string, mark: number): boolean {
    const seen = this.firstSeen.get(id);
    return seen === undefined || (seen.order > mark && !seen.claimed);
  }

  private entry(id: string): { order: number; claimed: boolean } {
    let seen = this.firstSeen.get(id);
    if (seen) return seen;
    seen = { order: ++this.counter, claimed: false };
    this.firstSeen.set(id, seen);
    if (this.firstSeen.size > this.capacity) {
      const oldest = this.firstSeen.keys().next().value;
      if (oldest !== undefined) this.firstSeen.delete(oldest);
    }
    return seen;
  }
}

/** RFC 3339 for `updatedMin`-style filters: the earliest `updated` a write sent at `startedAt` can carry. */
export function windowStart(startedAt: number): string {
  return new Date(startedAt - CLOCK_SKEW_MS).toISOString();
}

/** Whether an RFC 3339 `updated` lies in the window of a write sent at `startedAt`. */
export function inWindow(updated: string | undefined, startedAt: number): boolean {
  const time = updated ? Date.parse(updated) : NaN;
  return !Number.isNaN(time) && time >= startedAt - CLOCK_SKEW_MS;
}
