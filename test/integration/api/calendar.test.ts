import * as assert from 'node:assert/strict';
import { CalendarClient } from '../../../src/api/calendar';
import { GoogleApiError } from '../../../src/api/errors';
import { HttpClient } from '../../../src/api/http';
import { calendarModule } from '../../../src/emulator/calendar';
import { startEmulator, RunningEmulator } from '../../../src/emulator/emulator';
import { Receiver } from '../emulator/channels/receiver';

/** Desk's CalendarClient over real HTTP against the emulator: shapes, paging, sync, conditional requests, errors. */
describe('CalendarClient against the emulator', () => {
  let emulator: RunningEmulator;
  let alice: CalendarClient;
  let bob: CalendarClient;

  const clientFor = (email: string): CalendarClient => {
    const token = emulator.tokenFor(email).accessToken;
    return new CalendarClient(new HttpClient({ rootUrl: () => emulator.url, token: async () => token, retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 } }));
  };

  before(async () => {
    emulator = await startEmulator({ port: 0 }, [calendarModule]);
    alice = clientFor('alice@example.com');
    bob = clientFor('bob@example.com');
  });
  after(() => emulator.close());

  async function rejectsWithStatus(promise: Promise<unknown>, status: number, reason?: string): Promise<void> {
    await assert.rejects(promise, (error: unknown) => {
      assert.ok(error instanceof GoogleApiError, String(error));
      assert.equal(error.status, status);
      if (reason) assert.equal(error.reason, reason);
      return true;
    });
  }

  it('creates, reads conditionally, patches with If-Match and deletes events', async () => {
    const event = await alice.insertEvent('primary', { summary: 'Review', start: { dateTime: '2026-02-02T10:00:00+01:00' }, end: { dateTime: '2026-02-02T11:00:00+01:00' } });
    assert.equal(event.summary, 'Review');
    assert.equal(await alice.getEvent('primary', event.id, { ifNoneMatch: event.etag as string }), undefined, '304 → undefined');
    const patched = await alice.patchEvent('primary', event.id, { location: 'Room 2' }, { ifMatch: event.etag as string });
    assert.equal(patched.location, 'Room 2');
    assert.equal(patched.summary, 'Review', 'patch keeps what it does not name');
    await rejectsWithStatus(alice.patchEvent('primary', event.id, { location: 'Room 3' }, { ifMatch: event.etag as string }), 412, 'conditionNotMet');
    const fetched = await alice.getEvent('primary', event.id, { ifNoneMatch: event.etag as string });
    assert.equal(fetched?.location, 'Room 2', 'a stale copy gets the new event');
    const replaced = await alice.updateEvent('primary', event.id, { summary: 'Review v2', start: { dateTime: '2026-02-02T10:00:00+01:00' }, end: { dateTime: '2026-02-02T11:00:00+01:00' } });
    assert.equal(replaced.location, undefined, 'update clears what it does not send');
    await alice.deleteEvent('primary', event.id, { ifMatch: replaced.etag as string });
    assert.equal((await alice.getEvent('primary', event.id)).status, 'cancelled');
  });

  it('syncs: a full sync, then only changes, and a 410 for a bad token', async () => {
    const calendar = await alice.insertCalendar({ summary: 'Sync', timeZone: 'UTC' });
    for (let day = 1; day <= 5; day++) await alice.insertEvent(calendar.id, { summary: `E${day}`, start: { date: `2026-02-0${day}` }, end: { date: `2026-02-0${day + 1}` } });
    const full = await alice.syncEvents(calendar.id, undefined, { maxResults: 2 });
    assert.equal(full.items.length, 5);
    assert.ok(full.nextSyncToken);
    const [first] = full.items;
    await alice.deleteEvent(calendar.id, first.id);
    const delta = await alice.syncEvents(calendar.id, full.nextSyncToken);
    assert.deepEqual(delta.items.map((item) => [item.id, item.status]), [[first.id, 'cancelled']]);
    await rejectsWithStatus(alice.syncEvents(calendar.id, 'not-a-token'), 410, 'fullSyncRequired');
    const all: string[] = [];
    for await (const event of alice.allEvents(calendar.id, { maxResults: 2 })) all.push(event.summary ?? '');
    assert.deepEqual(all, ['E2', 'E3', 'E4', 'E5']);
  });

  it('expands a series, shares a calendar and answers free/busy', async () => {
    const series = await alice.insertEvent('primary', { summary: 'Daily', start: { dateTime: '2026-02-09T08:00:00', timeZone: 'Europe/Berlin' }, end: { dateTime: '2026-02-09T08:15:00', timeZone: 'Europe/Berlin' }, recurrence: ['RRULE:FREQ=DAILY;COUNT=5'] });
    const instances: string[] = [];
    for await (const instance of alice.allInstances('primary', series.id, { maxResults: 2 })) instances.push(instance.id);
    assert.equal(instances.length, 5);
    assert.equal(instances[0], `${series.id}_20260209T070000Z`);

    await rejectsWithStatus(bob.listEvents('alice@example.com'), 404, 'notFound');
    const rule = await alice.insertAclRule('primary', { role: 'freeBusyReader', scope: { type: 'user', value: 'bob@example.com' } });
    assert.equal(rule.id, 'user:bob@example.com');
    const page = await bob.listEvents('alice@example.com', { singleEvents: true, timeMin: '2026-02-09T00:00:00Z', timeMax: '2026-02-10T00:00:00Z' });
    assert.equal(page.accessRole, 'freeBusyReader');
    assert.equal(page.items[0]?.summary, undefined);
    const busy = await bob.queryFreeBusy({ timeMin: '2026-02-09T00:00:00Z', timeMax: '2026-02-11T00:00:00Z', items: [{ id: 'alice@example.com' }] });
    const calendars: Partial<typeof busy.calendars> = busy.calendars;
    assert.deepEqual(calendars['alice@example.com']?.busy, [{ start: '2026-02-09T07:00:00Z', end: '2026-02-09T07:15:00Z' }, { start: '2026-02-10T07:00:00Z', end: '2026-02-10T07:15:00Z' }]);
    await alice.deleteAclRule('primary', rule.id);
    await rejectsWithStatus(bob.listEvents('alice@example.com'), 404);
  });

  it('reads the calendar list, settings and colours, and watches through channels', async () => {
    const entries: string[] = [];
    for await (const entry of alice.allCalendarListEntries({ maxResults: 1 })) entries.push(entry.id);
    assert.equal(entries[0], 'alice@example.com');
    const settings: string[] = [];
    for await (const setting of alice.allSettings({ maxResults: 5 })) settings.push(setting.id);
    assert.equal(settings.length, 12);
    const zone = await alice.getSetting('timezone');
    assert.equal(zone.value, 'Europe/Berlin');
    assert.equal(await alice.getSetting('timezone', { ifNoneMatch: zone.etag as string }), undefined);
    const colors = await alice.getColors();
    const calendarColors: Partial<typeof colors.calendar> = colors.calendar;
    assert.equal(calendarColors['1']?.background, '#ac725e');
    // The emulator checks the receiver's certificate over TLS at watch time: a receiver with one from its CA.
    const receiver = await Receiver.forEmulator(emulator);
    try {
      const channel = await alice.watchEvents('primary', { id: 'client-channel-1', type: 'web_hook', address: receiver.url, token: 'x=1' });
      assert.equal(channel.token, 'x=1');
      await alice.stopChannel({ id: channel.id, resourceId: channel.resourceId });
      await rejectsWithStatus(alice.stopChannel({ id: channel.id, resourceId: channel.resourceId }), 404);
    } finally {
      await receiver.close();
    }
    const quick = await alice.quickAddEvent('primary', 'Coffee with Bob tomorrow 10:00');
    assert.equal(quick.summary, 'Coffee with Bob');
  });
});
