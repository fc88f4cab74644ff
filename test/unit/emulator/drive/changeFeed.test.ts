/** The Drive change feed at sizes past the call-stack limit: compaction of a long history must not lose changes. */
import * as assert from 'node:assert/strict';
import { ChangeFeed } from '../../../../src/emulator/drive/changes/model';
import { MemoryStore } from '../../../../src/emulator/store/store';

describe('ChangeFeed at scale', () => {
  it('keeps every file’s latest change when 140,000 files each change twice (the compaction of the id list)', () => {
    let clock = Date.parse('2026-03-01T12:00:00Z');
    const feed = new ChangeFeed(new MemoryStore(), () => clock++);
    const files = 140_000;
    // The second round supersedes the first, so dead ids outnumber live ones and the list is compacted.
    for (let round = 0; round < 2; round++) {
      for (let file = 0; file < files; file++) feed.record('alice', `file-${file}`, false);
    }
    assert.equal(feed.largestChangeId(), 2 * files);
    let seen = 0;
    let pageToken: string | undefined = '1';
    let newStartPageToken: string | undefined;
    while (pageToken !== undefined) {
      const page = feed.list('alice', { pageToken, maxResults: 1000, includeDeleted: true });
      seen += page.changes.length;
      pageToken = page.nextPageToken;
      newStartPageToken = page.newStartPageToken;
    }
    assert.equal(seen, files);
    assert.equal(newStartPageToken, String(2 * files + 1));
    // A write after the compaction is still recorded and listed.
    feed.record('alice', 'file-0', false);
    const after = feed.list('alice', { pageToken: String(2 * files + 1), maxResults: 10, includeDeleted: true });
    assert.deepEqual(after.changes.map((change) => change.fileId), ['file-0']);
  });
});
