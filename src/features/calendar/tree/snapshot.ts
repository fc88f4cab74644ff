/**
 * Where the Calendar view's cache is (core/storage/viewCache.ts): the slot of the Agenda's first rows (the calendars, the
 * zone and the Agenda's events), the check of what is read back, and the reader for other features (search). The tree
 * model (model.ts) reads and writes the slot.
 */
import type { ViewCache, ViewCacheSlot } from '../../../core/storage/viewCache';
import { calendarListEntrySchema, eventSchema, type CalendarListEntry } from '../../../shared/schemas/calendar';
import * as z from '../../../shared/schemas/zod';

/** What the view keeps for its next start: the calendars, the zone, and the events the Agenda showed. */
const agendaSnapshotSchema = z.object({
  calendars: z.array(calendarListEntrySchema),
  timeZone: z.string(),
  events: z.array(z.object({ calendarId: z.string(), event: eventSchema })),
  /** The task lists whose due tasks the Agenda showed (older snapshots have none). */
  taskLists: z.optional(z.array(z.object({ id: z.string(), title: z.optional(z.string()) }))),
});
export type AgendaSnapshot = z.infer<typeof agendaSnapshotSchema>;
export const isAgendaSnapshot = (data: unknown): data is AgendaSnapshot => agendaSnapshotSchema.safeParse(data).success;
/** Events kept: a few weeks of a busy agenda, well within the cache file's bound. */
export const CACHED_AGENDA_EVENTS = 150;

/** The view's slot (one file per account): the calendars, the zone and the Agenda as last shown. */
export const AGENDA_SNAPSHOT: ViewCacheSlot<AgendaSnapshot> = { name: 'calendar-agenda', isValid: isAgendaSnapshot };

/** The calendar list as the Agenda's cache has it for `account` (default: the first signed in), from disk, no request. */
export async function cachedCalendars(cache: ViewCache, account?: string): Promise<CalendarListEntry[] | undefined> {
  return (await cache.slot(AGENDA_SNAPSHOT, account).read())?.calendars;
}
