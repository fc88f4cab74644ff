/**
 * New events made while Calendar cannot be reached: kept in Desk's write queue with an id Desk chose (Calendar accepts
 * client-chosen ids), shown in the Agenda at once, and inserted when the service is back. Repeating an insert with the
 * same id is answered 409 duplicate when an earlier one landed, so the event is never made twice.
 */
import { randomBytes } from 'node:crypto';
import { GoogleApiError } from '../../api/errors';
import type { DeskContext } from '../../core/deskContext';
import type { DisposableLike } from '../../core/disposable';
import type { QueuedChange, ReplayOutcome } from '../../core/sync/writeQueue';
import type { CalendarEvent, CalendarListEntry, EventWrite } from '../../shared/schemas/calendar';
import type { CalendarApi } from './port';
import type { EventStore } from './sync/eventStore';
import { calendarName } from './tree/model';

export const CALENDAR_INSERT_CHANGE = 'calendar.insertEvent';

interface InsertIntent {
  readonly calendarId: string;
  readonly event: EventWrite & { readonly id: string };
}

/** An event id Calendar accepts from a client: base32hex (a–v, 0–9), here 26 characters of randomness. */
export function clientEventId(): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuv';
  return [...randomBytes(26)].map((byte) => alphabet[byte % 32]).join('');
}

export interface CalendarOfflineHost {
  readonly desk: Pick<DeskContext, 'vs' | 'offlineQueue' | 'log'>;
  readonly api: () => Pick<CalendarApi, 'insertEvent'>;
  readonly store: Pick<EventStore, 'apply'>;
  /** After a replayed insert: the calendar catches up (its sync token) and redraws. */
  readonly onInserted: (calendarId: string) => Promise<void> | void;
}

export class CalendarOfflineWrites {
  constructor(private readonly host: CalendarOfflineHost) {}

  register(): DisposableLike {
    return this.host.desk.offlineQueue.registerReplayer(CALENDAR_INSERT_CHANGE, (change) => this.replayInsert(change));
  }

  /** Keeps a new event and shows it in the Agenda (when its calendar is loaded) until the insert is replayed. */
  async insertEvent(calendar: CalendarListEntry, body: EventWrite): Promise<CalendarEvent> {
    const event = { ...body, id: typeof body.id === 'string' ? body.id : clientEventId() };
    const intent: InsertIntent = { calendarId: calendar.id, event };
    const t = this.host.desk.vs.l10n.t;
    await this.host.desk.offlineQueue.add({ kind: CALENDAR_INSERT_CHANGE, summary: t('New event “{0}” in {1}', body.summary ?? '', calendarName(calendar)), intent: { ...intent } });
    const local = { ...event, status: 'confirmed' } as CalendarEvent;
    this.host.store.apply(calendar.id, [local]);
    return local;
  }

  private async replayInsert(change: QueuedChange): Promise<ReplayOutcome> {
    const intent = change.intent as unknown as InsertIntent;
    try {
      await this.host.api().insertEvent(intent.calendarId, intent.event);
    } catch (error) {
      // The id exists: an earlier insert of this very event landed.
      if (!(error instanceof GoogleApiError && error.status === 409)) throw error;
      this.host.desk.log.info(`Calendar: the insert of ${intent.event.id} had landed already`);
    }
    await this.host.onInserted(intent.calendarId);
    return 'applied';
  }
}
