import * as assert from 'node:assert/strict';
import { startEmulator, RunningEmulator } from '../../../../src/emulator/emulator';
import { findUser } from '../../../../src/emulator/identity/users';
import { driveFileSchema, fileListSchema, propertySchema } from '../../../../src/shared/schemas/drive';
import { propertyListSchema } from '../../../../src/shared/schemas/drive/properties';
import { EmulatorCall, emulatorHttp, expectGoogleError } from '../../../support/emulatorHttp';

describe('Drive v2 emulator: properties (PUBLIC, PRIVATE per app) and `properties has` in files.list', function () {
  this.timeout(20000);
  let emulator: RunningEmulator;
  let call: EmulatorCall;
  let aliceToken: string;
  let otherAppToken: string;
  let bobToken: string;

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    aliceToken = emulator.tokenFor('alice@example.com').accessToken;
    bobToken = emulator.tokenFor('bob@example.com').accessToken;
    // The same user through another OAuth client (another "app").
    const alice = findUser('alice@example.com');
    otherAppToken = emulator.deps.tokens.issue(alice?.id as string, 'other-app.apps.googleusercontent.com', ['https://www.googleapis.com/auth/drive']).accessToken;
    call = emulatorHttp(emulator, () => aliceToken);
  });
  after(() => emulator.close());

  it('insert adds or changes a key, visibility separates PUBLIC from PRIVATE, PRIVATE ones stay with their app, q finds them', async () => {
    const file = driveFileSchema.parse((await call('POST', '/drive/v2/files', { json: { title: 'props.txt' } })).json);
    const base = `/drive/v2/files/${file.id}/properties`;
    const inserted = propertySchema.parse((await call('POST', base, { json: { key: 'stage', value: 'draft', visibility: 'PUBLIC' } })).json);
    assert.equal(inserted.kind, 'drive#property');
    await call('POST', base, { json: { key: 'stage', value: 'review', visibility: 'PUBLIC' } });
    await call('POST', base, { json: { key: 'stage', value: 'mine' } });
    await call('POST', base, { json: { key: 'secret', value: 'x' }, token: otherAppToken });
    const mine = propertyListSchema.parse((await call('GET', base)).json);
    assert.deepEqual(mine.items.map((item) => `${item.key}=${String(item.value)}/${String(item.visibility)}`).sort(), ['stage=mine/PRIVATE', 'stage=review/PUBLIC']);
    const theirs = propertyListSchema.parse((await call('GET', base, { token: otherAppToken })).json);
    assert.deepEqual(theirs.items.map((item) => `${item.key}=${String(item.value)}/${String(item.visibility)}`).sort(), ['secret=x/PRIVATE', 'stage=review/PUBLIC']);
    await expectGoogleError(call('GET', `${base}/secret`), 404, 'notFound');
    assert.equal(propertySchema.parse((await call('GET', `${base}/stage?visibility=PUBLIC`)).json).value, 'review');
    assert.equal(propertySchema.parse((await call('GET', `${base}/stage`)).json).value, 'mine');
    assert.equal(propertySchema.parse((await call('PATCH', `${base}/stage?visibility=PUBLIC`, { json: { value: 'final' } })).json).value, 'final');
    assert.equal(propertySchema.parse((await call('PUT', `${base}/stage?visibility=private`, { json: { value: 'mine2' } })).json).value, 'mine2');
    await expectGoogleError(call('PUT', `${base}/stage?visibility=PUBLIC`, { json: {} }), 400, 'required');
    await expectGoogleError(call('GET', `${base}/stage?visibility=secret`), 400, 'invalid');
    await expectGoogleError(call('POST', base, { json: { value: 'no key' } }), 400);
    await expectGoogleError(call('POST', base, { json: { key: 'k', value: 'v'.repeat(200) } }), 400);

    const q = (query: string, token = aliceToken) => call('GET', `/drive/v2/files?q=${encodeURIComponent(query)}`, { token }).then((answer) => fileListSchema.parse(answer.json).items.map((item) => item.title));
    assert.deepEqual(await q("properties has { key='stage' and value='final' and visibility='PUBLIC' }"), ['props.txt']);
    assert.deepEqual(await q("properties has { key='stage' and value='final' and visibility='PRIVATE' }"), []);
    assert.deepEqual(await q("properties has { key='secret' and value='x' }"), []);
    assert.deepEqual(await q("properties has { key='secret' and value='x' }", otherAppToken), ['props.txt']);
    await expectGoogleError(call('GET', `/drive/v2/files?q=${encodeURIComponent("properties has { key='stage' }")}`), 400, 'invalid');

    // Readers read properties, only writers change them; a stranger gets a 404.
    await expectGoogleError(call('GET', base, { token: bobToken }), 404);
    await call('POST', `/drive/v2/files/${file.id}/permissions`, { json: { type: 'user', role: 'reader', emailAddress: 'bob@example.com' } });
    assert.ok(propertyListSchema.parse((await call('GET', base, { token: bobToken })).json).items.some((item) => item.value === 'final'));
    await expectGoogleError(call('POST', base, { json: { key: 'k', value: 'v' }, token: bobToken }), 403);

    assert.equal((await call('DELETE', `${base}/stage?visibility=PUBLIC`)).status, 204);
    await expectGoogleError(call('GET', `${base}/stage?visibility=PUBLIC`), 404);
    assert.deepEqual(driveFileSchema.parse((await call('GET', `/drive/v2/files/${file.id}`)).json).properties?.map((property) => property.value), ['mine2']);
  });

  it('keeps Drive\'s limits: 124 bytes of UTF-8 for key and value together, 30 public and 30 private per app', async () => {
    const file = driveFileSchema.parse((await call('POST', '/drive/v2/files', { json: { title: 'limits.txt' } })).json);
    const base = `/drive/v2/files/${file.id}/properties`;
    // 100 characters but 140 bytes: the limit is in bytes, and the key counts too.
    await expectGoogleError(call('POST', base, { json: { key: 'k'.repeat(60), value: 'é'.repeat(40), visibility: 'PUBLIC' } }), 400, 'badRequest');
    await call('POST', base, { json: { key: 'k'.repeat(60), value: 'é'.repeat(32), visibility: 'PUBLIC' } });
    for (let index = 1; index < 30; index += 1) await call('POST', base, { json: { key: `p${index}`, value: 'v', visibility: 'PUBLIC' } });
    await expectGoogleError(call('POST', base, { json: { key: 'one-too-many', value: 'v', visibility: 'PUBLIC' } }), 400, 'badRequest');
    // Changing an existing key is not one more; private ones count per app.
    await call('POST', base, { json: { key: 'p1', value: 'changed', visibility: 'PUBLIC' } });
    await call('POST', base, { json: { key: 'mine', value: 'v', visibility: 'PRIVATE' } });
    const listed = propertyListSchema.parse((await call('GET', base)).json).items;
    assert.equal(listed.length, 31);
    assert.equal(listed.find((item) => item.key === 'p1')?.value, 'changed');
  });
});
