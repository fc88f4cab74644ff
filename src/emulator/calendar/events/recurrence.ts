/**
 * Recurrence (RRULE / EXRULE / RDATE / EXDATE lines) validated strictly and expanded with the `rrule` library.
 *
 * rrule's own TZID support yields "floating" local times that are easy to misconvert, so it is used only on wall
 * times (local clock readings encoded as UTC, see ../time.ts): the series starts at the event's wall start, UNTIL,
 * RDATE and EXDATE values are converted into the event's zone first, and each occurrence is converted to an instant
 * afterwards. That is how a weekly 09:00 Berlin meeting stays at 09:00 local across both DST changes.
 */
import { Options, RRule } from 'rrule';
import { ApiError, invalid } from '../../core/errors';
import { DAY_MS, isValidTimeZone, utcToWall, wallToUtc } from '../time';
import { candidatesPerPeriod, expandSync, ParsedOptions } from './expansion';
import { appendAll } from '../../../shared/arrays';

/** The series a recurrence describes: its first start as a wall time, whether it is all-day, and its zone. */
export interface SeriesStart {
  startWall: number;
  allDay: boolean;
  /** The zone the series is expanded in (all-day series are zone-free). */
  zone: string;
}

export interface ParsedRecurrence {
  /** The RRULE lines as rrule's parsed options (every BY part explicit), on wall times. */
  rules: ParsedOptions[];
  /** The EXRULE lines, the same way. */
  exrules: ParsedOptions[];
  /** The series start and the RDATE walls, in order. */
  rdates: number[];
  /** EXDATE walls. */
  exdates: Set<number>;
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

/**
 * Google's answer to any recurrence it cannot read: 400 `invalid` "Invalid recurrence rule." (the message Google's
 * Calendar API gives for an out-of-range or malformed RRULE, as clients report it). The line and the reason are not
 * part of Google's message; they are kept in the error's cause for the emulator's own debugging.
 */
function invalidRecurrence(line: string, why: string): never {
  throw Object.assign(invalid('Invalid recurrence rule.', 'recurrence', 'body'), { cause: `${line.slice(0, 200)}: ${why}` });
}

/** The inclusive ranges of each numeric BY part (RFC 5545 section 3.3.10); 0 is never a valid ordinal. */
const RANGES: Readonly<Partial<Record<string, { min: number; max: number; signed: boolean }>>> = {
  BYSECOND: { min: 0, max: 60, signed: false },
  BYMINUTE: { min: 0, max: 59, signed: false },
  BYHOUR: { min: 0, max: 23, signed: false },
  BYMONTHDAY: { min: 1, max: 31, signed: true },
  BYYEARDAY: { min: 1, max: 366, signed: true },
  BYWEEKNO: { min: 1, max: 53, signed: true },
  BYMONTH: { min: 1, max: 12, signed: false },
  BYSETPOS: { min: 1, max: 366, signed: true },
};

/** Whether every number of a BY part is within its range (signed parts: ±min..max, never 0). */
function inRange(key: string, value: string): boolean {
  const range = RANGES[key];
  if (!range) return true;
  return value.split(',').every((part) => {
    const number = Number(part);
    const size = range.signed ? Math.abs(number) : number;
    return Number.isInteger(number) && size >= range.min && size <= range.max;
  });
}

/** BYDAY ordinals (`-1SU`, `53MO`): never 0, at most 53 either way. */
function weekdaysInRange(value: string): boolean {
  return value.split(',').every((part) => {
    const ordinal = /^([+-]?\d{1,2})?[A-Z]{2}$/.exec(part)?.[1];
    if (ordinal === undefined) return true;
    const size = Math.abs(Number(ordinal));
    return size >= 1 && size <= 53;
  });
}

/** A real date (and time) in UNTIL: 20261399 or 20260230 is no date. */
function validUntil(text: string): boolean {
  const match = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return false;
  return match.at(4) === undefined || (Number(match[4]) <= 23 && Number(match[5]) <= 59 && Number(match[6]) <= 60);
}

/** The most candidate date-times one period of a rule may hold (days in the period × times a day): beyond it one period is too much work. */
export const MAX_PERIOD_CANDIDATES = 50_000;

/**
 * Whether a sub-daily rule's counter can ever stand on an allowed hour/minute/second. rrule steps the counter by
 * INTERVAL units and loops until BYHOUR/BYMINUTE/BYSECOND all match, so `FREQ=HOURLY;INTERVAL=24;BYHOUR=5` from
 * 10:00 (or `FREQ=SECONDLY;BYSECOND=60`) would never return: the counter's time of day only takes the values
 * start + k × gcd(INTERVAL, units a day).
 */
export function subDailyReachable(options: ParsedOptions): boolean {
  if (options.freq <= RRule.DAILY) return true;
  const unitSeconds = options.freq === RRule.HOURLY ? 3600 : options.freq === RRule.MINUTELY ? 60 : 1;
  const unitsPerDay = 86_400 / unitSeconds;
  const step = gcd(unitsPerDay, options.interval % unitsPerDay);
  const start = options.dtstart;
  const startUnit = Math.floor((start.getUTCHours() * 3600 + start.getUTCMinutes() * 60 + start.getUTCSeconds()) / unitSeconds);
  const allows = (values: readonly number[] | null, value: number): boolean => !values || values.length === 0 || values.includes(value);
  for (let unit = startUnit % step; unit < unitsPerDay; unit += step) {
    const seconds = unit * unitSeconds;
    const hour = Math.floor(seconds / 3600);
    const minute = Math.floor((seconds % 3600) / 60);
    const second = seconds % 60;
    if (!allows(options.byhour, hour)) continue;
    if (options.freq >= RRule.MINUTELY && !allows(options.byminute, minute)) continue;
    if (options.freq === RRule.SECONDLY && !allows(options.bysecond, second)) continue;
    return true;
  }
  return false;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * An RRULE or EXRULE line as rrule's parsed options on wall times. rrule's own checks (it throws on some values) run
 * inside the guard, so they are 400s too; so are rules rrule could only loop on, and rules whose single period holds
 * more candidates than the emulator builds at once.
 */
function parsedRule(line: string, body: string, series: SeriesStart): ParsedOptions {
  let options: ParsedOptions;
  try {
    options = new RRule(ruleOptions(line, body, series), true).options;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    invalidRecurrence(line, error instanceof Error ? error.message : 'rejected by the expander');
  }
  if (!subDailyReachable(options)) invalidRecurrence(line, 'no time of day this rule can reach matches its BYHOUR/BYMINUTE/BYSECOND');
  if (candidatesPerPeriod(options) > MAX_PERIOD_CANDIDATES) invalidRecurrence(line, 'too many times in one period');
  return options;
}

/** Parses the value of an RRULE or EXRULE line into rrule options on wall times. */
function ruleOptions(line: string, body: string, series: SeriesStart): Partial<Options> {
  const seen = new Set<string>();
  for (const part of body.split(';')) {
    const [key, value] = part.split('=', 2) as (string | undefined)[];
    if (!key || value === undefined || value === '') invalidRecurrence(line, `malformed part '${part}'`);
    if (!RRULE_KEYS.has(key)) invalidRecurrence(line, `unknown property ${key}`);
    if (seen.has(key)) invalidRecurrence(line, `${key} given twice`);
    seen.add(key);
    if (key === 'FREQ' ? !FREQUENCIES.has(value) : !(VALUE_PATTERNS[key]).test(value)) invalidRecurrence(line, `bad value for ${key}`);
    if (!inRange(key, value) || (key === 'BYDAY' && !weekdaysInRange(value)) || (key === 'UNTIL' && !validUntil(value))) invalidRecurrence(line, `${key} out of range`);
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
    if (match.at(4) === undefined) {
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

/** Validates the lines and gathers what the expander needs; any defect is a 400 "Invalid recurrence rule.". */
export function parseRecurrence(lines: readonly string[], series: SeriesStart): ParsedRecurrence {
  const parsed: ParsedRecurrence = { rules: [], exrules: [], rdates: [series.startWall], exdates: new Set(), excludedDays: new Set(), bounded: true };
  if (lines.length > 100) throw invalid('Too many recurrence lines', 'recurrence', 'body');
  // The start is the first instance, as in RFC 5545, even where it does not match the rule.
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
      const rule = parsedRule(line, body, series);
      if (name === 'RRULE') {
        if (!/(?:^|;)(UNTIL|COUNT)=/.test(body)) parsed.bounded = false;
        parsed.rules.push(rule);
      } else parsed.exrules.push(rule);
    } else if (name === 'RDATE') {
      appendAll(parsed.rdates, dateList(line, params, body, series).walls);
    } else if (name === 'EXDATE') {
      const { walls, days } = dateList(line, params, body, series);
      for (const wall of walls) parsed.exdates.add(wall);
      for (const day of days) parsed.excludedDays.add(day);
    } else {
      invalidRecurrence(line, `only RRULE, EXRULE, RDATE and EXDATE lines are allowed, not ${name}`);
    }
  }
  if (parsed.rules.length === 0 && lines.length > 0 && !lines.some((line) => line.trim().toUpperCase().startsWith('RDATE'))) {
    invalidRecurrence(lines[0] ?? '', 'a recurrence needs an RRULE or RDATE line');
  }
  parsed.rdates.sort((a, b) => a - b);
  return parsed;
}

/**
 * The recurrence of a stored series, for expansion. A rule stored before the emulator refused it (an older data
 * directory) must not stop listings: such a series keeps its first instance and its RDATEs only.
 */
export function storedRecurrence(lines: readonly string[], series: SeriesStart): ParsedRecurrence {
  try {
    return parseRecurrence(lines, series);
  } catch {
    return { rules: [], exrules: [], rdates: [series.startWall], exdates: new Set(), excludedDays: new Set(), bounded: true };
  }
}

/** Occurrence start wall times from the series start up to and including `untilWall`, in order (bounded work: see expansion.ts). */
export function expandWalls(parsed: ParsedRecurrence, series: SeriesStart, untilWall: number): number[] {
  return expandSync(parsed, series, untilWall).walls;
}
