import * as assert from 'node:assert/strict';
import { findUser } from '../../../../src/emulator/identity/users';
import { startEmulator, RunningEmulator } from '../../../../src/emulator/emulator';
import { changeListSchema, driveFileSchema, fileListSchema } from '../../../../src/shared/schemas/drive';
import { DriveLabel, DriveLabelField, labelDefinitionListSchema, labelDefinitionSchema, labelListSchema, modifyLabelsResponseSchema, valueTypeOf } from '../../../../src/shared/schemas/drive/labels';
import { EmulatorCall, emulatorHttp, expectGoogleError } from '../../../support/emulatorHttp';

describe('Drive v2 emulator: labels (listLabels, modifyLabels, labelInfo, definitions)', function () {
  this.timeout(20000);
  let emulator: RunningEmulator;
  let call: EmulatorCall;
  let bobToken: string;
  let fileId: string;

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    const aliceToken = emulator.tokenFor('alice@example.com').accessToken;
    bobToken = emulator.tokenFor('bob@example.com').accessToken;
    call = emulatorHttp(emulator, () => aliceToken);
    fileId = driveFileSchema.parse((await call('POST', '/drive/v2/files', { json: { title: 'labelled.txt' } })).json).id;
  });
  after(() => emulator.close());

  const modify = (labelModifications: unknown[], token?: string) => call('POST', `/drive/v2/files/${fileId}/modifyLabels`, { json: { kind: 'drive#modifyLabelsRequest', labelModifications }, ...(token ? { token } : {}) });
  const list = async (token?: string) => labelListSchema.parse((await call('GET', `/drive/v2/files/${fileId}/listLabels`, token ? { token } : {})).json);
  /** A label's field as the answer has it: possibly absent (the schema's record types every key as there). */
  const fieldOf = (label: DriveLabel | undefined, fieldId: string): DriveLabelField | undefined => label?.fields?.[fieldId];

  it('publishes label definitions with one field of each type (Drive Labels API shape)', async () => {
    const definitions = labelDefinitionListSchema.parse((await call('GET', '/v2/labels?view=LABEL_VIEW_FULL&publishedOnly=true')).json).labels;
    const project = definitions.find((definition) => definition.id === 'deskProject');
    assert.equal(project?.properties?.title, 'Project');
    const types = new Set(definitions.flatMap((definition) => definition.fields.map((field) => valueTypeOf(field))));
    assert.deepEqual([...types].sort(), ['dateString', 'integer', 'selection', 'text', 'user']);
    assert.equal(labelDefinitionSchema.parse((await call('GET', '/v2/labels/deskReview')).json).fields.length, 4);
    await expectGoogleError(call('GET', '/v2/labels/nope'), 404, 'notFound');
    await expectGoogleError(call('GET', '/v2/labels', { token: null }), 401);
    // Definitions need a Drive Labels scope: the drive scope alone is not enough (as on Google).
    const driveOnly = emulator.deps.tokens.issue(findUser('alice@example.com')?.id as string, 'some-app', ['https://www.googleapis.com/auth/drive']).accessToken;
    await expectGoogleError(call('GET', '/v2/labels', { token: driveOnly }), 403, 'insufficientPermissions');
    assert.equal((await call('GET', `/drive/v2/files/${fileId}/listLabels`, { token: driveOnly })).status, 200);
  });

  it('applies a label with typed fields, changes and unsets fields, removes it; answers only added or changed labels', async () => {
    assert.deepEqual((await list()).items, []);
    const applied = modifyLabelsResponseSchema.parse((await modify([
      { labelId: 'deskProject', fieldModifications: [
        { fieldId: 'status', setSelectionValues: ['inProgress'] },
        { fieldId: 'owner', setUserValues: ['Bob@example.com'] },
        { fieldId: 'budget', setIntegerValues: ['1200'] },
        { fieldId: 'dueDate', setDateValues: ['2026-06-30'] },
      ] },
      { labelId: 'deskConfidential' },
    ])).json);
    assert.equal(applied.kind, 'drive#modifyLabelsResponse');
    assert.deepEqual(applied.modifiedLabels.map((label) => label.id), ['deskProject', 'deskConfidential']);
    const project = applied.modifiedLabels.at(0);
    assert.equal(project?.kind, 'drive#label');
    assert.equal(project.revisionId, '1');
    assert.deepEqual(fieldOf(project, 'status'), { kind: 'drive#labelField', id: 'status', valueType: 'selection', selection: ['inProgress'] });
    assert.equal(fieldOf(project, 'owner')?.user?.[0]?.emailAddress, 'bob@example.com');
    assert.equal(fieldOf(project, 'owner')?.user?.[0]?.displayName, 'Bob Demo');
    assert.deepEqual(fieldOf(project, 'budget')?.integer, ['1200']);
    assert.deepEqual(fieldOf(project, 'dueDate')?.dateString, ['2026-06-30']);

    const changed = modifyLabelsResponseSchema.parse((await modify([
      { labelId: 'deskProject', fieldModifications: [{ fieldId: 'status', setSelectionValues: ['done'] }, { fieldId: 'budget', unsetValues: true }] },
      { labelId: 'deskReview', fieldModifications: [{ fieldId: 'reviewers', setUserValues: ['alice@example.com', 'carol@example.com'] }, { fieldId: 'topics', setSelectionValues: ['design', 'docs'] }, { fieldId: 'notes', setTextValues: ['Check the numbers'] }, { fieldId: 'round', setIntegerValues: [2] }] },
    ])).json);
    assert.deepEqual(changed.modifiedLabels.map((label) => label.id), ['deskProject', 'deskReview']);
    const listed = await list();
    assert.equal(listed.kind, 'drive#labelList');
    assert.deepEqual(listed.items.map((label) => label.id), ['deskProject', 'deskConfidential', 'deskReview']);
    const projectNow = listed.items.at(0);
    assert.deepEqual(fieldOf(projectNow, 'status')?.selection, ['done']);
    assert.equal(fieldOf(projectNow, 'budget'), undefined);
    assert.deepEqual(listed.items[2]?.fields?.reviewers?.user?.map((user) => user.emailAddress), ['alice@example.com', 'carol@example.com']);
    assert.deepEqual(listed.items[2]?.fields?.round?.integer, ['2']);

    const removed = modifyLabelsResponseSchema.parse((await modify([{ labelId: 'deskConfidential', removeLabel: true }])).json);
    assert.deepEqual(removed.modifiedLabels, []);
    assert.deepEqual((await list()).items.map((label) => label.id), ['deskProject', 'deskReview']);
    const page = labelListSchema.parse((await call('GET', `/drive/v2/files/${fileId}/listLabels?maxResults=1`)).json);
    assert.equal(page.items.length, 1);
    assert.ok(page.nextPageToken);
  });

  it('shows labelInfo only for the labels named in includeLabels, on files.get and files.list; a change is a file change', async () => {
    const plain = driveFileSchema.parse((await call('GET', `/drive/v2/files/${fileId}`)).json);
    assert.equal(plain.labelInfo, undefined);
    const withProject = driveFileSchema.parse((await call('GET', `/drive/v2/files/${fileId}?includeLabels=deskProject,unknownLabel`)).json);
    assert.deepEqual(withProject.labelInfo?.labels?.map((label) => label.id), ['deskProject']);
    const listed = fileListSchema.parse((await call('GET', `/drive/v2/files?q=${encodeURIComponent("title = 'labelled.txt'")}&includeLabels=deskReview`)).json);
    assert.deepEqual(listed.items[0]?.labelInfo?.labels?.map((label) => label.id), ['deskReview']);

    const start = ((await call('GET', '/drive/v2/changes/startPageToken')).json as { startPageToken: string }).startPageToken;
    await modify([{ labelId: 'deskConfidential' }]);
    const after = driveFileSchema.parse((await call('GET', `/drive/v2/files/${fileId}`)).json);
    assert.notEqual(after.etag, plain.etag);
    const changes = changeListSchema.parse((await call('GET', `/drive/v2/changes?pageToken=${start}`)).json);
    assert.ok(changes.items.some((change) => change.fileId === fileId));
  });

  it('answers unknown labels and fields, wrong types and bad values as Drive does, atomically', async () => {
    const before = await list();
    await expectGoogleError(modify([{ labelId: 'noSuchLabel' }]), 404, 'notFound');
    await expectGoogleError(modify([{ fieldModifications: [] }]), 400, 'required');
    await expectGoogleError(modify([{ labelId: 'deskProject', fieldModifications: [{ fieldId: 'colour', setTextValues: ['red'] }] }]), 400, 'labelMutationUnknownField');
    await expectGoogleError(modify([{ labelId: 'deskProject', fieldModifications: [{ fieldId: 'budget', setTextValues: ['lots'] }] }]), 400, 'invalidInput');
    await expectGoogleError(modify([{ labelId: 'deskProject', fieldModifications: [{ fieldId: 'budget', setIntegerValues: ['12.5'] }] }]), 400, 'invalidInput');
    await expectGoogleError(modify([{ labelId: 'deskProject', fieldModifications: [{ fieldId: 'budget', setIntegerValues: ['-1'] }] }]), 400, 'invalidInput');
    await expectGoogleError(modify([{ labelId: 'deskProject', fieldModifications: [{ fieldId: 'dueDate', setDateValues: ['2026-02-30'] }] }]), 400, 'invalidInput');
    await expectGoogleError(modify([{ labelId: 'deskProject', fieldModifications: [{ fieldId: 'status', setSelectionValues: ['someday'] }] }]), 400, 'labelMutationIllegalSelection');
    await expectGoogleError(modify([{ labelId: 'deskProject', fieldModifications: [{ fieldId: 'status', setSelectionValues: ['done', 'blocked'] }] }]), 400, 'labelMultipleValuesForSingularField');
    await expectGoogleError(modify([{ labelId: 'deskReview', fieldModifications: [{ fieldId: 'topics', setSelectionValues: ['design', 'docs', 'security', 'design'] }] }]), 400, 'invalidInput');
    await expectGoogleError(modify([{ labelId: 'deskProject', fieldModifications: [{ fieldId: 'owner', setUserValues: ['not an email'] }] }]), 400, 'invalidInput');
    await expectGoogleError(modify([{ labelId: 'deskReview', fieldModifications: [{ fieldId: 'notes', setTextValues: ['x'.repeat(201)] }] }]), 400, 'invalidInput');
    await expectGoogleError(modify([{ labelId: 'deskProject', removeLabel: true, fieldModifications: [{ fieldId: 'status', unsetValues: true }] }]), 400, 'invalidInput');
    await expectGoogleError(modify([{ labelId: 'deskProject', fieldModifications: [{ fieldId: 'budget', setIntegerValues: ['5'], unsetValues: true }] }]), 400, 'invalidInput');
    await expectGoogleError(modify([{ labelId: 'deskProject', fieldModifications: [{ fieldId: 'budget', setIntegerValues: 5 }] }]), 400, 'invalid');
    // One bad modification after a good one: nothing changes.
    await expectGoogleError(modify([{ labelId: 'deskProject', removeLabel: true }, { labelId: 'nope' }]), 404, 'notFound');
    assert.deepEqual(await list(), before);
  });

  it('lets readers list labels but not change them; strangers get a 404', async () => {
    await expectGoogleError(call('GET', `/drive/v2/files/${fileId}/listLabels`, { token: bobToken }), 404, 'notFound');
    await call('POST', `/drive/v2/files/${fileId}/permissions`, { json: { type: 'user', role: 'reader', emailAddress: 'bob@example.com' } });
    assert.ok((await list(bobToken)).items.length > 0);
    await expectGoogleError(modify([{ labelId: 'deskConfidential', removeLabel: true }], bobToken), 403, 'insufficientFilePermissions');
    await call('POST', `/drive/v2/files/${fileId}/permissions`, { json: { type: 'user', role: 'writer', emailAddress: 'bob@example.com' } });
    assert.equal((await modify([{ labelId: 'deskConfidential', removeLabel: true }], bobToken)).status, 200);
  });
});
