import * as assert from 'node:assert/strict';
import { canDelete, canPin, canPublish, parseRevisionUri, revisionDetail, revisionTextType, revisionUriParts, revisionViews, textOf, versionedTitle } from '../../../../../src/features/drive/revisions/history';
import type { DriveRevision } from '../../../../../src/shared/schemas/drive/revisions';

const words = { current: 'current', pinned: 'pinned', published: 'published', publishedAuto: 'published, auto' };

describe('revision history (pure)', () => {
  it('lists newest first, numbered from the oldest, the last one Drive lists as the current version', () => {
    const revisions: DriveRevision[] = [{ id: '1', mimeType: 'text/plain', fileSize: '3' }, { id: '5', mimeType: 'text/plain', fileSize: '2048', pinned: true }, { id: '9', mimeType: 'text/plain', fileSize: '1' }];
    const views = revisionViews(revisions);
    assert.deepEqual(views.map((view) => [view.revision.id, view.number, view.isHead]), [['9', 3, true], ['5', 2, false], ['1', 1, false]]);
    assert.equal(revisionDetail(views[0], words), 'current · 1 B');
    assert.equal(revisionDetail(views[1], words), '2.0 KB · pinned');
    // Only old versions of files with bytes can go; never the current one, never the last one.
    assert.deepEqual(views.map((view) => canDelete(view, views.length)), [false, true, true]);
    assert.equal(canDelete(revisionViews([{ id: '1', mimeType: 'text/plain' }])[0], 1), false);
    assert.ok(views.every((view) => canPin(view) && !canPublish(view)));
  });

  it('treats Docs Editors versions as publishable, read through a text export, never pinned or deleted', () => {
    const [head, old] = revisionViews([
      { id: '1', mimeType: 'application/vnd.google-apps.spreadsheet', exportLinks: { 'text/html': 'h', 'text/csv': 'c' } },
      { id: '2', mimeType: 'application/vnd.google-apps.spreadsheet', published: true, publishAuto: true },
    ]);
    assert.equal(revisionDetail(head, words), 'current · published, auto');
    assert.ok(canPublish(old) && !canPin(old) && !canDelete(old, 2));
    assert.equal(revisionTextType(old.revision), 'text/csv');
    assert.equal(revisionTextType({ id: 'x' }), undefined);
  });

  it('names a version’s document so the tab says which version and the language stays', () => {
    assert.equal(versionedTitle('notes.md', 'version 2'), 'notes (version 2).md');
    assert.equal(versionedTitle('Budget', 'version 1'), 'Budget (version 1)');
    assert.equal(versionedTitle('a/b.txt', 'version 3'), 'a∕b (version 3).txt');
    const parts = revisionUriParts({ fileId: 'f 1', revisionId: '7', exportType: 'text/plain' }, 'notes (version 2).md');
    assert.deepEqual(parseRevisionUri(parts.path, parts.query), { fileId: 'f 1', revisionId: '7', exportType: 'text/plain' });
    assert.deepEqual(parseRevisionUri('/abc/3/x.txt', ''), { fileId: 'abc', revisionId: '3' });
    assert.equal(parseRevisionUri('/abc', ''), undefined);
  });

  it('shows text, and refuses to show bytes that are not text', () => {
    assert.equal(textOf(Buffer.from('héllo')), 'héllo');
    assert.equal(textOf(Buffer.from([0x89, 0x50, 0x00, 0x01])), undefined);
  });
});
