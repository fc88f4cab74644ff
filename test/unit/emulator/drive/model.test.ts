import * as assert from 'node:assert/strict';
import { DEMO_USERS, EmulatorUser } from '../../../../src/emulator/identity/users';
import { ApiError } from '../../../../src/emulator/core/errors';
import { DriveModel, etagOf } from '../../../../src/emulator/drive/files/model';
import { MemoryStore } from '../../../../src/emulator/store/store';
import { FOLDER_MIME_TYPE } from '../../../../src/shared/schemas/drive';

const alice = DEMO_USERS[0] as EmulatorUser;
const bob = DEMO_USERS[1] as EmulatorUser;

function apiError(reason: string, code: number): (error: unknown) => boolean {
  return (error: unknown) => error instanceof ApiError && error.reason === reason && error.code === code;
}

describe('DriveModel', () => {
  let clock: number;
  let model: DriveModel;
  beforeEach(() => {
    clock = Date.parse('2026-03-01T12:00:00Z');
    model = new DriveModel(new MemoryStore(), () => clock++);
  });

  const folder = (title: string, parentId = 'root', user = alice) => model.insert(user, { title, mimeType: FOLDER_MIME_TYPE, parents: [{ id: parentId }] });
  const file = (title: string, parentId = 'root', user = alice) => model.insert(user, { title, parents: [{ id: parentId }] });

  it('creates one root per user on first use and resolves the root alias', () => {
    const root = model.rootOf(alice);
    assert.equal(model.rootOf(alice).id, root.id);
    assert.equal(model.get(alice, 'root').id, root.id);
    assert.notEqual(model.rootOf(bob).id, root.id);
    assert.throws(() => model.get(bob, root.id), apiError('notFound', 404));
  });

  it('bumps the version and the etag on every change', () => {
    const created = file('a');
    const before = etagOf(created);
    const version = created.version;
    model.update(alice, created.id, { title: 'b' });
    assert.equal(model.get(alice, created.id).version, version + 1);
    assert.notEqual(etagOf(model.get(alice, created.id)), before);
    assert.throws(() => model.update(alice, created.id, { title: 'c' }, { ifMatch: before }), apiError('conditionNotMet', 412));
    assert.doesNotThrow(() => model.update(alice, created.id, { title: 'c' }, { ifMatch: '*' }));
  });

  it('does not turn files into folders or native documents by metadata alone', () => {
    const plain = file('plain');
    const doc = model.insert(alice, { title: 'doc', mimeType: 'application/vnd.google-apps.document' });
    assert.throws(() => model.update(alice, plain.id, { mimeType: FOLDER_MIME_TYPE }), apiError('badRequest', 400));
    assert.throws(() => model.update(alice, plain.id, { mimeType: 'application/vnd.google-apps.document' }), apiError('badRequest', 400));
    assert.throws(() => model.update(alice, doc.id, { mimeType: 'text/plain' }), apiError('badRequest', 400));
    assert.equal(model.update(alice, plain.id, { mimeType: 'text/markdown' }).file.mimeType, 'text/markdown');
  });

  it('refuses cycles however deep', () => {
    const a = folder('a');
    const b = folder('b', a.id);
    const c = folder('c', b.id);
    const d = folder('d', c.id);
    assert.throws(() => model.addParent(alice, a.id, d.id), apiError('invalid', 400));
    assert.throws(() => model.update(alice, a.id, {}, { addParents: [d.id] }), apiError('invalid', 400));
    // The failed move left a where it was.
    assert.deepEqual(model.get(alice, a.id).parents, [model.rootOf(alice).id]);
  });

  it('deletes a file reachable twice inside the deleted tree, but not one with a parent outside it', () => {
    const top = folder('top');
    const left = folder('left', top.id);
    const right = folder('right', top.id);
    const both = file('both', left.id);
    model.addParent(alice, both.id, right.id);
    const outside = folder('outside');
    const survivor = file('survivor', right.id);
    model.addParent(alice, survivor.id, outside.id);
    model.delete(alice, top.id);
    for (const id of [top.id, left.id, right.id, both.id]) assert.equal(model.exists(id), false);
    assert.deepEqual(model.get(alice, survivor.id).parents, [outside.id]);
  });

  it('reports only the latest change of each file, in id order, with tokens that page correctly', () => {
    const start = model.startPageToken();
    const a = file('a');
    const b = file('b');
    model.update(alice, a.id, { title: 'a2' });
    const c = file('c');
    model.delete(alice, b.id);
    file('bob-file', 'root', bob);

    const all = model.listChanges(alice, { pageToken: start, maxResults: 100, includeDeleted: true });
    assert.deepEqual(all.changes.map((change) => [change.fileId, change.deleted]), [[a.id, false], [c.id, false], [b.id, true]]);
    assert.equal(all.nextPageToken, undefined);
    assert.equal(all.newStartPageToken, String(model.largestChangeId() + 1));

    const first = model.listChanges(alice, { pageToken: start, maxResults: 1, includeDeleted: true });
    assert.deepEqual(first.changes.map((change) => change.fileId), [a.id]);
    assert.equal(first.newStartPageToken, undefined);
    const second = model.listChanges(alice, { pageToken: first.nextPageToken, maxResults: 1, includeDeleted: true });
    assert.deepEqual(second.changes.map((change) => change.fileId), [c.id]);

    const withoutDeleted = model.listChanges(alice, { pageToken: start, maxResults: 100, includeDeleted: false });
    assert.deepEqual(withoutDeleted.changes.map((change) => change.fileId), [a.id, c.id]);
    assert.throws(() => model.listChanges(alice, { pageToken: '0', maxResults: 10, includeDeleted: true }), apiError('invalid', 400));
  });

  it('keeps a long history cheap and correct when one file changes thousands of times', () => {
    const start = model.startPageToken();
    const busy = file('busy');
    const quiet = file('quiet');
    for (let index = 0; index < 5000; index++) model.touch(alice, busy.id);
    const page = model.listChanges(alice, { pageToken: start, maxResults: 100, includeDeleted: true });
    assert.deepEqual(page.changes.map((change) => change.fileId), [quiet.id, busy.id]);
    const later = model.listChanges(alice, { pageToken: String(Number(page.newStartPageToken) - 1), maxResults: 100, includeDeleted: true });
    assert.deepEqual(later.changes.map((change) => change.fileId), [busy.id]);
  });

  it('pages by sort position: ties break by id, and a removed cursor item does not skip or repeat', async () => {
    const box = folder('box');
    const ids = Array.from({ length: 9 }, (_, index) => file(index < 5 ? 'same' : `t${index}`, box.id).id);
    const seen: string[] = [];
    let pageToken: string | undefined;
    let deleted = false;
    do {
      const page = await model.list(alice, { q: `'${box.id}' in parents`, orderBy: 'title', maxResults: 2, pageToken });
      seen.push(...page.files.map((entry) => entry.id));
      pageToken = page.nextPageToken;
      if (!deleted && page.files.length > 0) {
        // Delete the last item of the first page: the cursor still knows where it was.
        model.delete(alice, page.files[page.files.length - 1]?.id as string);
        deleted = true;
      }
    } while (pageToken);
    assert.equal(new Set(seen).size, seen.length, 'no repeats');
    assert.deepEqual([...seen].sort(), [...ids].sort());
  });

  it('pages a folder from its kept matches: same order as one sorted listing, and a file added between pages is seen', async () => {
    const box = folder('kept');
    for (let index = 0; index < 250; index++) file(`f${String(index * 2).padStart(4, '0')}`, box.id);
    const titles = async (): Promise<string[]> => {
      const seen: string[] = [];
      let pageToken: string | undefined;
      let added = false;
      do {
        const page = await model.list(alice, { q: `'${box.id}' in parents`, orderBy: 'title', maxResults: 100, pageToken });
        seen.push(...page.files.map((entry) => entry.title));
        pageToken = page.nextPageToken;
        if (!added) {
          // After the first page, a file that sorts into the second: the kept matches must not hide it.
          file('f0301', box.id);
          added = true;
        }
      } while (pageToken);
      return seen;
    };
    const seen = await titles();
    assert.equal(seen.length, 251);
    assert.ok(seen.includes('f0301'));
    assert.deepEqual(seen, [...seen].sort());
    // Page by page again with nothing changing between them: the kept matches serve pages 2 and 3.
    const again: string[] = [];
    let pageToken: string | undefined;
    do {
      const page = await model.list(alice, { q: `'${box.id}' in parents`, orderBy: 'title desc', maxResults: 100, pageToken });
      again.push(...page.files.map((entry) => entry.title));
      pageToken = page.nextPageToken;
    } while (pageToken);
    assert.deepEqual(again, [...seen].reverse());
  });

  it('rejects a page token from another query or user', async () => {
    const box = folder('box2');
    for (let index = 0; index < 3; index++) file(`f${index}`, box.id);
    const page = await model.list(alice, { q: `'${box.id}' in parents`, maxResults: 1 });
    assert.ok(page.nextPageToken);
    await assert.rejects(model.list(alice, { q: 'starred = true', maxResults: 1, pageToken: page.nextPageToken }), apiError('invalid', 400));
    await assert.rejects(model.list(bob, { q: `'${box.id}' in parents`, maxResults: 1, pageToken: page.nextPageToken }), apiError('invalid', 400));
  });

  it('computes quota from stored bytes, including what is in the trash', () => {
    const stored = model.insert(alice, { title: 'bytes' }, { blob: { blobId: 'blob1', size: 1000, md5: 'x' }, mimeType: 'application/octet-stream' });
    model.insert(alice, { title: 'doc' }, { blob: { blobId: 'blob2', size: 50, md5: 'y' }, mimeType: 'application/vnd.google-apps.document' });
    assert.deepEqual(model.usage(alice.id), { used: 1000, inTrash: 0 });
    model.trash(alice, stored.id);
    assert.deepEqual(model.usage(alice.id), { used: 1000, inTrash: 1000 });
    assert.deepEqual(model.emptyTrash(alice).blobIds, ['blob1']);
    assert.deepEqual(model.usage(alice.id), { used: 0, inTrash: 0 });
  });
});
