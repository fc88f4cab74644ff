import * as assert from 'node:assert/strict';
import { calendar, calendar_v3 } from '@googleapis/calendar';
import { calendarModule } from '../../src/emulator/calendar';
import { startEmulator, RunningEmulator } from '../../src/emulator/emulator';
import { Receiver } from '../integration/emulator/channels/receiver';
import { officialClientOptions, rejectsWith } from '../support/officialClient';

/** The official @googleapis/calendar v3 client runs events.watch and channels.stop, and the emulator delivers Calendar's states. */
describe('official @googleapis/calendar client: events.watch and channels.stop', function () {
  this.timeout(20_000);
  let emulator: RunningEmulator;
  let receiver: Receiver;
  let alice: calendar_v3.Calendar;
  let bob: calendar_v3.Calendar;

  before(async () => {
    emulator = await startEmulator({ port: 0 }, [calendarModule]);
    receiver = await Receiver.forEmulator(emulator);
    alice = calendar({ version: 'v3', ...officialClientOptions(emulator, 'alice@example.com') });
    bob = calendar({ version: 'v3', ...officialClientOptions(emulator, 'bob@example.com') });
  });
  after(async () => {
    await emulator.close();
    await receiver.close();
  });

  it('events.watch → sync, exists; channels.stop by the creator only', async () => {
    const channel = (await alice.events.watch({ calendarId: 'primary', requestBody: { id: 'calendar-conformance', type: 'web_hook', address: receiver.url, params: { ttl: '3600' } } })).data;
    assert.equal(channel.kind, 'api#channel');
    assert.ok(Number(channel.expiration) <= Date.now() + 3600_000);
    await alice.events.insert({ calendarId: 'primary', requestBody: { summary: 'Watched', start: { dateTime: '2026-04-01T09:00:00Z' }, end: { dateTime: '2026-04-01T10:00:00Z' } } });
    const messages = await receiver.waitForChannel('calendar-conformance', 2);
    assert.deepEqual(messages.map((message) => message.state), ['sync', 'exists']);
    assert.match(String(messages[1]?.headers['x-svc-resource-uri']), /\/calendar\/v3\/calendars\/alice%40example\.com\/events/);
    await rejectsWith(bob.channels.stop({ requestBody: { id: channel.id as string, resourceId: channel.resourceId as string } }), 403);
    assert.equal((await alice.channels.stop({ requestBody: { id: channel.id as string, resourceId: channel.resourceId as string } })).status, 204);
  });
});
