import * as assert from 'node:assert/strict';
import { driveUriParts, isRemoteVersion, PathLookup, PathNotFound, queryFileId, remoteVersionParts, resolveDrivePath, sanitizeTitle, textExportType, uriSegments } from '../../../../../src/features/drive/fs/drivePath';
import type { DriveItem } from '../../../../../src/features/drive/port';
import { FOLDER_MIME_TYPE as FOLDER_MIME } from '../../../../../src/shared/schemas/drive';

const files: DriveItem[] = [
  { id: 'root', title: 'My Drive', mimeType: FOLDER_MIME },
  { id: 'F1', title: 'Notes', mimeType: FOLDER_MIME, parents: [{ id: 'root' }] },
  { id: 'a1', title: 'todo.txt', mimeType: 'text/plain', parents: [{ id: 'F1' }] },
  { id: 'F2', title: 'Notes', mimeType: FOLDER_MIME, parents: [{ id: 'F1' }] },
];

const lookup: PathLookup = {
  getFile: async (id) => {
    const file = files.find((candidate) => candidate.id === id);
    if (!file) throw new PathNotFound(id);
    return file;
  },
  findChild: async (folderId, title) => files.find((file) => file.parents?.some((parent) => parent.id === folderId) && file.title === title),
};

describe('desk-drive URIs', () => {
  it('carry the account in the authority, the folder path for people and the case-sensitive id (with the depth it names) in the query', () => {
    const alice = 'alice@example.com';
    assert.deepEqual(driveUriParts(alice, { id: 'aB1', title: 'roadmap.txt' }, ['My Drive', 'Projects', 'Desk']), { authority: alice, path: '/My Drive/Projects/Desk/roadmap.txt', query: 'id=aB1&depth=4' });
    assert.deepEqual(driveUriParts(alice, { id: 'aB1', title: 'todo.txt' }), { authority: alice, path: '/todo.txt', query: 'id=aB1&depth=1' });
    assert.deepEqual(driveUriParts(alice, { id: 'x', title: 'a/b' }, ['Shared with me', 'c/d']), { authority: alice, path: '/Shared with me/c∕d/a∕b', query: 'id=x&depth=3' }, 'a slash in a title is not a path separator');
    assert.deepEqual(remoteVersionParts(alice, { id: 'aB1', title: 'todo.txt' }), { authority: alice, path: '/aB1/todo.txt', query: 'remote' });
    assert.equal(isRemoteVersion({ query: 'remote' }), true);
    assert.equal(isRemoteVersion({ query: 'id=aB1&depth=1' }), false);
    assert.equal(sanitizeTitle('..'), '_');
    assert.deepEqual(uriSegments({ path: '/a1/todo.txt' }), ['a1', 'todo.txt'], 'the authority (the account) is not a segment');
    assert.deepEqual(uriSegments({ path: '/root/Notes' }), ['root', 'Notes']);
  });

  it('resolve by id, by id + title, and by child titles below a folder', async () => {
    assert.deepEqual(await resolveDrivePath([], lookup), { kind: 'root' });
    assert.equal(((await resolveDrivePath(['a1', 'todo.txt'], lookup)) as { item: DriveItem }).item.id, 'a1');
    assert.equal(((await resolveDrivePath(['F1', 'Notes', 'todo.txt'], lookup)) as { item: DriveItem }).item.id, 'a1');
    assert.equal(((await resolveDrivePath(['root', 'My Drive', 'Notes', 'todo.txt'], lookup)) as { item: DriveItem }).item.id, 'a1');
    // A folder named like its parent: the second "Notes" is the child, not the parent's own name again.
    assert.equal(((await resolveDrivePath(['F1', 'Notes', 'Notes'], lookup)) as { item: DriveItem }).item.id, 'F2');
  });

  it('name the file by the id in the query only at the depth it was built for (not the dirname/joinPath VS Code derives)', () => {
    const file = { ...driveUriParts('alice@example.com', { id: 'a1', title: 'todo.txt' }, ['My Drive', 'Notes']) };
    assert.equal(queryFileId(file), 'a1');
    assert.equal(queryFileId({ ...file, path: '/My Drive/Elsewhere/renamed.txt' }), 'a1', 'the path may be out of date: the id still names the file');
    assert.equal(queryFileId({ ...file, path: '/My Drive/Notes' }), undefined, 'a breadcrumb folder resolves by path');
    assert.equal(queryFileId({ ...file, path: '/My Drive/Notes/todo.txt/x' }), undefined);
    assert.equal(queryFileId({ authority: '', path: '/a1/todo.txt', query: '' }), undefined);
  });

  it('resolve a path that starts at My Drive, as the breadcrumb of a file opened from the tree names its folders', async () => {
    assert.equal(((await resolveDrivePath(['My Drive'], lookup)) as { item: DriveItem }).item.id, 'root');
    assert.equal(((await resolveDrivePath(['My Drive', 'Notes', 'todo.txt'], lookup)) as { item: DriveItem }).item.id, 'a1');
    assert.deepEqual(await resolveDrivePath(['My Drive', 'Notes', 'new.txt'], lookup), { kind: 'missing', parentId: 'F1', title: 'new.txt' });
    await assert.rejects(resolveDrivePath(['Shared with me', 'x.txt'], lookup), PathNotFound);
  });

  it('name a missing last segment for creates, and reject a missing middle', async () => {
    assert.deepEqual(await resolveDrivePath(['F1', 'Notes', 'new.txt'], lookup), { kind: 'missing', parentId: 'F1', title: 'new.txt' });
    await assert.rejects(resolveDrivePath(['F1', 'Notes', 'nope', 'new.txt'], lookup), PathNotFound);
    await assert.rejects(resolveDrivePath(['a1', 'todo.txt', 'below-a-file'], lookup), PathNotFound);
  });

  it('pick a text export for native documents from the formats the service lists', () => {
    const formats = [
      { source: 'application/vnd.google-apps.document', targets: ['text/html', 'text/plain'] },
      { source: 'application/vnd.google-apps.spreadsheet', targets: ['text/csv', 'text/html'] },
      { source: 'application/vnd.google-apps.drawing', targets: ['image/png'] },
    ];
    assert.equal(textExportType('application/vnd.google-apps.document', formats), 'text/plain');
    assert.equal(textExportType('application/vnd.google-apps.spreadsheet', formats), 'text/csv');
    assert.equal(textExportType('application/vnd.google-apps.drawing', formats), undefined);
    assert.equal(textExportType('text/plain', formats), undefined);
    assert.equal(textExportType('application/vnd.google-apps.presentation', []), 'text/plain');
  });
});
