import * as assert from 'node:assert/strict';
import { ChangeLog, classifyChange, fileChangedBy, OWN_ACTION_WINDOW_MS } from '../../../../../src/features/drive/changes/changeLog';

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

  it('does not report a change of a file Desk itself just shared, starred or labelled (no file etag comes back)', () => {
    let now = 1_000_000;
    const log = new ChangeLog(() => now);
    const shared = fileChangedBy('POST', '/drive/v2/files/ideas%2B1/permissions');
    assert.equal(shared, 'ideas+1');
    log.noteOwnAction(shared);
    const change = { fileId: 'ideas+1', file: { id: 'ideas+1', title: 'ideas.txt', etag: '"v9"', lastModifyingUserName: 'Alice Demo' } };
    assert.deepEqual(log.add([change]), [], 'not "changed on Drive by another app or person"');
    now += OWN_ACTION_WINDOW_MS + 1;
    assert.equal(log.add([change]).length, 1, 'a change long after is news again');
  });

  it('still announces an edit by someone else of a file Desk acted on moments before (a newer modification date)', () => {
    const log = new ChangeLog(() => 1_000);
    const before = { fileId: 'f', file: { id: 'f', title: 'design.md', etag: '"v1"', modifiedDate: '2026-11-26T09:00:00.000Z' } };
    assert.equal(log.add([before]).length, 1);
    log.markSeen();
    log.noteOwnAction('f');
    // Desk commented: the file's etag moves, its modification date does not.
    assert.deepEqual(log.add([{ ...before, file: { ...before.file, etag: '"v2"' } }]), []);
    // Another client uploads new content: a newer modification date is news, window or not.
    const edited = log.add([{ fileId: 'f', file: { ...before.file, etag: '"v3"', modifiedDate: '2026-11-26T09:00:05.000Z' } }]);
    assert.deepEqual(edited.map((entry) => entry.fileId), ['f']);
  });

  it('announces an edit by another app right after Desk commented, when no poll showed the file before (Desk\'s open version is the baseline)', () => {
    const shown = new Map([['f', '2026-11-26T09:00:00.000Z']]);
    const log = new ChangeLog(() => 1_000, 200, (fileId) => shown.get(fileId));
    log.noteOwnAction('f');
    const file = { id: 'f', title: 'design.md', etag: '"v2"', modifiedDate: '2026-11-26T09:00:00.000Z' };
    assert.deepEqual(log.add([{ fileId: 'f', file }]), [], 'Desk\'s own comment: the version Desk shows is unchanged');
    const other = new ChangeLog(() => 1_000, 200, (fileId) => shown.get(fileId));
    other.noteOwnAction('f');
    const edited = other.add([{ fileId: 'f', file: { ...file, etag: '"v3"', modifiedDate: '2026-11-26T09:00:05.000Z' } }]);
    assert.deepEqual(edited.map((entry) => entry.fileId), ['f'], 'newer than the version Desk shows: news');
  });

  it('does not announce Desk\'s first write when the poll reporting it comes after Desk\'s second', () => {
    const log = new ChangeLog(() => 1_000);
    const file = { id: 'f', title: 'notes.md', modifiedDate: '2026-11-26T09:00:00.000Z' };
    log.add([{ fileId: 'f', file: { ...file, etag: '"v4"', version: '4' } }]);
    log.markSeen();
    log.noteOwnWrite('f', '"v5"', '5');
    log.noteOwnWrite('f', '"v6"', '6');
    const late = { fileId: 'f', file: { ...file, etag: '"v5"', version: '5', modifiedDate: '2026-11-26T09:01:00.000Z' } };
    assert.deepEqual(log.add([late]), [], 'version 5 was Desk\'s own, though its etag is no longer the last one written');
    const theirs = { fileId: 'f', file: { ...file, etag: '"v7"', version: '7', modifiedDate: '2026-11-26T09:02:00.000Z' } };
    assert.deepEqual(log.add([theirs]).map((entry) => entry.fileId), ['f'], 'a later version is someone else\'s');
  });

  it('tells which file a request of Desk changes', () => {
    assert.equal(fileChangedBy('GET', '/drive/v2/files/a'), undefined);
    assert.equal(fileChangedBy('PATCH', '/drive/v2/files/a'), 'a');
    assert.equal(fileChangedBy('PUT', '/upload/drive/v2/files/a'), 'a');
    assert.equal(fileChangedBy('POST', '/drive/v2/files/a/modifyLabels'), 'a');
    assert.equal(fileChangedBy('POST', '/drive/v2/files/a/watch'), undefined);
    assert.equal(fileChangedBy('DELETE', '/drive/v2/files/trash'), undefined);
    assert.equal(fileChangedBy('POST', '/drive/v2/changes/watch'), undefined);
  });
});
