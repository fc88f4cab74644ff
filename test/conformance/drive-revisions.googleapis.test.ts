import * as assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import { drive, drive_v2 } from '@googleapis/drive';
import { startEmulator, RunningEmulator } from '../../src/emulator/emulator';
import { officialClientOptions, rejectsWith } from '../support/officialClient';

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

describe('official @googleapis/drive v2 client: revisions and labels against the emulator', function () {
  this.timeout(20000);
  let emulator: RunningEmulator;
  let rootUrl: string;
  let alice: drive_v2.Drive;
  let bob: drive_v2.Drive;

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    rootUrl = `${emulator.url}/`;
    alice = drive({ version: 'v2', ...officialClientOptions(emulator, 'alice@example.com') });
    bob = drive({ version: 'v2', ...officialClientOptions(emulator, 'bob@example.com') });
  });
  after(() => emulator.close());

  it('revisions.list / get / patch / update / delete, old content through downloadUrl and files.get revisionId', async () => {
    const created = await alice.files.insert({ requestBody: { title: 'versions.txt' }, media: { mimeType: 'text/plain', body: 'version one' } }, { rootUrl });
    const fileId = created.data.id as string;
    await alice.files.update({ fileId, media: { mimeType: 'text/plain', body: 'version two' } }, { rootUrl });
    const latest = await alice.files.update({ fileId, media: { mimeType: 'text/plain', body: 'version three' } }, { rootUrl });

    const list = await alice.revisions.list({ fileId });
    assert.equal(list.data.kind, 'drive#revisionList');
    const items = list.data.items ?? [];
    assert.equal(items.length, 3);
    assert.equal(items.at(-1)?.id, latest.data.headRevisionId);
    const [first, second] = items as [drive_v2.Schema$Revision, drive_v2.Schema$Revision];
    const paged = await alice.revisions.list({ fileId, maxResults: 2 });
    assert.equal(paged.data.items?.length, 2);
    const rest = await alice.revisions.list({ fileId, maxResults: 2, pageToken: paged.data.nextPageToken as string });
    assert.deepEqual([...(paged.data.items ?? []), ...(rest.data.items ?? [])].map((revision) => revision.id), items.map((revision) => revision.id));
    assert.equal(rest.data.nextPageToken, undefined);

    const got = await alice.revisions.get({ fileId, revisionId: first.id as string });
    assert.equal(got.data.kind, 'drive#revision');
    assert.equal(got.data.fileSize, String('version one'.length));
    assert.equal(got.data.lastModifyingUserName, 'Alice Demo');
    const old = await alice.files.get({ fileId, alt: 'media', revisionId: first.id as string }, { responseType: 'stream' });
    assert.equal(await text(old.data), 'version one');
    assert.ok(first.downloadUrl?.includes(`revisionId=${String(first.id)}`));

    const pinned = await alice.revisions.patch({ fileId, revisionId: first.id as string, requestBody: { pinned: true } });
    assert.equal(pinned.data.pinned, true);
    const updated = await alice.revisions.update({ fileId, revisionId: first.id as string, requestBody: { ...pinned.data, pinned: false } });
    assert.equal(updated.data.pinned, false);

    await alice.revisions.delete({ fileId, revisionId: second.id as string });
    await rejectsWith(alice.revisions.get({ fileId, revisionId: second.id as string }), 404);
    await rejectsWith(alice.revisions.delete({ fileId, revisionId: latest.data.headRevisionId as string }), 400);
    assert.equal(await text((await alice.files.get({ fileId, alt: 'media', revisionId: first.id as string }, { responseType: 'stream' })).data), 'version one');
    // Readers list; only writers change.
    await rejectsWith(bob.revisions.list({ fileId }), 404);
    await alice.permissions.insert({ fileId, requestBody: { type: 'user', role: 'reader', value: 'bob@example.com' } });
    assert.equal((await bob.revisions.list({ fileId })).data.items?.length, 2);
    await rejectsWith(bob.revisions.patch({ fileId, revisionId: first.id as string, requestBody: { pinned: true } }), 403);
    await rejectsWith(bob.revisions.delete({ fileId, revisionId: first.id as string }), 403);
  });

  it('revisions of a Docs Editors file: published, publishAuto, publishedOutsideDomain', async () => {
    const doc = await alice.files.insert({ convert: true, requestBody: { title: 'Published doc' }, media: { mimeType: 'text/plain', body: 'public words' } }, { rootUrl });
    const fileId = doc.data.id as string;
    const head = ((await alice.revisions.list({ fileId })).data.items ?? []).at(0);
    const published = await alice.revisions.update({ fileId, revisionId: head?.id as string, requestBody: { published: true, publishAuto: true, publishedOutsideDomain: true } });
    assert.equal(published.data.published, true);
    assert.equal(published.data.publishAuto, true);
    assert.equal(published.data.publishedOutsideDomain, true);
    assert.ok(published.data.publishedLink);
    assert.ok(published.data.exportLinks?.['text/plain']);
    await rejectsWith(alice.revisions.delete({ fileId, revisionId: head?.id as string }), 403);
  });

  it('files.listLabels, files.modifyLabels and labelInfo with includeLabels', async () => {
    const fileId = (await alice.files.insert({ requestBody: { title: 'labelled.txt', mimeType: 'text/plain' } })).data.id as string;
    const modified = await alice.files.modifyLabels({
      fileId,
      requestBody: {
        kind: 'drive#modifyLabelsRequest',
        labelModifications: [
          { kind: 'drive#labelModification', labelId: 'deskProject', fieldModifications: [
            { kind: 'drive#labelFieldModification', fieldId: 'status', setSelectionValues: ['inProgress'] },
            { fieldId: 'owner', setUserValues: ['bob@example.com'] },
            { fieldId: 'budget', setIntegerValues: ['250'] },
            { fieldId: 'dueDate', setDateValues: ['2026-12-31'] },
          ] },
          { labelId: 'deskReview', fieldModifications: [{ fieldId: 'notes', setTextValues: ['Read me'] }] },
        ],
      },
    });
    assert.equal(modified.data.kind, 'drive#modifyLabelsResponse');
    assert.deepEqual(modified.data.modifiedLabels?.map((label) => label.id), ['deskProject', 'deskReview']);
    const project = modified.data.modifiedLabels.at(0);
    assert.equal(project?.kind, 'drive#label');
    // A label's fields by id, each possibly missing from the answer.
    const fields: Partial<Record<string, drive_v2.Schema$LabelField>> | null | undefined = project.fields;
    assert.equal(fields?.status?.kind, 'drive#labelField');
    assert.equal(fields.status.valueType, 'selection');
    assert.deepEqual(fields.budget?.integer, ['250']);
    assert.deepEqual(fields.dueDate?.dateString, ['2026-12-31']);
    assert.equal(fields.owner?.user?.[0]?.emailAddress, 'bob@example.com');

    const listed = await alice.files.listLabels({ fileId, maxResults: 1 });
    assert.equal(listed.data.kind, 'drive#labelList');
    assert.equal(listed.data.items?.length, 1);
    const next = await alice.files.listLabels({ fileId, maxResults: 1, pageToken: listed.data.nextPageToken as string });
    assert.equal(next.data.items?.[0]?.id, 'deskReview');

    const file = await alice.files.get({ fileId, includeLabels: 'deskReview' });
    assert.deepEqual(file.data.labelInfo?.labels?.map((label) => label.id), ['deskReview']);
    assert.equal(file.data.labelInfo.labels[0]?.fields?.notes?.text?.[0], 'Read me');
    assert.equal((await alice.files.get({ fileId })).data.labelInfo, undefined);
    const listedFiles = await alice.files.list({ q: "title = 'labelled.txt'", includeLabels: 'deskProject' });
    assert.deepEqual(listedFiles.data.items?.[0]?.labelInfo?.labels?.map((label) => label.id), ['deskProject']);

    await alice.files.modifyLabels({ fileId, requestBody: { labelModifications: [{ labelId: 'deskReview', removeLabel: true }, { labelId: 'deskProject', fieldModifications: [{ fieldId: 'owner', unsetValues: true }] }] } });
    const after = await alice.files.listLabels({ fileId });
    assert.deepEqual(after.data.items?.map((label) => label.id), ['deskProject']);
    assert.equal(after.data.items[0]?.fields?.owner, undefined);
    await rejectsWith(alice.files.modifyLabels({ fileId, requestBody: { labelModifications: [{ labelId: 'missing' }] } }), 404);
    await rejectsWith(alice.files.modifyLabels({ fileId, requestBody: { labelModifications: [{ labelId: 'deskProject', fieldModifications: [{ fieldId: 'budget', setDateValues: ['2026-01-01'] }] }] } }), 400);
    await rejectsWith(bob.files.listLabels({ fileId }), 404);
  });
});
