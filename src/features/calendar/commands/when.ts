/**
 * What people type for an event's time and length, read in the user's Calendar time zone: "tomorrow 3pm",
 * "fri 10:30", "2026-12-01 09:00", "next monday" (a date alone is an all-day event); "45m", "1h", "1h30", "90".
 * chrono-node reads the words; it works on the wall clock it is given, so "now" is handed over as the wall clock
 * of the user's zone and the result read back as wall-clock fields. Pure, so the rules are unit-tested. Messages
 * go through `t` (vscode.l10n.t from the prompts); what is typed is read in English.
 */
import * as chrono from 'chrono-node';
import { formatDateKey } from '../../../core/text/clock';
import { english, Translate } from '../../../shared/l10n';
import type { EventDateTime } from '../../../shared/schemas/calendar';
import { addDays, wallDateTime, wallTime } from '../time';

export type When =
  | { readonly kind: 'allDay'; readonly date: string }
  | { readonly kind: 'timed'; readonly date: string; readonly hour: number; readonly minute: number }
  | { readonly kind: 'invalid'; readonly message: string };

const pad = (value: number): string => String(value).padStart(2, '0');

/** The examples of a time input, their date a week from `today` (an example in the past would make a past event). */
export function whenHelp(today: string, t: Translate = english): string {
  return t('e.g. "tomorrow 15:00", "fri 10:30", "{0} 09:00"; a date alone makes an all-day event', addDays(today, 7));
}

/** What was typed, as a message quotes it: short enough that a pasted page does not fill the screen. */
export function quoteTyped(text: string, max = 40): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_WORD = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';

function daysIn(month: number, year: number | undefined): number {
  if (month === 2) return year === undefined || (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Why a date typed as day and month (31 Feb, Feb 30, 2026-02-30, 2026-13-01) does not exist, if it does not. */
export function impossibleDate(text: string, t: Translate = english): string | undefined {
  // English, as what is typed is read in English.
  const monthName = (month: number): string => new Intl.DateTimeFormat('en-GB', { month: 'long', timeZone: 'UTC' }).format(Date.UTC(2000, month - 1, 1));
  const check = (day: number, month: number, year: number | undefined): string | undefined => {
    if (month < 1 || month > 12) return t('There is no month {0}: months go from 1 to 12.', month);
    const days = daysIn(month, year);
    if (day >= 1 && day <= days) return undefined;
    if (month === 2 && year === undefined) return t('There is no {0} February: February has 28 days, 29 in a leap year.', day);
    return year === undefined ? t('There is no {0} {1}: {1} has {2} days.', day, monthName(month), days) : t('There is no {0} {1} {2}: {1} {2} has {3} days.', day, monthName(month), year, days);
  };
  const lower = text.toLowerCase();
  let match = /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/.exec(lower);
  if (match) return check(Number(match[3]), Number(match[2]), Number(match[1]));
  const monthOf = (word: string): number => MONTHS.findIndex((name) => name.startsWith(word.slice(0, 3))) + 1;
  match = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_WORD}\\b`).exec(lower);
  if (match) return check(Number(match[1]), monthOf(match[2]), undefined);
  match = new RegExp(`\\b${MONTH_WORD}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b`).exec(lower);
  if (match) return check(Number(match[2]), monthOf(match[1]), undefined);
  return undefined;
}

export function parseWhen(input: string, now: number, timeZone: string, t: Translate = english): When {
  const text = input.trim();
  const wall = wallTime(now, timeZone);
  const help = whenHelp(`${String(wall.year).padStart(4, '0')}-${pad(wall.month)}-${pad(wall.day)}`, t);
  if (text === '') return { kind: 'invalid', message: t('Enter a date and time ({0}).', help) };
  // chrono skips a day that the month does not have (or reads another date): say which day does not exist.
  const impossible = impossibleDate(text, t);
  if (impossible) return { kind: 'invalid', message: impossible };
  // The reference is the user's wall clock expressed in the machine's zone: chrono reads and answers local fields.
  const reference = new Date(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const result = chrono.parse(text, reference, { forwardDate: true }).at(0);
  if (!result) return { kind: 'invalid', message: t('"{0}" is not a time Desk understands ({1}).', quoteTyped(text), help) };
  // chrono reads what it can and skips the rest: "tomorrow 32:99" would be "tomorrow", an all-day event nobody asked for.
  const unread = `${text.slice(0, result.index)} ${text.slice(result.index + result.text.length)}`.trim();
  if (unread !== '') {
    return {
      kind: 'invalid',
      message: /\d/.test(unread)
        ? t('"{0}" is not a time of day: hours go from 0 to 23 and minutes from 0 to 59 ({1}).', quoteTyped(unread), help)
        : t('Desk does not understand "{0}" in "{1}" ({2}).', quoteTyped(unread), quoteTyped(text), help),
    };
  }
  const start = result.start;
  const date = `${String(start.get('year')).padStart(4, '0')}-${pad(start.get('month') ?? 1)}-${pad(start.get('day') ?? 1)}`;
  if (!start.isCertain('hour')) return { kind: 'allDay', date };
  return { kind: 'timed', date, hour: start.get('hour') ?? 0, minute: start.get('minute') ?? 0 };
}

/** What a time resolves to, for the user to check before confirming, as the Agenda writes it: "Fri 27 Nov · 15:00", "Fri 27 Nov · All day". */
export function describeWhen(when: Exclude<When, { kind: 'invalid' }>, today: string, t: Translate = english, locale = 'en-GB'): string {
  // The date is already the user's wall date; Desk's one day form (core/text/clock.ts), the year when it is not this year.
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
