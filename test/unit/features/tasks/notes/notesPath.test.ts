import * as assert from 'node:assert/strict';
import { isRemoteNotes, notesFromText, notesTargetOf, notesUriParts, offsetOfNotesLength, planSave, remoteNotesQuery } from '../../../../../src/features/tasks/notes/notesPath';
import { NOTES_MAX_LENGTH } from '../../../../../src/shared/schemas/tasks';

describe('desk-tasks notes URIs', () => {
  it('carry the account in the authority, show the list and task titles in the path and carry the ids in the query', () => {
    const parts = notesUriParts('alice@example.com', 'L1', 'Errands', { id: 'T-9', title: 'Buy stamps' });
    assert.deepEqual(parts, { authority: 'alice@example.com', path: '/Errands/Buy stamps.md', query: 'list=L1&task=T-9' });
    assert.deepEqual(notesTargetOf(parts), { listId: 'L1', taskId: 'T-9' });
    assert.deepEqual(notesUriParts('alice@example.com', 'L', 'a/b', { id: 'T', title: '  ' }).path, '/a∕b/Untitled task.md', 'slashes and empty titles make one safe segment');
    assert.deepEqual(notesTargetOf({ path: '/Errands/Renamed elsewhere.md', query: parts.query }), { listId: 'L1', taskId: 'T-9' }, 'the ids decide, not the titles');
  });

  it('name no task for a derived folder URI or a query without both ids', () => {
    assert.equal(notesTargetOf({ path: '/Errands', query: 'list=L1&task=T' }), undefined);
    assert.equal(notesTargetOf({ path: '/Errands/x.md', query: 'list=L1' }), undefined);
  });

  it('mark the read-only remote version in the query', () => {
    const query = remoteNotesQuery('list=L1&task=T');
    assert.equal(isRemoteNotes({ query }), true);
    assert.equal(isRemoteNotes({ query: 'list=L1&task=T' }), false);
    assert.deepEqual(notesTargetOf({ path: '/a/b.md', query }), { listId: 'L1', taskId: 'T' });
  });
});

describe('saving notes', () => {
  const pinned = { etag: '"1"', notes: 'first line\nsecond' };

  it('keeps the text, with \\n line ends; an empty document clears the notes', () => {
    assert.equal(notesFromText('a\r\nb\rc\n'), 'a\nb\nc\n');
    assert.equal(notesFromText(''), null);
    assert.deepEqual(planSave('new\r\ntext', pinned, pinned), { kind: 'save', notes: 'new\ntext' });
  });

  it('refuses notes longer than the API allows, before anything else', () => {
    const long = 'x'.repeat(NOTES_MAX_LENGTH + 1);
    assert.deepEqual(planSave(long, pinned, { etag: '"2"', notes: 'theirs' }), { kind: 'tooLong', length: NOTES_MAX_LENGTH + 1, max: NOTES_MAX_LENGTH });
    assert.equal(planSave('x'.repeat(NOTES_MAX_LENGTH), pinned, pinned).kind, 'save', 'exactly the limit is fine');
  });

  it('is a conflict only when the notes changed elsewhere since they were read', () => {
    assert.deepEqual(planSave('mine', pinned, { etag: '"2"', notes: 'theirs' }), { kind: 'conflict', notes: 'mine' });
    assert.equal(planSave('mine', pinned, { etag: '"2"', notes: undefined }).kind, 'conflict', 'cleared elsewhere is a change too');
    // Completed, renamed or moved elsewhere: a new etag, the same notes, and the patch sends only the notes.
    assert.equal(planSave('mine', pinned, { etag: '"2"', notes: pinned.notes }).kind, 'save');
    assert.equal(planSave('mine', undefined, { etag: '"2"', notes: 'theirs' }).kind, 'save', 'nothing pinned: nothing to compare with');
  });
});

describe('the part of notes that is too long', () => {
  it('starts after the first `max` characters of the notes, a CRLF counted as the one line end Tasks keeps', () => {
    assert.equal(offsetOfNotesLength('abcdef', 4), 4);
    assert.equal(offsetOfNotesLength('ab\r\ncdef', 4), 5, 'a, b, the line end, c');
    assert.equal(notesFromText('ab\r\ncdef'.slice(0, offsetOfNotesLength('ab\r\ncdef', 4)))?.length, 4);
    assert.equal(offsetOfNotesLength('abc', 10), 3, 'short text: nothing is too long');
  });
});
