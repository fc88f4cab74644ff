import * as assert from 'node:assert/strict';
import { propertiesDocument } from '../../../../src/features/drive/commands/index';
import { fileDetailsMarkdown } from '../../../../src/features/drive/commands/info';
import { titleSearchQuery } from '../../../../src/features/drive/port';
import { groupsOf } from '../../../../src/shared/matchGroups';
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

/** The details page's rows, by field. */
function detailRows(markdown: string): Map<string, string> {
  return new Map([...markdown.matchAll(/^\| ([^|]+) \| (.*) \|$/gm)].map((match) => {
    const [, field, value] = groupsOf(match);
    return [field ?? '', value ?? ''];
  }));
}

const writing = { rootTitle: 'My Drive', when: (ms: number) => `at ${new Date(ms).toISOString().slice(11, 16)}` };

describe('Drive file details page', () => {
  it('says in words what the file is and lists the folders it is in, titled, with My Drive for the root', async () => {
    const drive = new FakeDrive();
    const photos = drive.folder('Photos');
    const file = drive.file('pixel.png', photos);
    await drive.insertParent(file, drive.rootId);
    const page = await propertiesDocument(drive, file, writing);
    assert.ok(page.startsWith('# pixel\\.png\n'), 'titled with the file (escaped for markdown)');
    assert.doesNotMatch(page, /"kind"|drive#file|\{/, 'no raw API resource');
    const rows = detailRows(page);
    assert.equal(rows.get('In'), 'Photos, My Drive');
    assert.equal(rows.get('Contains'), undefined, 'a file has no child count');
  });

  it('writes dates with Desk\'s clock and Drive\'s values in words', () => {
    const file = {
      id: 'f1', title: 'notes (v2).txt', mimeType: 'text/plain', fileSize: '2048', createdDate: '2026-11-20T08:00:00.000Z', modifiedDate: '2026-11-26T13:05:00.000Z',
      lastModifyingUserName: 'Bob', owners: [{ displayName: 'Alice Demo' }], labels: { starred: true, trashed: false }, shared: false,
      alternateLink: 'https://drive.google.com/file/d/f1/view',
    };
    const page = fileDetailsMarkdown(file, ['My Drive'], undefined, writing);
    const rows = detailRows(page);
    assert.equal(rows.get('Size'), '2.0 KB');
    assert.equal(rows.get('Created'), 'at 08:00');
    assert.equal(rows.get('Modified'), 'at 13:05 by Bob');
    assert.equal(rows.get('Owner'), 'Alice Demo');
    assert.equal(rows.get('Starred'), 'Yes');
    assert.equal(rows.get('Shared'), 'No');
    assert.match(page, /\[Open in Google Drive\]\(https:\/\/drive\.google\.com\/file\/d\/f1\/view\)/);
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
    assert.equal(detailRows(await propertiesDocument(drive, folder, writing)).get('Contains'), '5 items');
    assert.deepEqual(pages, [undefined, '2', '4']);
  });
});
