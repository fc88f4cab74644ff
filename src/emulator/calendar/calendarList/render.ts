/** Calendar-list entries as `calendar#calendarListEntry` resources. */
import type { AccessRole } from '../../../shared/schemas/calendar';
import { dataOwnerOf } from '../calendars/render';
import type { StoredCalendar } from '../calendars/model';
import { CALENDAR_COLORS } from '../settings/colors';
import type { StoredListEntry } from './model';

/**
 * An entry combines the calendar's metadata with the user's own settings. Colours: a palette id shows its
 * background with a black foreground (as Google answers); custom RGB colours show as set. `hidden`, `primary` and
 * `deleted` appear only when true.
 */
export function renderListEntry(entry: StoredListEntry, calendar: StoredCalendar | undefined, role: AccessRole): Record<string, unknown> {
  if (entry.deleted || !calendar) return { kind: 'calendar#calendarListEntry', etag: entry.etag, id: entry.calendarId, deleted: true };
  const palette = entry.colorId !== undefined ? CALENDAR_COLORS[entry.colorId] : undefined;
  return {
    kind: 'calendar#calendarListEntry',
    etag: entry.etag,
    id: calendar.id,
    summary: calendar.summary,
    ...(calendar.description !== undefined ? { description: calendar.description } : {}),
    ...(calendar.location !== undefined ? { location: calendar.location } : {}),
    timeZone: calendar.timeZone,
    ...(entry.summaryOverride !== undefined ? { summaryOverride: entry.summaryOverride } : {}),
    ...(entry.colorId !== undefined ? { colorId: entry.colorId } : {}),
    backgroundColor: entry.backgroundColor ?? palette?.background ?? '#9fe1e7',
    foregroundColor: entry.foregroundColor ?? '#000000',
    ...(entry.hidden ? { hidden: true } : {}),
    selected: entry.selected,
    accessRole: role,
    defaultReminders: entry.defaultReminders,
    ...(entry.notifications.length > 0 ? { notificationSettings: { notifications: entry.notifications } } : {}),
    ...(calendar.primary && calendar.ownerId === entry.userId ? { primary: true } : {}),
    ...dataOwnerOf(calendar),
    ...(calendar.conferenceProperties ? { conferenceProperties: calendar.conferenceProperties } : {}),
  };
}
