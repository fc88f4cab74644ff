/**
 * Time-zone arithmetic for the Calendar emulator: IANA offsets through Intl, "wall" (local clock) times encoded as
 * UTC milliseconds, DST gaps and overlaps resolved as Google does, and RFC 3339 / iCalendar date formatting.
 *
 * A wall time is the local clock reading of a zone stored as if it were UTC (`Date.UTC(y, m, d, h, mi, s)`). Recurrence
 * rules are expanded on wall times (a weekly 09:00 meeting stays 09:00 across DST) and only then converted to instants.
 */
import { invalid } from '../core/errors';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
/** Offsets are looked up per week-long bucket: no zone changes its offset twice within a week. */
const BUCKET_MS = 7 * DAY_MS;

const formatters = new Map<string, Intl.DateTimeFormat>();
/** A bucket with a transition: the offset before it, the first second of the new offset, and the offset from then. */
interface Transition {
  readonly before: number;
  readonly at: number;
  readonly after: number;
}
/** zone → bucket index → the offset in force during the whole bucket, or the bucket's one transition. */
const bucketOffsets = new Map<string, Map<number, number | Transition>>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** Whether `zone` is an IANA zone name Intl knows (Google rejects unknown zones with a 400). */
export function isValidTimeZone(zone: string): boolean {
  if (zone === '' || zone.length > 64) return false;
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at an instant, in ms, measured directly with Intl. */
function measureOffset(zone: string, utcMs: number): number {
  const seconds = Math.floor(utcMs / 1000) * 1000;
  const parts = formatterFor(zone).formatToParts(new Date(seconds));
  const field = (type: string): number => Number(parts.find((part) => part.type === type)?.value ?? 0);
  let year = field('year');
  if (parts.find((part) => part.type === 'era')?.value === 'BC') year = 1 - year;
  const wall = Date.UTC(year, field('month') - 1, field('day'), field('hour'), field('minute'), field('second'));
  return wall - seconds;
}

/**
 * 400 Gregorian years: dates, weekdays and leap days repeat exactly after them (146,097 days, 20,871 weeks), and so
 * do a zone's offsets once only its standing rules apply (every zone's listed transitions end before 2100). Instants
 * past one cycle after that are looked up a whole number of cycles earlier, so a series expanded to the year 9999
 * measures at most 400 years of offsets per zone instead of 7,900.
 */
const RULES_CYCLE_MS = 146_097 * DAY_MS;
const RULES_ONLY_FROM = Date.UTC(2100, 0, 1);

/** The zone's offset from UTC at an instant, in ms (cached per week: expansion of thousands of instances stays cheap). */
export function offsetAt(zone: string, instantMs: number): number {
  if (zone === 'UTC' || zone === 'Etc/UTC') return 0;
  const utcMs = instantMs >= RULES_ONLY_FROM + RULES_CYCLE_MS ? RULES_ONLY_FROM + ((instantMs - RULES_ONLY_FROM) % RULES_CYCLE_MS) : instantMs;
  let buckets = bucketOffsets.get(zone);
  if (!buckets) {
    buckets = new Map();
    bucketOffsets.set(zone, buckets);
  }
  const bucket = Math.floor(utcMs / BUCKET_MS);
  let cached = buckets.get(bucket);
  if (cached === undefined) {
    const atStart = measureOffset(zone, bucket * BUCKET_MS);
    const atEnd = measureOffset(zone, (bucket + 1) * BUCKET_MS - 1000);
    cached = atStart === atEnd ? atStart : { before: atStart, at: transitionSecond(zone, bucket * BUCKET_MS, atEnd), after: atEnd };
    buckets.set(bucket, cached);
  }
  if (typeof cached === 'number') return cached;
  // Offsets change on whole seconds (measureOffset reads the second an instant falls in).
  return Math.floor(utcMs / 1000) * 1000 >= cached.at ? cached.after : cached.before;
}

/**
 * The first second of a bucket at which the zone's offset is `after` (the bucket's one transition), found by
 * bisection: about 20 measurements once per transition, instead of one per instant that falls in that week (a
 * series expanded across DST changes measured every instance of those weeks with Intl).
 */
function transitionSecond(zone: string, bucketStartMs: number, after: number): number {
  let low = 0;
  let high = BUCKET_MS / 1000 - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (measureOffset(zone, bucketStartMs + middle * 1000) === after) high = middle;
    else low = middle + 1;
  }
  return bucketStartMs + low * 1000;
}

/** The local clock reading of an instant in a zone, as wall ms. */
export function utcToWall(zone: string, utcMs: number): number {
  return utcMs + offsetAt(zone, utcMs);
}

/**
 * The instant a local clock reading denotes. In a DST overlap (the hour that happens twice) the earlier instant
 * wins; in a gap (the hour that does not exist) the reading is pushed forward by the gap, as Google Calendar does.
 */
export function wallToUtc(zone: string, wallMs: number): number {
  const before = offsetAt(zone, wallMs - 12 * HOUR_MS);
  const after = offsetAt(zone, wallMs + 12 * HOUR_MS);
  // Larger offset first: it gives the earlier instant.
  for (const offset of before >= after ? [before, after] : [after, before]) {
    if (offsetAt(zone, wallMs - offset) === offset) return wallMs - offset;
  }
  return wallMs - Math.min(before, after);
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/** `YYYY-MM-DD` of a wall time. */
export function formatDate(wallMs: number): string {
  const date = new Date(wallMs);
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** `00`–`99`: a listing formats two times per event, and padStart was most of it. */
const TWO_DIGITS = Array.from({ length: 100 }, (_, value) => pad(value));
/** `Z` or `+HH:MM` per offset: a zone has a handful of them. */
const offsetSuffixes = new Map<number, string>();

function offsetSuffix(offset: number): string {
  let suffix = offsetSuffixes.get(offset);
  if (suffix === undefined) {
    const minutes = Math.abs(offset) / MINUTE_MS;
    suffix = offset === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
    offsetSuffixes.set(offset, suffix);
  }
  return suffix;
}

/** RFC 3339 with the zone's offset at that instant (`Z` for UTC), as Google renders event times. */
export function formatDateTime(utcMs: number, zone: string): string {
  const offset = offsetAt(zone, utcMs);
  const wall = new Date(utcMs + offset);
  const year = wall.getUTCFullYear();
  const date = year >= 0 && year <= 9999
    ? `${pad(year, 4)}-${TWO_DIGITS[wall.getUTCMonth() + 1]}-${TWO_DIGITS[wall.getUTCDate()]}`
    : formatDate(utcMs + offset);
  return `${date}T${TWO_DIGITS[wall.getUTCHours()]}:${TWO_DIGITS[wall.getUTCMinutes()]}:${TWO_DIGITS[wall.getUTCSeconds()]}${offsetSuffix(offset)}`;
}

/** iCalendar basic UTC form `YYYYMMDDTHHMMSSZ`, the suffix of a timed instance id. */
export function basicUtc(utcMs: number): string {
  const date = new Date(utcMs);
  const year = date.getUTCFullYear();
  // Every generated instance of a listing gets an id: built from fields, not by editing toISOString's text.
  if (year < 0 || year > 9999) return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  return `${pad(year, 4)}${TWO_DIGITS[date.getUTCMonth() + 1]}${TWO_DIGITS[date.getUTCDate()]}T${TWO_DIGITS[date.getUTCHours()]}${TWO_DIGITS[date.getUTCMinutes()]}${TWO_DIGITS[date.getUTCSeconds()]}Z`;
}

/** iCalendar basic date `YYYYMMDD`, the suffix of an all-day instance id. */
export function basicDate(wallMs: number): string {
  return formatDate(wallMs).replace(/-/g, '');
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;

/** A `YYYY-MM-DD` date as wall ms, or undefined when malformed or impossible (2026-02-30). */
export function parseDate(text: string): number | undefined {
  const match = DATE_PATTERN.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const wall = Date.UTC(year, month - 1, day);
  return formatDate(wall) === text ? wall : undefined;
}

/**
 * An RFC 3339 date-time as an instant. Without an offset the reading is local to `zone` (Google requires either an
 * offset or a time zone); undefined when malformed.
 */
export function parseDateTime(text: string, zone: string | undefined): number | undefined {
  const match = DATE_TIME_PATTERN.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute] = [1, 2, 3, 4, 5].map((index) => Number(match[index]));
  const second = Number(match.at(6) ?? 0);
  const wall = Date.UTC(year, (month) - 1, day, hour, minute, second);
  if (formatDate(wall) !== `${match[1]}-${match[2]}-${match[3]}` || (hour) > 23 || (minute) > 59 || second > 59) return undefined;
  const suffix = match.at(8);
  if (suffix === undefined) return zone === undefined ? undefined : wallToUtc(zone, wall);
  if (suffix === 'Z' || suffix === 'z') return wall;
  const sign = suffix.startsWith('-') ? -1 : 1;
  const digits = suffix.slice(1).replace(':', '');
  return wall - sign * (Number(digits.slice(0, 2)) * HOUR_MS + Number(digits.slice(2)) * MINUTE_MS);
}

/** A query parameter that must be an RFC 3339 timestamp with an offset (timeMin, timeMax, updatedMin). */
export function parseTimestampParameter(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const match = DATE_TIME_PATTERN.exec(raw);
  const value = match?.[8] ? parseDateTime(raw, undefined) : undefined;
  if (value === undefined) throw invalid(`Invalid value for ${name}: '${raw}' is not an RFC 3339 timestamp with a time zone offset`, name);
  return value;
}
