/**
 * Bounds on what one request may make the emulator read or keep: over-long URLs (414, as Google answers, not 431),
 * Calendar attendees, extended properties and source, Drive's indexableText, uploads announced over Drive's 5 TiB,
 * and live channels per user. Google's numbers where published, the emulator's stated bounds elsewhere.
 */
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { MAX_CHANNELS_PER_USER, StoredChannel } from '../../../src/emulator/core/channels';
import { MAX_REQUEST_TARGET_BYTES } from '../../../src/emulator/core/errors';
import { MAX_UPLOAD_BYTES } from '../../../src/emulator/drive/content/uploads';
import { startEmulator, RunningEmulator } from '../../../src/emulator/emulator';
import { EVENT_LIMITS } from '../../../src/shared/schemas/calendar/events';
import { MAX_INDEXABLE_TEXT } from '../../../src/shared/schemas/drive/files';
import { emulatorHttp, EmulatorCall, expectGoogleError } from '../../support/emulatorHttp';
import { Receiver } from './channels/receiver';

/** The status line of a raw request (fetch refuses to send some of these). */
async function rawStatus(emulator: RunningEmulator, head: string): Promise<number> {
  const { port } = new URL(emulator.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(head));
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (status) {
        socket.destroy();
        resolve(Number(status[1]));
      }
    });
    socket.on('error', reject);
  });
}

describe('limits on one request (URLs, Calendar event fields, indexableText, upload size, channels per user)', function () {
  this.timeout(20_000);
  let emulator: RunningEmulator;
  let alice: EmulatorCall;
  const event = (extra: Record<string, unknown>): { json: Record<string, unknown> } => ({
    json: { summary: 'bounded', start: { dateTime: '2026-03-02T10:00:00Z' }, end: { dateTime: '2026-03-02T11:00:00Z' }, ...extra },
  });
  const insertEvent = (extra: Record<string, unknown>): ReturnType<EmulatorCall> => alice('POST', '/calendar/v3/calendars/primary/events', event(extra));

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    alice = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken);
  });
  after(() => emulator.close());

  it('answers an over-long URL 414 in Google\'s error format, whether Node\'s parser takes it or not; oversized headers stay 431', async () => {
    const within = await alice('GET', `/tasks/v1/users/@me/lists?pageToken=${'a'.repeat(MAX_REQUEST_TARGET_BYTES / 2)}`);
    assert.ok(within.status !== 414 && within.status !== 431, `a URL within the bound is read (${within.status})`);
    await expectGoogleError(alice('GET', `/tasks/v1/users/@me/lists?pageToken=${'a'.repeat(MAX_REQUEST_TARGET_BYTES)}`), 414);
    const token = emulator.tokenFor('alice@example.com').accessToken;
    assert.equal(await rawStatus(emulator, `GET /tasks/v1/users/@me/lists?q=${'a'.repeat(40_000)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`), 414);
    assert.equal(await rawStatus(emulator, `GET /tasks/v1/users/@me/lists HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`), 431);
  });

  it('bounds Calendar attendees (count and fields), extended properties (Google\'s 44/1024/300/32 kB) and source (http(s), length)', async () => {
    const attendee = (index: number): Record<string, unknown> => ({ email: `guest${index}@example.com` });
    assert.equal((await insertEvent({ attendees: Array.from({ length: 20 }, (_, index) => attendee(index)) })).status, 200);
    await expectGoogleError(insertEvent({ attendees: Array.from({ length: EVENT_LIMITS.attendees + 1 }, (_, index) => attendee(index)) }), 400);
    await expectGoogleError(insertEvent({ attendees: [{ email: `${'a'.repeat(EVENT_LIMITS.attendeeEmail)}@example.com` }] }), 400);
    await expectGoogleError(insertEvent({ attendees: [{ email: 'g@example.com', displayName: 'd'.repeat(EVENT_LIMITS.attendeeDisplayName + 1) }] }), 400);
    await expectGoogleError(insertEvent({ attendees: [{ email: 'g@example.com', comment: 'c'.repeat(EVENT_LIMITS.attendeeComment + 1) }] }), 400);
    await expectGoogleError(insertEvent({ attendees: [{ email: 'g@example.com', additionalGuests: -1 }] }), 400);

    const atLimit = { private: { ['k'.repeat(EVENT_LIMITS.propertyKey)]: 'v'.repeat(EVENT_LIMITS.propertyValue) } };
    assert.equal((await insertEvent({ extendedProperties: atLimit })).status, 200);
    await expectGoogleError(insertEvent({ extendedProperties: { private: { ['k'.repeat(EVENT_LIMITS.propertyKey + 1)]: 'v' } } }), 400);
    await expectGoogleError(insertEvent({ extendedProperties: { shared: { key: 'v'.repeat(EVENT_LIMITS.propertyValue + 1) } } }), 400);
    const many = Object.fromEntries(Array.from({ length: EVENT_LIMITS.properties + 1 }, (_, index) => [`p${index}`, 'v']));
    await expectGoogleError(insertEvent({ extendedProperties: { private: many } }), 400);
    const heavy = (prefix: string): Record<string, string> => Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`${prefix}${index}`, 'v'.repeat(EVENT_LIMITS.propertyValue)]));
    await expectGoogleError(insertEvent({ extendedProperties: { private: heavy('a'), shared: heavy('b') } }), 400);

    assert.equal((await insertEvent({ source: { url: 'https://example.com/mail/1', title: 'Mail' } })).status, 200);
    await expectGoogleError(insertEvent({ source: { url: 'javascript:alert(1)' } }), 400);
    await expectGoogleError(insertEvent({ source: { url: `https://example.com/${'p'.repeat(EVENT_LIMITS.sourceUrl)}` } }), 400);
    await expectGoogleError(insertEvent({ source: { url: 'https://example.com/', title: 't'.repeat(EVENT_LIMITS.sourceTitle + 1) } }), 400);
  });

  it('takes Drive\'s indexableText up to Google\'s 128 KB and searches it with fullText; longer is a 400', async () => {
    const text = `${'filler '.repeat((MAX_INDEXABLE_TEXT - 20) / 7)} zanzibar`;
    assert.ok(text.length <= MAX_INDEXABLE_TEXT);
    const created = await alice('POST', '/drive/v2/files', { json: { title: 'indexed', mimeType: 'application/octet-stream', indexableText: { text } } });
    assert.equal(created.status, 200, created.text);
    const found = await alice('GET', `/drive/v2/files?q=${encodeURIComponent("fullText contains 'zanzibar'")}`);
    assert.deepEqual((found.json as { items: { title: string }[] }).items.map((item) => item.title), ['indexed']);
    await expectGoogleError(alice('POST', '/drive/v2/files', { json: { title: 'too much', indexableText: { text: 'x'.repeat(MAX_INDEXABLE_TEXT + 1) } } }), 400);
    const id = (created.json as { id: string }).id;
    await expectGoogleError(alice('PATCH', `/drive/v2/files/${id}`, { json: { indexableText: { text: 'x'.repeat(MAX_INDEXABLE_TEXT + 1) } } }), 400);
  });

  it('refuses an upload announced over Drive\'s 5 TiB before storing anything: X-Upload-Content-Length or a Content-Range total', async () => {
    const over = String(MAX_UPLOAD_BYTES + 1);
    await expectGoogleError(alice('POST', '/upload/drive/v2/files?uploadType=resumable', { json: { title: 'huge' }, headers: { 'X-Upload-Content-Length': over } }), 413, 'uploadTooLarge');
    const opened = await alice('POST', '/upload/drive/v2/files?uploadType=resumable', { json: { title: 'huge' }, headers: { 'X-Upload-Content-Length': String(MAX_UPLOAD_BYTES) } });
    assert.equal(opened.status, 200, 'exactly the maximum may be announced');
    const session = new URL(opened.headers.get('location') as string);
    const open = await alice('POST', '/upload/drive/v2/files?uploadType=resumable', { json: { title: 'unsized' } });
    const unsized = new URL(open.headers.get('location') as string);
    await expectGoogleError(alice('PUT', unsized.pathname + unsized.search, { body: Buffer.from('abc'), headers: { 'Content-Range': `bytes 0-2/${over}` } }), 413, 'uploadTooLarge');
    await expectGoogleError(alice('PUT', session.pathname + session.search, { body: Buffer.alloc(0), headers: { 'Content-Range': `bytes */${over}` } }), 413, 'uploadTooLarge');
  });

  it(`keeps at most ${MAX_CHANNELS_PER_USER} live channels per user (403 limitExceeded past it); expired ones and other users do not count`, async () => {
    const receiver = await Receiver.forEmulator(emulator);
    try {
      // The registry's own collection, filled directly: a thousand watches over HTTPS would test patience, not the cap.
      const channels = emulator.deps.store.collection<StoredChannel>('channels');
      const watch = (caller: EmulatorCall, id: string): ReturnType<EmulatorCall> => caller('POST', '/calendar/v3/calendars/primary/events/watch', { json: { id, type: 'web_hook', address: receiver.url } });
      const first = await watch(alice, 'cap-first');
      assert.equal(first.status, 200, first.text);
      const userId = (channels.get('cap-first') as StoredChannel).userId;
      const template = channels.get('cap-first') as StoredChannel;
      for (let index = 1; index < MAX_CHANNELS_PER_USER - 1; index++) channels.set(`cap-${index}`, { ...template, id: `cap-${index}`, userId });
      channels.set('cap-expired', { ...template, id: 'cap-expired', userId, expiration: Date.now() - 1000 });
      assert.equal((await watch(alice, 'cap-last')).status, 200, 'the last one allowed');
      await expectGoogleError(watch(alice, 'cap-over'), 403, 'limitExceeded');
      const bob = emulatorHttp(emulator, () => emulator.tokenFor('bob@example.com').accessToken);
      assert.equal((await watch(bob, 'cap-bob')).status, 200, 'another user holds their own');
      channels.delete('cap-1');
      assert.equal((await watch(alice, 'cap-again')).status, 200, 'room again once one is gone');
    } finally {
      await receiver.close();
    }
  });
});
