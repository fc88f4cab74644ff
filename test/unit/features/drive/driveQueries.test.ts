import * as assert from 'node:assert/strict';
import { propertiesDocument } from '../../../../src/features/drive/commands/index';
import { titleSearchQuery } from '../../../../src/features/drive/port';
import { FakeDrive } from '../../../support/fakes/drive';

describe('Drive title search query', () => {
  it('quotes the typed text and leaves trashed files out', () => {
    assert.equal(titleSearchQuery('report'), "title contains 'report' and trashed = false");
  });

  it('escapes quotes and backslashes so the text cannot end the string early', () => {
    assert.equal(titleSearchQuery("Bob's notes"), "title contains 'Bob\\'s notes' and trashed = false");
    assert.equal(titleSearchQuery('a\\b'), "title contains 'a\\\\b' and trashed = false");
    assert.equal(titleSearchQuery("x' or title contains '"), "title contains 'x\\' or title contains \\'' and trashed = false");
  });
});

describe('Drive properties document', () => {
  it('lists the folders a file is in, titled, with My Drive for the root', async () => {
    const drive = new FakeDrive();
    const photos = drive.folder('Photos');
    const file = drive.file('pixel.png', photos);
    await drive.insertParent(file, drive.rootId);
    const shown = JSON.parse(await propertiesDocument(drive, file, 'My Drive')) as { id: string; inFolders: { id: string; title?: string }[]; childCount?: number };
    assert.equal(shown.id, file);
    assert.deepEqual(shown.inFolders, [{ id: photos, title: 'Photos' }, { id: drive.rootId, title: 'My Drive' }]);
    assert.equal(shown.childCount, undefined, 'a file has no child count');
  });

  it('counts a folder\'s children across every children.list page', async () => {
    const drive = new FakeDrive();
    const folder = drive.folder('Big');
    const ids = Array.from({ length: 5 }, (_, index) => drive.file(`f${index}.txt`, folder));
    const pages: (string | undefined)[] = [];
    // Two entries a page, so the count needs three pages.
    drive.listChildren = async (folderId: string, pageToken?: string) => {
      assert.equal(folderId, folder);
      pages.push(pageToken);
      const start = Number(pageToken ?? 0);
      return { ids: ids.slice(start, start + 2), nextPageToken: start + 2 < ids.length ? String(start + 2) : undefined };
    };
    const shown = JSON.parse(await propertiesDocument(drive, folder, 'My Drive')) as { childCount?: number };
    assert.equal(shown.childCount, 5);
    assert.deepEqual(pages, [undefined, '2', '4']);
  });
});
