import * as assert from 'node:assert/strict';
import { DEMO_USERS } from '../../../../src/emulator/identity/users';
import { DriveModel, Garbage, Media } from '../../../../src/emulator/drive/files/model';
import { MERGE_WINDOW_MS, RevisionsModel, UNPINNED_KEEP_MS, UNPINNED_MAX } from '../../../../src/emulator/drive/revisions/model';
import { MemoryStore } from '../../../../src/emulator/store/store';
import { GOOGLE_DOC_MIME_TYPE } from '../../../../src/shared/schemas/drive';

const alice = DEMO_USERS[0];
const DAY = 24 * 60 * 60 * 1000;

describe('RevisionsModel (time-dependent rules)', () => {
  let clock: number;
  let files: DriveModel;
  let revisions: RevisionsModel;
  let blobs: number;
  beforeEach(() => {
    clock = Date.parse('2026-03-01T12:00:00Z');
    const store = new MemoryStore();
    files = new DriveModel(store, () => clock);
    revisions = new RevisionsModel(store, files, () => clock);
    blobs = 0;
  });

  const media = (mimeType = 'text/plain'): Media => ({ blob: { blobId: `blob${++blobs}`, size: 1, md5: `md5-${blobs}` }, mimeType });
  const write = (fileId: string, mimeType?: string): Garbage => files.update(alice, fileId, {}, { media: media(mimeType) }).garbage;
  const ids = (fileId: string): string[] => revisions.list(alice, fileId, { maxResults: 1000 }).revisions.map((revision) => revision.blobId ?? '');

  it('purges unpinned revisions 30 days after newer content, keeps pinned ones and the head', () => {
    const file = files.insert(alice, { title: 'a.txt' }, media());
    clock += DAY;
    write(file.id);
    const [first] = revisions.list(alice, file.id, { maxResults: 10 }).revisions;
    clock += DAY;
    write(file.id);
    revisions.update(alice, file.id, first.id, { pinned: true });
    clock += UNPINNED_KEEP_MS + DAY;
    const garbage = write(file.id);
    // blob2 was superseded by blob3 more than 30 days ago: purged; blob1 is pinned; blob3 became old just now.
    assert.deepEqual(garbage.blobIds, ['blob2']);
    assert.deepEqual(ids(file.id), ['blob1', 'blob3', 'blob4']);
  });

  it(`keeps at most ${UNPINNED_MAX} unpinned old revisions, dropping the oldest first`, () => {
    const file = files.insert(alice, { title: 'busy.txt' }, media());
    const freed: string[] = [];
    for (let index = 0; index < UNPINNED_MAX + 2; index++) freed.push(...write(file.id).blobIds);
    assert.deepEqual(freed, ['blob1', 'blob2']);
    const kept = ids(file.id);
    assert.equal(kept.length, UNPINNED_MAX + 1);
    assert.equal(kept[0], 'blob3');
  });

  it('merges rapid edits of a Docs Editors file by the same user, not slower ones', () => {
    const doc = files.insert(alice, { title: 'Doc', mimeType: GOOGLE_DOC_MIME_TYPE }, media(GOOGLE_DOC_MIME_TYPE));
    clock += MERGE_WINDOW_MS + 1;
    assert.deepEqual(write(doc.id, GOOGLE_DOC_MIME_TYPE).blobIds, [], 'a slow edit keeps the old version');
    clock += 1000;
    assert.deepEqual(write(doc.id, GOOGLE_DOC_MIME_TYPE).blobIds, ['blob2'], 'a rapid one replaces the head');
    assert.deepEqual(ids(doc.id), ['blob1', 'blob3']);
  });
});
