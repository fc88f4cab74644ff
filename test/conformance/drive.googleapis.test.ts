import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { drive, drive_v2 } from '@googleapis/drive';
import { startEmulator, RunningEmulator } from '../../src/emulator/emulator';
import { officialClientOptions, rejectsWith } from '../support/officialClient';

async function textOf(data: unknown): Promise<string> {
  if (typeof data === 'string') return data;
  if (data instanceof Readable) {
    const chunks: Buffer[] = [];
    for await (const chunk of data as AsyncIterable<Buffer>) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8');
  }
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  if (typeof Blob !== 'undefined' && data instanceof Blob) return data.text();
  return JSON.stringify(data);
}

const md5 = (text: string): string => createHash('md5').update(text).digest('hex');
const FOLDER = 'application/vnd.google-apps.folder';

describe('official @googleapis/drive v2 client against the emulator', function () {
  this.timeout(20000);
  let emulator: RunningEmulator;
  let api: drive_v2.Drive;
  let rootUrl: string;

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    const options = officialClientOptions(emulator, 'alice@example.com');
    rootUrl = options.rootUrl; // uploads take it per call
    api = drive({ version: 'v2', ...options });
  });
  after(() => emulator.close());

  it('about.get and apps.list/get', async () => {
    const about = await api.about.get();
    assert.equal(about.data.kind, 'drive#about');
    assert.equal(about.data.user?.emailAddress, 'alice@example.com');
    assert.ok(about.data.rootFolderId);
    const apps = await api.apps.list();
    assert.equal(apps.data.kind, 'drive#appList');
    const first = apps.data.items?.[0]?.id as string;
    assert.equal((await api.apps.get({ appId: first })).data.id, first);
    await rejectsWith(api.apps.get({ appId: 'missing' }), 404);
  });

  it('files.insert (metadata, multipart, media), get, get alt=media, list, patch, update, copy, touch', async () => {
    const folder = await api.files.insert({ requestBody: { title: 'Conformance', mimeType: FOLDER } });
    assert.equal(folder.data.kind, 'drive#file');
    const folderId = folder.data.id as string;

    // The Node client ignores a client-level rootUrl for uploads: pass it per call.
    const multipart = await api.files.insert(
      { requestBody: { title: 'multi.txt', parents: [{ id: folderId }] }, media: { mimeType: 'text/plain', body: 'multipart body' } },
      { rootUrl },
    );
    assert.equal(multipart.data.title, 'multi.txt');
    assert.equal(multipart.data.md5Checksum, md5('multipart body'));
    assert.equal(multipart.data.parents?.[0]?.id, folderId);
    const media = await api.files.insert({ media: { mimeType: 'text/csv', body: Readable.from(['a,b\n', '1,2\n']) } }, { rootUrl });
    assert.equal(media.data.mimeType, 'text/csv');
    assert.equal(media.data.fileSize, '8');

    const got = await api.files.get({ fileId: multipart.data.id as string });
    assert.equal(got.data.etag, multipart.data.etag);
    const content = await api.files.get({ fileId: multipart.data.id as string, alt: 'media' }, { responseType: 'stream' });
    assert.equal(await textOf(content.data), 'multipart body');

    const list = await api.files.list({ q: `'${folderId}' in parents and trashed = false`, maxResults: 10, orderBy: 'title' });
    assert.equal(list.data.kind, 'drive#fileList');
    assert.deepEqual(list.data.items?.map((item) => item.title), ['multi.txt']);
    await rejectsWith(api.files.list({ q: "title = 'unterminated" }), 400);

    const patched = await api.files.patch({ fileId: media.data.id as string, addParents: folderId, removeParents: 'root', requestBody: { title: 'data.csv', labels: { starred: true } } });
    assert.equal(patched.data.title, 'data.csv');
    assert.equal(patched.data.labels?.starred, true);
    assert.deepEqual(patched.data.parents?.map((parent) => parent.id), [folderId]);

    // update sends the whole resource back (read-only fields included), with new content.
    const updated = await api.files.update(
      { fileId: multipart.data.id as string, requestBody: { ...got.data, title: 'multi-v2.txt' }, media: { mimeType: 'text/plain', body: 'updated body' } },
      { rootUrl },
    );
    assert.equal(updated.data.title, 'multi-v2.txt');
    assert.equal(updated.data.md5Checksum, md5('updated body'));
    const metadataUpdate = await api.files.update({ fileId: multipart.data.id as string, requestBody: { ...updated.data, description: 'described' } });
    assert.equal(metadataUpdate.data.description, 'described');
    assert.equal(metadataUpdate.data.md5Checksum, md5('updated body'));

    const copy = await api.files.copy({ fileId: multipart.data.id as string, requestBody: { title: 'copy.txt' } });
    assert.equal(copy.data.md5Checksum, md5('updated body'));
    const touched = await api.files.touch({ fileId: copy.data.id as string });
    assert.ok(Number(touched.data.version) > Number(copy.data.version));

    const ids = await api.files.generateIds({ maxResults: 2 });
    assert.equal(ids.data.ids?.length, 2);
    const chosen = await api.files.insert({ requestBody: { id: ids.data.ids.at(0), title: 'chosen' } });
    assert.equal(chosen.data.id, ids.data.ids.at(0));
  });

  it('files.trash, untrash, emptyTrash and delete', async () => {
    const file = await api.files.insert({ requestBody: { title: 'bin me' } });
    const id = file.data.id as string;
    assert.equal((await api.files.trash({ fileId: id })).data.labels?.trashed, true);
    assert.equal((await api.files.untrash({ fileId: id })).data.labels?.trashed, false);
    await api.files.trash({ fileId: id });
    const emptied = await api.files.emptyTrash();
    assert.equal(emptied.status, 204);
    await rejectsWith(api.files.get({ fileId: id }), 404);
    const other = await api.files.insert({ requestBody: { title: 'delete me' } });
    assert.equal((await api.files.delete({ fileId: other.data.id as string })).status, 204);
    await rejectsWith(api.files.delete({ fileId: other.data.id as string }), 404);
  });

  it('files.export of a native document', async () => {
    const doc = await api.files.insert(
      { convert: true, requestBody: { title: 'Doc' }, media: { mimeType: 'text/plain', body: 'exported text' } },
      { rootUrl },
    );
    assert.equal(doc.data.mimeType, 'application/vnd.google-apps.document');
    assert.ok(doc.data.exportLinks?.['text/plain']);
    const exported = await api.files.export({ fileId: doc.data.id as string, mimeType: 'text/plain' }, { responseType: 'stream' });
    assert.equal(await textOf(exported.data), 'exported text');
    await rejectsWith(api.files.export({ fileId: doc.data.id as string, mimeType: 'application/zip' }), 400);
  });

  it('children.insert/get/list/delete and parents.insert/get/list/delete', async () => {
    const a = await api.files.insert({ requestBody: { title: 'A', mimeType: FOLDER } });
    const b = await api.files.insert({ requestBody: { title: 'B', mimeType: FOLDER } });
    const file = await api.files.insert({ requestBody: { title: 'child', parents: [{ id: a.data.id }] } });
    const fileId = file.data.id as string;
    const child = await api.children.insert({ folderId: b.data.id as string, requestBody: { id: fileId } });
    assert.equal(child.data.kind, 'drive#childReference');
    assert.equal((await api.children.get({ folderId: b.data.id as string, childId: fileId })).data.id, fileId);
    const children = await api.children.list({ folderId: b.data.id as string, maxResults: 5 });
    assert.equal(children.data.kind, 'drive#childList');
    assert.deepEqual(children.data.items?.map((item) => item.id), [fileId]);
    assert.equal((await api.children.delete({ folderId: b.data.id as string, childId: fileId })).status, 204);

    const parent = await api.parents.insert({ fileId, requestBody: { id: b.data.id as string } });
    assert.equal(parent.data.kind, 'drive#parentReference');
    assert.equal((await api.parents.get({ fileId, parentId: b.data.id as string })).data.id, b.data.id);
    const parents = await api.parents.list({ fileId });
    assert.equal(parents.data.kind, 'drive#parentList');
    assert.equal(parents.data.items?.length, 2);
    assert.equal((await api.parents.delete({ fileId, parentId: a.data.id as string })).status, 204);
    assert.deepEqual((await api.parents.list({ fileId })).data.items?.map((item) => item.id), [b.data.id]);
  });

  it('changes.getStartPageToken, list and get', async () => {
    const start = await api.changes.getStartPageToken();
    assert.equal(start.data.kind, 'drive#startPageToken');
    const made = await api.files.insert({ requestBody: { title: 'changed' } });
    const changes = await api.changes.list({ pageToken: start.data.startPageToken as string, maxResults: 10 });
    assert.equal(changes.data.kind, 'drive#changeList');
    assert.deepEqual(changes.data.items?.map((item) => item.fileId), [made.data.id]);
    assert.ok(changes.data.newStartPageToken);
    const change = await api.changes.get({ changeId: changes.data.items.at(0)?.id as string });
    assert.equal(change.data.fileId, made.data.id);
    await rejectsWith(api.changes.list({ pageToken: 'bogus' }), 400);
  });

  it('keeps users apart for the official client too', async () => {
    const file = await api.files.insert({ requestBody: { title: 'private' } });
    const bob = drive({ version: 'v2', ...officialClientOptions(emulator, 'bob@example.com') });
    await rejectsWith(bob.files.get({ fileId: file.data.id as string }), 404);
  });
});
