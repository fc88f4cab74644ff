/**
 * Demo calendars for `--seed demo`, laid around the moment of seeding in each demo user's own zone, so the demo looks
 * lived-in whatever the day and hour: something later today (the first thing tomorrow morning when it is late), an
 * event on every day of the default Agenda range (a daily series with one moved and one cancelled instance in it),
 * an all-day event, past events, a weekly meeting with attendees and a Meet link, and a "Team" calendar alice owns and
 * shares with bob as a reader.
 */
import type { EventInput } from '../../shared/schemas/calendar';
import { EmulatorUser, findUser } from '../identity/users';
import { instanceId } from './events/instances';
import type { CalendarService } from './service';
import { DAY_MS, formatDate, HOUR_MS, MINUTE_MS, utcToWall, wallToUtc } from './time';

/** The demo's days, counted from the user's today (0) in the user's zone. */
export interface DemoDays {
  readonly zone: string;
  /** `YYYY-MM-DD` of today + `offset` days in the zone. */
  day(offset: number): string;
  /** A wall time ("HH:MM") on that day, as an event start or end in the user's zone. */
  at(offset: number, time: string): { dateTime: string; timeZone: string };
  /** The instant of that wall time (instance ids of a series are made from it). */
  instant(offset: number, time: string): number;
  /** Start of the event that is "later today": at least 45 minutes from now, on the half hour, not before 08:00; 08:00 tomorrow once it is too late for today. */
  readonly soon: { offset: number; time: string };
}

/** The latest start of "later today": a 45-minute event still ends before 23:00. */
const LATEST_SOON_MS = 22 * HOUR_MS + 15 * MINUTE_MS;
const MORNING_MS = 8 * HOUR_MS;

export function demoDays(zone: string, now: number): DemoDays {
  const wallNow = utcToWall(zone, now);
  const today = Math.floor(wallNow / DAY_MS) * DAY_MS;
  const day = (offset: number): string => formatDate(today + offset * DAY_MS);
  const halfHour = 30 * MINUTE_MS;
  const earliest = Math.max(Math.ceil((wallNow + 45 * MINUTE_MS) / halfHour) * halfHour, today + MORNING_MS);
  const soonWall = earliest <= today + LATEST_SOON_MS ? earliest : today + DAY_MS + MORNING_MS;
  const soonOffset = Math.floor(soonWall / DAY_MS) - Math.floor(today / DAY_MS);
  const soonTime = new Date(soonWall).toISOString().slice(11, 16);
  return {
    zone,
    day,
    at: (offset, time) => ({ dateTime: `${day(offset)}T${time}:00`, timeZone: zone }),
    instant: (offset, time) => wallToUtc(zone, Date.parse(`${day(offset)}T${time}:00Z`)),
    soon: { offset: soonOffset, time: soonTime },
  };
}

/** "HH:MM" plus `minutes`, for the end of an event that starts at `time` (the demo's events never cross midnight). */
function plus(time: string, minutes: number): string {
  const [hours, mins] = time.split(':').map(Number) as [number, number];
  const total = Math.min(hours * 60 + mins + minutes, 23 * 60 + 59);
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

function user(email: string): EmulatorUser {
  const found = findUser(email);
  if (!found) throw new Error(`no demo user ${email}`);
  return found;
}

/** A daily series from a week ago: tomorrow's instance moved half an hour later, the one `cancelledOn` days ahead cancelled. */
interface DailySeries {
  summary: string;
  time: string;
  minutes: number;
  cancelledOn: number;
}

export function seedCalendarDemo(service: CalendarService, now: number): void {
  const alice = user('alice@example.com');
  const bob = user('bob@example.com');
  const carol = user('carol@example.com');
  const add = (who: EmulatorUser, calendarId: string, event: EventInput): string =>
    service.events.insert(who, calendarId, event, { conferenceDataVersion: 1 }).id;
  const daysOf = (who: EmulatorUser): DemoDays => demoDays(service.settings.timeZoneOf(who.id), now);

  const addDaily = (who: EmulatorUser, days: DemoDays, series: DailySeries): void => {
    const id = add(who, who.email, { summary: series.summary, start: days.at(-7, series.time), end: days.at(-7, plus(series.time, series.minutes)), recurrence: ['RRULE:FREQ=DAILY'] });
    const moved = plus(series.time, 30);
    service.events.update(who, who.email, instanceId(id, days.instant(1, series.time), false), { start: days.at(1, moved), end: days.at(1, plus(moved, series.minutes)), summary: `${series.summary} (moved)` }, 'patch', { conferenceDataVersion: 0 });
    service.events.delete(who, who.email, instanceId(id, days.instant(series.cancelledOn, series.time), false));
  };
  const addSoon = (who: EmulatorUser, days: DemoDays, event: Omit<EventInput, 'start' | 'end'>): void => {
    const { offset, time } = days.soon;
    add(who, who.email, { ...event, start: days.at(offset, time), end: days.at(offset, plus(time, 45)) });
  };

  // ---- alice (Europe/Berlin)
  const a = daysOf(alice);
  addDaily(alice, a, { summary: 'Morning check-in', time: '09:00', minutes: 15, cancelledOn: 3 });
  addSoon(alice, a, { summary: 'Coffee with Bob', location: 'Kitchen' });
  const planning = add(alice, alice.email, {
    summary: 'Weekly planning',
    description: 'Priorities for the week. Bring your top three.',
    start: a.at(-12, '10:00'),
    end: a.at(-12, '10:45'),
    recurrence: ['RRULE:FREQ=WEEKLY'],
    attendees: [{ email: alice.email, responseStatus: 'accepted' }, { email: bob.email }, { email: carol.email }],
  });
  // This week's planning moved an hour later; the one in two weeks is cancelled (a holiday).
  service.events.update(alice, alice.email, instanceId(planning, a.instant(2, '10:00'), false), { start: a.at(2, '11:00'), end: a.at(2, '11:45'), summary: 'Weekly planning (moved)' }, 'patch', { conferenceDataVersion: 0 });
  service.events.delete(alice, alice.email, instanceId(planning, a.instant(16, '10:00'), false));
  add(alice, alice.email, { summary: 'Coffee with Carol', location: 'Cafe Luna', start: a.at(-1, '16:00'), end: a.at(-1, '16:30') });
  add(alice, alice.email, { summary: 'Focus time', start: a.at(1, '10:00'), end: a.at(1, '12:00'), eventType: 'focusTime', transparency: 'opaque' });
  add(alice, alice.email, { summary: 'Lunch with Ann', location: 'Cafe Luna', start: a.at(1, '12:30'), end: a.at(1, '13:15') });
  add(alice, alice.email, {
    summary: 'Design review: Desk calendar view',
    description: 'Walk through the agenda tree and the emulator.',
    start: a.at(2, '15:00'),
    end: a.at(2, '16:00'),
    attendees: [{ email: alice.email, responseStatus: 'accepted' }, { email: bob.email, responseStatus: 'accepted' }, { email: carol.email, responseStatus: 'tentative', optional: true }],
    conferenceData: { createRequest: { requestId: 'seed-design-review', conferenceSolutionKey: { type: 'hangoutsMeet' } } },
    reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 15 }] },
  });
  add(alice, alice.email, { summary: 'Conference: Local-First Day', location: 'Berlin', start: { date: a.day(3) }, end: { date: a.day(4) }, transparency: 'transparent' });
  add(alice, alice.email, { summary: 'Dentist', location: 'Dr. Weber, Torstraße 12', start: a.at(4, '08:30'), end: a.at(4, '09:15'), visibility: 'private' });

  // ---- the shared Team calendar
  const team = service.calendars.insert(alice, { summary: 'Team', description: 'Releases, retros and time off.', timeZone: a.zone });
  service.acl.insert(alice, team.id, { role: 'reader', scope: { type: 'user', value: bob.email } });
  service.calendarList.insert(bob, { id: team.id, colorId: '9' }, false);
  add(alice, team.id, { summary: 'Release 0.1', start: { date: a.day(4) }, end: { date: a.day(5) } });
  add(alice, team.id, { summary: 'Sprint retro', start: a.at(-10, '14:00'), end: a.at(-10, '15:00'), recurrence: ['RRULE:FREQ=WEEKLY;INTERVAL=2'] });

  // ---- bob (America/New_York)
  const b = daysOf(bob);
  addDaily(bob, b, { summary: 'Morning run', time: '07:00', minutes: 30, cancelledOn: 2 });
  addSoon(bob, b, { summary: 'Review pull requests' });
  add(bob, bob.email, { summary: 'Stand-up', start: b.at(-7, '09:30'), end: b.at(-7, '09:45'), recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR'] });
  add(bob, bob.email, { summary: 'Dinner with Sam', start: b.at(-1, '19:00'), end: b.at(-1, '21:00') });
  add(bob, bob.email, { summary: '1:1 with Alice', start: b.at(3, '10:00'), end: b.at(3, '10:30'), attendees: [{ email: bob.email, responseStatus: 'accepted' }, { email: alice.email, responseStatus: 'accepted' }] });
  add(bob, bob.email, { summary: 'Gym', start: b.at(2, '18:00'), end: b.at(2, '19:00'), transparency: 'opaque' });
  add(bob, bob.email, { summary: 'Day off', start: { date: b.day(5) }, end: { date: b.day(6) }, transparency: 'transparent' });

  // ---- carol (Asia/Tokyo)
  const c = daysOf(carol);
  addDaily(carol, c, { summary: 'Daily review', time: '17:00', minutes: 15, cancelledOn: 2 });
  addSoon(carol, c, { summary: 'Call with the Berlin office' });
  add(carol, carol.email, { summary: 'Lunch with Ken', start: c.at(-2, '12:00'), end: c.at(-2, '13:00') });
  add(carol, carol.email, { summary: 'Quarterly planning', start: c.at(2, '10:00'), end: c.at(2, '12:00'), location: 'Tokyo office, room 4' });
  add(carol, carol.email, { summary: 'Team offsite', start: { date: c.day(6) }, end: { date: c.day(7) } });
}
