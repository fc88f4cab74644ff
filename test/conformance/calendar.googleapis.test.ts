import * as assert from 'node:assert/strict';
import { calendar, calendar_v3 } from '@googleapis/calendar';
import { calendarModule } from '../../src/emulator/calendar';
import { startEmulator, RunningEmulator } from '../../src/emulator/emulator';
import { officialClientOptions, rejectsWith } from '../support/officialClient';
import { Receiver } from '../integration/emulator/channels/receiver';

/** The official @googleapis/calendar v3 client runs every Calendar operation against the emulator. */
describe('official @googleapis/calendar client against the emulator', () => {
  let emulator: RunningEmulator;
  let alice: calendar_v3.Calendar;
  let bob: calendar_v3.Calendar;
  let receiver: Receiver;

  before(async () => {
    emulator = await startEmulator({ port: 0 }, [calendarModule]);
    // Watches check the receiver's certificate over TLS: a receiver with one from the emulator's CA.
    receiver = await Receiver.forEmulator(emulator);
    alice = calendar({ version: 'v3', ...officialClientOptions(emulator, 'alice@example.com') });
    bob = calendar({ version: 'v3', ...officialClientOptions(emulator, 'bob@example.com') });
  });
  after(async () => {
    await emulator.close();
    await receiver.close();
  });

  const channel = (id: string): calendar_v3.Schema$Channel => ({ id, type: 'web_hook', address: receiver.url });

  it('runs calendars, calendarList, acl, colors, settings and channels operations', async () => {
    const created = (await alice.calendars.insert({ requestBody: { summary: 'Conformance', timeZone: 'Europe/Berlin' } })).data;
    const id = created.id as string;
    assert.equal(created.kind, 'calendar#calendar');
    assert.equal((await alice.calendars.get({ calendarId: id })).data.summary, 'Conformance');
    const updated = (await alice.calendars.update({ calendarId: id, requestBody: { ...created, summary: 'Renamed' } })).data;
    assert.equal(updated.summary, 'Renamed');
    assert.equal((await alice.calendars.patch({ calendarId: id, requestBody: { description: 'patched' } })).data.description, 'patched');

    const list = (await alice.calendarList.list()).data;
    assert.equal(list.kind, 'calendar#calendarList');
    assert.ok(list.items?.some((entry) => entry.primary && entry.id === 'alice@example.com'));
    assert.ok(list.nextSyncToken);
    const entry = (await alice.calendarList.get({ calendarId: id })).data;
    assert.equal(entry.accessRole, 'owner');
    const patchedEntry = (await alice.calendarList.patch({ calendarId: id, colorRgbFormat: true, requestBody: { backgroundColor: '#123456', foregroundColor: '#ffffff', summaryOverride: 'Mine' } })).data;
    assert.equal(patchedEntry.backgroundColor, '#123456');
    assert.equal(patchedEntry.summaryOverride, 'Mine');
    const updatedEntry = (await alice.calendarList.update({ calendarId: id, requestBody: { ...patchedEntry, colorId: '3', hidden: true } })).data;
    assert.equal(updatedEntry.colorId, '3');
    assert.equal(updatedEntry.hidden, true);
    assert.ok(!(await alice.calendarList.list()).data.items?.some((item) => item.id === id), 'hidden entries need showHidden');
    assert.ok((await alice.calendarList.list({ showHidden: true })).data.items?.some((item) => item.id === id));

    const rule = (await alice.acl.insert({ calendarId: id, requestBody: { role: 'reader', scope: { type: 'user', value: 'bob@example.com' } } })).data;
    assert.equal(rule.id, 'user:bob@example.com');
    assert.equal((await alice.acl.get({ calendarId: id, ruleId: rule.id })).data.role, 'reader');
    assert.equal((await alice.acl.list({ calendarId: id })).data.items?.length, 2);
    assert.equal((await alice.acl.update({ calendarId: id, ruleId: rule.id, requestBody: { ...rule, role: 'writer' } })).data.role, 'writer');
    assert.equal((await alice.acl.patch({ calendarId: id, ruleId: rule.id, requestBody: { role: 'reader' } })).data.role, 'reader');
    const bobEntry = (await bob.calendarList.insert({ requestBody: { id } })).data;
    assert.equal(bobEntry.accessRole, 'reader');
    assert.equal((await bob.calendarList.delete({ calendarId: id })).status, 204);
    assert.equal((await alice.acl.delete({ calendarId: id, ruleId: rule.id })).status, 204);
    await rejectsWith(bob.calendars.get({ calendarId: id }), 404);

    const colors = (await alice.colors.get()).data;
    assert.equal(colors.kind, 'calendar#colors');
    assert.equal(Object.keys(colors.calendar ?? {}).length, 24);
    assert.equal(colors.event?.['11']?.background, '#dc2127');
    const settings = (await alice.settings.list()).data;
    assert.equal(settings.items?.length, 12);
    assert.equal((await alice.settings.get({ setting: 'timezone' })).data.value, 'Europe/Berlin');

    for (const watch of [
      () => alice.acl.watch({ calendarId: id, requestBody: channel('acl-channel') }),
      () => alice.calendarList.watch({ requestBody: channel('list-channel') }),
      () => alice.events.watch({ calendarId: id, requestBody: channel('events-channel') }),
      () => alice.settings.watch({ requestBody: channel('settings-channel') }),
    ]) {
      const watched = (await watch()).data;
      assert.equal(watched.kind, 'api#channel');
      assert.ok(watched.resourceId);
      assert.equal((await alice.channels.stop({ requestBody: { id: watched.id as string, resourceId: watched.resourceId } })).status, 204);
    }

    assert.equal((await alice.calendarList.delete({ calendarId: id })).status, 204);
    assert.equal((await alice.calendars.delete({ calendarId: id })).status, 204);
    await rejectsWith(alice.calendars.delete({ calendarId: 'primary' }), 400);
  });

  it('runs every events operation and freebusy.query', async () => {
    const team = (await alice.calendars.insert({ requestBody: { summary: 'Team' } })).data.id as string;
    const start = { dateTime: '2026-03-02T09:00:00', timeZone: 'Europe/Berlin' };
    const end = { dateTime: '2026-03-02T09:30:00', timeZone: 'Europe/Berlin' };
    const series = (await alice.events.insert({ calendarId: 'primary', conferenceDataVersion: 1, requestBody: {
      summary: 'Weekly', start, end, recurrence: ['RRULE:FREQ=WEEKLY;COUNT=10'],
      attendees: [{ email: 'bob@example.com' }], conferenceData: { createRequest: { requestId: 'r1', conferenceSolutionKey: { type: 'hangoutsMeet' } } },
    } })).data;
    assert.equal(series.kind, 'calendar#event');
    assert.match(series.hangoutLink ?? '', /^https:\/\/meet\.google\.com\//);
    const got = (await alice.events.get({ calendarId: 'primary', eventId: series.id as string })).data;
    assert.deepEqual(got.recurrence, ['RRULE:FREQ=WEEKLY;COUNT=10']);
    const notModified = await alice.events.get({ calendarId: 'primary', eventId: series.id as string }, { headers: { 'If-None-Match': got.etag as string } });
    assert.equal(notModified.status, 304);

    const instances = (await alice.events.instances({ calendarId: 'primary', eventId: series.id as string })).data;
    assert.equal(instances.items?.length, 10);
    const second = instances.items[1];
    assert.equal(second.id, `${String(series.id)}_20260309T080000Z`);
    assert.equal(second.recurringEventId, series.id);
    const moved = (await alice.events.patch({ calendarId: 'primary', eventId: second.id, requestBody: { summary: 'Weekly (moved)' } })).data;
    assert.equal(moved.originalStartTime?.dateTime, '2026-03-09T09:00:00+01:00');
    const replaced = (await alice.events.update({ calendarId: 'primary', eventId: series.id as string, requestBody: { ...got, description: 'agenda' } })).data;
    assert.equal(replaced.description, 'agenda');
    const singles = (await alice.events.list({ calendarId: 'primary', singleEvents: true, orderBy: 'startTime', timeMin: '2026-03-01T00:00:00Z', timeMax: '2026-03-20T00:00:00Z' })).data;
    assert.deepEqual(singles.items?.map((item) => item.summary), ['Weekly', 'Weekly (moved)', 'Weekly']);

    const imported = (await alice.events.import({ calendarId: 'primary', requestBody: { iCalUID: 'imported-1@example.org', summary: 'Imported', start: { date: '2026-03-04' }, end: { date: '2026-03-05' }, organizer: { email: 'someone@example.org' } } })).data;
    assert.equal(imported.iCalUID, 'imported-1@example.org');
    assert.equal(imported.organizer?.email, 'someone@example.org');
    const byUid = (await alice.events.list({ calendarId: 'primary', iCalUID: 'imported-1@example.org' })).data;
    assert.deepEqual(byUid.items?.map((item) => item.id), [imported.id]);

    const quick = (await alice.events.quickAdd({ calendarId: 'primary', text: 'Lunch with Ann tomorrow 12:30-13:15 at Cafe Luna' })).data;
    assert.equal(quick.summary, 'Lunch with Ann');
    assert.equal(quick.location, 'Cafe Luna');
    const relocated = (await alice.events.move({ calendarId: 'primary', eventId: quick.id as string, destination: team })).data;
    assert.equal(relocated.organizer?.email, team);
    await rejectsWith(alice.events.get({ calendarId: team, eventId: 'nosuchevent' }), 404);
    assert.equal((await alice.events.delete({ calendarId: 'primary', eventId: imported.id as string })).status, 204);
    await rejectsWith(alice.events.list({ calendarId: 'primary', orderBy: 'startTime' }), 400);

    const busy = (await alice.freebusy.query({ requestBody: { timeMin: '2026-03-02T00:00:00Z', timeMax: '2026-03-03T00:00:00Z', items: [{ id: 'primary' }, { id: 'carol@example.com' }] } })).data;
    assert.equal(busy.kind, 'calendar#freeBusy');
    // A calendar asked about may be missing from the answer.
    const calendars: Partial<Record<string, calendar_v3.Schema$FreeBusyCalendar>> | null | undefined = busy.calendars;
    assert.deepEqual(calendars?.primary?.busy, [{ start: '2026-03-02T08:00:00Z', end: '2026-03-02T08:30:00Z' }]);
    assert.deepEqual(calendars['carol@example.com']?.errors, [{ domain: 'global', reason: 'notFound' }]);

    assert.equal((await alice.calendars.clear({ calendarId: 'primary' })).status, 204);
    assert.equal((await alice.events.list({ calendarId: 'primary' })).data.items?.length, 0);
  });
});
