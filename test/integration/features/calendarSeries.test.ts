// The Agenda keeps recurring events as series and expands the window it shows itself (issue 34: an endless series
// listed with singleEvents is five years of instances). What it expands must be what Google's singleEvents listing
// gives for that window: the same ids, starts and ends, across DST, with moved and cancelled instances, EXDATE,
// RDATE, UNTIL and COUNT. Checked against the emulator over HTTP, on a clock set to a fixed moment.
import * as assert from 'node:assert/strict';
import { CalendarClient } from '../../../src/api/calendar';
import { HttpClient } from '../../../src/api/http';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/emulator';
import { EventStore } from '../../../src/features/calendar/sync/eventStore';
import type { CalendarEvent, EventWrite } from '../../../src/shared/schemas/calendar';

/** Sunday 18 October 2026, 12:00 UTC: the window ahead crosses the end of summer time in Europe (25 Oct) and the US (1 Nov). */
const NOW = Date.parse('2026-10-18T12:00:00Z');
const DAY = 86_400_000;

describe('Calendar series expanded by Desk for the Agenda (against the emulator\'s singleEvents listing)', function () {
  this.timeout(60_000);
  let emulator: RunningEmulator;
  let api: CalendarClient;
  let calendarId: string;

  before(async () => {
    emulator = await startEmulator({ port: 0, now: () => NOW });
    const token = emulator.tokenFor('alice@example.com').accessToken;
    api = new CalendarClient(new HttpClient({ rootUrl: () => emulator.url, token: async () => token }));
    calendarId = (await api.insertCalendar({ summary: 'Series', timeZone: 'Europe/Berlin' })).id;
  });

  after(async () => {
    await emulator.close();
  });

  const shape = (event: CalendarEvent): string => JSON.stringify([event.id, event.recurringEventId ?? null, event.summary, Date.parse(event.start?.dateTime ?? `${String(event.start?.date)}T00:00:00Z`), Date.parse(event.end?.dateTime ?? `${String(event.end?.date)}T00:00:00Z`)]);

  /** Desk's events of the window [NOW, NOW + 30 days) next to the emulator's singleEvents listing of it. */
  async function compare(): Promise<{ desk: string[]; google: string[] }> {
    const store = new EventStore({ api: () => api, onChange: () => undefined, now: () => NOW, timeZone: () => 'Europe/Berlin' });
    await store.ensureLoaded(calendarId);
    const from = NOW;
    const to = NOW + 30 * DAY;
    const startOf = (event: CalendarEvent): number => Date.parse(event.start?.dateTime ?? `${String(event.start?.date)}T00:00:00Z`);
    const desk = store.events(calendarId).filter((event) => startOf(event) >= from && startOf(event) < to).map(shape).sort();
    const google: string[] = [];
    for await (const event of api.allEvents(calendarId, { singleEvents: true, timeMin: new Date(from - DAY).toISOString(), timeMax: new Date(to + DAY).toISOString() })) {
      if (startOf(event) >= from && startOf(event) < to) google.push(shape(event));
    }
    return { desk, google: google.sort() };
  }

  async function insert(body: EventWrite): Promise<CalendarEvent> {
    return api.insertEvent(calendarId, body);
  }

  it('expands zoned weekly, daily, monthly and all-day series as Google lists them, across DST', async () => {
    await insert({ summary: 'Standup Berlin', start: { dateTime: '2026-09-01T09:00:00', timeZone: 'Europe/Berlin' }, end: { dateTime: '2026-09-01T09:15:00', timeZone: 'Europe/Berlin' }, recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR'] });
    await insert({ summary: 'NY sync', start: { dateTime: '2026-10-01T10:30:00', timeZone: 'America/New_York' }, end: { dateTime: '2026-10-01T11:00:00', timeZone: 'America/New_York' }, recurrence: ['RRULE:FREQ=DAILY;INTERVAL=2;UNTIL=20261110T000000Z', 'EXDATE;TZID=America/New_York:20261021T103000', 'RDATE;TZID=America/New_York:20261024T150000'] });
    await insert({ summary: 'Last Friday', start: { dateTime: '2026-01-30T16:00:00Z', timeZone: 'UTC' }, end: { dateTime: '2026-01-30T17:00:00Z', timeZone: 'UTC' }, recurrence: ['RRULE:FREQ=MONTHLY;BYDAY=-1FR'] });
    await insert({ summary: 'Holiday week', start: { date: '2026-10-19' }, end: { date: '2026-10-20' }, recurrence: ['RRULE:FREQ=DAILY;COUNT=5'] });
    await insert({ summary: 'Fortnightly all-day', start: { date: '2026-10-02' }, end: { date: '2026-10-04' }, recurrence: ['RRULE:FREQ=WEEKLY;INTERVAL=2', 'EXDATE;VALUE=DATE:20261030'] });
    const { desk, google } = await compare();
    assert.ok(google.length > 30, `the emulator listed ${google.length}`);
    assert.deepEqual(desk, google);
  });

  it('shows a moved instance where it moved and leaves out a cancelled one, before and after a sync', async () => {
    const series = await insert({ summary: 'Retro', start: { dateTime: '2026-10-20T14:00:00', timeZone: 'Europe/Berlin' }, end: { dateTime: '2026-10-20T15:00:00', timeZone: 'Europe/Berlin' }, recurrence: ['RRULE:FREQ=WEEKLY'] });
    const instances = (await api.listInstances(calendarId, series.id, { maxResults: 5 })).items;
    const first = instances.at(0);
    const second = instances.at(1);
    const third = instances.at(2);
    assert.ok(first && second && third);
    await api.patchEvent(calendarId, second.id, { start: { dateTime: '2026-10-28T16:00:00', timeZone: 'Europe/Berlin' }, end: { dateTime: '2026-10-28T17:00:00', timeZone: 'Europe/Berlin' }, summary: 'Retro (moved)' });
    await api.deleteEvent(calendarId, third.id);
    let compared = await compare();
    assert.deepEqual(compared.desk, compared.google);
    assert.ok(compared.desk.some((row) => row.includes('Retro (moved)')));

    // A store loaded before the changes catches up through its sync token (series stay series on the wire).
    const store = new EventStore({ api: () => api, onChange: () => undefined, now: () => NOW, timeZone: () => 'Europe/Berlin' });
    await store.ensureLoaded(calendarId);
    const fourth = instances[3];
    assert.ok(fourth);
    await api.deleteEvent(calendarId, fourth.id);
    await api.patchEvent(calendarId, series.id, { summary: 'Retrospective' });
    await store.sync(calendarId);
    const ids = store.events(calendarId).map((event) => event.id);
    assert.ok(!ids.includes(fourth.id) && !ids.includes(third.id), 'a cancelled instance is listed');
    assert.ok(store.events(calendarId).some((event) => event.recurringEventId === series.id && event.summary === 'Retrospective'));
    compared = await compare();
    assert.deepEqual(compared.desk, compared.google);
  });

  it('keeps the series, not its instances: an endless series costs one event in memory and on the wire', async () => {
    await insert({ summary: 'Every 15 minutes', start: { dateTime: '2026-10-01T08:00:00Z', timeZone: 'Asia/Kolkata' }, end: { dateTime: '2026-10-01T08:05:00Z', timeZone: 'Asia/Kolkata' }, recurrence: ['RRULE:FREQ=MINUTELY;INTERVAL=15'] });
    const listed: number[] = [];
    const counting: Pick<CalendarClient, 'listEvents'> = { listEvents: async (id, options) => { const page = await api.listEvents(id, options); listed.push(page.items.length); return page; } };
    const store = new EventStore({ api: () => counting, onChange: () => undefined, now: () => NOW, timeZone: () => 'Europe/Berlin' });
    await store.ensureLoaded(calendarId);
    assert.ok(listed.reduce((sum, count) => sum + count, 0) < 30, `listed ${listed.join('+')} events`);
    const quarterHours = store.events(calendarId).filter((event) => event.summary === 'Every 15 minutes');
    // From two days before now (three with the margin) to 32 days ahead, four an hour.
    assert.ok(quarterHours.length >= 33 * 96 && quarterHours.length <= 36 * 96, `${quarterHours.length} instances`);
    const { desk, google } = await compare();
    assert.deepEqual(desk, google);
  });
});
