import * as assert from 'node:assert/strict';
import { findUser, EmulatorUser } from '../../../../src/emulator/identity/users';
import { parseQuickAdd } from '../../../../src/emulator/calendar/events/quickAdd';
import { listEvents, EventListOptions } from '../../../../src/emulator/calendar/events/listing';
import { TOMBSTONE_RETENTION_MS } from '../../../../src/emulator/calendar/events/model';
import { mergePatch } from '../../../../src/emulator/calendar/events/rules';
import { mergeIntervals } from '../../../../src/emulator/calendar/freeBusy/model';
import { CalendarService } from '../../../../src/emulator/calendar/service';
import { ApiError } from '../../../../src/emulator/core/errors';
import { MemoryStore } from '../../../../src/emulator/store/store';

const alice = findUser('alice@example.com') as EmulatorUser;
const bob = findUser('bob@example.com') as EmulatorUser;
const carol = findUser('carol@example.com') as EmulatorUser;
const HOUR = 3600_000;

/** A calendar's part of a free/busy answer, missing when the answer has none for it. */
function calendarIn<T>(calendars: Record<string, T>, id: string): T | undefined {
  return calendars[id];
}

function rejects(action: () => unknown, code: number, reason?: string): void {
  assert.throws(action, (error: unknown) => {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.code, code, error.message);
    if (reason) assert.equal(error.reason, reason);
    return true;
  });
}

const LIST: EventListOptions = { maxResults: 250, showDeleted: false, singleEvents: false, eventTypes: [], privateExtendedProperty: [], sharedExtendedProperty: [] };

describe('calendar quickAdd parsing', () => {
  const now = Date.parse('2026-03-10T10:00:00Z');

  it('reads "Lunch with Ann tomorrow 12:30-13:15 at Cafe Luna" in the user\'s zone', () => {
    const parsed = parseQuickAdd('Lunch with Ann tomorrow 12:30-13:15 at Cafe Luna', 'Europe/Berlin', now, 60);
    assert.equal(parsed.summary, 'Lunch with Ann');
    assert.equal(parsed.location, 'Cafe Luna');
    assert.equal(new Date(parsed.startMs).toISOString(), '2026-03-11T11:30:00.000Z');
    assert.equal(new Date(parsed.endMs).toISOString(), '2026-03-11T12:15:00.000Z');
  });

  it('resolves "tomorrow" by the user\'s local date, not UTC\'s', () => {
    // 23:30 UTC on 10 March is already 11 March in Tokyo: tomorrow there is the 12th.
    const parsed = parseQuickAdd('Call tomorrow 9am', 'Asia/Tokyo', Date.parse('2026-03-10T23:30:00Z'), 60);
    assert.equal(new Date(parsed.startMs).toISOString(), '2026-03-12T00:00:00.000Z');
    assert.equal(parsed.endMs - parsed.startMs, HOUR, 'no end: the default event length');
  });

  it('makes a dated phrase without a time all-day, and one without a date the next hour', () => {
    const allDay = parseQuickAdd('Conference on March 12', 'Europe/Berlin', now, 60);
    assert.equal(allDay.allDay, true);
    assert.equal(allDay.summary, 'Conference');
    assert.equal(new Date(allDay.startMs).toISOString().slice(0, 10), '2026-03-12');
    const undated = parseQuickAdd('Call Bob', 'Europe/Berlin', Date.parse('2026-03-10T10:20:00Z'), 30);
    assert.equal(undated.summary, 'Call Bob');
    assert.equal(new Date(undated.startMs).toISOString(), '2026-03-10T11:00:00.000Z');
    assert.equal(undated.endMs - undated.startMs, 30 * 60_000);
  });
});

describe('calendar freeBusy', () => {
  it('merges overlapping and touching intervals', () => {
    assert.deepEqual(mergeIntervals([[5, 7], [1, 3], [2, 4], [4, 5], [9, 10], [10, 10]]), [[1, 7], [9, 10]]);
  });

  it('counts opaque, non-cancelled events and instances, and reports hidden calendars as notFound', () => {
    const calendar = new CalendarService(new MemoryStore(), () => Date.parse('2026-01-01T00:00:00Z'));
    const add = (body: Parameters<CalendarService['events']['insert']>[2]): string => calendar.events.insert(alice, 'primary', body, { conferenceDataVersion: 0 }).id;
    add({ summary: 'a', start: { dateTime: '2026-01-05T09:00:00Z' }, end: { dateTime: '2026-01-05T10:00:00Z' } });
    add({ summary: 'b', start: { dateTime: '2026-01-05T09:30:00Z' }, end: { dateTime: '2026-01-05T11:00:00Z' } });
    add({ summary: 'free', start: { dateTime: '2026-01-05T12:00:00Z' }, end: { dateTime: '2026-01-05T13:00:00Z' }, transparency: 'transparent' });
    const gone = add({ summary: 'gone', start: { dateTime: '2026-01-05T14:00:00Z' }, end: { dateTime: '2026-01-05T15:00:00Z' } });
    calendar.events.delete(alice, 'primary', gone);
    add({ summary: 'daily', start: { dateTime: '2026-01-05T16:00:00', timeZone: 'UTC' }, end: { dateTime: '2026-01-05T16:30:00', timeZone: 'UTC' }, recurrence: ['RRULE:FREQ=DAILY;COUNT=3'] });
    const result = calendar.freeBusy.query(bob, { timeMin: '2026-01-05T00:00:00Z', timeMax: '2026-01-06T17:00:00Z', items: [{ id: alice.email }] });
    assert.deepEqual(calendarIn(result.calendars, alice.email)?.errors, [{ domain: 'global', reason: 'notFound' }], 'bob has no access yet');
    calendar.acl.insert(alice, 'primary', { role: 'freeBusyReader', scope: { type: 'user', value: bob.email } });
    const busy = calendarIn(calendar.freeBusy.query(bob, { timeMin: '2026-01-05T00:00:00Z', timeMax: '2026-01-06T16:15:00Z', items: [{ id: alice.email }] }).calendars, alice.email)?.busy;
    assert.deepEqual(busy, [
      { start: '2026-01-05T09:00:00Z', end: '2026-01-05T11:00:00Z' },
      { start: '2026-01-05T16:00:00Z', end: '2026-01-05T16:30:00Z' },
      { start: '2026-01-06T16:00:00Z', end: '2026-01-06T16:15:00Z' },
    ]);
  });

  it('enforces the window and expansion limits', () => {
    const calendar = new CalendarService(new MemoryStore(), () => 0);
    rejects(() => calendar.freeBusy.query(alice, { timeMin: '2026-01-01T00:00:00Z', timeMax: '2026-05-01T00:00:00Z', items: [] }), 400, 'timeRangeTooLong');
    rejects(() => calendar.freeBusy.query(alice, { timeMin: '2026-01-02T00:00:00Z', timeMax: '2026-01-01T00:00:00Z', items: [] }), 400, 'timeRangeEmpty');
    const limited = calendar.freeBusy.query(alice, { timeMin: '2026-01-01T00:00:00Z', timeMax: '2026-01-02T00:00:00Z', calendarExpansionMax: 1, items: [{ id: 'primary' }, { id: carol.email }] });
    assert.deepEqual(calendarIn(limited.calendars, carol.email)?.errors, [{ domain: 'global', reason: 'tooManyCalendarsRequested' }]);
    const group = calendar.freeBusy.query(alice, { timeMin: '2026-01-01T00:00:00Z', timeMax: '2026-01-02T00:00:00Z', groupExpansionMax: 2, items: [{ id: 'team@example.com' }] });
    assert.deepEqual(group.groups?.['team@example.com']?.errors, [{ domain: 'global', reason: 'groupTooBig' }]);
  });
});

describe('calendar patch semantics and sync', () => {
  it('patches: given fields replace, absent stay, arrays replace whole, null clears', () => {
    const merged = mergePatch({ summary: 'a', location: 'x', attendees: [{ email: 'a@x' }, { email: 'b@x' }], reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 5 }] } },
      { summary: 'b', location: null, attendees: [{ email: 'c@x' }], reminders: { useDefault: true } });
    assert.deepEqual(merged, { summary: 'b', attendees: [{ email: 'c@x' }], reminders: { useDefault: true, overrides: [{ method: 'popup', minutes: 5 }] } });
  });

  it('pages a listing from the sorted listing its first page kept, and recomputes after a change or a minute', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const calendar = new CalendarService(new MemoryStore(), () => now);
    for (let index = 0; index < 30; index++) {
      const day = String(2 + (index % 25)).padStart(2, '0');
      calendar.events.insert(alice, 'primary', { summary: `e${index}`, start: { dateTime: `2026-02-${day}T${String(8 + (index % 5)).padStart(2, '0')}:00:00Z` }, end: { dateTime: `2026-02-${day}T20:00:00Z` } }, { conferenceDataVersion: 0 });
    }
    const options = { ...LIST, singleEvents: true, orderBy: 'startTime' as const, maxResults: 7 };
    const all = async (): Promise<string[]> => {
      const seen: string[] = [];
      let pageToken: string | undefined;
      do {
        const page = await listEvents(calendar, alice, 'primary', { ...options, ...(pageToken ? { pageToken } : {}) });
        seen.push(...page.views.map((view) => view.event.body.summary ?? ''));
        pageToken = page.nextPageToken;
      } while (pageToken);
      return seen;
    };
    const once = (await listEvents(calendar, alice, 'primary', { ...options, maxResults: 250 })).views.map((view) => view.event.body.summary ?? '');
    assert.deepEqual(await all(), once);
    // A change between pages is seen by the next page (the kept listing is dropped), as before.
    const first = await listEvents(calendar, alice, 'primary', options);
    calendar.events.insert(alice, 'primary', { summary: 'early', start: { dateTime: '2026-01-15T08:00:00Z' }, end: { dateTime: '2026-01-15T09:00:00Z' } }, { conferenceDataVersion: 0 });
    const second = await listEvents(calendar, alice, 'primary', { ...options, pageToken: first.nextPageToken });
    assert.equal(second.views[0]?.event.body.summary, first.views[6]?.event.body.summary, 'the new first event shifts the offsets by one');
    now += 61_000;
    assert.equal((await all()).length, 31);
  });

  it('answers 410 for a sync token older than purged deletions, and reports deletions before that', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const calendar = new CalendarService(new MemoryStore(), () => now);
    const event = calendar.events.insert(alice, 'primary', { summary: 'x', start: { date: '2026-01-02' }, end: { date: '2026-01-03' } }, { conferenceDataVersion: 0 });
    const token = (await listEvents(calendar, alice, 'primary', LIST)).nextSyncToken as string;
    calendar.events.delete(alice, 'primary', event.id);
    const changes = await listEvents(calendar, alice, 'primary', { ...LIST, syncToken: token });
    assert.deepEqual(changes.views.map((view) => [view.event.id, view.event.status]), [[event.id, 'cancelled']]);
    now += TOMBSTONE_RETENTION_MS + 2 * HOUR;
    await assert.rejects(listEvents(calendar, alice, 'primary', { ...LIST, syncToken: token }), (error: unknown) => error instanceof ApiError && error.code === 410 && error.reason === 'fullSyncRequired');
    const fresh = await listEvents(calendar, alice, 'primary', LIST);
    assert.equal(fresh.views.length, 0);
    assert.equal((await listEvents(calendar, alice, 'primary', { ...LIST, syncToken: fresh.nextSyncToken })).views.length, 0);
  });

  it('rejects special event types where Google does', () => {
    const calendar = new CalendarService(new MemoryStore(), () => 0);
    const team = calendar.calendars.insert(alice, { summary: 'Team' });
    const timed = { start: { dateTime: '2026-01-05T09:00:00Z' }, end: { dateTime: '2026-01-05T10:00:00Z' } };
    rejects(() => calendar.events.insert(alice, 'primary', { ...timed, eventType: 'fromGmail' }, { conferenceDataVersion: 0 }), 400);
    rejects(() => calendar.events.insert(alice, team.id, { ...timed, eventType: 'focusTime' }, { conferenceDataVersion: 0 }), 400);
    rejects(() => calendar.events.insert(alice, 'primary', { start: { date: '2026-01-05' }, end: { date: '2026-01-06' }, eventType: 'outOfOffice' }, { conferenceDataVersion: 0 }), 400);
    rejects(() => calendar.events.insert(alice, 'primary', { ...timed, eventType: 'workingLocation' }, { conferenceDataVersion: 0 }), 400);
    rejects(() => calendar.events.insert(alice, 'primary', { start: { date: '2026-01-05' }, end: { date: '2026-01-06' }, eventType: 'birthday' }, { conferenceDataVersion: 0 }), 400);
    const birthday = calendar.events.insert(alice, 'primary', { summary: 'Ann', start: { date: '2026-01-05' }, end: { date: '2026-01-06' }, recurrence: ['RRULE:FREQ=YEARLY'], eventType: 'birthday' }, { conferenceDataVersion: 0 });
    assert.equal(birthday.body.transparency, 'transparent');
    const focus = calendar.events.insert(alice, 'primary', { ...timed, eventType: 'focusTime' }, { conferenceDataVersion: 0 });
    rejects(() => calendar.events.move(alice, 'primary', focus.id, team.id), 400);
    rejects(() => calendar.events.update(alice, 'primary', focus.id, { eventType: 'default' }, 'patch', { conferenceDataVersion: 0 }), 400);
    rejects(() => calendar.events.import(alice, 'primary', { ...timed, iCalUID: 'x@y', eventType: 'outOfOffice' }, { conferenceDataVersion: 0 }), 400);
  });
});
