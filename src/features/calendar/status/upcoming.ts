/**
 * What the status bar and the reminder notifications show, computed from the events already synced (no network):
 * the next timed event with a countdown ("in 12 min: Standup"), and the popup reminders due in a time span (the
 * event's own popup overrides, or its calendar's default reminders). Pure, so both are unit-tested with a fake clock.
 */
import type { CalendarEvent, EventReminder } from '../../../shared/schemas/calendar';
import { english, Translate } from '../../../shared/l10n';
import { eventTitle } from '../tree/presentation';
import { addDays, dateKey, describeMinutes, MINUTE_MS, minutesUntil, startOfDay } from '../time';
import { Occurrence, selfResponse } from '../tree/model';

/**
 * How far ahead the status bar looks: to the end of today in the Calendar zone (the Calendar view's Today), so what
 * it shows never depends on the hour (a rolling 24 hours showed tomorrow's 9:00 at 20:00 but not at 8:00).
 */
export function endOfToday(now: number, timeZone: string): number {
  return startOfDay(addDays(dateKey(now, timeZone), 1), timeZone);
}

function counts(occurrence: Occurrence): boolean {
  return !occurrence.allDay && selfResponse(occurrence.event) !== 'declined' && occurrence.event.transparency !== 'transparent';
}

/** The event that is on now (the latest started) or next today; all-day and declined events do not count. */
export function nextOccurrence(occurrences: readonly Occurrence[], now: number, timeZone: string): Occurrence | undefined {
  const horizon = endOfToday(now, timeZone);
  const candidates = occurrences.filter((occurrence) => counts(occurrence) && occurrence.end > now && occurrence.start < horizon);
  const upcoming = candidates.filter((occurrence) => occurrence.start > now).sort((a, b) => a.start - b.start).at(0);
  // An event starting within 5 minutes wins over one that is on now: it is what needs attention.
  if (upcoming && upcoming.start - now <= 5 * MINUTE_MS) return upcoming;
  const current = candidates.filter((occurrence) => occurrence.start <= now).sort((a, b) => b.start - a.start).at(0);
  return current ?? upcoming;
}

/** The most of an event's title the status bar shows; the hover has it whole. */
export const STATUS_TITLE_MAX = 40;

/** "in 12 min: Standup", "now: Standup (ends in 5 min)"; a long title is cut with "…" so the status bar keeps its other items. */
export function countdownText(occurrence: Occurrence, now: number, t: Translate = english): string {
  const whole = eventTitle(occurrence.event, t);
  const characters = Array.from(whole);
  const title = characters.length > STATUS_TITLE_MAX ? `${characters.slice(0, STATUS_TITLE_MAX - 1).join('').trimEnd()}…` : whole;
  if (occurrence.start <= now) return t('now: {0} (ends in {1})', title, describeMinutes(minutesUntil(now, occurrence.end), t));
  return t('in {0}: {1}', describeMinutes(minutesUntil(now, occurrence.start), t), title);
}

/** The popup reminders of an event: its overrides, or the calendar's defaults when it uses them. */
export function popupReminders(event: CalendarEvent, calendarDefaults: readonly EventReminder[]): number[] {
  const reminders = event.reminders?.useDefault === false ? (event.reminders.overrides ?? []) : calendarDefaults;
  return reminders.filter((reminder) => (reminder.method ?? 'popup') === 'popup' && typeof reminder.minutes === 'number').map((reminder) => reminder.minutes as number);
}

export interface DueReminder {
  /** Unique per event instance and reminder, so each fires once. */
  readonly key: string;
  readonly occurrence: Occurrence;
  readonly minutes: number;
}

/** The reminders whose time falls in (from, to]: what the minute tick notifies about. */
export function dueReminders(occurrences: readonly Occurrence[], defaultsOf: (calendarId: string) => readonly EventReminder[], from: number, to: number): DueReminder[] {
  const due: DueReminder[] = [];
  for (const occurrence of occurrences) {
    if (selfResponse(occurrence.event) === 'declined') continue;
    for (const minutes of new Set(popupReminders(occurrence.event, defaultsOf(occurrence.calendarId)))) {
      const at = occurrence.start - minutes * MINUTE_MS;
      if (at > from && at <= to && occurrence.start > from) due.push({ key: `${occurrence.calendarId}/${occurrence.event.id}/${occurrence.start}/${minutes}`, occurrence, minutes });
    }
  }
  return due.sort((a, b) => a.occurrence.start - b.occurrence.start);
}
