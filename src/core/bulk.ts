/**
 * Commands that act on many items at once (a batch request, api/batch.ts): the items that succeeded are applied,
 * the ones that failed are named in one message, and Retry sends only those again.
 */
import type { BatchResult } from '../api/batch';
import { hasMark, markInstance } from '../shared/crossBundle';
import type { Translate } from '../shared/l10n';

/** Some items of a bulk command failed: the message names each with its reason; `retryFailed` repeats only those. */
export class BulkFailure extends Error {
  /** Holds across feature bundles (see shared/crossBundle.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasMark(value, 'BulkFailure');
  }

  constructor(message: string, readonly failedNames: readonly string[], readonly retryFailed: () => Promise<unknown>) {
    super(message);
    this.name = 'BulkFailure';
    markInstance(this, 'BulkFailure');
  }
}

/** The work that repeats only what failed, when `error` is a BulkFailure (core/commands.ts offers it as Retry). */
export function retryOfFailed(error: unknown): (() => Promise<unknown>) | undefined {
  return error instanceof BulkFailure ? error.retryFailed : undefined;
}

export interface BulkWork<I, T> {
  readonly items: readonly I[];
  /** One call for all the items (batched below), a result per item in order. */
  readonly run: (items: readonly I[]) => Promise<readonly BatchResult<T>[]>;
  /** How an item is named to the user. */
  readonly nameOf: (item: I) => string;
  /** Applies what succeeded (refresh, remember own writes); also runs when some items failed. */
  readonly onDone: (done: readonly { item: I; value: T }[]) => Promise<void> | void;
  /** An error in the user's words (api/errors.ts errorMessage with the translator). */
  readonly describe: (error: Error) => string;
  readonly t: Translate;
}

/** Runs the work; resolves to what succeeded, or (after applying it) throws one BulkFailure for what did not. */
export async function settleAll<I, T>(work: BulkWork<I, T>): Promise<{ item: I; value: T }[]> {
  if (work.items.length === 0) return [];
  const results = await work.run(work.items);
  const done: { item: I; value: T }[] = [];
  const failed: { item: I; error: Error }[] = [];
  work.items.forEach((item, index) => {
    const result = results.at(index);
    if (result?.ok) done.push({ item, value: result.value });
    else failed.push({ item, error: result ? result.error : new Error(work.t('no answer')) });
  });
  await work.onDone(done);
  if (failed.length === 0) return done;
  const names = failed.map((failure) => work.nameOf(failure.item));
  const list = failed.map((failure, index) => work.t('“{0}” ({1})', names[index] ?? '', work.describe(failure.error))).join('; ');
  const message = work.items.length === 1 ? list : work.t('{0} of {1} items failed: {2}', failed.length, work.items.length, list);
  throw new BulkFailure(message, names, () => settleAll({ ...work, items: failed.map((failure) => failure.item) }));
}
