import * as assert from 'node:assert/strict';
import { ChangeLog, classifyChange } from '../../../../../src/features/drive/changes/changeLog';

const created = '2026-11-22T10:00:00.000Z';

describe('ChangeLog (status bar model)', () => {
  it('classifies changes: created, modified, trashed, removed', () => {
    assert.equal(classifyChange({ fileId: 'a', file: { id: 'a', createdDate: created, modifiedDate: created } }), 'created');
    assert.equal(classifyChange({ fileId: 'a', file: { id: 'a', createdDate: created, modifiedDate: '2026-11-22T11:00:00Z' } }), 'modified');
    assert.equal(classifyChange({ fileId: 'a', file: { id: 'a', labels: { trashed: true } } }), 'trashed');
    assert.equal(classifyChange({ fileId: 'a', deleted: true }), 'removed');
  });

  it('counts one entry per file, newest first, and summarises', () => {
    const log = new ChangeLog();
    log.add([{ fileId: 'a', file: { id: 'a', title: 'a.txt', modifiedDate: '2026-11-22T10:00:00Z' } }]);
    assert.equal(log.statusText(), '$(cloud) a.txt changed');
    log.add([
      { fileId: 'b', file: { id: 'b', title: 'b.txt', modifiedDate: '2026-11-22T10:01:00Z', lastModifyingUserName: 'Bob' } },
      { fileId: 'a', file: { id: 'a', title: 'a.txt', modifiedDate: '2026-11-22T10:02:00Z' } },
      { fileId: 'c', deleted: true },
    ]);
    assert.equal(log.count, 3);
    assert.equal(log.statusText(), '$(cloud) 3 Drive changes');
    assert.deepEqual(log.entries().map((entry) => entry.fileId), ['c', 'a', 'b']);
    assert.match(log.summary(), /b\.txt changed by Bob/);
  });

  it('remembers titles for later removals and resets on seen', () => {
    const log = new ChangeLog();
    log.add([{ fileId: 'a', file: { id: 'a', title: 'report.pdf' } }]);
    log.markSeen();
    assert.equal(log.count, 0);
    assert.equal(log.statusText(), '$(cloud) Drive');
    log.add([{ fileId: 'a', deleted: true }]);
    assert.equal(log.entries()[0]?.title, 'report.pdf');
    log.markSeen('a');
    assert.equal(log.count, 0);
  });

  it('does not report Desk\'s own writes as news', () => {
    const log = new ChangeLog();
    log.noteOwnWrite('a', '"v2"');
    assert.deepEqual(log.add([{ fileId: 'a', file: { id: 'a', title: 'mine', etag: '"v2"' } }]), []);
    assert.equal(log.add([{ fileId: 'a', file: { id: 'a', title: 'mine', etag: '"v3"' } }]).length, 1, 'a later edit by someone else is news');
  });
});
