/**
 * Recurrence (RRULE / EXRULE / RDATE / EXDATE lines) validated strictly and expanded with the `rrule` library.
 *
 * rrule's own TZID support yields "floating" local times that are easy to misconvert, so it is used only on wall
 * times (local clock readings encoded as UTC, see ../time.ts): the series starts at the event's wall start, UNTIL,
 * RDATE and EXDATE values are converted into the event's zone first, and each occurrence is converted to an instant
 * afterwards. That is how a weekly 09:00 Berlin meeting stays at 09:00 local across both DST changes.
 */
import { Options, RRule, RRuleSet } from 'rrule';
import { invalid } from '../../core/errors';
import { DAY_MS, isValidTimeZone, utcToWall, wallToUtc } from '../time';

/** The series a recurrence describes: its first start as a wall time, whether it is all-day, and its zone. */
export interface SeriesStart {
  startWall: number;
  allDay: boolean;
  /** The zone the series is expanded in (all-day series are zone-free). */
  zone: string;
}

export interface ParsedRecurrence {
  set: RRuleSet;
  /** Dates (wall midnights) excluded whole, from `EXDATE;VALUE=DATE` on a timed series. */
  excludedDays: Set<number>;
  /** Whether the series ends (every RRULE has COUNT or UNTIL). */
  bounded: boolean;
}

const RRULE_KEYS = new Set(['FREQ', 'UNTIL', 'COUNT', 'INTERVAL', 'BYSECOND', 'BYMINUTE', 'BYHOUR', 'BYDAY', 'BYMONTHDAY', 'BYYEARDAY', 'BYWEEKNO', 'BYMONTH', 'BYSETPOS', 'WKST']);
const FREQUENCIES = new Set(['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY', 'HOURLY', 'MINUTELY', 'SECONDLY']);
const WEEKDAY = '(?:[+-]?\\d{1,2})?(?:MO|TU|WE|TH|FR|SA|SU)';
const VALUE_PATTERNS: Readonly<Record<string, RegExp>> = {
  UNTIL: /^\d{8}(T\d{6}Z?)?$/,
  COUNT: /^[1-9]\d{0,5}$/,
  INTERVAL: /^[1-9]\d{0,3}$/,
  BYSECOND: /^\d{1,2}(,\d{1,2})*$/,
  BYMINUTE: /^\d{1,2}(,\d{1,2})*$/,
  BYHOUR: /^\d{1,2}(,\d{1,2})*$/,
  BYDAY: new RegExp(`^${WEEKDAY}(,${WEEKDAY})*$`),
  BYMONTHDAY: /^[+-]?\d{1,2}(,[+-]?\d{1,2})*$/,
  BYYEARDAY: /^[+-]?\d{1,3}(,[+-]?\d{1,3})*$/,
  BYWEEKNO: /^[+-]?\d{1,2}(,[+-]?\d{1,2})*$/,
  BYMONTH: /^\d{1,2}(,\d{1,2})*$/,
  BYSETPOS: /^[+-]?\d{1,3}(,[+-]?\d{1,3})*$/,
  WKST: /^(MO|TU|WE|TH|FR|SA|SU)$/,
};

function invalidRecurrence(line: string, why: string): never {
  throw invalid(`Invalid recurrence rule: ${line.slice(0, 200)} (${why})`, 'recurrence', 'body');
}

/** Parses the value of an RRULE or EXRULE line into rrule options on wall times. */
function ruleOptions(line: string, body: string, series: SeriesStart): Partial<Options> {
  const seen = new Set<string>();
  for (const part of body.split(';')) {
    const [key, value] = part.split('=', 2);
    if (!key || value === undefined || value === '') invalidRecurrence(line, `malformed part '${part}'`);
    if (!RRULE_KEYS.has(key)) invalidRecurrence(line, `unknown property ${key}`);
    if (seen.has(key)) invalidRecurrence(line, `${key} given twice`);
    seen.add(key);
    if (key === 'FREQ' ? !FREQUENCIES.has(value) : !(VALUE_PATTERNS[key] as RegExp).test(value)) invalidRecurrence(line, `bad value for ${key}`);
  }
  if (!seen.has('FREQ')) invalidRecurrence(line, 'FREQ is required');
  if (seen.has('UNTIL') && seen.has('COUNT')) invalidRecurrence(line, 'UNTIL and COUNT cannot both be given');
  let options: Partial<Options>;
  try {
    options = RRule.parseString(body);
  } catch (error) {
    invalidRecurrence(line, error instanceof Error ? error.message : 'unparsable');
  }
  const untilText = /(?:^|;)UNTIL=([^;]+)/.exec(body)?.[1];
  if (untilText !== undefined && options.until) {
    const parsed = options.until.getTime();
    if (untilText.endsWith('Z')) options.until = new Date(series.allDay ? parsed : utcToWall(series.zone, parsed));
    // A date-only UNTIL on a timed series includes that whole day.
    else if (untilText.length === 8 && !series.allDay) options.until = new Date(parsed + DAY_MS - 1);
  }
  return { ...options, dtstart: new Date(series.startWall), tzid: null };
}

/** The wall times an RDATE or EXDATE line lists (in the series' zone), and for timed series the whole days it names. */
function dateList(line: string, params: string, values: string, series: SeriesStart): { walls: number[]; days: number[] } {
  let tzid: string | undefined;
  let valueType: string | undefined;
  for (const param of params.split(';').filter(Boolean)) {
    const [key, value] = param.split('=', 2);
    if (key === 'TZID' && value) tzid = value;
    else if (key === 'VALUE' && value) valueType = value;
    else invalidRecurrence(line, `unknown parameter ${param}`);
  }
  if (tzid !== undefined && !isValidTimeZone(tzid)) invalidRecurrence(line, `unknown time zone ${tzid}`);
  if (valueType !== undefined && valueType !== 'DATE' && valueType !== 'DATE-TIME') invalidRecurrence(line, `VALUE=${valueType} is not supported`);
  const walls: number[] = [];
  const days: number[] = [];
  const startTimeOfDay = ((series.startWall % DAY_MS) + DAY_MS) % DAY_MS;
  for (const value of values.split(',')) {
    const match = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/.exec(value);
    if (!match) invalidRecurrence(line, `bad date '${value}'`);
    const day = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
    if (match[4] === undefined) {
      if (series.allDay) walls.push(day);
      else {
        days.push(day);
        walls.push(day + startTimeOfDay);
      }
      continue;
    }
    const wall = day + (Number(match[4]) * 3600 + Number(match[5]) * 60 + Number(match[6])) * 1000;
    let eventWall = wall;
    if (match[7] === 'Z') eventWall = utcToWall(series.zone, wall);
    else if (tzid !== undefined) eventWall = utcToWall(series.zone, wallToUtc(tzid, wall));
    walls.push(series.allDay ? Math.floor(eventWall / DAY_MS) * DAY_MS : eventWall);
  }
  return { walls, days };
}

/** Validates the lines and builds the rrule set for them; any defect is a 400 naming the line. */
export function parseRecurrence(lines: readonly string[], series: SeriesStart): ParsedRecurrence {
  const set = new RRuleSet();
  const excludedDays = new Set<number>();
  let rules = 0;
  let bounded = true;
  if (lines.length > 100) throw invalid('Too many recurrence lines', 'recurrence', 'body');
  // The start is the first instance, as in RFC 5545, even where it does not match the rule.
  set.rdate(new Date(series.startWall));
  for (const raw of lines) {
    const line = raw.trim();
    const colon = line.indexOf(':');
    if (colon < 0) invalidRecurrence(line, 'missing ":"');
    const head = line.slice(0, colon).toUpperCase();
    const [name, ...paramParts] = head.split(';');
    const params = paramParts.join(';');
    const body = line.slice(colon + 1).toUpperCase();
    if (name === 'RRULE' || name === 'EXRULE') {
      if (params) invalidRecurrence(line, `${name} takes no parameters`);
      const rule = new RRule(ruleOptions(line, body, series), true);
      if (name === 'RRULE') {
        rules++;
        if (!/(?:^|;)(UNTIL|COUNT)=/.test(body)) bounded = false;
        set.rrule(rule);
      } else set.exrule(rule);
    } else if (name === 'RDATE') {
      for (const wall of dateList(line, params, body, series).walls) set.rdate(new Date(wall));
    } else if (name === 'EXDATE') {
      const { walls, days } = dateList(line, params, body, series);
      for (const wall of walls) set.exdate(new Date(wall));
      for (const day of days) excludedDays.add(day);
    } else {
      invalidRecurrence(line, `only RRULE, EXRULE, RDATE and EXDATE lines are allowed, not ${name ?? ''}`);
    }
  }
  if (rules === 0 && lines.length > 0 && !lines.some((line) => line.trim().toUpperCase().startsWith('RDATE'))) {
    invalidRecurrence(lines[0] ?? '', 'a recurrence needs an RRULE or RDATE line');
  }
  return { set, excludedDays, bounded };
}

/** The cap on instances of one series: protects the emulator from FREQ=SECONDLY with no end. */
export const MAX_OCCURRENCES = 20_000;

/** Occurrence start wall times from the series start up to and including `untilWall`, in order. */
export function expandWalls(parsed: ParsedRecurrence, series: SeriesStart, untilWall: number): number[] {
  const walls: number[] = [];
  parsed.set.between(new Date(series.startWall - 1), new Date(untilWall), true, (date) => {
    const wall = date.getTime();
    if (parsed.excludedDays.size === 0 || !parsed.excludedDays.has(Math.floor(wall / DAY_MS) * DAY_MS)) walls.push(wall);
    return walls.length < MAX_OCCURRENCES;
  });
  // rrule hands RDATEs over out of order (and may repeat one that the rule also yields).
  return [...new Set(walls)].sort((a, b) => a - b);
}
