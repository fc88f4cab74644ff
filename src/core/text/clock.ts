/**
 * The one way Desk writes a moment for the user, in every view: the user's locale for names and order, the user's
 * Calendar time zone (learnt by the Calendar feature, remembered, the machine's until then), and a 24-hour clock as the
 * Calendar view shows it. No vscode, so the formats are unit-tested in any zone.
 */
import { dateKeyIn } from '../../shared/dateKey';
import { updateDurably } from '../storage/durableMemento';

/** The formatters of one zone and locale, built once. */
interface Formats {
  readonly time: Intl.DateTimeFormat;
  readonly dateTime: Intl.DateTimeFormat;
  readonly dateTimeWithYear: Intl.DateTimeFormat;
  readonly date: Intl.DateTimeFormat;
  readonly dateWithYear: Intl.DateTimeFormat;
}

const cache = new Map<string, Formats>();

function formatsFor(timeZone: string, locale: string | undefined): Formats {
  const key = `${timeZone}|${locale ?? ''}`;
  let formats = cache.get(key);
  if (!formats) {
    const make = (options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat => {
      try {
        return new Intl.DateTimeFormat(locale, { timeZone, hourCycle: 'h23', ...options });
      } catch {
        // An unknown locale or zone: the runtime's locale in UTC, never an exception while drawing a row.
        return new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', hourCycle: 'h23', ...options });
      }
    };
    formats = {
      time: make({ hour: '2-digit', minute: '2-digit' }),
      dateTime: make({ weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }),
      dateTimeWithYear: make({ weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' }),
      date: make({ weekday: 'short', day: 'numeric', month: 'short' }),
      dateWithYear: make({ weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }),
    };
    cache.set(key, formats);
  }
  return formats;
}

/** "15:04" in `timeZone` (24-hour, whatever the locale's own habit). */
export function formatClockTime(ms: number, timeZone: string, locale?: string): string {
  return formatsFor(timeZone, locale).time.format(new Date(ms));
}

/** "Fri 27 Nov, 15:04" in `timeZone`; the year is added when it is not the year of `now`. */
export function formatDateTime(ms: number, timeZone: string, locale?: string, now: number = Date.now()): string {
  const formats = formatsFor(timeZone, locale);
  const sameYear = yearOf(ms, timeZone) === yearOf(now, timeZone);
  return (sameYear ? formats.dateTime : formats.dateTimeWithYear).format(new Date(ms));
}

/** "Fri 27 Nov", the day of `ms` in `timeZone`, for moments whose time does not matter (completed, updated, until); the year is added when it is not the year of `now`. */
export function formatDay(ms: number, timeZone: string, locale?: string, now: number = Date.now()): string {
  const formats = formatsFor(timeZone, locale);
  const sameYear = yearOf(ms, timeZone) === yearOf(now, timeZone);
  return (sameYear ? formats.date : formats.dateWithYear).format(new Date(ms));
}

/** "Fri 27 Nov" for a date that is already the user's wall date (`YYYY-MM-DD`: a due date, a typed date), as `formatDay` writes a day; the year when it is not the year of `today` (`YYYY-MM-DD`, else now). */
export function formatDateKey(key: string, locale?: string, today?: string): string {
  // A UTC noon formatted in UTC: no zone can move the calendar date.
  const noon = (date: string): number => Date.parse(`${date}T12:00:00Z`);
  return formatDay(noon(key), 'UTC', locale, today ? noon(today) : Date.now());
}

/** An API timestamp ("2026-11-27T10:00:00.000Z") written by `write` (a DeskClock's `day` or `dateTime`); one that does not parse is shown as it came. */
export function writeTimestamp(value: string, write: (ms: number) => string): string {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : write(ms);
}

function yearOf(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: isZone(timeZone) ? timeZone : 'UTC', year: 'numeric' }).format(new Date(ms));
}

function isZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** Remembers the zone across sessions (a Memento is enough: vscode's globalState). */
export interface ClockMemory {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

const ZONE_KEY = 'desk.clock.timeZone';

/** Desk's clock: the one "now" of the extension, and the zone and locale every view formats times with. */
export class DeskClock {
  private zone: string;

  constructor(readonly locale: string | undefined, private readonly memory?: ClockMemory, systemZone: string = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC', private readonly clock: () => number = Date.now) {
    const remembered = memory?.get(ZONE_KEY);
    this.zone = typeof remembered === 'string' && isZone(remembered) ? remembered : systemZone;
  }

  get timeZone(): string {
    return this.zone;
  }

  /** Epoch milliseconds now: every view's "now" comes from here, so a test sets one clock. */
  now(): number {
    return this.clock();
  }

  /**
   * Today in the user's zone as a Date at local noon whose calendar fields (getFullYear/getMonth/getDate) are that
   * day: due dates are dates, and "today", "tomorrow" and "overdue" are the user's, not the machine's.
   */
  today(): Date {
    const [year, month, day] = dateKeyIn(this.now(), this.zone).split('-').map(Number) as [number, number, number];
    return new Date(year, month - 1, day, 12);
  }

  /** The Calendar feature read the user's zone (settings.get timezone). */
  setTimeZone(timeZone: string): void {
    if (!isZone(timeZone) || timeZone === this.zone) return;
    this.zone = timeZone;
    if (this.memory) void updateDurably(this.memory, ZONE_KEY, timeZone);
  }

  time(ms: number): string {
    return formatClockTime(ms, this.zone, this.locale);
  }

  dateTime(ms: number, now?: number): string {
    return formatDateTime(ms, this.zone, this.locale, now);
  }

  day(ms: number, now?: number): string {
    return formatDay(ms, this.zone, this.locale, now);
  }
}
