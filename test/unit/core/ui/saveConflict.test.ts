import * as assert from 'node:assert/strict';
import { refusingStat } from '../../../../src/core/ui/saveConflict';

/** VS Code 1.100's dirty-write check (fileService.validateWriteFile): its etag is mtime and size in bases 29 and 31. */
function vscodeRefuses(opened: { mtime: number; size: number }, stat: { mtime: number; size: number }): boolean {
  const etag = (value: { mtime: number; size: number }): string => `${value.mtime.toString(29)}${value.size.toString(31)}`;
  return opened.mtime < stat.mtime && etag(opened) !== etag({ mtime: opened.mtime, size: stat.size });
}

describe('save conflict stat', () => {
  it('makes VS Code refuse the save even when the other version has the same size or the same mtime', () => {
    const opened = { mtime: 1_000, size: 40 };
    for (const current of [{ mtime: 2_000, size: 55 }, { mtime: 2_000, size: 40 }, { mtime: 1_000, size: 40 }, { mtime: 900, size: 12 }]) {
      const stat = refusingStat(opened, current, 41);
      assert.ok(vscodeRefuses(opened, stat), JSON.stringify(current));
      // Never the length being written: VS Code would read the file back to compare instead.
      assert.notEqual(stat.size, 41);
    }
  });
});
