/**
 * Reads an iCalendar (.ics) file into the event bodies events.import takes: each VEVENT with its UID as iCalUID,
 * its times (dates for all-day, wall clock + TZID for zoned times, UTC as is, floating times in the user's zone),
 * and its RRULE/EXDATE/RDATE lines as recurrence. ical.js parses; no vscode here.
 */
import ICAL from 'ical.js';
import { english, type Translate } from '../../shared/l10n';
import type { EventDateTime, EventWrite } from '../../shared/schemas/calendar';

export type ImportableEvent = EventWrite & { iCalUID: string };

export interface IcsReadResult {
  readonly events: ImportableEvent[];
  /** VEVENTs left out, with why (no UID, no start). */
  readonly skipped: string[];
}

type IcalTime = InstanceType<typeof ICAL.Time>;

const pad = (value: number): string => String(value).padStart(2, '0');

function timeOf(time: IcalTime, fallbackZone: string): EventDateTime {
  const date = `${String(time.year).padStart(4, '0')}-${pad(time.month)}-${pad(time.day)}`;
  if (time.isDate) return { date };
  const wall = `${date}T${pad(time.hour)}:${pad(time.minute)}:${pad(time.second)}`;
  const tzid = time.zone?.tzid;
  if (tzid === 'UTC' || time.zone === ICAL.Timezone.utcTimezone) return { dateTime: `${wall}Z` };
  if (tzid && tzid !== 'floating') return { dateTime: wall, timeZone: tzid };
  return { dateTime: wall, timeZone: fallbackZone };
}

/** `t` words why an event was left out (`skipped`). */
export function readIcs(text: string, fallbackZone: string, t: Translate = english): IcsReadResult {
  const root = new ICAL.Component(ICAL.parse(text));
  const events: ImportableEvent[] = [];
  const skipped: string[] = [];
  for (const component of root.getAllSubcomponents('vevent')) {
    const event = new ICAL.Event(component);
    const label = event.summary || t('(untitled)');
    if (!event.uid) {
      skipped.push(t('{0}: no UID', label));
      continue;
    }
    if (!event.startDate) {
      skipped.push(t('{0}: no start', label));
      continue;
    }
    // Exceptions of a series (RECURRENCE-ID) are imported by Google together with their series; Desk skips them.
    if (component.hasProperty('recurrence-id')) {
      skipped.push(t('{0}: a changed instance of a series', label));
      continue;
    }
    const start = timeOf(event.startDate, fallbackZone);
    const end = event.endDate ? timeOf(event.endDate, fallbackZone) : start;
    const recurrence = ['rrule', 'exdate', 'rdate'].flatMap((name) => component.getAllProperties(name).map((property) => property.toICALString()));
    const body: ImportableEvent = { iCalUID: event.uid, summary: event.summary || undefined, start, end };
    if (event.location) body.location = event.location;
    if (event.description) body.description = event.description;
    if (recurrence.length) body.recurrence = recurrence;
    const attendees = event.attendees.map((attendee) => String(attendee.getFirstValue()).replace(/^mailto:/i, '')).filter((email) => email.includes('@'));
    if (attendees.length) body.attendees = attendees.map((email) => ({ email }));
    events.push(body);
  }
  return { events, skipped };
}
