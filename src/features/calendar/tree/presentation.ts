/**
 * Words, markdown and swatches for the Calendar tree, kept out of the provider so they are unit-tested. User text
 * goes through `escapeMarkdown` (a title like "[x](command:...)" must show as typed). Times are shown in the user's
 * Calendar time zone, never the machine's. Desk's own words go through `t` (vscode.l10n.t from the provider).
 */
import type { CalendarEvent, CalendarListEntry, Colors, Setting } from '../../../shared/schemas/calendar';
import { escapeMarkdown } from '../../../core/text/markdown';
import { english, Translate } from '../../../shared/l10n';
import { clockTime, dateKey } from '../time';
import { calendarName, joinLinkOf, Occurrence, selfResponse } from './model';

export { escapeMarkdown };

export function eventTitle(event: Pick<CalendarEvent, 'summary'>, t: Translate = english): string {
  return event.summary?.trim() ? event.summary : t('(No title)');
}

/** "10:00–10:45", "All day", "All day (3 days)", "22:00–Sat 28 Nov 02:00" for what ends on a later day. */
export function timeRange(occurrence: Occurrence, timeZone: string, dayKey?: string, t: Translate = english, locale?: string): string {
  if (occurrence.allDay) {
    const days = Math.round((Date.parse(`${occurrence.endDate ?? ''}T00:00:00Z`) - Date.parse(`${occurrence.startDate ?? ''}T00:00:00Z`)) / 86_400_000);
    return days > 1 ? t('All day ({0} days)', days) : t('All day');
  }
  const start = clockTime(occurrence.start, timeZone);
  const end = clockTime(occurrence.end, timeZone);
  const startDay = dateKey(occurrence.start, timeZone);
  const endDay = dateKey(occurrence.end, timeZone);
  if (dayKey && startDay < dayKey) return endDay === dayKey ? t('until {0}', end) : t('all day (continues)');
  if (occurrence.end === occurrence.start) return start;
  return endDay === startDay || (endDay > startDay && end === '00:00' && dateKey(occurrence.end - 1, timeZone) === startDay) ? `${start}–${end}` : `${start}–${dayLabel(endDay, locale)} ${end}`;
}

/** The row's description: the time, then (in the Agenda) the calendar, and a marker when the user declined. */
export function eventDescription(occurrence: Occurrence, timeZone: string, dayKey: string, calendar?: string, t: Translate = english, locale?: string): string {
  const parts = [timeRange(occurrence, timeZone, dayKey, t, locale)];
  if (calendar) parts.push(calendar);
  const response = selfResponse(occurrence.event);
  if (response === 'declined') parts.push(t('declined'));
  else if (response === 'needsAction') parts.push(t('not answered'));
  else if (response === 'tentative') parts.push(t('maybe'));
  if (occurrence.event.location) parts.push(occurrence.event.location);
  return parts.join(' · ');
}

/** An attendee's answer in words; an unknown status as it came. */
function responseWord(status: string, t: Translate): string {
  switch (status) {
    case 'accepted': return t('accepted');
    case 'declined': return t('declined');
    case 'tentative': return t('maybe');
    case 'needsAction': return t('no answer yet');
    default: return status;
  }
}

/** The lazily built hover of an event: time, calendar, location, attendees with their answers, description, call link. */
export function eventTooltip(occurrence: Occurrence, calendar: string, timeZone: string, locale?: string, t: Translate = english): string {
  const { event } = occurrence;
  const lines = [`**${escapeMarkdown(eventTitle(event, t))}**`, ''];
  lines.push(`${escapeMarkdown(longDate(occurrence.start, timeZone, locale))} · ${escapeMarkdown(timeRange(occurrence, timeZone, undefined, t, locale))} (${escapeMarkdown(timeZone)})`);
  lines.push('', t('Calendar: {0}', escapeMarkdown(calendar)));
  if (event.recurringEventId || event.recurrence?.length) lines.push('', t('Repeats'));
  if (event.location) lines.push('', t('Location: {0}', escapeMarkdown(event.location)));
  const join = joinLinkOf(event);
  if (join) lines.push('', t('Join: {0}', safeLink(join, join)));
  if (event.attendees?.length) {
    lines.push('', t('Attendees:'), '');
    for (const attendee of event.attendees) {
      const who = attendee.displayName || attendee.email || '?';
      const notes = [responseWord(attendee.responseStatus ?? 'needsAction', t), attendee.organizer ? t('organizer') : undefined, attendee.optional ? t('optional') : undefined, attendee.self ? t('you') : undefined].filter(Boolean);
      lines.push(`- ${escapeMarkdown(who)} — ${escapeMarkdown(notes.join(', '))}`);
    }
  }
  // One joined entry, not one argument per line: a description of 500,000 lines overflowed the call stack.
  if (event.description?.trim()) lines.push('', '---', '', event.description.split('\n').map((line) => `${escapeMarkdown(line)}  `).join('\n'));
  return lines.join('\n');
}

export function calendarTooltip(entry: CalendarListEntry, upcoming: number | undefined, t: Translate = english): string {
  const lines = [`**${escapeMarkdown(calendarName(entry))}**`, ''];
  if (entry.description) lines.push(escapeMarkdown(entry.description), '');
  const access = escapeMarkdown(entry.accessRole ?? t('unknown'));
  lines.push(entry.primary ? t('Your access: {0} · primary calendar', access) : t('Your access: {0}', access));
  if (entry.timeZone) lines.push('', t('Time zone: {0}', escapeMarkdown(entry.timeZone)));
  if (entry.hidden) lines.push('', t('Hidden from the list'));
  if (upcoming !== undefined) lines.push('', upcoming === 1 ? t('1 upcoming event') : t('{0} upcoming events', upcoming));
  lines.push('', t('Id: {0}', `\`${entry.id.replace(/`/g, '')}\``));
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

/** "Thu 26 Nov · 10:00–10:45", "Fri 27 Nov · All day": an occurrence in a picker or a message, its day as the Agenda's rows write it. */
export function whenLabel(occurrence: Occurrence, timeZone: string, locale?: string, t: Translate = english): string {
  const day = occurrence.allDay && occurrence.startDate ? occurrence.startDate : dateKey(occurrence.start, timeZone);
  return `${dayLabel(day, locale)} · ${timeRange(occurrence, timeZone, undefined, t, locale)}`;
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
export function eventDetailsMarkdown(occurrence: Occurrence, calendar: string, timeZone: string, locale?: string, t: Translate = english): string {
  const { event } = occurrence;
  const lines = [`# ${escapeMarkdown(eventTitle(event, t))}`, ''];
  const rows: Array<[string, string]> = [
    [t('When'), `${escapeMarkdown(longDate(occurrence.start, timeZone, locale))}, ${escapeMarkdown(timeRange(occurrence, timeZone, undefined, t, locale))} (${escapeMarkdown(timeZone)})`],
    [t('Calendar'), escapeMarkdown(calendar)],
    [t('Location'), event.location ? escapeMarkdown(event.location) : '—'],
    // Google's status words are for programs: a confirmed event says nothing, the others say what they mean.
    ...(event.status === 'tentative' ? [[t('Status'), t('tentative (not confirmed yet)')] as [string, string]] : []),
    ...(event.status === 'cancelled' ? [[t('Status'), t('cancelled')] as [string, string]] : []),
    [t('Repeats'), event.recurrence?.length ? escapeMarkdown(event.recurrence.join('; ')) : event.recurringEventId ? t('yes (an instance of a series)') : t('no')],
    [t('Organizer'), escapeMarkdown(event.organizer?.displayName ?? event.organizer?.email ?? '—')],
    [t('Reminders'), escapeMarkdown(describeReminders(event, t))],
    [t('Join'), joinLinkOf(event) ? safeLink(joinLinkOf(event) ?? '', joinLinkOf(event) ?? '') : '—'],
  ];
  lines.push(`| ${t('Field')} | ${t('Value')} |`, '|---|---|', ...rows.map(([field, value]) => `| ${field} | ${value.replace(/\|/g, '\\|')} |`), '');
  if (event.attendees?.length) {
    lines.push(`## ${t('Attendees')}`, '');
    for (const attendee of event.attendees) lines.push(`- ${escapeMarkdown(attendee.displayName || attendee.email || '?')}: ${escapeMarkdown(responseWord(attendee.responseStatus ?? 'needsAction', t))}`);
    lines.push('');
  }
  lines.push(`## ${t('Description')}`, '', event.description?.trim() ? event.description.split('\n').map((line) => `${escapeMarkdown(line)}  `).join('\n') : `_${t('No description.')}_`, '');
  if (event.htmlLink) lines.push(safeLink(t('Open in Google Calendar'), event.htmlLink), '');
  return lines.join('\n');
}

export function describeReminders(event: CalendarEvent, t: Translate = english): string {
  if (event.reminders?.useDefault !== false) return t('calendar default');
  const overrides = event.reminders.overrides ?? [];
  if (overrides.length === 0) return t('none');
  return overrides.map((reminder) => t('{0} {1} min before', reminder.method ?? 'popup', reminder.minutes ?? 0)).join(', ');
}

/** The read-only "Calendar Settings and Colours" page: settings.list and colors.get. */
export function settingsMarkdown(settings: readonly Setting[], colors: Colors, t: Translate = english): string {
  const colorHeader = `| ${t('Id')} | ${t('Background')} | ${t('Foreground')} |`;
  const lines = [`# ${t('Calendar settings')}`, '', `| ${t('Setting')} | ${t('Value')} |`, '|---|---|'];
  for (const setting of settings) lines.push(`| ${escapeMarkdown(setting.id)} | ${escapeMarkdown(setting.value)} |`);
  lines.push('', `## ${t('Calendar colours')}`, '', colorHeader, '|---|---|---|');
  for (const [id, color] of Object.entries(colors.calendar)) lines.push(`| ${escapeMarkdown(id)} | ${escapeMarkdown(color.background)} | ${escapeMarkdown(color.foreground)} |`);
  lines.push('', `## ${t('Event colours')}`, '', colorHeader, '|---|---|---|');
  for (const [id, color] of Object.entries(colors.event)) lines.push(`| ${escapeMarkdown(id)} | ${escapeMarkdown(color.background)} | ${escapeMarkdown(color.foreground)} |`);
  lines.push('');
  return lines.join('\n');
}
