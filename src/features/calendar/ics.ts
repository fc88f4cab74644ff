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
  // ical.js leaves `zone` null on a time it was given none for (its typings say it is always set).
  const tzid = (time.zone as IcalTime['zone'] | null)?.tzid;
  if (tzid === 'UTC' || time.zone === ICAL.Timezone.utcTimezone) return { dateTime: `${wall}Z` };
  if (tzid && tzid !== 'floating') return { dateTime: wall, timeZone: tzid };
  return { dateTime: wall, timeZone: fallbackZone };
}

/**
 * The largest .ics file Desk reads: a calendar exported over years is a few megabytes; more than this is not a
 * calendar to import event by event (each event is one request).
 */
export const MAX_ICS_BYTES = 10 * 1024 * 1024;

/** Why a file of `size` bytes is not read at all, or undefined. */
export function icsSizeProblem(size: number, t: Translate = english): string | undefined {
  return size > MAX_ICS_BYTES ? t('it is {0} MB, more than the {1} MB Desk imports at once: split it into smaller files', Math.ceil(size / 1024 / 1024), MAX_ICS_BYTES / 1024 / 1024) : undefined;
}

/** How many events reasons are listed after "Left out:" before "and N more" (a message is one line). */
const LISTED_PROBLEMS = 5;

/** "a; b; c; d; e and 7 more": the first reasons, then how many others. */
export function listProblems(problems: readonly string[], t: Translate = english): string {
  const shown = problems.slice(0, LISTED_PROBLEMS).join('; ');
  return problems.length > LISTED_PROBLEMS ? t('{0} and {1} more', shown, problems.length - LISTED_PROBLEMS) : shown;
}

/**
 * `t` words why an event was left out (`skipped`). Throws, in words a user reads, when the file as a whole is not an
 * iCalendar file (empty, something else, or a line ical.js refuses): then nothing at all is imported.
 */
export function readIcs(text: string, fallbackZone: string, t: Translate = english): IcsReadResult {
  if (text.trim() === '') throw new Error(t('the file is empty'));
  if (!/^\uFEFF?\s*BEGIN:VCALENDAR/i.test(text)) throw new Error(t('it does not start with BEGIN:VCALENDAR'));
  const root = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const events: ImportableEvent[] = [];
  const skipped: string[] = [];
  for (const component of root.getAllSubcomponents('vevent')) {
    const event = new ICAL.Event(component);
    const label = event.summary || t('(untitled)');
    if (!event.uid) {
      skipped.push(t('{0}: no UID', label));
      continue;
    }
    // Null without a DTSTART (ical.js's typings say it is always there).
    const startDate = event.startDate as IcalTime | null;
    if (!startDate) {
      skipped.push(t('{0}: no start', label));
      continue;
    }
    // Exceptions of a series (RECURRENCE-ID) are imported by Google together with their series; Desk skips them.
    if (component.hasProperty('recurrence-id')) {
      skipped.push(t('{0}: a changed instance of a series', label));
      continue;
    }
    const start = timeOf(startDate, fallbackZone);
    // With a start, ical.js always has an end: DTEND, or the start plus DURATION (or a day).
    const end = timeOf(event.endDate, fallbackZone);
    // ical.js keeps a rule it could not read as an empty one ("RRULE:garbage"): Google would refuse the event.
    if (component.getAllProperties('rrule').some((property) => !(property.getFirstValue() as { freq?: string } | null)?.freq)) {
      skipped.push(t('{0}: its repeat rule (RRULE) has no valid FREQ', label));
      continue;
    }
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
