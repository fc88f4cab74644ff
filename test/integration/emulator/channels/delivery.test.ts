/** Channel delivery rules over HTTPS: receiver statuses and retries, certificate refusals of each kind, who may stop a channel, and pending messages across a restart. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEV_CLIENT_ID, ALL_SCOPES } from '../../../../src/emulator/identity/devToken';
import { findUser } from '../../../../src/emulator/identity/users';
import { CertificateAuthority, selfSignedCertificate } from '../../../../src/emulator/core/certificates';
import { channelRegistryFor } from '../../../../src/emulator/core/channels';
import { startEmulator, RunningEmulator } from '../../../../src/emulator/emulator';
import { emulatorHttp, EmulatorCall, expectGoogleError } from '../../../support/emulatorHttp';
import { Receiver } from './receiver';

const FAST_RETRIES = { initialDelayMs: 40, maxDelayMs: 200, maxAttempts: 6 };
let counter = 0;
const newUser = (): Record<string, unknown> => {
  counter++;
  return { primaryEmail: `delivery${counter}@example.com`, name: { givenName: 'Delivery', familyName: `User${counter}` }, password: 'correct horse battery' };
};
const watchBody = (id: string, address: string): Record<string, unknown> => ({ id, type: 'web_hook', address });
const WATCH_ADD = '/admin/directory/v1/users/watch?domain=example.com&event=add';

describe('channel delivery: receiver statuses, retries, certificates, stop rules', function () {
  this.timeout(20_000);
  let emulator: RunningEmulator;
  let receiver: Receiver;
  let alice: EmulatorCall;

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    channelRegistryFor(emulator.deps).configureDelivery(FAST_RETRIES);
    receiver = await Receiver.forEmulator(emulator);
    alice = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken);
  });
  after(async () => {
    await emulator.close();
    await receiver.close();
  });

  it('retries 503 twice then 200: the message arrives exactly once, and order holds behind it', async () => {
    assert.equal((await alice('POST', WATCH_ADD, { json: watchBody('retry-503', receiver.url) })).status, 200);
    await receiver.waitForChannel('retry-503', 1);
    let failures = 2;
    receiver.respond = (message) => (message.channelId === 'retry-503' && message.state === 'add' && failures-- > 0 ? 503 : 200);
    const first = (await alice('POST', '/admin/directory/v1/users', { json: newUser() })).json as Record<string, string>;
    const second = (await alice('POST', '/admin/directory/v1/users', { json: newUser() })).json as Record<string, string>;
    const delivered = await receiver.waitForChannel('retry-503', 3);
    const attempts = receiver.requests.filter((message) => message.channelId === 'retry-503' && message.state === 'add');
    assert.deepEqual(attempts.map((message) => message.status), [503, 503, 200, 200]);
    assert.deepEqual(delivered.map((message) => (message.json as Record<string, string> | undefined)?.id), [undefined, first.id, second.id]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(receiver.forChannel('retry-503').length, 3, 'exactly once');
    receiver.respond = () => 200;
  });

  it('counts 201/202/204 as delivered, fails a message on any other status (no retry), and goes on with the next', async () => {
    assert.equal((await alice('POST', WATCH_ADD, { json: watchBody('statuses', receiver.url) })).status, 200);
    await receiver.waitForChannel('statuses', 1);
    const answers = [201, 404, 202, 410, 204];
    receiver.respond = (message) => (message.channelId === 'statuses' ? (answers.shift() ?? 200) : 200);
    for (let index = 0; index < 5; index++) await alice('POST', '/admin/directory/v1/users', { json: newUser() });
    await receiver.waitFor(() => receiver.requests.filter((message) => message.channelId === 'statuses').length >= 6);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sent = receiver.requests.filter((message) => message.channelId === 'statuses' && message.state === 'add');
    assert.deepEqual(sent.map((message) => message.status), [201, 404, 202, 410, 204], 'each message once: failures are not retried');
    assert.deepEqual(sent.map((message) => message.number), [...sent.map((message) => message.number)].sort((a, b) => a - b));
    receiver.respond = () => 200;
  });

  it('refuses self-signed, untrusted, expired and host-mismatched receiver certificates at watch time, and an address nothing answers', async () => {
    const authority = channelRegistryFor(emulator.deps).certificateAuthority();
    const cases: [string, Receiver, RegExp][] = [
      ['self-signed', await Receiver.start(selfSignedCertificate({ hosts: ['127.0.0.1'] })), /self-signed/],
      ['untrusted', await Receiver.start(CertificateAuthority.create('Someone Else CA').issue({ hosts: ['127.0.0.1'] })), /not issued by an authority the emulator trusts/],
      ['expired', await Receiver.start(authority.issue({ hosts: ['127.0.0.1'], notBefore: new Date(Date.now() - 10 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) })), /expired/],
      ['host-mismatch', await Receiver.start(authority.issue({ hosts: ['receiver.example.test'] })), /does not name this host/],
    ];
    try {
      for (const [name, bad, message] of cases) {
        const error = await expectGoogleError(alice('POST', WATCH_ADD, { json: watchBody(`cert-${name}`, bad.url) }), 400, 'invalid');
        assert.match(error.message, message, name);
        assert.equal(channelRegistryFor(emulator.deps).get(`cert-${name}`), undefined, `${name}: no channel`);
        assert.equal(bad.requests.length, 0, `${name}: nothing delivered`);
      }
    } finally {
      for (const [, bad] of cases) await bad.close();
    }
    const down = await Receiver.forEmulator(emulator);
    await down.close();
    const error = await expectGoogleError(alice('POST', WATCH_ADD, { json: watchBody('cert-down', down.url) }), 400, 'invalid');
    assert.match(error.message, /cannot be checked/);
  });

  it('lets only the creating user through the same OAuth client stop a user channel, and any user of the client stop a service account channel', async () => {
    const tokens = emulator.deps.tokens;
    const as = (email: string, clientId = DEV_CLIENT_ID): EmulatorCall => {
      const user = findUser(email);
      assert.ok(user);
      const token = tokens.issue(user.id, clientId, [...ALL_SCOPES]).accessToken;
      return emulatorHttp(emulator, () => token);
    };
    const stop = (call: EmulatorCall, id: string, resourceId: string): ReturnType<EmulatorCall> => call('POST', '/admin/directory_v1/channels/stop', { json: { id, resourceId } });

    const userChannel = (await as('alice@example.com')('POST', WATCH_ADD, { json: watchBody('stop-user', receiver.url) })).json as Record<string, string>;
    const resourceId = userChannel.resourceId as string;
    await expectGoogleError(stop(as('bob@example.com'), 'stop-user', resourceId), 403, 'forbidden');
    await expectGoogleError(stop(as('alice@example.com', 'another-client'), 'stop-user', resourceId), 403, 'forbidden');
    await expectGoogleError(stop(as('alice@example.com'), 'stop-user', 'wrong-resource'), 404, 'notFound');
    await expectGoogleError(as('alice@example.com')('POST', '/drive/v2/channels/stop', { json: { id: 'stop-user', resourceId } }), 404, 'notFound');
    await expectGoogleError(stop(as('alice@example.com'), '', resourceId), 400, 'required');
    assert.equal((await stop(as('alice@example.com'), 'stop-user', resourceId)).status, 204);

    const robot = as('robot@desk-demo.iam.gserviceaccount.com');
    const robotAnswer = await robot('POST', WATCH_ADD, { json: watchBody('stop-robot', receiver.url) });
    assert.equal(robotAnswer.status, 200, robotAnswer.text);
    await expectGoogleError(stop(as('bob@example.com', 'another-client'), 'stop-robot', resourceId), 403, 'forbidden');
    assert.equal((await stop(as('bob@example.com'), 'stop-robot', resourceId)).status, 204, 'any user of the same client');
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('channel delivery across an emulator restart', function () {
  this.timeout(30_000);

  it('delivers messages queued while the receiver was down, after a restart, exactly once and in order (down → 503 → 200)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-channels-'));
    let emulator = await startEmulator({ port: 0, dataDir });
    channelRegistryFor(emulator.deps).configureDelivery(FAST_RETRIES);
    const receiver = await Receiver.forEmulator(emulator);
    try {
      let alice = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken);
      assert.equal((await alice('POST', WATCH_ADD, { json: watchBody('restart-channel', receiver.url) })).status, 200);
      await receiver.waitForChannel('restart-channel', 1);
      await waitUntil(() => channelRegistryFor(emulator.deps).delivery.pending() === 0);
      // The receiver goes down; the emulator keeps the acknowledged changes' messages queued in its store.
      channelRegistryFor(emulator.deps).configureDelivery({ initialDelayMs: 60_000, maxAttempts: 10 });
      await receiver.close();
      const ids: string[] = [];
      for (let index = 0; index < 3; index++) ids.push(((await alice('POST', '/admin/directory/v1/users', { json: newUser() })).json as Record<string, string>).id as string);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(channelRegistryFor(emulator.deps).delivery.pending('restart-channel'), 3);
      await emulator.close();

      let failures = 1;
      receiver.respond = (message) => (message.state === 'add' && failures-- > 0 ? 503 : 200);
      await receiver.restart();
      emulator = await startEmulator({ port: 0, dataDir });
      channelRegistryFor(emulator.deps).configureDelivery(FAST_RETRIES);
      alice = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken);
      const delivered = await receiver.waitForChannel('restart-channel', 4, 10_000);
      assert.deepEqual(delivered.slice(1).map((message) => (message.json as Record<string, string>).id), ids);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(receiver.forChannel('restart-channel').length, 4, 'exactly once');
      assert.equal(channelRegistryFor(emulator.deps).delivery.pending(), 0);
      // The channel itself survived the restart too.
      await alice('POST', '/admin/directory/v1/users', { json: newUser() });
      await receiver.waitForChannel('restart-channel', 5);
    } finally {
      await emulator.close();
      await receiver.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
