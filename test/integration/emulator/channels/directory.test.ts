/** Directory change notifications end to end over real HTTPS on loopback: watch → sync → events → expiry and stop, both watch forms, validation. */
import * as assert from 'node:assert/strict';
import { channelRegistryFor } from '../../../../src/emulator/core/channels';
import { startEmulator, RunningEmulator } from '../../../../src/emulator/emulator';
import { emulatorHttp, EmulatorCall, expectGoogleError } from '../../../support/emulatorHttp';
import { Receiver } from './receiver';

const SIX_HOURS = 6 * 60 * 60 * 1000;

describe('directory users.watch over HTTPS (spec: states, headers, limits, versioning)', function () {
  this.timeout(20_000);
  let emulator: RunningEmulator;
  let receiver: Receiver;
  let alice: EmulatorCall;
  let bob: EmulatorCall;
  let counter = 0;
  const newUser = (): Record<string, unknown> => {
    counter++;
    return { primaryEmail: `user${counter}@example.com`, name: { givenName: 'New', familyName: `User${counter}` }, password: 'correct horse battery' };
  };
  const watchDomain = (body: Record<string, unknown>, event?: string): ReturnType<EmulatorCall> =>
    alice('POST', `/admin/directory/v1/users/watch?domain=example.com${event ? `&event=${event}` : ''}`, { json: { type: 'web_hook', address: receiver.url, ...body } });

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    receiver = await Receiver.forEmulator(emulator);
    alice = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken);
    bob = emulatorHttp(emulator, () => emulator.tokenFor('bob@example.com').accessToken);
  });
  after(async () => {
    await emulator.close();
    await receiver.close();
  });

  it('answers api#channel, sends sync (number 1) first, then one add per created user with the user body', async () => {
    const answer = await watchDomain({ id: 'dir-add-1' }, 'add');
    assert.equal(answer.status, 200, answer.text);
    const channel = answer.json as Record<string, unknown>;
    assert.equal(channel.kind, 'api#channel');
    assert.equal(channel.id, 'dir-add-1');
    assert.equal(typeof channel.resourceId, 'string');
    assert.equal(channel.resourceUri, `${emulator.url}/admin/directory/v1/users?domain=example.com&event=add&alt=json`);
    assert.equal('token' in channel, false, 'token only when given');
    assert.equal(typeof channel.expiration, 'string', 'an int64, answered as a string');
    const expiration = Number(channel.expiration);
    assert.ok(expiration <= Date.now() + SIX_HOURS && expiration > Date.now() + SIX_HOURS - 60_000, 'the service maximum applies');

    const sync = (await receiver.waitForChannel('dir-add-1', 1)).at(0);
    assert.equal(sync?.state, 'sync');
    assert.equal(sync.number, 1);
    assert.equal(sync.headers['x-svc-resource-id'], channel.resourceId);
    assert.equal(sync.headers['x-svc-resource-uri'], channel.resourceUri);
    assert.equal(sync.headers['x-svc-channel-token'], undefined);
    assert.equal(sync.headers['x-svc-channel-expiration'], new Date(expiration).toUTCString());

    const created = (await alice('POST', '/admin/directory/v1/users', { json: newUser() })).json as Record<string, string>;
    const second = (await alice('POST', '/admin/directory/v1/users', { json: newUser() })).json as Record<string, string>;
    const messages = await receiver.waitForChannel('dir-add-1', 3);
    const add1 = messages.at(1);
    const add2 = messages.at(2);
    assert.equal(add1?.state, 'add');
    assert.deepEqual(Object.keys(add1.json as object).sort(), ['etag', 'id', 'kind', 'primaryEmail']);
    assert.equal((add1.json as Record<string, string>).kind, 'admin#directory#user');
    assert.equal((add1.json as Record<string, string>).id, created.id);
    assert.equal((add1.json as Record<string, string>).primaryEmail, created.primaryEmail);
    assert.notEqual((add1.json as Record<string, string>).etag, created.etag, 'the message etag differs from the user etag');
    assert.equal((add2?.json as Record<string, string>).id, second.id);
    assert.ok(add1.number > 1 && (add2?.number ?? 0) > add1.number, 'numbers rise');
    // An update is not an add: the channel asked for add only.
    await alice('PATCH', `/admin/directory/v1/users/${created.id}`, { json: { name: { givenName: 'Renamed' } } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(receiver.forChannel('dir-add-1').length, 3);
  });

  it('delivers each of the five events to a channel that asked for it, with the token header when set', async () => {
    for (const event of ['add', 'update', 'makeAdmin', 'delete', 'undelete']) {
      const answer = await watchDomain({ id: `dir-${event}`, token: `target=${event}` }, event);
      assert.equal(answer.status, 200, answer.text);
      assert.equal((answer.json as Record<string, string>).token, `target=${event}`);
    }
    const user = (await alice('POST', '/admin/directory/v1/users', { json: newUser() })).json as Record<string, string>;
    assert.equal((await alice('PUT', `/admin/directory/v1/users/${user.primaryEmail}`, { json: { name: { givenName: 'Put', familyName: 'User' } } })).status, 200);
    assert.equal((await alice('POST', `/admin/directory/v1/users/${user.id}/makeAdmin`, { json: { status: true } })).status, 204);
    assert.equal((await alice('DELETE', `/admin/directory/v1/users/${user.id}`)).status, 204);
    assert.equal((await alice('POST', `/admin/directory/v1/users/${user.id}/undelete`, { json: {} })).status, 204);
    for (const event of ['add', 'update', 'makeAdmin', 'delete', 'undelete']) {
      const messages = await receiver.waitForChannel(`dir-${event}`, 2);
      assert.deepEqual(messages.map((message) => message.state), ['sync', event]);
      assert.equal(messages[1]?.headers['x-svc-channel-token'], `target=${event}`);
      assert.equal((messages[1]?.json as Record<string, string>).id, user.id);
    }
  });

  it('gives both watch forms the same resourceId and each its own resourceUri; overlapping channels both receive', async () => {
    const domainForm = (await watchDomain({ id: 'form-domain' }, 'add')).json as Record<string, string>;
    const customerAnswer = await alice('POST', '/admin/directory/users/v1/watch?customer=my_customer&event=add', { json: { id: 'form-customer', type: 'web_hook', address: receiver.url } });
    assert.equal(customerAnswer.status, 200, customerAnswer.text);
    const customerForm = customerAnswer.json as Partial<Record<string, string>>;
    assert.equal(customerForm.resourceId, domainForm.resourceId);
    assert.notEqual(customerForm.resourceUri, domainForm.resourceUri);
    assert.match(customerForm.resourceUri ?? '', /\/admin\/directory\/users\/v1\?customer=my_customer&event=add/);
    await alice('POST', '/admin/directory/v1/users', { json: newUser() });
    await receiver.waitForChannel('form-domain', 2);
    await receiver.waitForChannel('form-customer', 2);
  });

  it('stops delivery at expiration and on stop; a stopped channel is gone', async () => {
    const expiring = (await watchDomain({ id: 'dir-expiring', expiration: String(Date.now() + 1200) }, 'add')).json as Partial<Record<string, string>>;
    assert.ok(expiring.expiration !== undefined && Number(expiring.expiration) <= Date.now() + 1200);
    const stopped = (await watchDomain({ id: 'dir-stopped' }, 'add')).json as Record<string, string>;
    await receiver.waitForChannel('dir-expiring', 1);
    await receiver.waitForChannel('dir-stopped', 1);
    assert.equal((await alice('POST', '/admin/directory_v1/channels/stop', { json: { id: 'dir-stopped', resourceId: stopped.resourceId } })).status, 204);
    await expectGoogleError(alice('POST', '/admin/directory_v1/channels/stop', { json: { id: 'dir-stopped', resourceId: stopped.resourceId } }), 404, 'notFound');
    await new Promise((resolve) => setTimeout(resolve, 1300));
    await alice('POST', '/admin/directory/v1/users', { json: newUser() });
    await receiver.waitForChannel('dir-add-1', receiver.forChannel('dir-add-1').length + 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(receiver.forChannel('dir-expiring').length, 1, 'nothing after expiry');
    assert.equal(receiver.forChannel('dir-stopped').length, 1, 'nothing after stop');
  });

  it('validates the channel request as the spec limits it', async () => {
    await expectGoogleError(watchDomain({}, 'add'), 400, 'required');
    await expectGoogleError(watchDomain({ id: 'x'.repeat(65) }, 'add'), 400, 'invalid');
    assert.equal((await watchDomain({ id: 'y'.repeat(64) }, 'add')).status, 200, 'exactly 64 characters is allowed');
    await expectGoogleError(watchDomain({ id: 'y'.repeat(64) }, 'add'), 400, 'channelIdNotUnique');
    await expectGoogleError(watchDomain({ id: 'long-token', token: 't'.repeat(257) }, 'add'), 400, 'invalid');
    assert.equal((await watchDomain({ id: 'token-256', token: 't'.repeat(256) }, 'add')).status, 200);
    await expectGoogleError(watchDomain({ id: 'bad-type', type: 'email' }, 'add'), 400, 'invalid');
    await expectGoogleError(watchDomain({ id: 'no-type', type: undefined }, 'add'), 400, 'required');
    await expectGoogleError(watchDomain({ id: 'plain-http', address: receiver.url.replace('https:', 'http:') }, 'add'), 400, 'invalid');
    await expectGoogleError(watchDomain({ id: 'past', expiration: String(Date.now() - 1000) }, 'add'), 400, 'invalid');
    await expectGoogleError(watchDomain({ id: 'bad-event' }, 'rename'), 400, 'invalid');
    await expectGoogleError(alice('POST', '/admin/directory/v1/users/watch?event=add', { json: { id: 'no-domain', type: 'web_hook', address: receiver.url } }), 400);
    await expectGoogleError(alice('POST', '/admin/directory/v1/users/watch?domain=other.org&event=add', { json: { id: 'other-domain', type: 'web_hook', address: receiver.url } }), 404);
    // params.ttl (seconds) and a far expiration: the more restrictive wins, never past the maximum.
    const ttl = (await watchDomain({ id: 'ttl-channel', params: { ttl: '60' } }, 'add')).json as Partial<Record<string, string>>;
    assert.ok(Number(ttl.expiration ?? 0) <= Date.now() + 60_000);
    const far = (await watchDomain({ id: 'far-channel', expiration: Date.now() + 30 * SIX_HOURS }, 'add')).json as Partial<Record<string, string>>;
    assert.ok(Number(far.expiration ?? 0) <= Date.now() + SIX_HOURS);
    // Only the domain's admins may watch its users.
    await expectGoogleError(bob('POST', '/admin/directory/v1/users/watch?domain=example.com&event=add', { json: { id: 'bob-channel', type: 'web_hook', address: receiver.url } }), 403, 'forbidden');
    assert.equal(channelRegistryFor(emulator.deps).get('bob-channel'), undefined);
  });
});
