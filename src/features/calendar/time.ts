/**
 * Wall-clock arithmetic in a named IANA time zone (the user's Calendar `timezone` setting), with no vscode and no
 * dependency: Intl gives a zone's offset at an instant, and the rest is date keys (`YYYY-MM-DD`) and minutes.
 * Pure, so day grouping and countdowns are unit-tested in any zone whatever the machine's own zone is.
 */
import { formatClockTime } from '../../core/text/clock';
import { english, Translate } from '../../shared/l10n';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether Intl knows the zone (a bad setting falls back to the machine's zone instead of throwing later). */
export function isValidTimeZone(timeZone: string | undefined): timeZone is string {
  if (!timeZone) return false;
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export interface WallTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
}

/** The wall clock in `timeZone` at instant `ms`. */
export function wallTime(ms: number, timeZone: string): WallTime {
  const parts: Partial<Record<string, number>> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1, hour: (parts.hour ?? 0) % 24, minute: parts.minute ?? 0 };
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/** `YYYY-MM-DD` of the day `ms` falls on in `timeZone`. */
export function dateKey(ms: number, timeZone: string): string {
  const wall = wallTime(ms, timeZone);
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
}

/** `HH:mm` (24-hour) in `timeZone`: Desk's one clock format (core/text/clock.ts), also used by the other views. */
export function clockTime(ms: number, timeZone: string): string {
  return formatClockTime(ms, timeZone, 'en-GB');
}

/** A date key moved by whole days (calendar days, not 24-hour steps). */
export function addDays(key: string, days: number): string {
  const [year, month, day] = key.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day + days));
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** The zone's offset from UTC at instant `ms`, in ms (Berlin in winter: +3600000). */
export function offsetAt(ms: number, timeZone: string): number {
  const wall = wallTime(ms, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  return asUtc - Math.floor(ms / MINUTE_MS) * MINUTE_MS;
}

/** The instant a wall-clock time happens in `timeZone` (the earlier one in a DST overlap; a gap moves forward). */
export function zonedToUtc(key: string, hour: number, minute: number, timeZone: string): number {
  const [year, month, day] = key.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  let guess = wall - offsetAt(wall, timeZone);
  // Two rounds settle the offset around DST changes.
  guess = wall - offsetAt(guess, timeZone);
  return guess;
}

/** Midnight at the start of a day in `timeZone`. */
export function startOfDay(key: string, timeZone: string): number {
  return zonedToUtc(key, 0, 0, timeZone);
}

/** `2026-11-24T10:00:00` for a wall clock (what an event's `dateTime` carries with its `timeZone`). */
export function wallDateTime(key: string, hour: number, minute: number): string {
  return `${key}T${pad(hour)}:${pad(minute)}:00`;
}

/** Whole minutes, rounded up, so "in 1 min" shows until the event starts. */
export function minutesUntil(from: number, to: number): number {
  return Math.ceil((to - from) / MINUTE_MS);
}

/** "45 min", "1 h", "2 h 5 min", "3 days". */
export function describeMinutes(minutes: number, t: Translate = english): string {
  if (minutes < 60) return t('{0} min', minutes);
  if (minutes >= 2 * 24 * 60) return t('{0} days', Math.round(minutes / (24 * 60)));
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? t('{0} h', hours) : t('{0} h {1} min', hours, rest);
}
