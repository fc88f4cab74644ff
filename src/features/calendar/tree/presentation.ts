/**
 * Words, markdown and swatches for the Calendar tree, kept out of the provider so they are unit-tested. User text
 * goes through `escapeMarkdown` (a title like "[x](command:...)" must show as typed). Times are shown in the user's
 * Calendar time zone, never the machine's.
 */
import type { CalendarEvent, CalendarListEntry, Colors, Setting } from '../../../shared/schemas/calendar';
import { escapeMarkdown } from '../../../core/markdown';
import { clockTime, dateKey } from '../time';
import { calendarName, joinLinkOf, Occurrence, selfResponse } from './model';

export { escapeMarkdown };

export function eventTitle(event: Pick<CalendarEvent, 'summary'>): string {
  return event.summary?.trim() ? event.summary : '(No title)';
}

/** "10:00–10:45", "All day", "All day (3 days)", "since Mon 23 Nov 22:00" for what started on an earlier day. */
export function timeRange(occurrence: Occurrence, timeZone: string, dayKey?: string): string {
  if (occurrence.allDay) {
    const days = Math.round((Date.parse(`${occurrence.endDate}T00:00:00Z`) - Date.parse(`${occurrence.startDate}T00:00:00Z`)) / 86_400_000);
    return days > 1 ? `All day (${days} days)` : 'All day';
  }
  const start = clockTime(occurrence.start, timeZone);
  const end = clockTime(occurrence.end, timeZone);
  const startDay = dateKey(occurrence.start, timeZone);
  const endDay = dateKey(occurrence.end, timeZone);
  if (dayKey && startDay < dayKey) return endDay === dayKey ? `until ${end}` : 'all day (continues)';
  if (occurrence.end === occurrence.start) return start;
  return endDay === startDay || (endDay > startDay && end === '00:00' && dateKey(occurrence.end - 1, timeZone) === startDay) ? `${start}–${end}` : `${start}–${endDay} ${end}`;
}

/** The row's description: the time, then (in the Agenda) the calendar, and a marker when the user declined. */
export function eventDescription(occurrence: Occurrence, timeZone: string, dayKey: string, calendar?: string): string {
  const parts = [timeRange(occurrence, timeZone, dayKey)];
  if (calendar) parts.push(calendar);
  const response = selfResponse(occurrence.event);
  if (response === 'declined') parts.push('declined');
  else if (response === 'needsAction') parts.push('not answered');
  else if (response === 'tentative') parts.push('maybe');
  if (occurrence.event.location) parts.push(occurrence.event.location);
  return parts.join(' · ');
}

const RESPONSE_WORDS: Record<string, string> = { accepted: 'accepted', declined: 'declined', tentative: 'maybe', needsAction: 'no answer yet' };

/** The lazily built hover of an event: time, calendar, location, attendees with their answers, description, call link. */
export function eventTooltip(occurrence: Occurrence, calendar: string, timeZone: string, locale?: string): string {
  const { event } = occurrence;
  const lines = [`**${escapeMarkdown(eventTitle(event))}**`, ''];
  lines.push(`${escapeMarkdown(longDate(occurrence.start, timeZone, locale))} · ${escapeMarkdown(timeRange(occurrence, timeZone))} (${escapeMarkdown(timeZone)})`);
  lines.push('', `Calendar: ${escapeMarkdown(calendar)}`);
  if (event.recurringEventId || event.recurrence?.length) lines.push('', 'Repeats');
  if (event.location) lines.push('', `Location: ${escapeMarkdown(event.location)}`);
  const join = joinLinkOf(event);
  if (join) lines.push('', `Join: ${safeLink(join, join)}`);
  if (event.attendees?.length) {
    lines.push('', 'Attendees:', '');
    for (const attendee of event.attendees) {
      const who = attendee.displayName || attendee.email || '?';
      const notes = [RESPONSE_WORDS[attendee.responseStatus ?? 'needsAction'] ?? attendee.responseStatus, attendee.organizer ? 'organizer' : undefined, attendee.optional ? 'optional' : undefined, attendee.self ? 'you' : undefined].filter(Boolean);
      lines.push(`- ${escapeMarkdown(who)} — ${escapeMarkdown(notes.join(', '))}`);
    }
  }
  if (event.description?.trim()) lines.push('', '---', '', ...event.description.split('\n').map((line) => `${escapeMarkdown(line)}  `));
  return lines.join('\n');
}

export function calendarTooltip(entry: CalendarListEntry, upcoming: number | undefined): string {
  const lines = [`**${escapeMarkdown(calendarName(entry))}**`, ''];
  if (entry.description) lines.push(escapeMarkdown(entry.description), '');
  lines.push(`Your access: ${escapeMarkdown(entry.accessRole ?? 'unknown')}${entry.primary ? ' · primary calendar' : ''}`);
  if (entry.timeZone) lines.push('', `Time zone: ${escapeMarkdown(entry.timeZone)}`);
  if (entry.hidden) lines.push('', 'Hidden from the list');
  if (upcoming !== undefined) lines.push('', `${upcoming} upcoming event${upcoming === 1 ? '' : 's'}`);
  lines.push('', `Id: \`${entry.id.replace(/`/g, '')}\``);
  return lines.join('\n');
}

/** "Monday, 24 November" in the user's zone (the locale's own words when it has them). */
export function longDate(ms: number, timeZone: string, locale?: string): string {
  return new Intl.DateTimeFormat(locale ?? 'en-GB', { timeZone, weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(ms));
}

/** A date key as a row label: "Wed 26 Nov". */
export function dayLabel(key: string, locale?: string): string {
  return new Intl.DateTimeFormat(locale ?? 'en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' }).format(new Date(`${key}T12:00:00Z`));
}

/** Only http(s) links become links; anything else (command:, javascript:) stays text. */
export function safeLink(text: string, url: string): string {
  if (!/^https?:\/\//i.test(url)) return escapeMarkdown(text);
  return `[${escapeMarkdown(text)}](${url.replace(/[()\s]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)})`;
}

const HEX = /^#[0-9a-fA-F]{6}$/;

/** A calendar's colour as an SVG data URI: a rounded square for calendars, a dot for events. */
export function swatchDataUri(color: string | undefined, shape: 'square' | 'dot' = 'square'): string {
  const fill = color && HEX.test(color) ? color : '#888888';
  const body = shape === 'dot'
    ? `<circle cx="8" cy="8" r="4" fill="${fill}"/>`
    : `<rect x="2.5" y="2.5" width="11" height="11" rx="2.5" fill="${fill}" stroke="#00000033"/>`;
  return `data:image/svg+xml;utf8,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">${body}</svg>`)}`;
}

/** The read-only "Event Details" page. */
export function eventDetailsMarkdown(occurrence: Occurrence, calendar: string, timeZone: string, locale?: string): string {
  const { event } = occurrence;
  const lines = [`# ${escapeMarkdown(eventTitle(event))}`, ''];
  const rows: Array<[string, string]> = [
    ['When', `${escapeMarkdown(longDate(occurrence.start, timeZone, locale))}, ${escapeMarkdown(timeRange(occurrence, timeZone))} (${escapeMarkdown(timeZone)})`],
    ['Calendar', escapeMarkdown(calendar)],
    ['Location', event.location ? escapeMarkdown(event.location) : '—'],
    ['Status', escapeMarkdown(event.status ?? 'confirmed')],
    ['Repeats', event.recurrence?.length ? escapeMarkdown(event.recurrence.join('; ')) : event.recurringEventId ? 'yes (an instance of a series)' : 'no'],
    ['Organizer', escapeMarkdown(event.organizer?.displayName ?? event.organizer?.email ?? '—')],
    ['Reminders', escapeMarkdown(describeReminders(event))],
    ['Join', joinLinkOf(event) ? safeLink(joinLinkOf(event) ?? '', joinLinkOf(event) ?? '') : '—'],
  ];
  lines.push('| Field | Value |', '|---|---|', ...rows.map(([field, value]) => `| ${field} | ${value.replace(/\|/g, '\\|')} |`), '');
  if (event.attendees?.length) {
    lines.push('## Attendees', '');
    for (const attendee of event.attendees) lines.push(`- ${escapeMarkdown(attendee.displayName || attendee.email || '?')}: ${RESPONSE_WORDS[attendee.responseStatus ?? 'needsAction'] ?? escapeMarkdown(attendee.responseStatus ?? '')}`);
    lines.push('');
  }
  lines.push('## Description', '', event.description?.trim() ? event.description.split('\n').map((line) => `${escapeMarkdown(line)}  `).join('\n') : '_No description._', '');
  if (event.htmlLink) lines.push(safeLink('Open in Google Calendar', event.htmlLink), '');
  return lines.join('\n');
}

export function describeReminders(event: CalendarEvent): string {
  if (event.reminders?.useDefault !== false) return 'calendar default';
  const overrides = event.reminders.overrides ?? [];
  if (overrides.length === 0) return 'none';
  return overrides.map((reminder) => `${reminder.method ?? 'popup'} ${reminder.minutes ?? 0} min before`).join(', ');
}

/** The read-only "Calendar Settings and Colours" page: settings.list and colors.get. */
export function settingsMarkdown(settings: readonly Setting[], colors: Colors): string {
  const lines = ['# Calendar settings', '', '| Setting | Value |', '|---|---|'];
  for (const setting of settings) lines.push(`| ${escapeMarkdown(setting.id)} | ${escapeMarkdown(setting.value)} |`);
  lines.push('', '## Calendar colours', '', '| Id | Background | Foreground |', '|---|---|---|');
  for (const [id, color] of Object.entries(colors.calendar)) lines.push(`| ${escapeMarkdown(id)} | ${escapeMarkdown(color.background)} | ${escapeMarkdown(color.foreground)} |`);
  lines.push('', '## Event colours', '', '| Id | Background | Foreground |', '|---|---|---|');
  for (const [id, color] of Object.entries(colors.event)) lines.push(`| ${escapeMarkdown(id)} | ${escapeMarkdown(color.background)} | ${escapeMarkdown(color.foreground)} |`);
  lines.push('');
  return lines.join('\n');
}
