import * as assert from 'node:assert/strict';
import { ApiError } from '../../../../src/emulator/core/errors';
import { HostResolver, parseCidr, REFUSED_CODE, WatchNetworkPolicy } from '../../../../src/emulator/core/watchNetwork';

/** A resolver that must not be asked: an address literal or a metadata name is decided without DNS. */
const neverAsked: HostResolver = (host) => Promise.reject(new Error(`the resolver was asked for ${host}`));

/** A resolver with fixed answers, recording what it was asked. */
function fixedResolver(answers: Partial<Record<string, string[]>>): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  const resolver = (host: string): Promise<string[]> => {
    asked.push(host);
    const found = answers[host];
    return found ? Promise.resolve(found) : Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }));
  };
  return Object.assign(resolver, { asked });
}

async function refusal(policy: WatchNetworkPolicy, address: string): Promise<string> {
  try {
    await policy.addressesOf(new URL(address));
  } catch (error) {
    assert.ok(error instanceof ApiError && error.code === 400 && error.reason === 'invalid', `${address}: ${String(error)}`);
    return error.message.replace(new URL(address).href, '<address>');
  }
  assert.fail(`${address} was allowed`);
}

describe('watch addresses and the networks they may reach', () => {
  const REFUSED_LITERALS = [
    'https://10.0.0.1/hook', 'https://10.255.255.254:8443/', 'https://172.16.0.1/', 'https://172.31.255.1/', 'https://192.168.1.1/',
    'https://169.254.169.254/computeMetadata/v1/', 'https://169.254.0.1/', 'https://100.64.0.1/', 'https://100.127.255.254/',
    'https://0.0.0.0/', 'https://0.1.2.3/', 'https://[::]/', 'https://[fd00::1]/', 'https://[fc00::1]/', 'https://[fe80::1]/',
    'https://[::ffff:10.0.0.1]/', 'https://[::ffff:169.254.169.254]/', 'https://224.0.0.1/', 'https://255.255.255.255/', 'https://[ff02::1]/',
  ];

  it('refuses private, link-local, shared, unique-local, unspecified and metadata addresses before any lookup or connection, in the same words', async () => {
    const policy = new WatchNetworkPolicy(undefined, neverAsked);
    const messages = new Set<string>();
    for (const address of [...REFUSED_LITERALS, 'https://metadata.google.internal/computeMetadata/v1/', 'https://METADATA.google.internal./x']) {
      messages.add(await refusal(policy, address));
    }
    // One wording for every refusal: nothing about what listens there (or whether anything does).
    assert.equal(messages.size, 1, [...messages].join('\n'));
    assert.match([...messages][0], /does not deliver to private/);
  });

  it('checks every address a host name resolves to, so a name cannot lead to a private network', async () => {
    const resolver = fixedResolver({ 'inside.example': ['10.1.2.3'], 'mixed.example': ['203.0.113.7', '192.168.0.10'], 'v6.example': ['fd12::5'], 'public.example': ['203.0.113.7', '2001:db8::1'] });
    const policy = new WatchNetworkPolicy(undefined, resolver);
    const inside = await refusal(policy, 'https://inside.example/hook');
    assert.equal(await refusal(policy, 'https://mixed.example/hook'), inside);
    assert.equal(await refusal(policy, 'https://v6.example:9443/'), inside);
    assert.deepEqual(await policy.addressesOf(new URL('https://public.example/hook')), ['203.0.113.7', '2001:db8::1']);
    assert.match(await refusal(policy, 'https://nowhere.example/'), /does not resolve/);
    assert.deepEqual(resolver.asked, ['inside.example', 'mixed.example', 'v6.example', 'public.example', 'nowhere.example']);
  });

  it('allows loopback by default (local receivers), refuses it with --no-loopback-watch, and lets the operator allow a range', async () => {
    const local = new WatchNetworkPolicy(undefined, fixedResolver({ localhost: ['127.0.0.1', '::1'] }));
    for (const address of ['https://127.0.0.1:8443/', 'https://127.8.9.10/', 'https://[::1]/', 'https://[::ffff:127.0.0.1]/', 'https://localhost/']) {
      assert.ok((await local.addressesOf(new URL(address))).length > 0, address);
    }
    const shared = new WatchNetworkPolicy({ allowedNetworks: [], allowLoopback: false }, fixedResolver({ localhost: ['127.0.0.1'] }));
    for (const address of ['https://127.0.0.1:8443/', 'https://[::1]/', 'https://localhost/']) await refusal(shared, address);
    const lab = new WatchNetworkPolicy({ allowedNetworks: ['10.20.0.0/16', 'fd00:1::/32', '192.168.5.5'], allowLoopback: false }, neverAsked);
    assert.ok(lab.allows('10.20.3.4') && lab.allows('fd00:1::9') && lab.allows('192.168.5.5') && lab.allows('::ffff:10.20.0.1'));
    assert.ok(!lab.allows('10.21.0.1') && !lab.allows('192.168.5.6') && !lab.allows('169.254.169.254') && !lab.allows('127.0.0.1'));
    assert.throws(() => parseCidr('10.0.0.0/33'), /prefix/);
    assert.throws(() => parseCidr('not-a-network/8'), /not an IP/);
  });

  it('resolves through the same check when a message is delivered: a name re-pointed at a private address fails before connecting', async () => {
    const answers: Record<string, string[]> = { 'receiver.example': ['127.0.0.1'] };
    const policy = new WatchNetworkPolicy(undefined, (host) => Promise.resolve(answers[host] ?? []));
    const lookup = policy.deliveryLookup();
    const resolve = (all: boolean): Promise<{ error: NodeJS.ErrnoException | null; address: unknown }> => new Promise((done) => {
      lookup('receiver.example', { all }, (error: NodeJS.ErrnoException | null, address: unknown) => { done({ error, address }); });
    });
    assert.deepEqual(await resolve(false), { error: null, address: '127.0.0.1' });
    assert.deepEqual((await resolve(true)).address, [{ address: '127.0.0.1', family: 4 }]);
    answers['receiver.example'] = ['10.9.9.9'];
    const rebound = await resolve(true);
    assert.equal(rebound.error?.code, REFUSED_CODE);
  });
});
