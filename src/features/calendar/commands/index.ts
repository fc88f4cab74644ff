/**
 * The Calendar commands as one id → handler table. Each asks what it needs (a quick pick when run from the palette
 * without a row), calls the API, then catches up with the sync token rather than reloading. Every operation is
 * reachable: calendarList (list via the tree, insert, patch, delete), calendars (insert, patch, delete, clear),
 * events (list via the tree, get, insert, quickAdd, patch, delete, move, instances, import), acl (list, insert,
 * patch, delete), settings.list, colors.get and freebusy.query.
 */
import type * as vscode from 'vscode';
import { registerCommands } from '../../../core/commands';
import { refuseOffline } from '../../../core/offline/offlineRefusal';
import { AgendaNode, CalendarNode, CalendarTreeNode, DayNode, EventNode, MessageNode } from '../tree/model';
import { errorMessage } from '../../../api/errors';
import { CalendarListCommands } from './calendars';
import type { CalendarCommandContext, EventTarget } from './context';
import { CALENDAR_INFO_SCHEME, DocumentCommands } from './documents';
import { registerAccountDocuments } from '../../../core/accounts/accountDocuments';
import { EditField, EVENT_DETAILS_SCHEME, EventCommands } from './events';
import { SharingCommands } from './sharing';
import { FreeBusyPanels } from '../freeBusy/panel';
import { CALENDAR_COMMAND } from '../../../config/commandIds';

export { EVENT_DETAILS_SCHEME } from './events';
export { CALENDAR_INFO_SCHEME } from './documents';
export const SHOW_HIDDEN_CONTEXT_KEY = 'desk:calendar.showHidden';

export class CalendarCommands {
  readonly events: EventCommands;
  readonly calendars: CalendarListCommands;
  readonly sharing: SharingCommands;
  readonly documents: DocumentCommands;
  readonly freeBusy: FreeBusyPanels;

  constructor(private readonly context: CalendarCommandContext, private readonly hooks: { setShowHidden(show: boolean): Promise<void>; openNextEvent(): Promise<void> }) {
    this.events = new EventCommands(context);
    this.calendars = new CalendarListCommands(context);
    this.sharing = new SharingCommands(context);
    this.documents = new DocumentCommands(context, this.events);
    this.freeBusy = new FreeBusyPanels(context);
  }

  /** The commands, and the read-only documents they open (event details, the settings). */
  register(): vscode.Disposable[] {
    const { events, calendars, sharing, documents, freeBusy } = this;
    const vs = this.context.desk.vs;
    const providers = [
      registerAccountDocuments(vs, this.context.desk.session, EVENT_DETAILS_SCHEME, { provideTextDocumentContent: (uri) => documents.eventDocument(uri) }),
      registerAccountDocuments(vs, this.context.desk.session, CALENDAR_INFO_SCHEME, { provideTextDocumentContent: () => documents.settingsDocument() }),
    ];
    // Tree commands get the clicked row; palette commands get nothing (or something that is not a row).
    const row = (run: (node?: CalendarTreeNode, ...rest: unknown[]) => unknown) => (node?: unknown, ...rest: unknown[]) => run(isCalendarNode(node) ? node : undefined, ...rest);
    const disposables = registerCommands(this.context.desk, refuseOffline(this.context.desk, {
      [CALENDAR_COMMAND.refresh]: row((node) => this.refresh(node)),
      [CALENDAR_COMMAND.showHidden]: () => this.hooks.setShowHidden(true),
      [CALENDAR_COMMAND.hideHidden]: () => this.hooks.setShowHidden(false),
      [CALENDAR_COMMAND.createEvent]: row((node) => events.createEvent(node)),
      [CALENDAR_COMMAND.quickAdd]: row((node, text) => events.quickAdd(node, typeof text === 'string' ? text : undefined)),
      [CALENDAR_COMMAND.editEvent]: row((node, field) => events.editEvent(node, typeof field === 'string' ? field as EditField : undefined)),
      [CALENDAR_COMMAND.deleteEvent]: row((node) => events.deleteEvent(node)),
      [CALENDAR_COMMAND.respondToEvent]: row((node, response) => events.respondToEvent(node, response === 'accepted' || response === 'declined' || response === 'tentative' ? response : undefined)),
      [CALENDAR_COMMAND.moveEvent]: row((node) => events.moveEvent(node)),
      [CALENDAR_COMMAND.showInstances]: row((node) => events.showInstances(node)),
      [CALENDAR_COMMAND.openEvent]: row((node, given) => events.openEvent(node, isEventTarget(given) ? given : undefined)),
      [CALENDAR_COMMAND.joinEvent]: row((node) => events.joinEvent(node)),
      [CALENDAR_COMMAND.importIcs]: row((node, file) => documents.importIcs(node, file)),
      [CALENDAR_COMMAND.createCalendar]: () => calendars.createCalendar(),
      [CALENDAR_COMMAND.renameCalendar]: row((node) => calendars.renameCalendar(node)),
      [CALENDAR_COMMAND.deleteCalendar]: row((node) => calendars.deleteCalendar(node)),
      [CALENDAR_COMMAND.clearCalendar]: row((node) => calendars.clearCalendar(node)),
      [CALENDAR_COMMAND.addCalendar]: (id?: unknown) => calendars.addCalendar(typeof id === 'string' ? id : undefined),
      [CALENDAR_COMMAND.removeCalendar]: row((node) => calendars.removeCalendar(node)),
      [CALENDAR_COMMAND.calendarSettings]: row((node, choice, value) => calendars.calendarSettings(node, typeof choice === 'string' ? choice as never : undefined, typeof value === 'string' ? value : undefined)),
      [CALENDAR_COMMAND.share]: row((node, request) => sharing.share(node, isShareRequest(request) ? request : undefined)),
      [CALENDAR_COMMAND.showSettings]: () => documents.showSettings(),
      [CALENDAR_COMMAND.openNextEvent]: () => this.hooks.openNextEvent(),
      [CALENDAR_COMMAND.freeBusy]: row((node, args) => freeBusy.show(node, typeof args === 'object' && args !== null ? args : {})),
    // Sharing a calendar changes what others see: refused offline, never kept for later.
        }, [CALENDAR_COMMAND.share]), {
      // From the palette with several accounts signed in, these pick an event or calendar of one account: the active
      // event document's, else the one asked for.
      askAccount: [CALENDAR_COMMAND.createEvent, CALENDAR_COMMAND.quickAdd, CALENDAR_COMMAND.createCalendar, CALENDAR_COMMAND.editEvent, CALENDAR_COMMAND.deleteEvent, CALENDAR_COMMAND.respondToEvent,
        CALENDAR_COMMAND.moveEvent, CALENDAR_COMMAND.showInstances, CALENDAR_COMMAND.joinEvent, CALENDAR_COMMAND.importIcs, CALENDAR_COMMAND.renameCalendar, CALENDAR_COMMAND.deleteCalendar,
        CALENDAR_COMMAND.clearCalendar, CALENDAR_COMMAND.addCalendar, CALENDAR_COMMAND.removeCalendar, CALENDAR_COMMAND.calendarSettings, CALENDAR_COMMAND.share, CALENDAR_COMMAND.showSettings, CALENDAR_COMMAND.freeBusy],
    });
    return [...providers, ...disposables, new vs.Disposable(() => { freeBusy.dispose(); })];
  }

  /** Refresh: a calendar (or the Agenda's calendars) catches up with its sync token; the list itself is read again. */
  async refresh(node?: CalendarTreeNode): Promise<void> {
    const { desk, store, tree } = this.context;
    const ids = node?.kind === 'calendar' ? [node.calendarId] : store.loadedCalendars();
    if (node?.kind !== 'calendar') tree.refreshAll();
    await Promise.all(ids.map((id) => store.sync(id).catch((error: unknown) => { desk.log.warn(`Calendar: refreshing ${id} failed: ${errorMessage(error)}`); })));
    tree.redrawEvents();
  }
}

/** `{ calendarId, event }` from another feature (the Desk search) instead of a row. */
function isEventTarget(value: unknown): value is EventTarget {
  const candidate = value as { calendarId?: unknown; event?: { id?: unknown } } | null | undefined;
  return typeof candidate === 'object' && candidate !== null && typeof candidate.calendarId === 'string' && typeof candidate.event?.id === 'string';
}

function isShareRequest(value: unknown): value is { email: string; role: 'freeBusyReader' | 'reader' | 'writer' | 'owner' | 'none' } {
  return typeof value === 'object' && value !== null && typeof (value as { email?: unknown }).email === 'string' && typeof (value as { role?: unknown }).role === 'string';
}

function isCalendarNode(value: unknown): value is CalendarTreeNode {
  return value instanceof AgendaNode || value instanceof CalendarNode || value instanceof DayNode || value instanceof EventNode || value instanceof MessageNode;
}
