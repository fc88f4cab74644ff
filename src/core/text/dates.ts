/**
 * Due dates as people type them. Google Tasks stores a date only (`YYYY-MM-DDT00:00:00.000Z`; the time is
 * discarded), so everything here works on calendar dates: "2026-11-24", "today", "tomorrow", "friday",
 * "next fri", "in 3 days". Pure, so the rules are unit-tested. What the user reads goes through `t` (vscode.l10n.t);
 * the words typed are read in English.
 */
import { english, Translate } from '../../shared/l10n';
import { formatDateKey } from './clock';

export type DueInput =
  | { readonly kind: 'date'; readonly date: string }
  /** An empty answer: the task has no due date. */
  | { readonly kind: 'none' }
  | { readonly kind: 'invalid'; readonly message: string };

/** The prompt of a due-date input; translate it with `t(DUE_INPUT_HELP)`. */
export const DUE_INPUT_HELP = 'Enter a date as YYYY-MM-DD, "today", "tomorrow", a weekday such as "friday", or "in 3 days". Leave empty for no due date.';

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** A calendar date (local to the user) as YYYY-MM-DD. */
export function formatDate(date: Date): string {
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
}

/** Whether YYYY-MM-DD names a real day (rejects 2026-02-30). */
export function isValidDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Reads what the user typed; `today` is the user's current local day. */
export function parseDueInput(input: string, today: Date, t: Translate = english): DueInput {
  const text = input.trim().toLowerCase().replace(/\s+/g, ' ');
  if (text === '') return { kind: 'none' };
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    return isValidDate(text) ? { kind: 'date', date: text } : { kind: 'invalid', message: t('{0} is not a date in the calendar.', input.trim()) };
  }
  if (text === 'today') return { kind: 'date', date: formatDate(today) };
  if (text === 'tomorrow') return { kind: 'date', date: formatDate(addDays(today, 1)) };
  if (text === 'yesterday') return { kind: 'date', date: formatDate(addDays(today, -1)) };
  const inDays = /^(?:in )?\+?(\d{1,4}) ?(?:d|day|days)$/.exec(text);
  if (inDays) return { kind: 'date', date: formatDate(addDays(today, Number(inDays[1]))) };
  const weekdayText = text.replace(/^next /, '');
  // At least three letters, so "t" or "s" stays ambiguous and is refused.
  const weekday = weekdayText.length >= 3 ? WEEKDAYS.findIndex((name) => name.startsWith(weekdayText)) : -1;
  if (weekday >= 0) {
    // The coming such day, never today: "friday" said on a Friday means next week's.
    const ahead = ((weekday - today.getDay() + 7) % 7) || 7;
    return { kind: 'date', date: formatDate(addDays(today, ahead)) };
  }
  // "tomorrow 15:00" or "tomorrow 32:99": a task's due date has no time, so say that rather than "not a date".
  const time = /\b\d{1,2}(?:[:.]\d{1,2})?\s?(?:am|pm)\b|\b\d{1,2}[:.]\d{1,2}\b/.exec(text);
  if (time) return { kind: 'invalid', message: t('A task\'s due date is a day without a time: remove "{0}". {1}', time[0], t(DUE_INPUT_HELP)) };
  return { kind: 'invalid', message: t('"{0}" is not a date Desk understands. {1}', input.trim(), t(DUE_INPUT_HELP)) };
}

/** The value the Tasks API expects in `due` for a calendar date. */
export function toDueTimestamp(date: string): string {
  return `${date}T00:00:00.000Z`;
}

/** The calendar date of a task's `due` (its time part is always midnight UTC). */
export function dueDateOf(due: string | undefined): string | undefined {
  if (!due) return undefined;
  const date = due.slice(0, 10);
  return isValidDate(date) ? date : undefined;
}

/** Short words for the tree: "today", "tomorrow", "yesterday", else the date itself. */
export function describeDueDate(date: string, today: Date, t: Translate = english): string {
  if (date === formatDate(today)) return t('today');
  if (date === formatDate(addDays(today, 1))) return t('tomorrow');
  if (date === formatDate(addDays(today, -1))) return t('yesterday');
  return date;
}

/**
 * The shortest words for a due date in a narrow tree row, the date first: "today", "tomorrow", "yesterday", the
 * weekday for the rest of the coming week ("Fri": the hover has the full date), the day and month this year
 * ("27 Nov"), else with the year ("27 Nov 2027"), in the user's `locale` (its own order and names: "Nov 27" in
 * American English).
 */
export function shortDueDate(date: string, today: Date, t: Translate = english, locale?: string): string {
  const relative = describeDueDate(date, today, t);
  if (relative !== date) return relative;
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const when = new Date(Date.UTC(year, month - 1, day));
  const days = Math.round((when.getTime() - Date.UTC(today.getFullYear(), today.getMonth(), today.getDate())) / 86_400_000);
  const options: Intl.DateTimeFormatOptions = days > 0 && days < 7 ? { weekday: 'short', timeZone: 'UTC' } : { day: 'numeric', month: 'short', timeZone: 'UTC' };
  if (options.month && year !== today.getFullYear()) options.year = 'numeric';
  try {
    return new Intl.DateTimeFormat(locale, options).format(when);
  } catch {
    return new Intl.DateTimeFormat(undefined, options).format(when);
  }
}

/**
 * A due date in full for hovers and details: the day as Desk's clock writes one ("Tue 1 Dec", the year when not
 * this one), after the relative word when there is one ("tomorrow (Thu 26 Nov)"). Never the ISO date.
 */
export function dueDateInFull(date: string, today: Date, t: Translate = english, locale?: string): string {
  const written = formatDateKey(date, locale, formatDate(today));
  const relative = describeDueDate(date, today, t);
  return relative === date ? written : t('{0} ({1})', relative, written);
}

/** A date as the user reads it before confirming it: "Fri 27 Nov" (the year when not this year), Desk's one day form (core/text/clock.ts). */
export function describeDay(date: string, locale = 'en-GB', today?: string): string {
  return formatDateKey(date, locale, today);
}

export function isOverdue(date: string, today: Date): boolean {
  return date < formatDate(today);
}
