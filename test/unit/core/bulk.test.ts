import * as assert from 'node:assert/strict';
import type { BatchResult } from '../../../src/api/batch';
import { BulkFailure, settleAll } from '../../../src/core/bulk';
import { attempt } from '../../../src/core/commands';
import { english } from '../../../src/shared/l10n';

/** A bulk command's contract: successes applied, failures named once, Retry repeats only the failures. */
describe('bulk commands (core/bulk.ts)', () => {
  /** A server that fails the items in `failing` (as long as they are listed there) and records every call. */
  function server(failing: Set<string>) {
    const calls: string[][] = [];
    const run = async (items: readonly string[]): Promise<BatchResult<string>[]> => {
      calls.push([...items]);
      return items.map((item) => (failing.has(item) ? { ok: false, error: new Error(`${item} is locked`) } : { ok: true, value: item.toUpperCase() }));
    };
    return { calls, run };
  }

  it('applies what succeeded, names each failure with its reason in one message, and retries only the failures', async () => {
    const failing = new Set(['b', 'd']);
    const { calls, run } = server(failing);
    const applied: string[] = [];
    const work = { items: ['a', 'b', 'c', 'd'], run, nameOf: (item: string) => `file ${item}`, describe: (error: Error) => error.message, t: english, onDone: (done: readonly { value: string }[]) => void applied.push(...done.map((entry) => entry.value)) };
    const failure = await settleAll(work).then(() => undefined, (error: unknown) => error);
    assert.ok(failure instanceof BulkFailure);
    assert.equal(failure.message, '2 of 4 items failed: “file b” (b is locked); “file d” (d is locked)');
    assert.deepEqual(failure.failedNames, ['file b', 'file d']);
    assert.deepEqual(applied, ['A', 'C']);

    failing.delete('b');
    const again = await failure.retryFailed().then(() => undefined, (error: unknown) => error);
    assert.deepEqual(calls, [['a', 'b', 'c', 'd'], ['b', 'd']], 'the retry sent only b and d');
    assert.ok(again instanceof BulkFailure);
    assert.equal(again.message, '1 of 2 items failed: “file d” (d is locked)');
    assert.deepEqual(applied, ['A', 'C', 'B']);
  });

  it('attempt offers Retry for the failed items only, whatever the command\'s own retry option', async () => {
    const failing = new Set(['y']);
    const { calls, run } = server(failing);
    const shown: { message: string; retry?: () => Promise<void> }[] = [];
    const desk = { showError: async (error: unknown, options: { retry?: () => Promise<void> } = {}) => void shown.push({ message: (error as Error).message, ...(options.retry ? { retry: options.retry } : {}) }) };
    let commandRuns = 0;
    await attempt(desk, () => {
      commandRuns++;
      return settleAll({ items: ['x', 'y'], run, nameOf: (item) => item, describe: (error) => error.message, t: english, onDone: () => undefined });
    });
    assert.equal(shown.length, 1);
    failing.clear();
    await shown[0]?.retry?.();
    assert.equal(commandRuns, 1, 'the command itself did not run again');
    assert.deepEqual(calls, [['x', 'y'], ['y']]);
    assert.equal(shown.length, 1, 'the retry succeeded');
  });
});
