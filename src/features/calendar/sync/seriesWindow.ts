/**
 * The instances of a recurring event inside a window, expanded here from the series itself. Desk keeps series
 * unexpanded (a singleEvents listing sends every instance of every endless series, five years of them), as calendar
 * clients that sync do, and expands only what a view shows.
 *
 * rrule runs on wall times (the series' local clock read as UTC), as the emulator does: a weekly 09:00 Berlin
 * meeting stays at 09:00 across DST. Instances get Google's ids (`<series>_<YYYYMMDDTHHMMSSZ>`, all-day
 * `<series>_<YYYYMMDD>`), so a moved or cancelled instance (an exception) replaces the generated one by id. No vscode.
 */
import { RRule, RRuleSet, type Options } from 'rrule';
import type { CalendarEvent, EventDateTime } from '../../../shared/schemas/calendar';
import { DAY_MS, offsetAt } from '../time';
import { groupsOf } from '../../../shared/matchGroups';

export interface Window {
  readonly from: number;
  readonly to: number;
}

/** A series Desk could read, ready to expand for any window. */
export interface ParsedSeries {
  readonly series: CalendarEvent;
  readonly allDay: boolean;
  readonly zone: string;
  /** The first start as a wall time. */
  readonly startWall: number;
  /** Timed: the duration in ms; all-day: in days (as dates). */
  readonly duration: number;
  readonly set: RRuleSet;
}

/** At most this many instances of one series in one window (a FREQ=MINUTELY series over a week is 10,080). */
const MAX_INSTANCES_PER_WINDOW = 5000;

const utcToWall = (utc: number, zone: string): number => utc + offsetAt(utc, zone);

/** The instant a wall time happens in `zone` (two rounds settle the offset around DST changes). */
function wallToUtc(wall: number, zone: string): number {
  const guess = wall - offsetAt(wall, zone);
  return wall - offsetAt(guess, zone);
}

function dateWall(date: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  return match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : undefined;
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

function isoDate(wall: number): string {
  const date = new Date(wall);
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** `YYYYMMDDTHHMMSSZ`, the suffix of a timed instance's id. */
function basicUtc(utc: number): string {
  return new Date(utc).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

/** `2026-11-30T08:00:00Z`, as Google writes a UTC time (no milliseconds). */
function rfc3339(utc: number): string {
  return new Date(utc).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The wall times an RDATE or EXDATE line lists, in the series' zone (a date alone on a timed series: that day's start time). */
function dateList(params: string, values: string, series: { allDay: boolean; zone: string; startWall: number }): number[] {
  const tzid = /(?:^|;)TZID=([^;]+)/.exec(params)?.[1];
  const timeOfDay = ((series.startWall % DAY_MS) + DAY_MS) % DAY_MS;
  const walls: number[] = [];
  for (const value of values.split(',')) {
    const match = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/.exec(value.trim());
    if (!match) continue;
    const day = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
    if (groupsOf(match)[4] === undefined) {
      walls.push(series.allDay ? day : day + timeOfDay);
      continue;
    }
    const wall = day + (Number(match[4]) * 3600 + Number(match[5]) * 60 + Number(match[6])) * 1000;
    let inSeriesZone = wall;
    if (match[7] === 'Z') inSeriesZone = utcToWall(wall, series.zone);
    else if (tzid) inSeriesZone = utcToWall(wallToUtc(wall, tzid), series.zone);
    walls.push(series.allDay ? Math.floor(inSeriesZone / DAY_MS) * DAY_MS : inSeriesZone);
  }
  return walls;
}

function ruleOf(body: string, series: { allDay: boolean; zone: string; startWall: number }): RRule {
  const options: Partial<Options> = RRule.parseString(body);
  const untilText = /(?:^|;)UNTIL=([^;]+)/.exec(body)?.[1];
  if (untilText !== undefined && options.until) {
    const until = options.until.getTime();
    if (untilText.endsWith('Z')) options.until = new Date(series.allDay ? until : utcToWall(until, series.zone));
    // A date-only UNTIL on a timed series includes that whole day.
    else if (untilText.length === 8 && !series.allDay) options.until = new Date(until + DAY_MS - 1);
  }
  return new RRule({ ...options, dtstart: new Date(series.startWall), tzid: null });
}

/**
 * Reads a series for expansion; undefined when it is not one Desk can expand (no usable start, or a recurrence
 * rrule refuses), in which case the Agenda shows its first occurrence as a plain event rather than nothing.
 */
export function parseSeries(series: CalendarEvent, calendarZone: string): ParsedSeries | undefined {
  if (!series.recurrence?.length || !series.start) return undefined;
  const allDay = Boolean(series.start.date);
  const zone = series.start.timeZone ?? calendarZone;
  let startWall: number;
  let duration: number;
  if (allDay) {
    const start = dateWall(series.start.date ?? '');
    if (start === undefined) return undefined;
    const end = dateWall(series.end?.date ?? '') ?? start + DAY_MS;
    startWall = start;
    duration = Math.max(1, Math.round((end - start) / DAY_MS));
  } else {
    const start = Date.parse(series.start.dateTime ?? '');
    if (Number.isNaN(start)) return undefined;
    const end = Date.parse(series.end?.dateTime ?? '');
    startWall = utcToWall(start, zone);
    duration = Number.isNaN(end) || end < start ? 0 : end - start;
  }
  const shape = { allDay, zone, startWall };
  const set = new RRuleSet();
  try {
    set.rdate(new Date(startWall));
    for (const line of series.recurrence) {
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      const head = line.slice(0, colon).toUpperCase();
      const [name = '', ...params] = head.split(';');
      const value = line.slice(colon + 1);
      if (name === 'RRULE') set.rrule(ruleOf(value, shape));
      else if (name === 'EXRULE') set.exrule(ruleOf(value, shape));
      else if (name === 'RDATE') for (const wall of dateList(params.join(';'), value, shape)) set.rdate(new Date(wall));
      else if (name === 'EXDATE') for (const wall of dateList(params.join(';'), value, shape)) set.exdate(new Date(wall));
    }
  } catch {
    return undefined;
  }
  return { series, allDay, zone, startWall, duration, set };
}

/** Google's id of the instance that starts (originally) at `startWall`. */
function instanceId(parsed: ParsedSeries, startWall: number): string {
  const suffix = parsed.allDay ? isoDate(startWall).replace(/-/g, '') : basicUtc(wallToUtc(startWall, parsed.zone));
  return `${parsed.series.id}_${suffix}`;
}

/** The id an exception (moved or cancelled instance) takes the place of, from its originalStartTime. */
export function replacedInstanceId(exception: CalendarEvent): string | undefined {
  const seriesId = exception.recurringEventId;
  const original: EventDateTime | null | undefined = exception.originalStartTime;
  if (!seriesId || !original) return undefined;
  if (original.date) return `${seriesId}_${original.date.replace(/-/g, '')}`;
  const start = Date.parse(original.dateTime ?? '');
  return Number.isNaN(start) ? undefined : `${seriesId}_${basicUtc(start)}`;
}

/**
 * The series' instances that overlap `window` (instants), as Google's singleEvents listing would give them, minus
 * `replaced` (ids of exceptions, which are listed on their own).
 */
export function instancesIn(parsed: ParsedSeries, window: Window, replaced: ReadonlySet<string>): CalendarEvent[] {
  const { series, zone } = parsed;
  const reach = parsed.allDay ? parsed.duration * DAY_MS : parsed.duration;
  // A day on each side: the window is in instants, the walls are in the series' zone (at most ±14 h away).
  const fromWall = utcToWall(window.from, zone) - reach - DAY_MS;
  const toWall = utcToWall(window.to, zone) + DAY_MS;
  const walls: Date[] = parsed.set.between(new Date(fromWall), new Date(toWall), true, (_date, index) => index < MAX_INSTANCES_PER_WINDOW);
  const instances: CalendarEvent[] = [];
  for (const date of walls) {
    const startWall = date.getTime();
    const id = instanceId(parsed, startWall);
    if (replaced.has(id)) continue;
    const instance: CalendarEvent = { ...series, id, recurringEventId: series.id };
    delete instance.recurrence;
    if (parsed.allDay) {
      const start = isoDate(startWall);
      const end = isoDate(startWall + parsed.duration * DAY_MS);
      if (Date.parse(`${end}T00:00:00Z`) + DAY_MS < window.from || Date.parse(`${start}T00:00:00Z`) - DAY_MS > window.to) continue;
      instance.start = { date: start };
      instance.end = { date: end };
      instance.originalStartTime = { date: start };
    } else {
      const start = wallToUtc(startWall, zone);
      const end = start + parsed.duration;
      if (end < window.from || start > window.to) continue;
      const timeZone = series.start?.timeZone ? { timeZone: series.start.timeZone } : {};
      instance.start = { dateTime: rfc3339(start), ...timeZone };
      instance.end = { dateTime: rfc3339(end), ...timeZone };
      instance.originalStartTime = { dateTime: rfc3339(start), ...timeZone };
    }
    instances.push(instance);
  }
  return instances;
}
