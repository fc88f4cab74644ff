import * as assert from 'node:assert/strict';
import { admin, admin_directory_v1 } from '@googleapis/admin';
import { directoryModule } from '../../src/emulator/directory';
import { startEmulator, RunningEmulator } from '../../src/emulator/emulator';
import { Receiver } from '../integration/emulator/channels/receiver';
import { officialClientOptions, rejectsWith } from '../support/officialClient';

/** The official @googleapis/admin directory_v1 client runs users.* , users.watch and channels.stop against the emulator. */
describe('official @googleapis/admin directory_v1 client against the emulator', function () {
  this.timeout(20_000);
  let emulator: RunningEmulator;
  let receiver: Receiver;
  let alice: admin_directory_v1.Admin;
  let bob: admin_directory_v1.Admin;

  before(async () => {
    emulator = await startEmulator({ port: 0 }, [directoryModule]);
    receiver = await Receiver.forEmulator(emulator);
    alice = admin({ version: 'directory_v1', ...officialClientOptions(emulator, 'alice@example.com') });
    bob = admin({ version: 'directory_v1', ...officialClientOptions(emulator, 'bob@example.com') });
  });
  after(async () => {
    await emulator.close();
    await receiver.close();
  });

  it('runs users list, get, insert, update, patch, makeAdmin, delete and undelete with Google\'s permissions', async () => {
    const listed = (await alice.users.list({ domain: 'example.com' })).data;
    assert.equal(listed.kind, 'admin#directory#users');
    assert.deepEqual(listed.users?.map((user) => user.primaryEmail), ['alice@example.com', 'bob@example.com', 'carol@example.com']);
    assert.equal(listed.users.at(0)?.isAdmin, true);
    assert.equal((await alice.users.list({ customer: 'my_customer', maxResults: 2 })).data.nextPageToken !== undefined, true);
    await rejectsWith(bob.users.list({ domain: 'example.com' }), 403);
    assert.equal((await bob.users.list({ domain: 'example.com', viewType: 'domain_public' })).data.users?.length, 3);

    const created = (await alice.users.insert({ requestBody: { primaryEmail: 'dave@example.com', name: { givenName: 'Dave', familyName: 'Demo' }, password: 'a long password' } })).data;
    assert.equal(created.kind, 'admin#directory#user');
    assert.equal(created.customerId, 'C0desk01');
    await rejectsWith(alice.users.insert({ requestBody: { primaryEmail: 'dave@example.com', name: { givenName: 'Dave', familyName: 'Demo' }, password: 'a long password' } }), 409);
    await rejectsWith(bob.users.insert({ requestBody: { primaryEmail: 'eve@example.com', name: { givenName: 'Eve', familyName: 'Demo' }, password: 'a long password' } }), 403);
    assert.equal((await alice.users.get({ userKey: 'dave@example.com' })).data.id, created.id);
    assert.equal((await alice.users.update({ userKey: created.id as string, requestBody: { name: { givenName: 'David', familyName: 'Demo' } } })).data.name?.fullName, 'David Demo');
    assert.equal((await alice.users.patch({ userKey: created.id as string, requestBody: { suspended: true } })).data.suspended, true);
    assert.equal((await alice.users.makeAdmin({ userKey: created.id as string, requestBody: { status: true } })).status, 204);
    assert.equal((await alice.users.get({ userKey: created.id as string })).data.isAdmin, true);
    assert.equal((await alice.users.delete({ userKey: created.id as string })).status, 204);
    await rejectsWith(alice.users.get({ userKey: created.id as string }), 404);
    assert.equal((await alice.users.list({ domain: 'example.com', showDeleted: 'true' })).data.users?.[0]?.id, created.id);
    assert.equal((await alice.users.undelete({ userKey: created.id as string, requestBody: { orgUnitPath: '/' } })).status, 204);
    assert.equal((await alice.users.get({ userKey: created.id as string })).data.primaryEmail, 'dave@example.com');
  });

  it('runs users.watch (domain form) and channels.stop', async () => {
    const channel = (await alice.users.watch({ domain: 'example.com', event: 'add', requestBody: { id: 'admin-conformance', type: 'web_hook', address: receiver.url, token: 'from=conformance' } })).data;
    assert.equal(channel.kind, 'api#channel');
    assert.equal(channel.id, 'admin-conformance');
    assert.equal(channel.token, 'from=conformance');
    assert.ok(channel.resourceId);
    assert.match(channel.resourceUri ?? '', /\/admin\/directory\/v1\/users\?domain=example\.com&event=add/);
    await receiver.waitForChannel('admin-conformance', 1);
    await alice.users.insert({ requestBody: { primaryEmail: 'frank@example.com', name: { givenName: 'Frank', familyName: 'Demo' }, password: 'a long password' } });
    const messages = await receiver.waitForChannel('admin-conformance', 2);
    assert.equal(messages[1]?.state, 'add');
    assert.equal((messages[1]?.json as { primaryEmail?: string }).primaryEmail, 'frank@example.com');
    assert.equal((await alice.channels.stop({ requestBody: { id: channel.id, resourceId: channel.resourceId } })).status, 204);
    await rejectsWith(alice.channels.stop({ requestBody: { id: channel.id, resourceId: channel.resourceId } }), 404);
  });
});
