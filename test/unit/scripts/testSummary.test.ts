// npm test's closing line is computed from each suite's mocha summary; CI reads that line, so a misread
// summary would hide failures.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';

interface Counts {
  passed: number;
  failed: number;
  pending: number;
}
const testAll = require(path.resolve(__dirname, '..', '..', '..', '..', 'scripts', 'test-all.js')) as {
  mochaCounts(output: string): Counts | undefined;
};

describe('npm test summary of a mocha run', () => {
  it('reads passing, pending and failing from the closing summary', () => {
    const output = ['  suite', '    ✔ one', '', '  12 passing (3s)', '  2 pending', '  3 failing', '', '  1) suite ...'].join('\n');
    assert.deepEqual(testAll.mochaCounts(output), { passed: 12, failed: 3, pending: 2 });
  });

  it('takes the last summary: the extension host prints its own before the runner prints the verdict', () => {
    const output = ['  2 passing (337ms)', '  1 failing', '  ...', '', '  2 passing', '  1 failing', '[test:vscode] FAILED'].join('\n');
    assert.deepEqual(testAll.mochaCounts(output), { passed: 2, failed: 1, pending: 0 });
  });

  it('ignores colour codes and reports no summary as undefined (a crash before mocha finished)', () => {
    assert.deepEqual(testAll.mochaCounts('\u001b[32m  4 passing\u001b[39m (1s)'), { passed: 4, failed: 0, pending: 0 });
    assert.equal(testAll.mochaCounts('Error: Cannot find module'), undefined);
  });
});
