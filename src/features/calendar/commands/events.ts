/**
 * Event commands: create (step by step), Quick Add, edit (one field at a time, with the etag: a newer version on the
 * server is reported with Reload / Overwrite / Cancel), delete (this instance or the whole series), move to another
 * calendar, show a series' instances, open the details page, and join the call.
 */
import { GoogleApiError, isUnreachable } from '../../../api/errors';
import { attempt } from '../../../core/commands';
import { showDetails } from '../../../core/ui/detailsView';
import { confirmModal } from '../../../core/ui/confirm';
import type { CalendarEvent, EventWrite } from '../../../shared/schemas/calendar';
import { calendarName, CalendarTreeNode, isWritable, joinLinkOf, occurrenceOf } from '../tree/model';
import { eventTitle } from '../tree/presentation';
import { clientEventId, type EventResponse, withResponse } from '../offline';
import type { CalendarCommandContext, EventTarget } from './context';
import { EditField, editDraftKey, EventPrompts } from './eventPrompts';
import { describeWhen, eventTimes, quoteTyped } from './when';
import { dateKey } from '../time';

export type { EditField } from './eventPrompts';

export const EVENT_DETAILS_SCHEME = 'desk-calendar-event';

export class EventCommands {
  private readonly asking: EventPrompts;

  constructor(private readonly context: CalendarCommandContext) {
    this.asking = new EventPrompts(context);
  }

  private t(message: string, ...args: Array<string | number>): string {
    return this.context.prompts.t(message, ...args);
  }

  private get vs() {
    return this.context.desk.vs;
  }

  /** After a change: catch up with the sync token (no full reload) and redraw. */
  private async synced(...calendarIds: string[]): Promise<void> {
    for (const id of new Set(calendarIds)) {
      try {
        await this.context.store.sync(id);
      } catch (error) {
        this.context.desk.log.warn(`Calendar: sync after a change failed: ${String(error)}`);
      }
    }
  }


  /** Title → when → how long (timed only) → where, then events.insert. */
  async createEvent(node?: CalendarTreeNode): Promise<CalendarEvent | undefined> {
    const calendar = await this.context.prompts.calendarForNewEvent(node);
    if (!calendar) return undefined;
    const title = this.t('New event in {0}', calendarName(calendar));
    // What was typed in this dialog last time and not saved (Escape, a failed save) comes back.
    const draft = this.context.drafts.open(`new-event/${calendar.id}`, { title: '', when: node?.kind === 'day' ? `${node.group.key} 09:00` : '', duration: '1h', location: '' });
    const summary = await this.asking.askStep(title, draft, 'title', this.t('Title of the event'), (text) => (text.trim() ? undefined : this.t('Enter a title.')));
    if (summary === undefined) return undefined;
    // From a day row, that day is already filled in.
    const when = await this.asking.askWhen(title, draft);
    if (!when) return undefined;
    const duration = when.kind === 'timed' ? await this.asking.askDuration(title, draft) : 24 * 60;
    if (duration === undefined) return undefined;
    const location = await this.asking.askStep(title, draft, 'location', this.t('Where? (optional)'));
    if (location === undefined) return undefined;
    const zone = await this.context.timeZone();
    // The id is chosen before the first send: when that send's answer is lost and the event is kept, its replay
    // carries the same id, so an insert that had landed is answered 409 instead of making the event twice.
    const body: EventWrite = { id: clientEventId(), summary, ...eventTimes(when, duration, zone), ...(location ? { location } : {}) };
    // Offline, the event is kept (shown in the Agenda at once, with an id Desk chose) and inserted when the service is back.
    const offline = this.context.offline;
    let kept = false;
    return attempt(this.context.desk, async () => {
      try {
        return await this.context.api().insertEvent(calendar.id, body);
      } catch (error) {
        if (!isUnreachable(error) || !offline) throw error;
        kept = true;
        return offline.insertEvent(calendar, body);
      }
    }, {
      action: this.t('Could not create the event "{0}"', summary),
      onSuccess: async (created) => {
        draft.drop();
        if (!kept) await this.synced(calendar.id);
        // The last step closed with nothing on screen: say it worked (or that it waits for the service), and where to find it.
        const today = dateKey(this.context.now(), zone);
        void this.announceCreated(calendar.id, calendarName(calendar), created, describeWhen(when, today, this.vs.l10n.t, this.vs.env.language), kept);
      },
    });
  }

  private async announceCreated(calendarId: string, calendarTitle: string, created: CalendarEvent, when: string, waiting = false): Promise<void> {
    const open = this.t('Open');
    const show = this.t('Show in Agenda');
    // A pasted page as a title would fill the notification (and push its buttons out of reach): quote its start.
    const title = quoteTyped(eventTitle(created, this.vs.l10n.t), 80);
    const message = waiting
      ? this.t('Kept “{0}” for {1}: {2}. Calendar cannot be reached; Desk creates it when it can.', title, calendarTitle, when)
      : this.t('Created “{0}” in {1}: {2}.', title, calendarTitle, when);
    const choice = await this.vs.window.showInformationMessage(message, open, show);
    try {
      if (choice === open) await this.openEvent(undefined, { calendarId, event: created });
      else if (choice === show) await this.showInAgenda(calendarId, created.id);
    } catch (error) {
      this.context.desk.log.warn(`Calendar: could not show the new event: ${String(error)}`);
    }
  }

  /** Selects the event's row: in the Agenda when it is among its days, else under its calendar. */
  async showInAgenda(calendarId: string, eventId: string): Promise<boolean> {
    const { tree, view } = this.context;
    const scopes = (await tree.getChildren()).filter((node) => node.kind === 'agenda' || (node.kind === 'calendar' && node.calendarId === calendarId));
    scopes.sort((a, b) => (a.kind === 'agenda' ? 0 : 1) - (b.kind === 'agenda' ? 0 : 1));
    for (const scope of scopes) {
      for (const day of await tree.getChildren(scope)) {
        if (day.kind !== 'day') continue;
        const row = (await tree.getChildren(day)).find((node) => node.kind === 'event' && node.calendarId === calendarId && node.event.id === eventId);
        if (!row) continue;
        await view.reveal(row, { select: true, focus: true, expand: true });
        return true;
      }
    }
    void this.vs.window.showInformationMessage(this.t('The event is not among the days the Calendar view shows.'));
    return false;
  }

  /** events.quickAdd: one line of text such as "Lunch with Ann tomorrow 12:30". */
  async quickAdd(node?: CalendarTreeNode, text?: string): Promise<CalendarEvent | undefined> {
    const calendar = await this.context.prompts.calendarForNewEvent(node);
    if (!calendar) return undefined;
    // The line typed last time and not added (Escape, a failed request) comes back; a line handed in by a caller has none.
    const draft = text === undefined ? this.context.drafts.open(`quick-add/${calendar.id}`, { line: '' }) : undefined;
    const line = text ?? (draft && await this.asking.askStep(this.t('Quick Add to {0}', calendarName(calendar)), draft, 'line', this.t('Describe the event in one line'), (value) => (value.trim() ? undefined : this.t('Enter some text.')), this.t('Lunch with Ann tomorrow 12:30')));
    if (!line) return undefined;
    return attempt(this.context.desk, () => this.context.api().quickAddEvent(calendar.id, line), {
      action: this.t('Could not add "{0}"', line),
      onSuccess: () => {
        draft?.drop();
        return this.synced(calendar.id);
      },
    });
  }

  /** For an instance of a series: change this one, or the series (the recurrence always belongs to the series). */
  private async scopeOf(target: EventTarget, verb: 'edit' | 'delete'): Promise<string | undefined> {
    if (!target.event.recurringEventId) return target.event.id;
    const series = target.event.recurringEventId;
    return this.context.prompts.pick([
      { label: verb === 'edit' ? this.t('Only this event') : this.t('Delete only this event'), value: target.event.id },
      { label: verb === 'edit' ? this.t('All events in the series') : this.t('Delete all events in the series'), value: series },
    ], this.t('"{0}" repeats', eventTitle(target.event, this.vs.l10n.t)));
  }

  async editEvent(node?: CalendarTreeNode, field?: EditField): Promise<CalendarEvent | undefined> {
    const target = await this.context.prompts.resolveEvent(node, this.t('Edit which event?'), (candidate) => isWritable(this.context.tree.entry(candidate.calendarId)), () => this.t('No upcoming event is on a calendar you can change.'));
    if (!target) return undefined;
    const chosen = field ?? await this.context.prompts.pick<EditField>([
      { label: `$(edit) ${this.t('Title')}`, description: eventTitle(target.event, this.vs.l10n.t), value: 'title' },
      { label: `$(clock) ${this.t('Date and time')}`, value: 'time' },
      { label: `$(location) ${this.t('Location')}`, description: target.event.location ?? '', value: 'location' },
      { label: `$(note) ${this.t('Description')}`, value: 'description' },
      { label: `$(person) ${this.t('Attendees')}`, description: String(target.event.attendees?.length ?? 0), value: 'attendees' },
      { label: `$(bell) ${this.t('Reminders')}`, value: 'reminders' },
      { label: `$(sync) ${this.t('Recurrence')}`, value: 'recurrence' },
    ], this.t('Change what in "{0}"?', eventTitle(target.event, this.vs.l10n.t)));
    if (!chosen) return undefined;
    const eventId = chosen === 'recurrence' ? (target.event.recurringEventId ?? target.event.id) : await this.scopeOf(target, 'edit');
    if (!eventId) return undefined;
    // The version the edit is based on: the series when editing the series, else the row's own event.
    const base = eventId === target.event.id ? target.event : await this.context.api().getEvent(target.calendarId, eventId);
    const body = await this.asking.askChange(chosen, base, target.event, target.calendarId);
    if (!body) return undefined;
    // Saved, or dropped with Reload: the typed text is not offered again.
    return this.writeWithEtag(target.calendarId, base, body, () => { this.context.drafts.clear(editDraftKey(target.calendarId, base.id, chosen)); });
  }


  /**
   * events.patch with If-Match: when the event changed since Desk loaded it, the user chooses Reload (drop this
   * change, show the newer version), Overwrite (send it without the etag) or Cancel. Never overwritten silently.
   * `done` runs when the change is saved or dropped with Reload (the dialog's draft goes then).
   */
  async writeWithEtag(calendarId: string, base: CalendarEvent, body: EventWrite, done: () => void = () => undefined): Promise<CalendarEvent | undefined> {
    const action = this.t('Could not save "{0}"', eventTitle(base, this.vs.l10n.t));
    const patch = (ifMatch: string | undefined) => this.context.api().patchEvent(calendarId, base.id, body, ifMatch ? { ifMatch } : {});
    const saved = () => {
      done();
      return this.synced(calendarId);
    };
    try {
      const result = await patch(base.etag);
      await saved();
      return result;
    } catch (error) {
      // Offline: kept (shown in the Agenda at once), sent with this etag when the service is back.
      // Attendees are invited (or uninvited) by the change: it affects other people, so it is not kept for later.
      if (isUnreachable(error) && body.attendees !== undefined) {
        void this.vs.window.showWarningMessage(this.t('Desk is offline: this affects other people, so it is not kept for later. Try again when the connection is back.'));
        return undefined;
      }
      if (isUnreachable(error) && this.context.offline) {
        done();
        const kept = await this.context.offline.patchEvent(calendarId, base, body, eventTitle(base, this.vs.l10n.t));
        void this.vs.window.showInformationMessage(this.t('Desk is offline: the change to "{0}" is kept and sent when the connection is back.', eventTitle(base, this.vs.l10n.t)));
        return kept;
      }
      if (!(error instanceof GoogleApiError && error.isConflict)) {
        void this.context.desk.showError(error, { action });
        return undefined;
      }
      if (!(await this.reallyChanged(calendarId, base))) return attempt(this.context.desk, () => patch(undefined), { action, onSuccess: saved });
    }
    const reload = this.t('Reload');
    const overwrite = this.t('Overwrite');
    const choice = await this.vs.window.showWarningMessage(
      this.t('"{0}" was changed elsewhere after Desk loaded it.', eventTitle(base, this.vs.l10n.t)),
      { modal: true, detail: this.t('Reload shows the newer version and drops your change. Overwrite saves your change over the newer version.') },
      reload,
      overwrite,
    );
    if (choice === overwrite) return attempt(this.context.desk, () => patch(undefined), { action, onSuccess: saved });
    if (choice === reload) {
      done();
      await this.synced(calendarId);
    }
    return undefined;
  }

  /**
   * Yes / No / Maybe to an invitation: the user's own attendee entry, patched (the same answer again changes nothing).
   * Offline it is kept, shown on the row at once, and sent when the service is back.
   */
  async respondToEvent(node?: CalendarTreeNode, given?: EventResponse): Promise<EventResponse | undefined> {
    const invited = (event: CalendarEvent): boolean => event.attendees?.some((attendee) => attendee.self) === true;
    const target = await this.context.prompts.resolveEvent(node, this.t('Respond to which invitation?'), (candidate) => invited(candidate.event), () => this.t('No upcoming event invites you.'));
    if (!target) return undefined;
    if (!invited(target.event)) {
      void this.vs.window.showInformationMessage(this.t('You are not invited to "{0}": there is nothing to answer.', eventTitle(target.event, this.vs.l10n.t)));
      return undefined;
    }
    const response = given ?? await this.context.prompts.pick<EventResponse>([
      { label: `$(check) ${this.t('Yes')}`, value: 'accepted' },
      { label: `$(close) ${this.t('No')}`, value: 'declined' },
      { label: `$(question) ${this.t('Maybe')}`, value: 'tentative' },
    ], this.t('Going to "{0}"?', eventTitle(target.event, this.vs.l10n.t)));
    if (!response) return undefined;
    const attendees = withResponse(target.event, response);
    if (!attendees) return undefined;
    const title = eventTitle(target.event, this.vs.l10n.t);
    const offline = this.context.offline;
    // Whether the answer was kept offline (undefined: it failed).
    const kept = await attempt(this.context.desk, async () => {
      try {
        await this.context.api().patchEvent(target.calendarId, target.event.id, { attendees });
        return false;
      } catch (error) {
        if (!isUnreachable(error) || !offline) throw error;
        await offline.respond(target.calendarId, target.event, response, title);
        return true;
      }
    }, { action: this.t('Could not answer "{0}"', title), retry: true });
    if (kept === undefined) return undefined;
    if (kept) void this.vs.window.showInformationMessage(this.t('Desk is offline: your answer to "{0}" is kept and sent when the connection is back.', title));
    else await this.synced(target.calendarId);
    return response;
  }

  async deleteEvent(node?: CalendarTreeNode): Promise<boolean> {
    const target = await this.context.prompts.resolveEvent(node, this.t('Delete which event?'), (candidate) => isWritable(this.context.tree.entry(candidate.calendarId)), () => this.t('No upcoming event is on a calendar you can change.'));
    if (!target) return false;
    const eventId = await this.scopeOf(target, 'delete');
    if (!eventId) return false;
    const series = eventId !== target.event.id;
    const message = series ? this.t('Delete every event of the series "{0}"?', eventTitle(target.event, this.vs.l10n.t)) : this.t('Delete the event "{0}"?', eventTitle(target.event, this.vs.l10n.t));
    if (!(await confirmModal(this.vs, message, this.t('This cannot be undone.'), series ? this.t('Delete Series') : this.t('Delete Event')))) return false;
    const remove = (ifMatch: string | undefined) => this.context.api().deleteEvent(target.calendarId, eventId, ifMatch ? { ifMatch } : {});
    try {
      await remove(series ? undefined : target.event.etag);
    } catch (error) {
      // Offline: kept (gone from the Agenda at once), sent when the service is back.
      if (isUnreachable(error) && this.context.offline) {
        await this.context.offline.deleteEvent(target.calendarId, target.event, eventId, eventTitle(target.event, this.vs.l10n.t));
        void this.vs.window.showInformationMessage(this.t('Desk is offline: "{0}" is deleted when the connection is back.', eventTitle(target.event, this.vs.l10n.t)));
        return true;
      }
      if (!(error instanceof GoogleApiError && error.isConflict)) throw error;
      if (await this.reallyChanged(target.calendarId, target.event)) {
        const anyway = this.t('Delete Anyway');
        const choice = await this.vs.window.showWarningMessage(this.t('"{0}" was changed elsewhere after Desk loaded it.', eventTitle(target.event, this.vs.l10n.t)), { modal: true, detail: this.t('Delete the newer version anyway?') }, anyway);
        if (choice !== anyway) {
          await this.synced(target.calendarId);
          return false;
        }
      }
      await remove(undefined);
    }
    await this.synced(target.calendarId);
    return true;
  }

  /**
   * Whether a 412 means a real change: the event as the server has it now differs in what the user sees. (The
   * emulator refuses the listed etag of an instance that was never changed on its own, as writing it makes it an
   * exception with an etag of its own; comparing the content keeps that from looking like someone else's edit.)
   */
  private async reallyChanged(calendarId: string, known: CalendarEvent): Promise<boolean> {
    try {
      const current = await this.context.api().getEvent(calendarId, known.id);
      if (current.etag === known.etag) return false;
      const seen = (event: CalendarEvent) => JSON.stringify([event.summary, event.description, event.location, event.start, event.end, event.status, event.recurrence, event.reminders, event.attendees?.map((attendee) => [attendee.email, attendee.responseStatus])]);
      return seen(current) !== seen(known);
    } catch {
      return true;
    }
  }

  /** events.move; an instance moves with its whole series (Google moves series, not single instances). */
  async moveEvent(node?: CalendarTreeNode): Promise<CalendarEvent | undefined> {
    const target = await this.context.prompts.resolveEvent(node, this.t('Move which event?'), (candidate) => isWritable(this.context.tree.entry(candidate.calendarId)), () => this.t('No upcoming event is on a calendar you can change.'));
    if (!target) return undefined;
    const destination = await this.context.prompts.pickCalendar(this.t('Move "{0}" to which calendar?', eventTitle(target.event, this.vs.l10n.t)), (entry) => entry.id !== target.calendarId && isWritable(entry));
    if (!destination) return undefined;
    const eventId = target.event.recurringEventId ?? target.event.id;
    return attempt(this.context.desk, () => this.context.api().moveEvent(target.calendarId, eventId, destination.id), {
      action: this.t('Could not move "{0}"', eventTitle(target.event, this.vs.l10n.t)),
      onSuccess: () => this.synced(target.calendarId, destination.id),
    });
  }

  /** events.instances of the series, upcoming first, in a quick pick; the chosen one opens its details. */
  async showInstances(node?: CalendarTreeNode): Promise<CalendarEvent | undefined> {
    const target = await this.context.prompts.resolveEvent(node, this.t('Show the dates of which repeating event?'), (candidate) => Boolean(candidate.event.recurringEventId || candidate.event.recurrence?.length), () => this.t('No upcoming event repeats.'));
    if (!target) return undefined;
    const seriesId = target.event.recurringEventId ?? target.event.id;
    if (!target.event.recurringEventId && !target.event.recurrence?.length) {
      void this.vs.window.showInformationMessage(this.t('"{0}" does not repeat.', eventTitle(target.event, this.vs.l10n.t)));
      return undefined;
    }
    const zone = await this.context.timeZone();
    const instances: CalendarEvent[] = [];
    const timeMin = new Date(this.context.now() - 86_400_000).toISOString();
    for await (const instance of this.context.api().allInstances(target.calendarId, seriesId, { timeMin, maxResults: 50 })) {
      instances.push(instance);
      if (instances.length >= 50) break;
    }
    const picked = await this.context.prompts.pick(instances.map((instance) => {
      const occurrence = occurrenceOf(target.calendarId, instance, zone);
      return {
        label: occurrence ? this.context.prompts.when(occurrence, zone) : instance.id,
        description: instance.summary !== target.event.summary ? eventTitle(instance, this.vs.l10n.t) : '',
        value: instance,
      };
    }), this.t('{0} upcoming dates of "{1}"', instances.length, eventTitle(target.event, this.vs.l10n.t)));
    if (picked) await this.openEvent(undefined, { calendarId: target.calendarId, event: picked });
    return picked;
  }

  /** The details page (a read-only markdown document, previewed where the markdown extension is installed). */
  async openEvent(node?: CalendarTreeNode, given?: EventTarget): Promise<void> {
    const target = given ?? await this.context.prompts.resolveEvent(node, this.t('Show which event?'));
    if (!target) return;
    const uri = this.vs.Uri.from({ scheme: EVENT_DETAILS_SCHEME, authority: this.context.desk.session.viewAccount(), path: `/${encodeURIComponent(target.calendarId)}/${encodeURIComponent(target.event.id)}.md` });
    // One read-only tab titled with the event (see core/ui/detailsView.ts).
    await showDetails(this.vs, uri, eventTitle(target.event, this.vs.l10n.t));
  }

  /** Opens the Meet link (or the first video entry point). */
  async joinEvent(node?: CalendarTreeNode, given?: EventTarget): Promise<boolean> {
    const target = given ?? await this.context.prompts.resolveEvent(node, this.t('Join which event?'), (candidate) => Boolean(joinLinkOf(candidate.event)), (next, when) =>
      this.t('The next event, “{0}” ({1}), has no call link, nor does any later one.', eventTitle(next.event, this.context.desk.vs.l10n.t), when));
    if (!target) return false;
    const link = joinLinkOf(target.event);
    if (!link) {
      void this.vs.window.showInformationMessage(this.t('"{0}" has no call to join.', eventTitle(target.event, this.vs.l10n.t)));
      return false;
    }
    return this.vs.env.openExternal(this.vs.Uri.parse(link));
  }

  /** Where a details page or a reminder's "Open" gets its event from: the store, else events.get. */
  async loadEvent(calendarId: string, eventId: string): Promise<EventTarget> {
    const known = this.context.store.find(calendarId, eventId);
    return { calendarId, event: known ?? await this.context.api().getEvent(calendarId, eventId) };
  }
}
