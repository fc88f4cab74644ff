import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startEmulator, RunningEmulator } from '../../../../src/emulator/emulator';
import { driveFileSchema, GOOGLE_DOC_MIME_TYPE } from '../../../../src/shared/schemas/drive';
import { revisionListSchema, revisionSchema } from '../../../../src/shared/schemas/drive/revisions';
import { EmulatorCall, emulatorHttp, expectGoogleError } from '../../../support/emulatorHttp';

describe('Drive v2 emulator: revisions', function () {
  this.timeout(20000);
  let emulator: RunningEmulator;
  let call: EmulatorCall;
  let bobToken: string;
  let carolToken: string;

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    const aliceToken = emulator.tokenFor('alice@example.com').accessToken;
    bobToken = emulator.tokenFor('bob@example.com').accessToken;
    carolToken = emulator.tokenFor('carol@example.com').accessToken;
    call = emulatorHttp(emulator, () => aliceToken);
  });
  after(() => emulator.close());

  async function upload(title: string, text: string, mimeType = 'text/plain') {
    return driveFileSchema.parse((await call('POST', '/upload/drive/v2/files?uploadType=multipart', {
      body: `--b\r\nContent-Type: application/json\r\n\r\n${JSON.stringify({ title, mimeType })}\r\n--b\r\nContent-Type: ${mimeType}\r\n\r\n${text}\r\n--b--`,
      contentType: 'multipart/related; boundary=b',
    })).json);
  }

  async function write(fileId: string, text: string, options: { query?: string; token?: string; contentType?: string } = {}) {
    const answer = await call('PUT', `/upload/drive/v2/files/${fileId}?uploadType=media${options.query ?? ''}`, { body: Buffer.from(text), contentType: options.contentType ?? 'text/plain', ...(options.token ? { token: options.token } : {}) });
    assert.equal(answer.status, 200, answer.text);
    return driveFileSchema.parse(answer.json);
  }

  async function revisions(fileId: string, query = '', token?: string) {
    return revisionListSchema.parse((await call('GET', `/drive/v2/files/${fileId}/revisions${query}`, token ? { token } : {})).json);
  }

  async function bytesAt(url: string, token?: string): Promise<string> {
    const answer = await call('GET', url.replace(emulator.url, ''), token ? { token } : {});
    assert.equal(answer.status, 200, answer.text);
    return answer.text;
  }

  it('makes a revision per content update, keeps old content intact and downloadable, and headRevisionId follows', async () => {
    const file = await upload('history.txt', 'one');
    let list = await revisions(file.id);
    assert.equal(list.kind, 'drive#revisionList');
    assert.deepEqual(list.items.map((revision) => revision.id), [file.headRevisionId]);
    await write(file.id, 'two');
    // A metadata-only change makes no revision.
    await call('PATCH', `/drive/v2/files/${file.id}`, { json: { title: 'history renamed.txt' } });
    const latest = await write(file.id, 'three!');
    list = await revisions(file.id);
    assert.equal(list.items.length, 3);
    const [first, second, head] = list.items as [typeof list.items[0], typeof list.items[0], typeof list.items[0]];
    assert.equal(head.id, latest.headRevisionId);
    assert.equal(head.md5Checksum, latest.md5Checksum);
    assert.equal(first.fileSize, '3');
    assert.equal(head.fileSize, '6');
    assert.equal(first.kind, 'drive#revision');
    assert.equal(first.pinned, false);
    assert.equal(first.lastModifyingUser?.emailAddress, 'alice@example.com');
    assert.equal(first.published, undefined, 'publishing is for Docs Editors files');
    // Old versions' bytes stay intact after later updates: downloadUrl, files.get?revisionId and revisions.get?alt=media.
    assert.equal(await bytesAt(first.downloadUrl as string), 'one');
    assert.equal(await bytesAt(`/drive/v2/files/${file.id}?alt=media&revisionId=${second.id}`), 'two');
    assert.equal(await bytesAt(`/drive/v2/files/${file.id}/revisions/${first.id}?alt=media`), 'one');
    assert.equal(await bytesAt(`/drive/v2/files/${file.id}?alt=media`), 'three!');
    // revisionId is ignored without alt=media; an unknown one is a 404 with the media.
    assert.equal(driveFileSchema.parse((await call('GET', `/drive/v2/files/${file.id}?revisionId=nope`)).json).id, file.id);
    await expectGoogleError(call('GET', `/drive/v2/files/${file.id}?alt=media&revisionId=999`), 404, 'revisionNotFound');
    await expectGoogleError(call('GET', `/drive/v2/files/${file.id}/revisions/999`), 404, 'revisionNotFound');
    assert.equal(revisionSchema.parse((await call('GET', `/drive/v2/files/${file.id}/revisions/${second.id}`)).json).md5Checksum, second.md5Checksum);
    const folder = driveFileSchema.parse((await call('POST', '/drive/v2/files', { json: { title: 'f', mimeType: 'application/vnd.google-apps.folder' } })).json);
    await expectGoogleError(call('GET', `/drive/v2/files/${folder.id}/revisions`), 403, 'revisionsNotSupported');
  });

  it('cannot delete the head (or only) revision; deleting an old one frees it and leaves the others intact', async () => {
    const file = await upload('deletable.txt', 'v1');
    await expectGoogleError(call('DELETE', `/drive/v2/files/${file.id}/revisions/${String(file.headRevisionId)}`), 400, 'cannotDeleteOnlyRevision');
    await write(file.id, 'v2');
    const updated = await write(file.id, 'v3');
    const history = (await revisions(file.id)).items;
    const v1 = history.at(0);
    const v2 = history.at(1);
    await expectGoogleError(call('DELETE', `/drive/v2/files/${file.id}/revisions/${String(updated.headRevisionId)}`), 400, 'badRequest');
    assert.equal((await call('DELETE', `/drive/v2/files/${file.id}/revisions/${String(v1?.id)}`)).status, 204);
    assert.deepEqual((await revisions(file.id)).items.map((revision) => revision.id), [v2?.id, updated.headRevisionId]);
    await expectGoogleError(call('GET', `/drive/v2/files/${file.id}/revisions/${String(v1?.id)}`), 404, 'revisionNotFound');
    assert.equal(await bytesAt(v2?.downloadUrl as string), 'v2');
    const file2 = driveFileSchema.parse((await call('GET', `/drive/v2/files/${file.id}`)).json);
    assert.equal(file2.headRevisionId, updated.headRevisionId);
  });

  it('pins (keepForever) revisions of files with bytes; newRevision=false replaces the head; pinned=true pins the new head', async () => {
    const file = await upload('pins.txt', 'a');
    await write(file.id, 'b');
    const old = (await revisions(file.id)).items.at(0);
    const oldRevision = `/drive/v2/files/${file.id}/revisions/${String(old?.id)}`;
    const pinned = revisionSchema.parse((await call('PATCH', oldRevision, { json: { pinned: true } })).json);
    assert.equal(pinned.pinned, true);
    assert.notEqual(pinned.etag, old?.etag);
    // update (PUT) takes the fetched resource back, output-only fields and all.
    const unpinned = revisionSchema.parse((await call('PUT', oldRevision, { json: { ...pinned, pinned: false } })).json);
    assert.equal(unpinned.pinned, false);
    await expectGoogleError(call('PATCH', oldRevision, { json: { published: true } }), 400, 'invalid');
    await expectGoogleError(call('PATCH', oldRevision, { json: { pinned: 'yes' } }), 400, 'invalid');

    const replaced = await write(file.id, 'c', { query: '&newRevision=false' });
    let list = await revisions(file.id);
    assert.deepEqual(list.items.map((revision) => revision.id), [old?.id, replaced.headRevisionId], 'no new revision: the head was replaced');
    assert.equal(await bytesAt(`/drive/v2/files/${file.id}?alt=media&revisionId=${String(replaced.headRevisionId)}`), 'c');
    const pinnedHead = await write(file.id, 'd', { query: '&pinned=true' });
    list = await revisions(file.id);
    assert.equal(list.items.at(-1)?.id, pinnedHead.headRevisionId);
    assert.equal(list.items.at(-1)?.pinned, true);
    assert.equal(list.items.length, 3);
  });

  it('publishes revisions of Docs Editors files (publishAuto carries to the next one), exports old ones, and refuses their deletion', async () => {
    const doc = await upload('Plan', 'first draft', GOOGLE_DOC_MIME_TYPE);
    await call('POST', `/drive/v2/files/${doc.id}/permissions`, { json: { type: 'user', role: 'writer', emailAddress: 'bob@example.com' } });
    const first = (await revisions(doc.id)).items.at(0);
    assert.equal(first?.published, false);
    assert.equal(first.pinned, undefined);
    assert.equal(first.downloadUrl, undefined);
    const published = revisionSchema.parse((await call('PATCH', `/drive/v2/files/${doc.id}/revisions/${first.id}`, { json: { published: true, publishAuto: true, publishedOutsideDomain: true } })).json);
    assert.equal(published.published, true);
    assert.ok(published.publishedLink);
    await expectGoogleError(call('PATCH', `/drive/v2/files/${doc.id}/revisions/${first.id}`, { json: { pinned: true } }), 400, 'invalid');
    // Bob's edit is not merged into Alice's revision; the published head passes publishing on.
    await write(doc.id, 'second draft', { token: bobToken, contentType: 'text/plain' });
    const list = await revisions(doc.id);
    // Docs Editors files have no headRevisionId (no bytes in Drive): their history is the revisions list.
    assert.equal(list.items.length, 2);
    const bobs = list.items[1]?.id;
    assert.equal(list.items[1]?.published, true);
    assert.equal(list.items[1]?.publishAuto, true);
    assert.equal(list.items[1]?.lastModifyingUser?.emailAddress, 'bob@example.com');
    assert.equal(await bytesAt(first.exportLinks?.['text/plain'] as string), 'first draft');
    await expectGoogleError(call('DELETE', `/drive/v2/files/${doc.id}/revisions/${first.id}`), 403, 'revisionDeletionNotSupported');
    // Alice's own rapid second edit merges into the head she just made.
    await write(doc.id, 'third draft', { contentType: 'text/plain' });
    const afterMine = (await revisions(doc.id)).items;
    await write(doc.id, 'third draft, fixed', { contentType: 'text/plain' });
    const merged = (await revisions(doc.id)).items;
    assert.equal(afterMine.length, 3);
    assert.equal(merged.length, 3, 'merged into the head');
    assert.deepEqual(merged.slice(0, 2).map((revision) => revision.id), [first.id, bobs]);
    assert.notEqual(merged[2]?.id, afterMine[2]?.id, 'the merged head has a new id (ids have gaps, as on Drive)');
    assert.equal(await bytesAt(merged[2]?.exportLinks?.['text/plain'] as string), 'third draft, fixed');
  });

  it('pages with maxResults and pageToken (default 200, at most 1000)', async () => {
    const file = await upload('paged.txt', '0');
    for (let index = 1; index < 7; index++) await write(file.id, String(index));
    const seen: string[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    do {
      const page = await revisions(file.id, `?maxResults=3${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`);
      assert.ok(page.items.length <= 3);
      seen.push(...page.items.map((revision) => revision.id));
      pageToken = page.nextPageToken;
      pages++;
    } while (pageToken);
    assert.equal(pages, 3);
    assert.deepEqual(seen, (await revisions(file.id)).items.map((revision) => revision.id));
    assert.equal(seen.length, 7);
    await expectGoogleError(call('GET', `/drive/v2/files/${file.id}/revisions?maxResults=1001`), 400, 'invalid');
    await expectGoogleError(call('GET', `/drive/v2/files/${file.id}/revisions?maxResults=0`), 400, 'invalid');
    await expectGoogleError(call('GET', `/drive/v2/files/${file.id}/revisions?pageToken=bogus`), 400, 'invalid');
  });

  it('lets readers list and read revisions but only writers change or delete them; strangers get a 404', async () => {
    const file = await upload('shared-history.txt', 'old');
    await write(file.id, 'new');
    const old = (await revisions(file.id)).items.at(0);
    const oldRevision = `/drive/v2/files/${file.id}/revisions/${String(old?.id)}`;
    await expectGoogleError(call('GET', `/drive/v2/files/${file.id}/revisions`, { token: carolToken }), 404, 'notFound');
    await call('POST', `/drive/v2/files/${file.id}/permissions`, { json: { type: 'user', role: 'reader', emailAddress: 'carol@example.com' } });
    assert.equal((await revisions(file.id, '', carolToken)).items.length, 2);
    assert.equal(await bytesAt(old?.downloadUrl as string, carolToken), 'old');
    await expectGoogleError(call('PATCH', oldRevision, { json: { pinned: true }, token: carolToken }), 403, 'insufficientFilePermissions');
    await expectGoogleError(call('PUT', oldRevision, { json: { pinned: true }, token: carolToken }), 403, 'insufficientFilePermissions');
    await expectGoogleError(call('DELETE', oldRevision, { token: carolToken }), 403, 'insufficientFilePermissions');
    await call('POST', `/drive/v2/files/${file.id}/permissions`, { json: { type: 'user', role: 'writer', emailAddress: 'bob@example.com' } });
    assert.equal(revisionSchema.parse((await call('PATCH', oldRevision, { json: { pinned: true }, token: bobToken })).json).pinned, true);
    assert.equal((await call('DELETE', oldRevision, { token: bobToken })).status, 204);
  });
});

describe('Drive v2 emulator: revisions across a restart', function () {
  this.timeout(20000);
  let dataDir: string;
  before(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-drive-revisions-'));
  });
  after(() => { fs.rmSync(dataDir, { recursive: true, force: true }); });

  it('keeps revisions, their flags and their bytes (the startup sweep spares them); deleting a revision or the file frees blobs', async () => {
    const first = await startEmulator({ port: 0, dataDir });
    let call = emulatorHttp(first, () => first.tokenFor('alice@example.com').accessToken);
    const created = driveFileSchema.parse((await call('POST', '/upload/drive/v2/files?uploadType=media', { body: Buffer.from('before'), contentType: 'text/plain' })).json);
    await call('PUT', `/upload/drive/v2/files/${created.id}?uploadType=media`, { body: Buffer.from('after'), contentType: 'text/plain' });
    const old = revisionListSchema.parse((await call('GET', `/drive/v2/files/${created.id}/revisions`)).json).items.at(0);
    const oldId = String(old?.id);
    await call('PATCH', `/drive/v2/files/${created.id}/revisions/${oldId}`, { json: { pinned: true } });
    const blobCount = (): number => fs.readdirSync(path.join(dataDir, 'blobs')).filter((name) => name !== 'uploads').length;
    const blobsBefore = blobCount();
    await first.close();

    const second = await startEmulator({ port: 0, dataDir });
    try {
      call = emulatorHttp(second, () => second.tokenFor('alice@example.com').accessToken);
      assert.equal(blobCount(), blobsBefore, 'no revision blob swept as an orphan');
      const list = revisionListSchema.parse((await call('GET', `/drive/v2/files/${created.id}/revisions`)).json);
      assert.equal(list.items.length, 2);
      assert.equal(list.items[0]?.pinned, true);
      assert.equal((await call('GET', `/drive/v2/files/${created.id}?alt=media&revisionId=${oldId}`)).text, 'before');
      await call('PUT', `/upload/drive/v2/files/${created.id}?uploadType=media`, { body: Buffer.from('latest'), contentType: 'text/plain' });
      assert.equal(blobCount(), blobsBefore + 1, 'the replaced content is kept as a revision');
      assert.equal((await call('DELETE', `/drive/v2/files/${created.id}/revisions/${oldId}`)).status, 204);
      assert.equal(blobCount(), blobsBefore, 'a deleted revision frees its blob');
      assert.equal((await call('DELETE', `/drive/v2/files/${created.id}`)).status, 204);
      assert.equal(blobCount(), blobsBefore - 2, 'the file and its old revision are freed');
    } finally {
      await second.close();
    }
  });
});
