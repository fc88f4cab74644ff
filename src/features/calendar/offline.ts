/**
 * Event writes made while Calendar cannot be reached, kept in Desk's write queue, shown in the Agenda at once and sent
 * when the service is back. New events carry an id Desk chose (Calendar accepts client-chosen ids): a repeat of an
 * insert that landed is answered 409 duplicate, so the event is never made twice. Edits are patches sent with the
 * etag they were made on: a 412 whose event already shows the change means an earlier send landed; a change made
 * elsewhere asks Compare / Overwrite / Cancel; an event deleted elsewhere says so and opens the change in an editor.
 * Deletes are done once the event is gone (404/410 included). A response to an invitation (Yes / No / Maybe) sets the
 * user's own attendee entry on the event as it is when sent: the same response again changes nothing.
 */
import { randomBytes } from 'node:crypto';
import { GoogleApiError } from '../../api/errors';
import type { DeskContext } from '../../core/deskContext';
import type { DisposableLike } from '../../core/disposable';
import { askOverwriteKept } from '../../core/ui/saveConflict';
import { ReplayTable } from '../../core/offline/replayTable';
import type { QueuedChange, ReplayOutcome } from '../../core/offline/writeQueue';
import type { CalendarEvent, CalendarListEntry, EventWrite } from '../../shared/schemas/calendar';
import type { CalendarApi } from './port';
import type { EventStore } from './sync/eventStore';
import { calendarName } from './tree/model';

/** The user's answer to an invitation, as Calendar spells it in attendees[].responseStatus. */
export type EventResponse = 'accepted' | 'declined' | 'tentative';

interface PatchIntent {
  readonly calendarId: string;
  readonly eventId: string;
  readonly title: string;
  readonly body: EventWrite;
  readonly baseEtag?: string;
  /** What the user saw of the version edited (seenOf): a 412 over the same content is no change of anyone's. */
  readonly baseSeen?: string;
}

interface DeleteIntent {
  readonly calendarId: string;
  readonly eventId: string;
  /** Undefined for a whole series (deleted whatever its version). */
  readonly baseEtag?: string;
}

interface InsertIntent {
  readonly calendarId: string;
  readonly event: EventWrite & { readonly id: string };
}

interface RespondIntent {
  readonly calendarId: string;
  readonly eventId: string;
  readonly response: EventResponse;
}

/** Each kind of Calendar change and its intent (queued as `calendar.<kind>`). */
interface CalendarIntents { insertEvent: InsertIntent; patchEvent: PatchIntent; deleteEvent: DeleteIntent; respond: RespondIntent }

/** The event with the user's own attendee entry answering `response` (undefined when the user is not invited). */
export function withResponse(event: CalendarEvent, response: EventResponse): CalendarEvent['attendees'] | undefined {
  if (!event.attendees?.some((attendee) => attendee.self)) return undefined;
  return event.attendees.map((attendee) => (attendee.self ? { ...attendee, responseStatus: response } : attendee));
}

/** An event id Calendar accepts from a client: base32hex (a–v, 0–9), here 26 characters of randomness. */
export function clientEventId(): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuv';
  return [...randomBytes(26)].map((byte) => alphabet[byte % 32]).join('');
}

export interface CalendarOfflineHost {
  readonly desk: Pick<DeskContext, 'vs' | 'offlineQueue' | 'log'>;
  readonly api: () => Pick<CalendarApi, 'insertEvent' | 'getEvent' | 'patchEvent' | 'deleteEvent'>;
  readonly store: Pick<EventStore, 'apply'>;
  /** After a replayed insert: the calendar catches up (its sync token) and redraws. */
  readonly onInserted: (calendarId: string) => Promise<void> | void;
}

export class CalendarOfflineWrites {
  private readonly changes: ReplayTable<CalendarIntents>;

  constructor(private readonly host: CalendarOfflineHost) {
    this.changes = new ReplayTable<CalendarIntents>(() => host.desk.offlineQueue, 'calendar', {
      insertEvent: (intent) => this.replayInsert(intent),
      patchEvent: (intent, change) => this.replayPatch(intent, change),
      deleteEvent: (intent, change) => this.replayDelete(intent, change),
      respond: (intent, change) => this.replayRespond(intent, change),
    });
  }

  register(): DisposableLike[] {
    return this.changes.register();
  }

  /** An edit (one field of Edit Event) of the version `base`: kept, and shown in the Agenda at once. */
  async patchEvent(calendarId: string, base: CalendarEvent, body: EventWrite, title: string): Promise<CalendarEvent> {
    const intent: PatchIntent = { calendarId, eventId: base.id, title, body, ...(base.etag ? { baseEtag: base.etag } : {}), baseSeen: seenOf(base) };
    await this.changes.keep('patchEvent', this.host.desk.vs.l10n.t('Edit “{0}”', title), intent);
    const local = { ...base, ...body } as CalendarEvent;
    this.host.store.apply(calendarId, [local]);
    return local;
  }

  /** A delete of an event (with the etag it was confirmed on) or of a whole series: kept, and gone from the Agenda at once. */
  async deleteEvent(calendarId: string, event: CalendarEvent, eventId: string, title: string): Promise<void> {
    const series = eventId !== event.id;
    const intent: DeleteIntent = { calendarId, eventId, ...(!series && event.etag ? { baseEtag: event.etag } : {}) };
    await this.changes.keep('deleteEvent', this.host.desk.vs.l10n.t('Delete “{0}”', title), intent);
    // Cancelled: a single event or a series leaves; an instance stays as the cancelled exception that hides it.
    this.host.store.apply(calendarId, [series ? ({ id: eventId, status: 'cancelled' }) : { ...event, status: 'cancelled' }]);
  }

  /** Keeps a new event and shows it in the Agenda (when its calendar is loaded) until the insert is replayed. */
  async insertEvent(calendar: CalendarListEntry, body: EventWrite): Promise<CalendarEvent> {
    const event = { ...body, id: typeof body.id === 'string' ? body.id : clientEventId() };
    const intent: InsertIntent = { calendarId: calendar.id, event };
    const t = this.host.desk.vs.l10n.t;
    await this.changes.keep('insertEvent', t('New event “{0}” in {1}', body.summary ?? '', calendarName(calendar)), intent);
    const local = { ...event, status: 'confirmed' } as CalendarEvent;
    this.host.store.apply(calendar.id, [local]);
    return local;
  }

  /** A response to an invitation (Yes / No / Maybe): kept, and shown on the event's row at once. */
  async respond(calendarId: string, event: CalendarEvent, response: EventResponse, title: string): Promise<void> {
    const t = this.host.desk.vs.l10n.t;
    const word = response === 'accepted' ? t('Yes') : response === 'declined' ? t('No') : t('Maybe');
    await this.changes.keep('respond', t('Answer “{0}” to “{1}”', word, title), { calendarId, eventId: event.id, response });
    const attendees = withResponse(event, response);
    if (attendees) this.host.store.apply(calendarId, [{ ...event, attendees }]);
  }

  /** Re-reads the event and sets the user's own entry: the same answer sent twice leaves the event the same. */
  private async replayRespond(intent: RespondIntent, change: QueuedChange): Promise<ReplayOutcome> {
    const api = this.host.api();
    let current: CalendarEvent;
    try {
      current = await api.getEvent(intent.calendarId, intent.eventId);
    } catch (error) {
      if (!isGone(error)) throw error;
      current = { id: intent.eventId, status: 'cancelled' };
    }
    const attendees = current.status === 'cancelled' ? undefined : withResponse(current, intent.response);
    if (!attendees) {
      void this.host.desk.vs.window.showWarningMessage(this.host.desk.vs.l10n.t('“{0}” could not be sent: the event was deleted or you are no longer invited.', change.summary));
      return 'applied';
    }
    if (current.attendees?.find((attendee) => attendee.self)?.responseStatus !== intent.response) {
      await api.patchEvent(intent.calendarId, intent.eventId, { attendees });
    }
    await this.host.onInserted(intent.calendarId);
    return 'applied';
  }

  private async replayInsert(intent: InsertIntent): Promise<ReplayOutcome> {
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

  private async replayPatch(intent: PatchIntent, change: QueuedChange): Promise<ReplayOutcome> {
    const api = this.host.api();
    const patch = (ifMatch: string | undefined): Promise<CalendarEvent> => api.patchEvent(intent.calendarId, intent.eventId, intent.body, ifMatch ? { ifMatch } : {});
    try {
      await patch(intent.baseEtag);
    } catch (error) {
      if (isGone(error)) {
        await this.keepChange(this.host.desk.vs.l10n.t('“{0}” could not be sent: the event was deleted elsewhere. Your change is in a new editor.', change.summary), intent.body);
        return 'applied';
      }
      if (!(error instanceof GoogleApiError && error.isConflict)) throw error;
      let current: CalendarEvent;
      try {
        current = await api.getEvent(intent.calendarId, intent.eventId);
      } catch (readError) {
        if (!isGone(readError)) throw readError;
        await this.keepChange(this.host.desk.vs.l10n.t('“{0}” could not be sent: the event was deleted elsewhere. Your change is in a new editor.', change.summary), intent.body);
        return 'applied';
      }
      if (current.status === 'cancelled') {
        await this.keepChange(this.host.desk.vs.l10n.t('“{0}” could not be sent: the event was deleted elsewhere. Your change is in a new editor.', change.summary), intent.body);
        return 'applied';
      }
      // An earlier send of this very change landed (its answer was lost): nothing to send again.
      if (!shows(current, intent.body)) {
        const changedElsewhere = seenOf(current) !== intent.baseSeen;
        if (changedElsewhere && !(await this.overwriteChosen(change, intent, current))) return 'applied';
        await patch(undefined);
      }
    }
    await this.host.onInserted(intent.calendarId);
    return 'applied';
  }

  private async replayDelete(intent: DeleteIntent, change: QueuedChange): Promise<ReplayOutcome> {
    const api = this.host.api();
    const remove = (ifMatch: string | undefined): Promise<void> => api.deleteEvent(intent.calendarId, intent.eventId, ifMatch ? { ifMatch } : {});
    try {
      await remove(intent.baseEtag);
    } catch (error) {
      // Gone already: an earlier send landed, or it was deleted elsewhere; either way what the user wanted.
      if (isGone(error)) {
        this.host.desk.log.info(`Calendar: ${intent.eventId} was deleted already`);
      } else {
        if (!(error instanceof GoogleApiError && error.isConflict)) throw error;
        const vs = this.host.desk.vs;
        const anyway = vs.l10n.t('Delete Anyway');
        const choice = await vs.window.showWarningMessage(vs.l10n.t('The event of “{0}” was changed elsewhere while you were offline.', change.summary), { modal: true, detail: vs.l10n.t('Delete the newer version anyway? Cancel keeps it.') }, anyway);
        if (choice === anyway) await remove(undefined).catch((again: unknown) => { if (!isGone(again)) throw again; });
      }
    }
    await this.host.onInserted(intent.calendarId);
    return 'applied';
  }

  /** Compare / Overwrite / Cancel for an event changed elsewhere; Compare and Cancel keep the user's change in an editor. */
  private async overwriteChosen(change: QueuedChange, intent: PatchIntent, current: CalendarEvent): Promise<boolean> {
    const vs = this.host.desk.vs;
    const theirFields = Object.fromEntries(Object.keys(intent.body).map((key) => [key, (current as Record<string, unknown>)[key] ?? null]));
    const { overwrite, choice } = await askOverwriteKept(vs, {
      message: vs.l10n.t('“{0}” was changed elsewhere while you were offline.', intent.title),
      detail: vs.l10n.t('“{0}” was kept while Desk was offline. Compare their version with yours, overwrite it with yours, or cancel (your change opens in a new editor).', change.summary),
      mine: { content: JSON.stringify(intent.body, undefined, 2), language: 'json' },
      theirs: () => Promise.resolve({ content: JSON.stringify(theirFields, undefined, 2), language: 'json' }),
      diffTitle: vs.l10n.t('{0} (Calendar) ↔ (yours)', intent.title),
    });
    this.host.desk.log.info(`Calendar: replayed edit of ${intent.eventId} met a change elsewhere: ${choice}`);
    return overwrite;
  }

  private async keepChange(message: string, body: EventWrite): Promise<void> {
    const vs = this.host.desk.vs;
    void vs.window.showWarningMessage(message);
    const document = await vs.workspace.openTextDocument({ language: 'json', content: JSON.stringify(body, undefined, 2) });
    await vs.window.showTextDocument(document, { preview: false });
  }
}

/** 404, or 410 (Calendar answers a deleted event so): the event is not there. */
function isGone(error: unknown): boolean {
  return error instanceof GoogleApiError && (error.isNotFound || error.status === 410);
}

/** What the user sees of an event (as the Edit command's conflict check compares it). */
export function seenOf(event: CalendarEvent): string {
  return JSON.stringify([event.summary, event.description, event.location, event.start, event.end, event.status, event.recurrence, event.reminders, event.attendees?.map((attendee) => [attendee.email, attendee.responseStatus])]);
}

/** Whether the event has every field of the change as sent (compared as JSON). */
function shows(event: CalendarEvent, body: EventWrite): boolean {
  return Object.entries(body).every(([key, value]) => JSON.stringify((event as Record<string, unknown>)[key] ?? null) === JSON.stringify(value ?? null));
}
