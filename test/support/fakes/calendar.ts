/** A fake Calendar port for unit tests: calendar list entries and events in memory, with sync tokens and a 410 switch. */
import { GoogleApiError } from '../../../src/api/errors';
import type { ListCalendarListOptions, ListEventsOptions } from '../../../src/api/calendar';
import type { CalendarEvent, CalendarListEntry, EventsPage } from '../../../src/shared/schemas/calendar';

export function entry(id: string, extra: Partial<CalendarListEntry> = {}): CalendarListEntry {
  return { kind: 'calendar#calendarListEntry', id, etag: `"${id}"`, summary: id, accessRole: 'owner', backgroundColor: '#9fc6e7', selected: true, ...extra };
}

export function timed(id: string, start: string, end: string, extra: Partial<CalendarEvent> = {}): CalendarEvent {
  return { kind: 'calendar#event', id, etag: `"${id}"`, status: 'confirmed', summary: id, start: { dateTime: start }, end: { dateTime: end }, ...extra };
}

export function allDay(id: string, start: string, end: string, extra: Partial<CalendarEvent> = {}): CalendarEvent {
  return { kind: 'calendar#event', id, etag: `"${id}"`, status: 'confirmed', summary: id, start: { date: start }, end: { date: end }, ...extra };
}

/** Events per calendar; every change bumps a sequence number that the sync tokens carry. */
export class FakeCalendarApi {
  readonly listCalls: Array<{ calendarId: string; options: ListEventsOptions }> = [];
  private seq = 1;
  private readonly changedAt = new Map<string, number>();
  /** Tokens older than this are answered with 410. */
  floor = 0;
  readonly events = new Map<string, Map<string, CalendarEvent>>();

  constructor(readonly entries: CalendarListEntry[], events: Record<string, CalendarEvent[]> = {}) {
    for (const [calendarId, list] of Object.entries(events)) {
      this.events.set(calendarId, new Map(list.map((event) => [event.id, event])));
      for (const event of list) this.changedAt.set(`${calendarId}/${event.id}`, this.seq);
    }
  }

  /** Changes an event "elsewhere" (another client): it shows up in the next sync. */
  put(calendarId: string, event: CalendarEvent): void {
    const events = this.events.get(calendarId) ?? new Map<string, CalendarEvent>();
    events.set(event.id, event);
    this.events.set(calendarId, events);
    this.changedAt.set(`${calendarId}/${event.id}`, ++this.seq);
  }

  cancel(calendarId: string, eventId: string): void {
    const event = this.events.get(calendarId)?.get(eventId);
    if (event) this.put(calendarId, { ...event, status: 'cancelled' });
  }

  async *allCalendarListEntries(options: ListCalendarListOptions = {}): AsyncGenerator<CalendarListEntry> {
    yield* this.entries.filter((item) => options.showHidden || !item.hidden);
  }

  async listEvents(calendarId: string, options: ListEventsOptions = {}): Promise<EventsPage> {
    this.listCalls.push({ calendarId, options });
    const all = [...(this.events.get(calendarId)?.values() ?? [])];
    if (options.syncToken) {
      const since = Number(options.syncToken.replace('sync-', ''));
      if (since < this.floor) throw new GoogleApiError(410, 'Sync token is no longer valid, a full sync is required.', 'fullSyncRequired', [], undefined);
      const items = all.filter((event) => (this.changedAt.get(`${calendarId}/${event.id}`) ?? 0) > since);
      return { kind: 'calendar#events', items, nextSyncToken: `sync-${this.seq}` };
    }
    return { kind: 'calendar#events', items: all.filter((event) => event.status !== 'cancelled'), nextSyncToken: `sync-${this.seq}` };
  }
}
