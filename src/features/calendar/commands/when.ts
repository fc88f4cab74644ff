/**
 * What people type for an event's time and length, read in the user's Calendar time zone: "tomorrow 3pm",
 * "fri 10:30", "2026-11-24 09:00", "next monday" (a date alone is an all-day event); "45m", "1h", "1h30", "90".
 * chrono-node reads the words; it works on the wall clock it is given, so "now" is handed over as the wall clock
 * of the user's zone and the result read back as wall-clock fields. Pure, so the rules are unit-tested. Messages
 * go through `t` (vscode.l10n.t from the prompts); what is typed is read in English.
 */
import * as chrono from 'chrono-node';
import { formatDateKey } from '../../../core/clock';
import { english, Translate } from '../../../shared/l10n';
import type { EventDateTime } from '../../../shared/schemas/calendar';
import { addDays, wallDateTime, wallTime } from '../time';

export type When =
  | { readonly kind: 'allDay'; readonly date: string }
  | { readonly kind: 'timed'; readonly date: string; readonly hour: number; readonly minute: number }
  | { readonly kind: 'invalid'; readonly message: string };

/** The examples of a time input; translate it with `t(WHEN_HELP)`. */
export const WHEN_HELP = 'e.g. "tomorrow 15:00", "fri 10:30", "2026-11-24 09:00"; a date alone makes an all-day event';

const pad = (value: number): string => String(value).padStart(2, '0');

export function parseWhen(input: string, now: number, timeZone: string, t: Translate = english): When {
  const text = input.trim();
  if (text === '') return { kind: 'invalid', message: t('Enter a date and time ({0}).', t(WHEN_HELP)) };
  const wall = wallTime(now, timeZone);
  // The reference is the user's wall clock expressed in the machine's zone: chrono reads and answers local fields.
  const reference = new Date(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const [result] = chrono.parse(text, reference, { forwardDate: true });
  if (!result) return { kind: 'invalid', message: t('"{0}" is not a time Desk understands ({1}).', text, t(WHEN_HELP)) };
  // chrono reads what it can and skips the rest: "tomorrow 32:99" would be "tomorrow", an all-day event nobody asked for.
  const unread = `${text.slice(0, result.index)} ${text.slice(result.index + result.text.length)}`.trim();
  if (unread !== '') {
    return {
      kind: 'invalid',
      message: /\d/.test(unread)
        ? t('"{0}" is not a time of day: hours go from 0 to 23 and minutes from 0 to 59 ({1}).', unread, t(WHEN_HELP))
        : t('Desk does not understand "{0}" in "{1}" ({2}).', unread, text, t(WHEN_HELP)),
    };
  }
  const start = result.start;
  const date = `${String(start.get('year')).padStart(4, '0')}-${pad(start.get('month') ?? 1)}-${pad(start.get('day') ?? 1)}`;
  if (!start.isCertain('hour')) return { kind: 'allDay', date };
  return { kind: 'timed', date, hour: start.get('hour') ?? 0, minute: start.get('minute') ?? 0 };
}

/** What a time resolves to, for the user to check before confirming, as the Agenda writes it: "Fri 27 Nov · 15:00", "Fri 27 Nov · All day". */
export function describeWhen(when: Exclude<When, { kind: 'invalid' }>, today: string, t: Translate = english, locale = 'en-GB'): string {
  // The date is already the user's wall date; Desk's one day form (core/clock.ts), the year when it is not this year.
  const day = formatDateKey(when.date, locale, today);
  return `${day} · ${when.kind === 'allDay' ? t('All day') : `${pad(when.hour)}:${pad(when.minute)}`}`;
}

/** Minutes from "45", "45m", "1h", "1h30", "1:30", "1.5h", "2 hours". Undefined when it is not a length. */
export function parseDuration(input: string): number | undefined {
  const text = input.trim().toLowerCase().replace(/\s+/g, '');
  if (text === '') return undefined;
  let match = /^(\d+)(?:m|min|mins|minutes?)?$/.exec(text);
  if (match) return positive(Number(match[1]));
  match = /^(\d+(?:\.\d+)?)(?:h|hr|hrs|hours?)$/.exec(text);
  if (match) return positive(Math.round(Number(match[1]) * 60));
  match = /^(\d+)(?:h|:)(\d{1,2})(?:m|min)?$/.exec(text);
  if (match) return positive(Number(match[1]) * 60 + Number(match[2]));
  return undefined;
}

function positive(minutes: number): number | undefined {
  return minutes > 0 && minutes <= 14 * 24 * 60 ? minutes : undefined;
}

/** The start and end an event is written with: dates for all-day, wall clock + zone for timed (the API's form). */
export function eventTimes(when: Exclude<When, { kind: 'invalid' }>, durationMinutes: number, timeZone: string): { start: EventDateTime; end: EventDateTime } {
  if (when.kind === 'allDay') return { start: { date: when.date }, end: { date: addDays(when.date, Math.max(1, Math.round(durationMinutes / (24 * 60)))) } };
  const total = when.hour * 60 + when.minute + durationMinutes;
  const endDate = addDays(when.date, Math.floor(total / (24 * 60)));
  const endMinutes = total % (24 * 60);
  return {
    start: { dateTime: wallDateTime(when.date, when.hour, when.minute), timeZone },
    end: { dateTime: wallDateTime(endDate, Math.floor(endMinutes / 60), endMinutes % 60), timeZone },
  };
}

/** The common repeat rules offered in the Edit Recurrence pick, for an event starting on `date`. */
export function recurrenceChoices(date: string, t: Translate = english, locale?: string): Array<{ label: string; rule: string | undefined }> {
  const weekday = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'][new Date(`${date}T12:00:00Z`).getUTCDay()] ?? 'MO';
  const dayName = new Intl.DateTimeFormat(locale ?? 'en-GB', { weekday: 'long', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`));
  return [
    { label: t('Does not repeat'), rule: undefined },
    { label: t('Every day'), rule: 'RRULE:FREQ=DAILY' },
    { label: t('Every weekday (Monday to Friday)'), rule: 'RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR' },
    { label: t('Every week on {0}', dayName), rule: `RRULE:FREQ=WEEKLY;BYDAY=${weekday}` },
    { label: t('Every two weeks on {0}', dayName), rule: `RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=${weekday}` },
    { label: t('Every month on the same day'), rule: 'RRULE:FREQ=MONTHLY' },
    { label: t('Every year'), rule: 'RRULE:FREQ=YEARLY' },
  ];
}

/** Popup reminder minutes from "10, 30" ("" → none). Undefined when something is not a number of minutes. */
export function parseReminderMinutes(input: string): number[] | undefined {
  const parts = input.split(/[,\s]+/).filter(Boolean);
  const minutes = parts.map((part) => parseDuration(part) ?? (part === '0' ? 0 : Number.NaN));
  if (minutes.some((value) => Number.isNaN(value) || value > 40_320)) return undefined;
  return [...new Set(minutes)].slice(0, 5);
}
