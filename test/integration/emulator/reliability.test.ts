/**
 * Reliability of the emulator against hostile and careless input (issue 18): deeply nested bodies, recurrence rules
 * built to freeze expansion, free/busy at its limits, long singleEvents listings and the `--verbose` log.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { isIP } from 'node:net';
import * as path from 'node:path';
import tls = require('node:tls');
import { findUser, EmulatorUser } from '../../../src/emulator/identity/users';
import { calendarServiceFor } from '../../../src/emulator/calendar';
import { driveServiceFor } from '../../../src/emulator/drive/service';
import { channelRegistryFor } from '../../../src/emulator/core/channels';
import { setLogSink } from '../../../src/emulator/core/log';
import { startEmulator, RunningEmulator } from '../../../src/emulator/emulator';
import { emulatorHttp, expectGoogleError, HttpCallOptions } from '../../support/emulatorHttp';
import { Receiver } from './channels/receiver';

/** `levels` nested objects around a string, as text (JSON.stringify of such a value would itself overflow). */
function nestedObjects(levels: number, key = 'a'): string {
  return `${`{"${key}":`.repeat(levels)}"x"${'}'.repeat(levels)}`;
}

function nestedArrays(levels: number): string {
  return `${'['.repeat(levels)}1${']'.repeat(levels)}`;
}

const timed = { start: { dateTime: '2026-03-02T10:00:00Z' }, end: { dateTime: '2026-03-02T11:00:00Z' } };

describe('reliability: deeply nested JSON', () => {
  let emulator: RunningEmulator;
  let call: ReturnType<typeof emulatorHttp>;
  before(async () => {
    emulator = await startEmulator({ port: 0, seed: 'demo' });
    call = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken);
  });
  after(() => emulator.close());

  it('answers a body nested deeper than 100 levels with 400 parseError in every service, before any handler sees it', async () => {
    const eventJson = (inner: string, field = 'gadget'): string => JSON.stringify({ summary: 'deep', ...timed, [field]: { preferences: { p: 'PLACEHOLDER' } } }).replace('"PLACEHOLDER"', inner);
    const cases: Array<[string, string, string]> = [
      // The shapes of the review: an event's gadget 5,000 levels, workingLocationProperties 3,000, an import 20,000.
      ['POST', '/calendar/v3/calendars/primary/events', eventJson(nestedObjects(5000))],
      ['POST', '/calendar/v3/calendars/primary/events', JSON.stringify({ ...timed, eventType: 'workingLocation', workingLocationProperties: { type: 'homeOffice', homeOffice: 'PLACEHOLDER' } }).replace('"PLACEHOLDER"', nestedObjects(3000))],
      ['POST', '/calendar/v3/calendars/primary/events/import', JSON.stringify({ iCalUID: 'deep@x', ...timed, extendedProperties: { private: { a: 'PLACEHOLDER' } } }).replace('"PLACEHOLDER"', nestedArrays(20000))],
      ['POST', '/calendar/v3/freeBusy', `{"timeMin":"2026-03-01T00:00:00Z","timeMax":"2026-03-02T00:00:00Z","items":${nestedArrays(101)}}`],
      ['POST', '/calendar/v3/calendars', `{"summary":${nestedObjects(150)}}`],
      ['POST', '/calendar/v3/calendars/primary/acl', `{"role":"reader","scope":${nestedObjects(200)}}`],
      ['POST', '/tasks/v1/users/@me/lists', `{"title":${nestedArrays(1000)}}`],
      ['POST', '/drive/v2/files', `{"title":"t","properties":${nestedArrays(5000)}}`],
      ['POST', '/drive/v2/drives?requestId=deep1', `{"name":${nestedObjects(120)}}`],
      ['POST', '/admin/directory/v1/users', `{"primaryEmail":"d@example.com","name":${nestedObjects(400)}}`],
      ['POST', '/calendar/v3/calendars/primary/events/watch', `{"id":"deep","type":"web_hook","address":"https://127.0.0.1:1/","params":${nestedObjects(300)}}`],
    ];
    for (const [method, url, body] of cases) {
      const error = await expectGoogleError(call(method, url, { body }), 400, 'parseError');
      assert.match(error.message, /Message too deep/, `${method} ${url}`);
    }
    // The OAuth token endpoint takes JSON too, and answers in OAuth's own error format.
    const oauth = await call('POST', '/token', { body: `{"grant_type":${nestedArrays(500)}}`, token: null });
    assert.equal(oauth.status, 400, oauth.text);
    // 100 levels is still JSON Google reads: the body reaches the handler (which answers about its content).
    const shallow = await call('POST', '/tasks/v1/users/@me/lists', { body: `{"title":"ok","x":${nestedArrays(98)}}` });
    assert.notEqual(shallow.status, 500, shallow.text);
    assert.doesNotMatch(shallow.text, /too deep/);
  });

  it('refuses a multipart upload whose metadata part nests too deep', async () => {
    const boundary = 'deepboundary';
    const body = `--${boundary}\r\nContent-Type: application/json\r\n\r\n{"title":"t","labels":${nestedObjects(4000)}}\r\n--${boundary}\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--`;
    const options: HttpCallOptions = { body, contentType: `multipart/related; boundary=${boundary}` };
    await expectGoogleError(call('POST', '/upload/drive/v2/files?uploadType=multipart', options), 400, 'parseError');
  });
});

describe('reliability: values stored deeper than requests may nest', () => {
  it('lists and serves an event an older emulator stored with 20,000 levels, without a RangeError', async function () {
    this.timeout(30_000);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-deep-'));
    try {
      let emulator = await startEmulator({ port: 0, dataDir });
      let call = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken);
      const created = await call('POST', '/calendar/v3/calendars/primary/events', { json: { summary: 'old', ...timed } });
      assert.equal(created.status, 200, created.text);
      const eventId = (created.json as { id: string }).id;
      // What an older emulator accepted: a 20,000-level value inside the stored event, written through the store.
      let deep: unknown = 'bottom';
      for (let level = 0; level < 20_000; level++) deep = [deep];
      const events = emulator.deps.store.collection<{ id: string; body: Record<string, unknown> }>('calendar.events');
      const key = [...events.keys()].find((candidate) => events.get(candidate)?.id === eventId);
      assert.ok(key, 'the stored event is found in calendar.events');
      const stored = events.get(key) as { id: string; body: Record<string, unknown> };
      events.set(key, { ...stored, body: { ...stored.body, extendedProperties: { private: { deep } } } });
      await emulator.deps.store.flush();
      await emulator.close();

      emulator = await startEmulator({ port: 0, dataDir });
      call = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken);
      const listed = await call('GET', '/calendar/v3/calendars/primary/events');
      assert.equal(listed.status, 200, listed.text.slice(0, 300));
      const got = await call('GET', `/calendar/v3/calendars/primary/events/${eventId}`);
      assert.equal(got.status, 200, got.text.slice(0, 300));
      await emulator.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('reliability: the --verbose log', () => {
  it('never shows a token, whatever spelling of its parameter name or value the request used', async () => {
    const lines: string[] = [];
    const previous = setLogSink((line) => lines.push(line));
    const emulator = await startEmulator({ port: 0, quiet: false });
    try {
      const real = emulator.tokenFor('alice@example.com').accessToken;
      const encoded = encodeURIComponent(real).replace(/\./g, '%2E').replace(/-/g, '%2D');
      const targets = [
        `/tasks/v1/users/@me/lists?access%5Ftoken=${encoded}`,
        `/tasks/v1/users/@me/lists?%61ccess_token=${encoded}`,
        `/tasks/v1/users/@me/lists?ACCESS%5FTOKEN=${encoded}&key=AIzaSECRETKEY`,
        `/tasks/v1/users/@me/lists?access_token%3D${encoded}`,
        `/tasks/v1/users/@me/lists?next=%2Fx%3Faccess_token%3D${encoded}`,
      ];
      for (const target of targets) await (await fetch(`${emulator.url}${target}`)).arrayBuffer();
      const log = lines.join('\n');
      assert.ok(lines.length >= targets.length, log);
      const secretPart = real.slice(real.indexOf('.') + 1);
      for (const form of [real, secretPart, encodeURIComponent(secretPart), secretPart.replace(/-/g, '%2D'), 'AIzaSECRETKEY']) {
        assert.equal(log.includes(form), false, `${form} leaked into the log:\n${log}`);
      }
    } finally {
      await emulator.close();
      setLogSink(previous);
    }
  });
});

describe('reliability: recurrence', () => {
  let emulator: RunningEmulator;
  let call: ReturnType<typeof emulatorHttp>;
  before(async () => {
    emulator = await startEmulator({ port: 0 });
    call = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken);
  });
  after(() => emulator.close());

  const series = (recurrence: string[], day = '2026-01-05'): Record<string, unknown> => ({
    summary: 'series', start: { dateTime: `${day}T09:00:00`, timeZone: 'UTC' }, end: { dateTime: `${day}T09:30:00`, timeZone: 'UTC' }, recurrence,
  });

  it('answers BYSETPOS out of range (and the other out-of-range values) with 400 "Invalid recurrence rule.", never 500', async () => {
    for (const rule of ['RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=367', 'RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0', 'RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=-999', 'RRULE:FREQ=SECONDLY;BYSECOND=61', 'RRULE:FREQ=DAILY;BYHOUR=24', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=0', 'RRULE:FREQ=YEARLY;BYMONTH=0']) {
      for (const path of ['/calendar/v3/calendars/primary/events', '/calendar/v3/calendars/primary/events/import']) {
        const body = path.endsWith('import') ? { ...series([rule]), iCalUID: `${rule}@x` } : series([rule]);
        const error = await expectGoogleError(call('POST', path, { json: body }), 400, 'invalid');
        assert.equal(error.message, 'Invalid recurrence rule.', rule);
      }
    }
  });

  it('keeps answering others while it expands rules that never match, and refuses rather than hangs on a window to year 9999', async () => {
    // 100 lines that never match (Feb 30, Feb 31 by the minute…): each took rrule 8–12 s to year 9999 before.
    const lines = Array.from({ length: 100 }, (_unused, index) => (index % 2 === 0 ? 'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30' : 'RRULE:FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=31'));
    const created = await call('POST', '/calendar/v3/calendars/primary/events', { json: series(lines) });
    assert.equal(created.status, 200, created.text);
    let listingDone = false;
    const listing = call('GET', '/calendar/v3/calendars/primary/events?singleEvents=true&timeMin=2026-01-01T00:00:00Z&timeMax=9999-12-31T00:00:00Z').finally(() => {
      listingDone = true;
    });
    // The server answers its health check while the listing is still being worked on.
    const health = await fetch(`${emulator.url}/emulator/v1/health`);
    assert.equal(health.status, 200);
    const healthBeforeListing = !listingDone;
    const answer = await listing;
    assert.ok(answer.status === 200 || answer.status === 400, answer.text.slice(0, 300));
    if (answer.status === 400) assert.equal((answer.json as { error: { errors: { reason: string }[] } }).error.errors[0]?.reason, 'timeRangeTooLong');
    assert.ok(healthBeforeListing, 'the health check waited for the whole expansion');
    // A usual window over the same series answers its one instance.
    const week = await call('GET', '/calendar/v3/calendars/primary/events?singleEvents=true&timeMin=2026-01-01T00:00:00Z&timeMax=2026-03-31T00:00:00Z&q=series');
    assert.equal(week.status, 200, week.text.slice(0, 300));
    assert.equal((week.json as { items: unknown[] }).items.length, 1);
  });

  it('pages through every instance of a daily series ending in 2080 (more than 20,000) with nextPageToken, dropping none', async function () {
    this.timeout(60_000);
    const calendar = (await call('POST', '/calendar/v3/calendars', { json: { summary: 'long' } })).json as { id: string };
    const path = `/calendar/v3/calendars/${encodeURIComponent(calendar.id)}/events`;
    assert.equal((await call('POST', path, { json: series(['RRULE:FREQ=DAILY;UNTIL=20801231T235959Z']) })).status, 200);
    const expected = (Date.UTC(2080, 11, 31) - Date.UTC(2026, 0, 5)) / 86_400_000 + 1;
    const seen = new Set<string>();
    let pageToken: string | undefined;
    let pages = 0;
    let last: { nextSyncToken?: string; nextPageToken?: string } = {};
    do {
      const answer = await call('GET', `${path}?singleEvents=true&orderBy=startTime&maxResults=2500${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`);
      assert.equal(answer.status, 200, answer.text.slice(0, 300));
      last = answer.json as { items: { id: string }[]; nextPageToken?: string; nextSyncToken?: string };
      for (const item of (answer.json as { items: { id: string }[] }).items) seen.add(item.id);
      pageToken = last.nextPageToken;
      pages++;
    } while (pageToken !== undefined && pages < 100);
    assert.ok(expected > 20_000);
    assert.equal(seen.size, expected, `${seen.size} of ${expected} instances in ${pages} pages`);
    assert.ok(last.nextSyncToken, 'the last page ends with a sync token');
    assert.ok([...seen].some((id) => id.endsWith('_20801231T090000Z')), 'the last instance is listed');
  });
});

describe('reliability: recurrence stored by an older emulator', () => {
  it('starts and lists promptly when the data directory holds rules it would now refuse', async function () {
    this.timeout(30_000);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-rrule-'));
    try {
      let emulator = await startEmulator({ port: 0, dataDir });
      let call = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken);
      const created = await call('POST', '/calendar/v3/calendars/primary/events', {
        json: { summary: 'old rule', start: { dateTime: '2026-03-02T09:00:00', timeZone: 'UTC' }, end: { dateTime: '2026-03-02T10:00:00', timeZone: 'UTC' }, recurrence: ['RRULE:FREQ=DAILY;COUNT=3'] },
      });
      const eventId = (created.json as { id: string }).id;
      // What an older emulator accepted with 200: the rule that froze every listing of the day, even after a restart.
      const events = emulator.deps.store.collection<{ id: string; body: Record<string, unknown> }>('calendar.events');
      const key = [...events.keys()].find((candidate) => events.get(candidate)?.id === eventId) as string;
      const stored = events.get(key) as { id: string; body: Record<string, unknown> };
      events.set(key, { ...stored, body: { ...stored.body, recurrence: ['RRULE:FREQ=SECONDLY;BYSECOND=61', 'RRULE:FREQ=HOURLY;BYHOUR=24'] } });
      await emulator.deps.store.flush();
      await emulator.close();

      emulator = await startEmulator({ port: 0, dataDir });
      call = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken);
      const day = await call('GET', '/calendar/v3/calendars/primary/events?singleEvents=true&timeMin=2026-03-02T00:00:00Z&timeMax=2026-03-03T00:00:00Z');
      assert.equal(day.status, 200, day.text.slice(0, 300));
      // The series keeps its first instance; nothing it cannot expand is invented.
      assert.deepEqual((day.json as { items: { summary: string }[] }).items.map((item) => item.summary), ['old rule']);
      assert.equal((await call('GET', `/calendar/v3/calendars/primary/events/${eventId}/instances`)).status, 200);
      await emulator.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('reliability: watch addresses', () => {
  /**
   * Every host the emulator (in this process) opens a TLS connection to. A non-loopback address is refused here,
   * never dialled; a host name is let through, since it is resolved by the emulator's own checked lookup.
   */
  const dialled: string[] = [];
  const realConnect = tls.connect;
  before(() => {
    (tls as { connect: typeof tls.connect }).connect = ((...args: Parameters<typeof tls.connect>) => {
      const options = args[0] as tls.ConnectionOptions;
      const host = options.host ?? '';
      dialled.push(host);
      if (isIP(host) !== 0 && !/^(127\.|::1$)/.test(host)) throw new Error(`test guard: the emulator tried to connect to ${host}`);
      return realConnect(...args);
    }) as typeof tls.connect;
  });
  after(() => {
    (tls as { connect: typeof tls.connect }).connect = realConnect;
  });

  const watchBody = (id: string, address: string): HttpCallOptions => ({ json: { id, type: 'web_hook', address } });

  it('refuses private, link-local, shared, unique-local, unspecified and metadata addresses in every service, in one wording, without connecting', async () => {
    const emulator = await startEmulator({ port: 0, seed: 'demo' });
    try {
      const registry = channelRegistryFor(emulator.deps);
      const asked: string[] = [];
      registry.network.resolver = (host) => {
        asked.push(host);
        return Promise.resolve(host === 'intranet.example' ? ['10.20.30.40'] : []);
      };
      const call = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken);
      const file = (await call('POST', '/drive/v2/files', { json: { title: 'watched' } })).json as { id: string };
      const watchPaths = ['/calendar/v3/calendars/primary/events/watch', '/calendar/v3/users/me/calendarList/watch', `/drive/v2/files/${file.id}/watch`, '/drive/v2/changes/watch', '/admin/directory/v1/users/watch?domain=example.com&event=add'];
      const addresses = ['https://10.0.0.1/', 'https://192.168.1.1:8443/', 'https://172.16.0.1/', 'https://169.254.169.254/computeMetadata/v1/', 'https://100.64.0.1/', 'https://[fd00::1]/', 'https://0.0.0.0:443/', 'https://[::]/', 'https://metadata.google.internal/', 'https://intranet.example/hook'];
      const messages = new Set<string>();
      let index = 0;
      for (const address of addresses) {
        const path = watchPaths[index % watchPaths.length];
        const error = await expectGoogleError(call('POST', path, watchBody(`private-${index++}`, address)), 400, 'invalid');
        messages.add(error.message.replace(new URL(address).href, '<address>'));
      }
      assert.equal(messages.size, 1, [...messages].join('\n'));
      assert.deepEqual(dialled.filter((host) => !host.startsWith('127.')), [], 'no connection was attempted');
      assert.deepEqual(asked, ['intranet.example'], 'only the host name was resolved; the metadata name never');
    } finally {
      await emulator.close();
    }
  });

  it('refuses loopback receivers when started with --no-loopback-watch, and accepts a range the operator allows', async () => {
    const emulator = await startEmulator({ port: 0, loopbackWatch: false, allowWatchNetworks: ['127.0.0.2/32'] });
    try {
      const call = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken);
      const before = dialled.length;
      await expectGoogleError(call('POST', '/calendar/v3/calendars/primary/events/watch', watchBody('loop-1', 'https://127.0.0.1:9/')), 400, 'invalid');
      await expectGoogleError(call('POST', '/calendar/v3/calendars/primary/events/watch', watchBody('loop-2', 'https://[::1]:9/')), 400, 'invalid');
      assert.equal(dialled.length, before, 'refused before connecting');
      // 127.0.0.2 is allowed by the range: the certificate check goes on (nothing listens there, so it says so).
      const allowed = await expectGoogleError(call('POST', '/calendar/v3/calendars/primary/events/watch', watchBody('loop-3', 'https://127.0.0.2:9/')), 400, 'invalid');
      assert.doesNotMatch(allowed.message, /does not deliver to private/);
      assert.deepEqual(dialled.slice(before), ['127.0.0.2']);
    } finally {
      await emulator.close();
    }
  });

  it('checks the address again at delivery: a name re-pointed at a private network after the watch gets nothing', async function () {
    this.timeout(30_000);
    const emulator = await startEmulator({ port: 0 });
    let receiver: Receiver | undefined;
    try {
      const registry = channelRegistryFor(emulator.deps);
      registry.configureDelivery({ initialDelayMs: 10, maxDelayMs: 20, maxAttempts: 2 });
      const answers: Record<string, string[]> = { 'receiver.example': ['127.0.0.1'] };
      registry.network.resolver = (host) => Promise.resolve(answers[host] ?? []);
      receiver = await Receiver.start(registry.certificateAuthority().issue({ hosts: ['receiver.example'] }));
      const call = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken);
      const dialledAtWatch = dialled.length;
      const watch = await call('POST', '/calendar/v3/calendars/primary/events/watch', watchBody('rebind', `https://receiver.example:${receiver.port}/notify`));
      assert.equal(watch.status, 200, watch.text);
      await receiver.waitForChannel('rebind', 1);
      assert.equal(dialled[dialledAtWatch], '127.0.0.1', 'the certificate check connected to the address that passed the check');
      // The name now points into a private network; new connections resolve it again.
      answers['receiver.example'] = ['10.9.9.9'];
      registry.configureDelivery({});
      const dialledBefore = dialled.length;
      assert.equal((await call('POST', '/calendar/v3/calendars/primary/events', { json: { summary: 'after rebinding', ...timed } })).status, 200);
      await waitUntil(() => registry.delivery.pending('rebind') === 0);
      assert.equal(receiver.forChannel('rebind').length, 1, 'only the sync arrived');
      // Delivery went through the name (resolved by the checked lookup, which refused 10.9.9.9), never to an address.
      assert.ok(dialled.slice(dialledBefore).every((host) => host === 'receiver.example'), dialled.slice(dialledBefore).join(', '));
    } finally {
      await receiver?.close();
      await emulator.close();
    }
  });
});

describe('reliability: what a channel keeps', () => {
  it('keeps no params beyond ttl and refuses an address longer than 2048 characters, so 10,000 channels cannot hold gigabytes', async () => {
    const emulator = await startEmulator({ port: 0 });
    const receiver = await Receiver.forEmulator(emulator);
    try {
      const call = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken);
      // 4 MB of params were stored with the channel (and journaled), though only params.ttl is ever read.
      const watched = await call('POST', '/calendar/v3/calendars/primary/events/watch', { json: { id: 'big-params', type: 'web_hook', address: receiver.url, params: { ttl: '3600', padding: 'x'.repeat(4_000_000) } } });
      assert.equal(watched.status, 200, watched.text.slice(0, 300));
      const expiration = Number((watched.json as { expiration: string | number }).expiration);
      assert.ok(expiration <= Date.now() + 3600_000, 'params.ttl still applies');
      const stored = emulator.deps.store.collection<unknown>('channels').get('big-params');
      assert.ok(stored, 'the channel is stored');
      assert.ok(JSON.stringify(stored).length < 4096, `the stored channel takes ${JSON.stringify(stored).length} characters`);
      const longAddress = `${receiver.url}${'p'.repeat(2100)}`;
      const error = await expectGoogleError(call('POST', '/calendar/v3/calendars/primary/events/watch', { json: { id: 'long-address', type: 'web_hook', address: longAddress } }), 400, 'invalid');
      assert.match(error.message, /2048/);
      assert.ok(error.message.length < 400, 'the message does not echo the address whole');
    } finally {
      await emulator.close();
      await receiver.close();
    }
  });
});

describe('reliability: receiver certificates on demand', () => {
  it('keeps answering others while it issues certificates (each RSA key took the event loop ~300 ms before)', async function () {
    this.timeout(60_000);
    const emulator = await startEmulator({ port: 0 });
    try {
      // The CA exists before the race: it is made once, on first use.
      channelRegistryFor(emulator.deps).certificateAuthority();
      let issued = 0;
      const certificates = Array.from({ length: 8 }, (_unused, index) => fetch(`${emulator.url}/emulator/v1/channels/certificates?host=h${index}.example`, { method: 'POST' }).then(async (response) => {
        assert.equal(response.status, 200);
        const body = (await response.json()) as { cert: string; key: string; ca: string };
        assert.match(body.cert, /BEGIN CERTIFICATE/);
        issued++;
        return body;
      }));
      const health = await fetch(`${emulator.url}/emulator/v1/health`);
      assert.equal(health.status, 200);
      const issuedWhenHealthAnswered = issued;
      const [first] = await Promise.all(certificates);
      assert.ok(issuedWhenHealthAnswered < certificates.length, 'the health check waited for every certificate');
      // What was issued is a certificate the emulator's trust accepts for its host.
      const receiver = await Receiver.start({ cert: (first as { cert: string }).cert, key: (first as { key: string }).key });
      try {
        const socket = tls.connect({ host: '127.0.0.1', port: receiver.port, servername: 'h0.example', ca: [channelRegistryFor(emulator.deps).certificateAuthority().certPem], checkServerIdentity: (_host, cert) => tls.checkServerIdentity('h0.example', cert) });
        await new Promise<void>((resolve, reject) => {
          socket.once('secureConnect', () => { resolve(); });
          socket.once('error', reject);
        });
        socket.destroy();
      } finally {
        await receiver.close();
      }
    } finally {
      await emulator.close();
    }
  });
});

describe('reliability: Drive queries over many files with text', () => {
  it('keeps answering others while a long fullText query runs over 600 files of 32 KB (it held the event loop 0.8 s)', async function () {
    this.timeout(60_000);
    const emulator = await startEmulator({ port: 0 });
    try {
      const alice = findUser('alice@example.com') as EmulatorUser;
      const { model } = driveServiceFor(emulator.deps);
      const text = 'lorem ipsum dolor sit amet '.repeat(1200).slice(0, 32 * 1024);
      for (let index = 0; index < 600; index++) {
        model.insert(alice, { title: `text ${index}`, mimeType: 'text/plain' }, { blob: { blobId: `blob-${index}`, size: text.length, md5: 'x' }, mimeType: 'text/plain', text: `${text}${index}` });
      }
      const call = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken);
      const q = Array.from({ length: 280 }, (_unused, index) => `fullText contains 'z${index}'`).join(' or ');
      let listed = false;
      const listing = call('GET', `/drive/v2/files?maxResults=1000&q=${encodeURIComponent(q)}`).finally(() => {
        listed = true;
      });
      assert.equal((await fetch(`${emulator.url}/emulator/v1/health`)).status, 200);
      assert.equal(listed, false, 'the health check waited for the whole query');
      const answer = await listing;
      assert.equal(answer.status, 200, answer.text.slice(0, 300));
      assert.deepEqual((answer.json as { items: unknown[] }).items, []);
      // The same query finds a term of the text, in every file, case-insensitively.
      const found = await call('GET', `/drive/v2/files?maxResults=1000&q=${encodeURIComponent(`${q} or fullText contains 'IPSUM'`)}`);
      assert.equal((found.json as { items: unknown[] }).items.length, 600);
    } finally {
      await emulator.close();
    }
  });
});

/** Polls a condition on state (not a duration) until it holds, for up to `timeoutMs`. */
async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('reliability: freeBusy at its documented limits', () => {
  it('answers 89 days × 50 calendars of hourly series completely, one calendar at a time, serving others meanwhile', async function () {
    this.timeout(60_000);
    const emulator = await startEmulator({ port: 0 });
    try {
      const alice = findUser('alice@example.com') as EmulatorUser;
      const service = calendarServiceFor(emulator.deps);
      const ids: string[] = [];
      for (let index = 0; index < 50; index++) {
        const calendar = service.calendars.insert(alice, { summary: `Hourly ${index}`, timeZone: 'UTC' });
        service.events.insert(alice, calendar.id, {
          summary: 'hourly', start: { dateTime: '2026-03-02T00:00:00', timeZone: 'UTC' }, end: { dateTime: '2026-03-02T00:30:00', timeZone: 'UTC' }, recurrence: ['RRULE:FREQ=HOURLY'],
        }, { conferenceDataVersion: 0 });
        ids.push(calendar.id);
      }
      const call = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken);
      let answered = false;
      const query = call('POST', '/calendar/v3/freeBusy', { json: { timeMin: '2026-03-02T00:00:00Z', timeMax: '2026-05-30T00:00:00Z', items: ids.map((id) => ({ id })) } }).finally(() => {
        answered = true;
      });
      // Others are served while the query works (it took 7–15 s in one go before, the health check waiting behind it).
      assert.equal((await fetch(`${emulator.url}/emulator/v1/health`)).status, 200);
      assert.equal(answered, false, 'the health check waited for the whole free/busy query');
      const answer = await query;
      assert.equal(answer.status, 200, answer.text.slice(0, 300));
      const calendars = (answer.json as { calendars: Partial<Record<string, { busy: { start: string; end: string }[]; errors?: unknown[] }>> }).calendars;
      for (const id of ids) {
        const busy = calendars[id]?.busy ?? [];
        assert.equal(calendars[id]?.errors, undefined, id);
        assert.equal(busy.length, 89 * 24, id);
        assert.deepEqual(busy[busy.length - 1], { start: '2026-05-29T23:00:00Z', end: '2026-05-29T23:30:00Z' });
      }
    } finally {
      await emulator.close();
    }
  });
});
