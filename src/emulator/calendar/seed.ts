/**
 * Demo calendars for `--seed demo`, relative to the seed time: a realistic week on each demo user's primary calendar
 * (a weekly meeting with one moved and one cancelled instance, an all-day event, a meeting with attendees and a Meet
 * link, focus time), and a "Team" calendar alice owns and shares with bob as a reader.
 */
import type { EventInput } from '../../shared/schemas/calendar';
import { EmulatorUser, findUser } from '../auth/users';
import { instanceId } from './events/instances';
import type { CalendarService } from './service';
import { DAY_MS, formatDate, utcToWall, wallToUtc } from './time';

interface Week {
  /** `YYYY-MM-DD` of the Monday `offset` days from this week's Monday. */
  day(offset: number): string;
  /** A local time on that day, as an event start or end in the user's zone. */
  at(offset: number, time: string): { dateTime: string; timeZone: string };
}

function weekOf(zone: string, now: number): Week {
  const today = Math.floor(utcToWall(zone, now) / DAY_MS) * DAY_MS;
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS;
  const day = (offset: number): string => formatDate(monday + offset * DAY_MS);
  return { day, at: (offset, time) => ({ dateTime: `${day(offset)}T${time}:00`, timeZone: zone }) };
}

function user(email: string): EmulatorUser {
  const found = findUser(email);
  if (!found) throw new Error(`no demo user ${email}`);
  return found;
}

export function seedCalendarDemo(service: CalendarService, now: number): void {
  const alice = user('alice@example.com');
  const bob = user('bob@example.com');
  const carol = user('carol@example.com');
  const add = (who: EmulatorUser, calendarId: string, event: EventInput): string =>
    service.events.insert(who, calendarId, event, { conferenceDataVersion: 1 }).id;

  // ---- alice (Europe/Berlin)
  const aliceZone = service.settings.timeZoneOf(alice.id);
  const a = weekOf(aliceZone, now);
  const planning = add(alice, alice.email, {
    summary: 'Weekly planning',
    description: 'Priorities for the week. Bring your top three.',
    start: a.at(-7, '10:00'),
    end: a.at(-7, '10:45'),
    recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO'],
    attendees: [{ email: alice.email, responseStatus: 'accepted' }, { email: bob.email }, { email: carol.email }],
  });
  // This week's planning moved an hour later; the one in two weeks is cancelled (a holiday).
  const thisMonday = wallToUtc(aliceZone, Date.parse(`${a.day(0)}T10:00:00Z`));
  const inTwoWeeks = wallToUtc(aliceZone, Date.parse(`${a.day(14)}T10:00:00Z`));
  service.events.update(alice, alice.email, instanceId(planning, thisMonday, false), { start: a.at(0, '11:00'), end: a.at(0, '11:45'), summary: 'Weekly planning (moved)' }, 'patch', { conferenceDataVersion: 0 });
  service.events.delete(alice, alice.email, instanceId(planning, inTwoWeeks, false));
  add(alice, alice.email, { summary: 'Focus time', start: a.at(1, '09:00'), end: a.at(1, '11:00'), eventType: 'focusTime', transparency: 'opaque' });
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
  const team = service.calendars.insert(alice, { summary: 'Team', description: 'Releases, retros and time off.', timeZone: aliceZone });
  service.acl.insert(alice, team.id, { role: 'reader', scope: { type: 'user', value: bob.email } });
  service.calendarList.insert(bob, { id: team.id, colorId: '9' }, false);
  add(alice, team.id, { summary: 'Release 0.1', start: { date: a.day(4) }, end: { date: a.day(5) } });
  add(alice, team.id, { summary: 'Sprint retro', start: a.at(4, '14:00'), end: a.at(4, '15:00'), recurrence: ['RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=FR'] });

  // ---- bob (America/New_York)
  const b = weekOf(service.settings.timeZoneOf(bob.id), now);
  add(bob, bob.email, { summary: 'Stand-up', start: b.at(0, '09:30'), end: b.at(0, '09:45'), recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR'] });
  add(bob, bob.email, { summary: '1:1 with Alice', start: b.at(3, '10:00'), end: b.at(3, '10:30'), attendees: [{ email: bob.email, responseStatus: 'accepted' }, { email: alice.email, responseStatus: 'accepted' }] });
  add(bob, bob.email, { summary: 'Gym', start: b.at(2, '18:00'), end: b.at(2, '19:00'), transparency: 'opaque' });

  // ---- carol (Asia/Tokyo)
  const c = weekOf(service.settings.timeZoneOf(carol.id), now);
  add(carol, carol.email, { summary: 'Quarterly planning', start: c.at(2, '10:00'), end: c.at(2, '12:00'), location: 'Tokyo office, room 4' });
}
