/** The Drive tree's row order kept between renders: a Load more merges its page into the sorted rows. */
import * as assert from 'node:assert/strict';
import type { DriveItem } from '../../../../../src/features/drive/port';
import { compareItems, displayOrder } from '../../../../../src/features/drive/tree/presentation';
import { FOLDER_MIME_TYPE } from '../../../../../src/shared/schemas/drive';
import { mergeSorted } from '../../../../../src/shared/sorted';

const item = (id: string, title: string, folder = false): DriveItem => ({ id, title, mimeType: folder ? FOLDER_MIME_TYPE : 'text/plain' });

describe('Drive tree display order', () => {
  it('merges sorted runs as one sort would, whatever their overlap', () => {
    const byNumber = (a: number, b: number): number => a - b;
    assert.deepEqual(mergeSorted([1, 3, 5, 7], [2, 6, 8], byNumber), [1, 2, 3, 5, 6, 7, 8]);
    assert.deepEqual(mergeSorted([1, 2], [3, 4], byNumber), [1, 2, 3, 4]);
    assert.deepEqual(mergeSorted([3, 4], [1, 2], byNumber), [1, 2, 3, 4]);
    assert.deepEqual(mergeSorted([1, 2], [], byNumber), [1, 2]);
  });

  it('orders each Load more as a full sort of everything loaded would (folders first, numeric titles)', () => {
    const items: DriveItem[] = [item('a', 'file 10'), item('b', 'File 2'), item('f', 'Zeta', true)];
    let kept = displayOrder(items, undefined);
    const pages = [[item('c', 'file 1'), item('g', 'alpha', true)], [item('d', 'file 100'), item('e', 'b')]];
    for (const page of pages) {
      items.push(...page);
      kept = displayOrder(items, kept);
      assert.deepEqual(kept.items.map((row) => row.title), [...items].sort(compareItems).map((row) => row.title));
    }
    assert.deepEqual(kept.items.map((row) => row.title), ['alpha', 'Zeta', 'b', 'file 1', 'File 2', 'file 10', 'file 100']);
    assert.equal(displayOrder(items, kept), kept, 'nothing new: the same order, no sort');
    // A new array (the listing rebuilt after changes) sorts again.
    const renamed = items.map((row) => (row.id === 'e' ? item('e', 'zz') : row));
    assert.equal(displayOrder(renamed, kept).items.at(-1)?.title, 'zz');
  });
});
