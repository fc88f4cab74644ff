import * as assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import nodeFetch from 'node-fetch';
import { DriveClient, DriveLabelDefinitionsClient } from '../../../src/api/drive';
import { GoogleApiError } from '../../../src/api/errors';
import { FetchFunction, HttpClient } from '../../../src/api/http';
import { startEmulator, RunningEmulator } from '../../../src/emulator/emulator';
import { GOOGLE_DOC_MIME_TYPE } from '../../../src/shared/schemas/drive';

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

describe('DriveClient: revisions and labels against the emulator', function () {
  this.timeout(20000);
  let emulator: RunningEmulator;
  let alice: DriveClient;
  let bob: DriveClient;
  const http = (email: string, fetch?: FetchFunction): HttpClient => {
    const token = emulator.tokenFor(email).accessToken;
    return new HttpClient({ rootUrl: () => emulator.url, token: async () => token, retry: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 2 }, ...(fetch ? { fetch } : {}) });
  };

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    alice = new DriveClient(http('alice@example.com'));
    bob = new DriveClient(http('bob@example.com'));
  });
  after(() => emulator.close());

  it('lists, reads, pins, downloads, restores and deletes revisions through one method per operation', async () => {
    const file = await alice.uploadFile({ title: 'notes.txt', mimeType: 'text/plain' }, Buffer.from('first'));
    await alice.updateFile(file.id, {}, { content: Buffer.from('second') });
    const latest = await alice.updateFile(file.id, {}, { content: Buffer.from('third') });
    const history = await alice.allRevisions(file.id);
    assert.deepEqual(history.map((revision) => revision.id).at(-1), latest.headRevisionId);
    assert.equal(history.length, 3);
    const [first, second] = history;
    assert.equal(await text((await alice.downloadRevision(file.id, first.id)).stream), 'first');
    assert.equal((await alice.getRevision(file.id, second.id)).md5Checksum, second.md5Checksum);
    const page = await alice.listRevisions(file.id, { maxResults: 2 });
    assert.equal(page.items.length, 2);
    assert.ok(page.nextPageToken);

    assert.equal((await alice.patchRevision(file.id, first.id, { pinned: true })).pinned, true);
    assert.equal((await alice.updateRevision(file.id, first.id, { pinned: false })).pinned, false);

    // Restoring is an update of the file with the old version's bytes: a new head, the history kept.
    const restored = await alice.updateFile(file.id, {}, { content: Buffer.from(await text((await alice.downloadRevision(file.id, first.id)).stream)) });
    assert.equal(restored.md5Checksum, first.md5Checksum);
    assert.equal((await alice.allRevisions(file.id)).length, 4);

    await alice.deleteRevision(file.id, second.id);
    assert.deepEqual((await alice.allRevisions(file.id)).map((revision) => revision.id).includes(second.id), false);
    await assert.rejects(alice.deleteRevision(file.id, restored.headRevisionId as string), (error: unknown) => error instanceof GoogleApiError && error.status === 400);
    await assert.rejects(bob.allRevisions(file.id), (error: unknown) => error instanceof GoogleApiError && error.status === 404);
  });

  it('publishes a Docs Editors revision and exports an old one', async () => {
    const doc = await alice.uploadFile({ title: 'Doc', mimeType: GOOGLE_DOC_MIME_TYPE }, Buffer.from('draft one'), { convert: true });
    await alice.insertPermission(doc.id, { type: 'user', role: 'writer', emailAddress: 'bob@example.com' });
    await bob.updateFile(doc.id, {}, { content: Buffer.from('draft two') });
    const history = await alice.allRevisions(doc.id);
    assert.equal((await alice.exportRevision(doc.id, String(history.at(0)?.id), 'text/plain')).toString('utf8'), 'draft one');
    const published = await alice.patchRevision(doc.id, String(history.at(1)?.id), { published: true, publishAuto: true });
    assert.equal(published.published, true);
    assert.ok(published.publishedLink);
  });

  it('applies, changes and removes labels; a modifyLabels whose answer was lost is repeated to the same state', async () => {
    const definitions = await new DriveLabelDefinitionsClient(http('alice@example.com')).listDefinitions();
    assert.ok(definitions.some((definition) => definition.id === 'deskProject' && definition.fields.length === 4));

    let lost = 0;
    const losing: FetchFunction = async (url, init) => {
      const response = await nodeFetch(url, init);
      if (lost === 0 && new URL(url).pathname.endsWith('/modifyLabels')) {
        lost++;
        await response.arrayBuffer();
        throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      }
      return response;
    };
    const flaky = new DriveClient(http('alice@example.com', losing));
    const file = await alice.insertFile({ title: 'labels.txt', mimeType: 'text/plain' });
    const applied = await flaky.modifyLabels(file.id, { labelModifications: [{ labelId: 'deskProject', fieldModifications: [{ fieldId: 'status', setSelectionValues: ['blocked'] }, { fieldId: 'budget', setIntegerValues: ['10'] }] }] });
    assert.equal(lost, 1, 'the first answer was lost and the call repeated');
    assert.deepEqual(applied.modifiedLabels[0]?.fields?.status?.selection, ['blocked']);
    assert.deepEqual((await alice.listLabels(file.id)).items.map((label) => label.id), ['deskProject']);

    await alice.modifyLabels(file.id, { labelModifications: [{ labelId: 'deskProject', fieldModifications: [{ fieldId: 'budget', unsetValues: true }] }] });
    assert.equal((await alice.listLabels(file.id)).items[0]?.fields?.budget, undefined);
    await assert.rejects(alice.modifyLabels(file.id, { labelModifications: [{ labelId: 'deskProject', fieldModifications: [{ fieldId: 'budget', setIntegerValues: ['many'] }] }] }), (error: unknown) => error instanceof GoogleApiError && error.status === 400 && error.reason === 'invalidInput');
    await alice.modifyLabels(file.id, { labelModifications: [{ labelId: 'deskProject', removeLabel: true }] });
    assert.deepEqual((await alice.listLabels(file.id)).items, []);
  });
});
