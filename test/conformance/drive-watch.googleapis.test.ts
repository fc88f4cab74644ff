import * as assert from 'node:assert/strict';
import { drive, drive_v2 } from '@googleapis/drive';
import { startEmulator, RunningEmulator } from '../../src/emulator/emulator';
import { Receiver } from '../integration/emulator/channels/receiver';
import { officialClientOptions, rejectsWith } from '../support/officialClient';

/** The official @googleapis/drive v2 client runs files.watch, changes.watch and channels.stop against the emulator. */
describe('official @googleapis/drive v2 client: watches and channels.stop', function () {
  this.timeout(20_000);
  let emulator: RunningEmulator;
  let receiver: Receiver;
  let alice: drive_v2.Drive;

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    receiver = await Receiver.forEmulator(emulator);
    alice = drive({ version: 'v2', ...officialClientOptions(emulator, 'alice@example.com') });
  });
  after(async () => {
    await emulator.close();
    await receiver.close();
  });

  it('files.watch → sync, update; channels.stop', async () => {
    const file = (await alice.files.insert({ requestBody: { title: 'conformance.txt' } })).data;
    const channel = (await alice.files.watch({ fileId: file.id as string, requestBody: { id: 'drive-conformance-file', type: 'web_hook', address: receiver.url } })).data;
    assert.equal(channel.kind, 'api#channel');
    assert.ok(channel.resourceId);
    assert.match(channel.resourceUri ?? '', new RegExp(`/drive/v2/files/${file.id as string}`));
    await alice.files.patch({ fileId: file.id as string, requestBody: { title: 'renamed.txt' } });
    const messages = await receiver.waitForChannel('drive-conformance-file', 2);
    assert.deepEqual(messages.map((message) => message.state), ['sync', 'update']);
    assert.equal((await alice.channels.stop({ requestBody: { id: channel.id as string, resourceId: channel.resourceId } })).status, 204);
    await rejectsWith(alice.files.watch({ fileId: 'missing', requestBody: { id: 'drive-conformance-missing', type: 'web_hook', address: receiver.url } }), 404);
  });

  it('changes.watch → sync, change; channels.stop', async () => {
    const channel = (await alice.changes.watch({ requestBody: { id: 'drive-conformance-changes', type: 'web_hook', address: receiver.url } })).data;
    assert.equal(channel.kind, 'api#channel');
    await alice.files.insert({ requestBody: { title: 'another.txt' } });
    const messages = await receiver.waitForChannel('drive-conformance-changes', 2);
    assert.deepEqual(messages.slice(0, 2).map((message) => message.state), ['sync', 'change']);
    assert.equal((await alice.channels.stop({ requestBody: { id: channel.id as string, resourceId: channel.resourceId as string } })).status, 204);
  });
});
