/**
 * events.quickAdd's sentence parsing: chrono-node finds the date and time ("tomorrow 12:30-13:15") relative to now in
 * the user's time zone, a trailing "at …" is the location, and what remains is the summary. No time means an all-day
 * event on the date named; no date at all means the next full hour today, as Google's quick add does.
 */
import * as chrono from 'chrono-node';
import { DAY_MS, HOUR_MS, MINUTE_MS, offsetAt, wallToUtc } from '../time';

export interface QuickAddResult {
  summary: string;
  location?: string;
  allDay: boolean;
  /** Instants for timed events, wall midnights for all-day ones. */
  startMs: number;
  endMs: number;
}

function wallOf(components: chrono.ParsedComponents, withTime: boolean): number {
  const part = (name: chrono.Component): number => components.get(name) ?? 0;
  return Date.UTC(part('year'), part('month') - 1, part('day'), withTime ? part('hour') : 0, withTime ? part('minute') : 0);
}

export function parseQuickAdd(text: string, zone: string, now: number, defaultMinutes: number): QuickAddResult {
  const length = (Number.isFinite(defaultMinutes) && defaultMinutes > 0 ? defaultMinutes : 60) * MINUTE_MS;
  const reference = { instant: new Date(now), timezone: offsetAt(zone, now) / MINUTE_MS };
  const found = chrono.parse(text, reference, { forwardDate: true }).at(0);
  let rest = found ? `${text.slice(0, found.index)} ${text.slice(found.index + found.text.length)}` : text;

  let location: string | undefined;
  const at = /\s(?:at|@)\s+(.+)$/i.exec(` ${rest.trim()}`);
  if (at?.[1]) {
    location = at[1].trim();
    rest = ` ${rest.trim()}`.slice(0, at.index);
  }
  const summary = rest.replace(/\s+/g, ' ').trim().replace(/\s+(?:on|at|from|@)$/i, '').trim() || text.trim();

  if (!found) {
    const start = Math.ceil(now / HOUR_MS) * HOUR_MS;
    return { summary, ...(location ? { location } : {}), allDay: false, startMs: start, endMs: start + length };
  }
  if (!found.start.isCertain('hour')) {
    const day = wallOf(found.start, false);
    const lastDay = found.end ? wallOf(found.end, false) : day;
    return { summary, ...(location ? { location } : {}), allDay: true, startMs: day, endMs: Math.max(lastDay, day) + DAY_MS };
  }
  const start = wallToUtc(zone, wallOf(found.start, true));
  let end = found.end ? wallToUtc(zone, wallOf(found.end, true)) : start + length;
  // "22:00-01:00" ends the next day.
  if (end <= start) end = found.end ? end + DAY_MS : start + length;
  return { summary, ...(location ? { location } : {}), allDay: false, startMs: start, endMs: end };
}
