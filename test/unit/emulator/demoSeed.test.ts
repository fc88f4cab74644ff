// The demo seeded at any moment reads as lived-in for every demo user, as Desk shows it: the emulator is started with
// its clock set to each instant of a matrix (every weekday, 00:05 and 23:55, the DST nights of Europe/Berlin and
// America/New_York, New Year's Eve, 29 February), its events and tasks are read over HTTP as a client reads them, and
// the Agenda's grouping, the next-event status item and the due-date phrases are computed from them as the views do.
import * as assert from 'node:assert/strict';
import { DeskClock } from '../../../src/core/text/clock';
import { startEmulator, RunningEmulator } from '../../../src/emulator/emulator';
import { addDays, dateKey, startOfDay } from '../../../src/features/calendar/time';
import { groupByDay, occurrenceOf, Occurrence } from '../../../src/features/calendar/tree/model';
import { nextOccurrence } from '../../../src/features/calendar/status/upcoming';
import { taskDescription } from '../../../src/features/tasks/tree/presentation';
import { eventsPageSchema, type CalendarEvent } from '../../../src/shared/schemas/calendar';
import { taskListsPageSchema, tasksPageSchema, type Task } from '../../../src/shared/schemas/tasks';

const AGENDA_DAYS = 7;
const DEMO = [
  { email: 'alice@example.com', zone: 'Europe/Berlin' },
  { email: 'bob@example.com', zone: 'America/New_York' },
  { email: 'carol@example.com', zone: 'Asia/Tokyo' },
] as const;

/** The instants of the matrix, as UTC instants with a name that says what they are. */
const MATRIX: ReadonlyArray<{ name: string; at: string }> = [
  { name: 'Monday 10:00 Berlin', at: '2026-11-23T09:00:00Z' },
  { name: 'Tuesday 10:00 Berlin', at: '2026-11-24T09:00:00Z' },
  { name: 'Wednesday 10:00 Berlin', at: '2026-11-25T09:00:00Z' },
  { name: 'Thursday 10:00 Berlin', at: '2026-11-26T09:00:00Z' },
  { name: 'Friday 10:00 Berlin', at: '2026-11-27T09:00:00Z' },
  { name: 'Saturday 10:00 Berlin', at: '2026-11-28T09:00:00Z' },
  { name: 'Sunday 23:40 Berlin', at: '2026-11-29T22:40:00Z' },
  { name: 'Monday 00:05 Berlin', at: '2026-11-29T23:05:00Z' },
  { name: 'Sunday 23:55 Berlin', at: '2026-11-29T22:55:00Z' },
  { name: 'the night Berlin springs forward (Sun 29 Mar, 01:30)', at: '2026-03-29T00:30:00Z' },
  { name: 'the night Berlin falls back (Sun 25 Oct, 02:30 CEST)', at: '2026-10-25T00:30:00Z' },
  { name: 'the night New York springs forward (Sun 8 Mar, 01:30 EST)', at: '2026-03-08T06:30:00Z' },
  { name: 'the night New York falls back (Sun 1 Nov, 01:30 EDT)', at: '2026-11-01T05:30:00Z' },
  { name: '31 December 23:50 Berlin', at: '2026-12-31T22:50:00Z' },
  { name: '29 February 2028 12:00 Tokyo', at: '2028-02-29T03:00:00Z' },
];

async function get(emulator: RunningEmulator, email: string, route: string): Promise<unknown> {
  const response = await fetch(`${emulator.url}${route}`, { headers: { Authorization: `Bearer ${emulator.tokenFor(email).accessToken}` } });
  assert.equal(response.status, 200, `${route}: ${await response.clone().text()}`);
  return response.json();
}

async function events(emulator: RunningEmulator, email: string, query: Record<string, string>): Promise<CalendarEvent[]> {
  const found: CalendarEvent[] = [];
  let pageToken: string | undefined;
  do {
    const params = new URLSearchParams({ ...query, maxResults: '2500', ...(pageToken ? { pageToken } : {}) });
    const page = eventsPageSchema.parse(await get(emulator, email, `/calendar/v3/calendars/primary/events?${params.toString()}`));
    found.push(...page.items);
    pageToken = page.nextPageToken ?? undefined;
  } while (pageToken);
  return found;
}

async function tasksOf(emulator: RunningEmulator, email: string): Promise<Task[]> {
  const lists = taskListsPageSchema.parse(await get(emulator, email, '/tasks/v1/users/@me/lists')).items ?? [];
  const all: Task[] = [];
  for (const list of lists) all.push(...(tasksPageSchema.parse(await get(emulator, email, `/tasks/v1/lists/${list.id}/tasks?maxResults=100`)).items ?? []));
  return all;
}

describe('the demo seed at any moment (clock matrix)', function () {
  this.timeout(60000);

  for (const { name, at } of MATRIX) {
    describe(name, () => {
      const now = Date.parse(at);
      let emulator: RunningEmulator;
      before(async () => {
        emulator = await startEmulator({ seed: 'demo', now: () => now });
      });
      after(async () => emulator.close());

      for (const { email, zone } of DEMO) {
        it(`${email}: later today (or first thing tomorrow), every day of the Agenda, a series with a moved and a cancelled instance, all-day and past events`, async () => {
          const today = dateKey(now, zone);
          const windowEnd = startOfDay(addDays(today, AGENDA_DAYS), zone);
          const timeMin = new Date(now).toISOString();
          const timeMax = new Date(windowEnd).toISOString();
          const listed = await events(emulator, email, { singleEvents: 'true', timeMin, timeMax, showDeleted: 'true' });
          const occurrences = listed.map((event) => occurrenceOf('primary', event, zone)).filter((occurrence): occurrence is Occurrence => occurrence !== undefined);

          // The Agenda, as the view groups it: the first day is today or tomorrow, and each later day has events.
          const days = groupByDay(occurrences, { now, timeZone: zone, days: AGENDA_DAYS });
          assert.ok(days[0] && (days[0].relative === 'today' || days[0].relative === 'tomorrow'), `first Agenda day ${days[0]?.key}, today ${today}`);
          for (let offset = 1; offset < AGENDA_DAYS; offset++) {
            assert.ok(days.some((day) => day.key === addDays(today, offset)), `no event on ${addDays(today, offset)} (today ${today})`);
          }

          // Something later today; once that is too late, in the first hours of tomorrow.
          const timed = occurrences.filter((occurrence) => !occurrence.allDay && occurrence.start > now);
          const tomorrowMorning = startOfDay(addDays(today, 1), zone) + 9 * 3600_000;
          assert.ok(timed.some((occurrence) => occurrence.start < tomorrowMorning), 'nothing later today or early tomorrow');
          // The status item counts down to it when it is today.
          if (timed.some((occurrence) => dateKey(occurrence.start, zone) === today)) assert.ok(nextOccurrence(occurrences, now, zone), 'no next event in the status bar');

          // A series with a moved and a cancelled instance in the default Agenda range.
          const moved = listed.filter((event) => event.recurringEventId && event.status !== 'cancelled' && event.originalStartTime?.dateTime && event.start?.dateTime
            && Date.parse(event.originalStartTime.dateTime) !== Date.parse(event.start.dateTime));
          const cancelled = listed.filter((event) => event.recurringEventId && event.status === 'cancelled');
          assert.ok(moved.some((event) => cancelled.some((other) => other.recurringEventId === event.recurringEventId)), 'no series with both a moved and a cancelled instance in range');
          assert.ok(occurrences.some((occurrence) => occurrence.allDay), 'no all-day event in range');

          // Past events.
          const past = await events(emulator, email, { singleEvents: 'true', timeMin: new Date(now - 14 * 86_400_000).toISOString(), timeMax: timeMin });
          assert.ok(past.length > 0, 'no past events');

          // Recurrence expansion keeps the wall time across DST: every instance of a daily series starts at one local time.
          const series = listed.filter((event) => event.recurringEventId && event.status !== 'cancelled' && event.start?.dateTime && !moved.includes(event));
          const bySeries = new Map<string, Set<string>>();
          for (const event of series) {
            const wall = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(Date.parse(event.start?.dateTime ?? ''));
            bySeries.set(event.recurringEventId ?? '', (bySeries.get(event.recurringEventId ?? '') ?? new Set()).add(wall));
          }
          for (const [id, walls] of bySeries) assert.equal(walls.size, 1, `series ${id} starts at ${[...walls].join(', ')}`);
        });

        it(`${email}: tasks due today, tomorrow, this week and overdue, in the user's zone`, async () => {
          const open = (await tasksOf(emulator, email)).filter((task) => task.status === 'needsAction' && task.due);
          // The user's "today" as Desk's clock has it (the Calendar zone), whatever the machine's zone.
          const clock = new DeskClock('en-GB', undefined, zone, () => now);
          const phrases = open.map((task) => taskDescription(task, clock.today(), undefined, 'en-GB') ?? '');
          assert.ok(phrases.includes('today'), phrases.join(' | '));
          assert.ok(phrases.includes('tomorrow'), phrases.join(' | '));
          assert.ok(phrases.some((phrase) => phrase.endsWith('· overdue')), phrases.join(' | '));
          const today = dateKey(now, zone);
          const dues = open.map((task) => (task.due ?? '').slice(0, 10));
          assert.ok(dues.some((due) => due > addDays(today, 1) && due <= addDays(today, 6)), `nothing due later this week: ${dues.join(', ')}`);
        });
      }
    });
  }

  it('the user\'s today is the zone\'s date, not the machine\'s: Tokyo on Monday while UTC is still Sunday', () => {
    const previous = process.env.TZ;
    process.env.TZ = 'UTC';
    try {
      const now = Date.parse('2026-11-29T23:30:00Z');
      const tokyo = new DeskClock('en-GB', undefined, 'Asia/Tokyo', () => now);
      const due = (date: string): Task => ({ id: 't', title: 'x', status: 'needsAction', due: `${date}T00:00:00.000Z` }) as Task;
      assert.equal(taskDescription(due('2026-11-30'), tokyo.today(), undefined, 'en-GB'), 'today');
      assert.equal(taskDescription(due('2026-11-29'), tokyo.today(), undefined, 'en-GB'), 'yesterday · overdue');
      const utc = new DeskClock('en-GB', undefined, 'UTC', () => now);
      assert.equal(taskDescription(due('2026-11-29'), utc.today(), undefined, 'en-GB'), 'today');
    } finally {
      if (previous === undefined) delete process.env.TZ;
      else process.env.TZ = previous;
    }
  });
});
