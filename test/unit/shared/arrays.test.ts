/** appendAll and insertAll: the results of push/splice with a spread, at lengths where a spread overflows the stack. */
import * as assert from 'node:assert/strict';
import { appendAll, insertAll } from '../../../src/shared/arrays';

describe('shared arrays', () => {
  it('appends 500,000 items (a spread into push throws RangeError at this size)', () => {
    const target = [1, 2];
    const items = Array.from({ length: 500_000 }, (_, index) => index);
    appendAll(target, items);
    assert.equal(target.length, 500_002);
    assert.equal(target[2], 0);
    assert.equal(target[500_001], 499_999);
  });

  it('inserts like splice(at, 0, ...items): at the start, middle, end and past the end', () => {
    for (const at of [0, 2, 4, 9]) {
      const expected = ['a', 'b', 'c', 'd'];
      expected.splice(at, 0, 'x', 'y');
      const actual = ['a', 'b', 'c', 'd'];
      insertAll(actual, at, ['x', 'y']);
      assert.deepEqual(actual, expected, `at ${at}`);
    }
  });

  it('inserts 300,000 items in the middle', () => {
    const target = ['first', 'last'];
    insertAll(target, 1, Array.from({ length: 300_000 }, () => 'middle'));
    assert.equal(target.length, 300_002);
    assert.equal(target[0], 'first');
    assert.equal(target[300_000], 'middle');
    assert.equal(target[300_001], 'last');
  });
});
