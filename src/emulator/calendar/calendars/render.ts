/** Calendars as `calendar#calendar` resources. */
import { findUser } from '../../identity/users';
import type { StoredCalendar } from './model';

/** `dataOwner` is set only for secondary calendars (a primary's owner is its id). */
export function dataOwnerOf(calendar: StoredCalendar): Record<string, string> {
  if (calendar.primary) return {};
  const owner = findUser(calendar.ownerId);
  return owner ? { dataOwner: owner.email } : {};
}

export function renderCalendar(calendar: StoredCalendar): Record<string, unknown> {
  return {
    kind: 'calendar#calendar',
    etag: calendar.etag,
    id: calendar.id,
    summary: calendar.summary,
    ...(calendar.description !== undefined ? { description: calendar.description } : {}),
    ...(calendar.location !== undefined ? { location: calendar.location } : {}),
    timeZone: calendar.timeZone,
    ...dataOwnerOf(calendar),
    ...(calendar.conferenceProperties ? { conferenceProperties: calendar.conferenceProperties } : {}),
  };
}
