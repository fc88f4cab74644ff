/** What every Calendar command part shares: the desk, the port, the tree and its view, the event store and the prompts. */
import type { CalendarOfflineWrites } from '../offline';
import type * as vscode from 'vscode';
import type { DeskContext } from '../../../core/deskContext';
import type { Drafts } from '../../../core/ui/drafts';
import type { CalendarListEntry, CalendarEvent } from '../../../shared/schemas/calendar';
import type { CalendarApi } from '../port';
import type { EventStore } from '../sync/eventStore';
import { calendarName, CalendarTreeNode, EventNode, isWritable, Occurrence, occurrenceOf } from '../tree/model';
import { eventTitle, whenLabel } from '../tree/presentation';
import type { CalendarTreeProvider } from '../tree/treeProvider';

export interface CalendarCommandContext {
  readonly desk: DeskContext;
  readonly api: () => CalendarApi;
  readonly tree: CalendarTreeProvider;
  readonly view: vscode.TreeView<CalendarTreeNode>;
  readonly store: EventStore;
  readonly timeZone: () => Promise<string>;
  readonly now: () => number;
  readonly prompts: CalendarPrompts;
  /** What the user typed in New / Edit Event and Quick Add and did not save (Escape, a failed save): offered again next time. */
  readonly drafts: Drafts;
  /** New events that cannot reach the service are kept and inserted later (see ../offline.ts); none in some tests. */
  readonly offline?: CalendarOfflineWrites;
}

/** An event a command works on: from the clicked row, or picked from the Agenda when run from the palette. */
export interface EventTarget {
  readonly calendarId: string;
  readonly event: CalendarEvent;
}

export interface PickItem<T> extends vscode.QuickPickItem {
  readonly value: T;
}

export class CalendarPrompts {
  constructor(private readonly vs: typeof vscode, private readonly tree: CalendarTreeProvider, private readonly store: EventStore, private readonly timeZone: () => Promise<string>, private readonly now: () => number) {}

  t(message: string, ...args: Array<string | number>): string {
    return this.vs.l10n.t(message, ...args);
  }

  async pick<T>(items: ReadonlyArray<PickItem<T>>, placeHolder: string, title?: string): Promise<T | undefined> {
    const picked = await this.vs.window.showQuickPick(items, { placeHolder, ...(title ? { title } : {}), ignoreFocusOut: true, matchOnDescription: true });
    return picked?.value;
  }

  async pickMany<T>(items: ReadonlyArray<PickItem<T>>, placeHolder: string): Promise<T[] | undefined> {
    const picked = await this.vs.window.showQuickPick(items, { placeHolder, canPickMany: true, ignoreFocusOut: true });
    return picked?.map((item) => item.value);
  }

  /** An input box that keeps asking while `validate` answers a message (an Info one only informs: "Fri 27 Nov, 15:00"). */
  async ask(title: string, prompt: string, value: string, validate?: (text: string) => string | vscode.InputBoxValidationMessage | undefined, placeHolder?: string): Promise<string | undefined> {
    const answer = await this.vs.window.showInputBox({ title, prompt, value, ignoreFocusOut: true, ...(placeHolder ? { placeHolder } : {}), ...(validate ? { validateInput: (text: string) => validate(text) } : {}) });
    return answer === undefined ? undefined : answer.trim();
  }

  /** A calendar of the list; `filter` limits the choice (writable ones for new events). */
  async pickCalendar(placeHolder: string, filter: (entry: CalendarListEntry) => boolean = () => true, preferred?: string): Promise<CalendarListEntry | undefined> {
    const entries = (await this.tree.calendars()).filter((entry) => !entry.deleted && filter(entry));
    if (entries.length === 0) {
      void this.vs.window.showInformationMessage(this.t('No calendar fits.'));
      return undefined;
    }
    const ordered = [...entries].sort((a, b) => Number(b.id === preferred) - Number(a.id === preferred) || Number(Boolean(b.primary)) - Number(Boolean(a.primary)));
    // Calendars by their names and what the user may do with them; an id (c_b5dc…@group.calendar.google.com) only
    // tells apart two calendars of the same name.
    const names = ordered.map((entry) => calendarName(entry));
    return this.pick(ordered.map((entry) => ({
      label: calendarName(entry),
      description: [entry.primary ? this.t('primary') : '', this.accessWords(entry.accessRole)].filter(Boolean).join(' · '),
      ...(names.indexOf(calendarName(entry)) !== names.lastIndexOf(calendarName(entry)) ? { detail: entry.id } : {}),
      value: entry,
    })), placeHolder);
  }

  private accessWords(role: string | undefined): string {
    switch (role) {
      case 'owner': return this.t('yours');
      case 'writer': return this.t('you can edit');
      case 'reader': return this.t('read-only');
      case 'freeBusyReader': return this.t('free/busy only');
      default: return '';
    }
  }

  /** The calendar a row stands for, or one picked. */
  async resolveCalendar(node: CalendarTreeNode | undefined, placeHolder: string, filter?: (entry: CalendarListEntry) => boolean): Promise<CalendarListEntry | undefined> {
    const scope = node?.kind === 'day' ? node.parent : node;
    const id = scope?.kind === 'calendar' ? scope.calendarId : scope?.kind === 'event' ? scope.calendarId : undefined;
    if (id) {
      const entry = this.tree.entry(id) ?? (await this.tree.calendars()).find((candidate) => candidate.id === id);
      if (entry && (!filter || filter(entry))) return entry;
    }
    return this.pickCalendar(placeHolder, filter);
  }

  /** A calendar for a new event: the row's (if writable), else the primary when it is the only writable one, else a pick. */
  async calendarForNewEvent(node: CalendarTreeNode | undefined): Promise<CalendarListEntry | undefined> {
    return this.resolveCalendar(node, this.t('Add the event to which calendar?'), isWritable);
  }

  /**
   * The row's event, or one picked from the coming ones that pass `filter`. When some are coming but none
   * passes, `noneFits` says why in words about the next one ("the next event has no call link"), never
   * "No upcoming events" while the status bar shows one; it gets the next one's day and time as the picker writes them.
   */
  async resolveEvent(node: CalendarTreeNode | undefined, placeHolder: string, filter: (target: EventTarget) => boolean = () => true, noneFits?: (next: Occurrence, when: string) => string): Promise<EventTarget | undefined> {
    if (node?.kind === 'event') {
      const eventNode: EventNode = node;
      return { calendarId: eventNode.calendarId, event: this.store.find(eventNode.calendarId, eventNode.event.id) ?? eventNode.event };
    }
    const zone = await this.timeZone();
    const calendars = await this.tree.agendaCalendars();
    await Promise.allSettled(calendars.map((entry) => this.store.ensureLoaded(entry.id)));
    const now = this.now();
    const upcoming = calendars
      .flatMap((entry) => this.store.events(entry.id).flatMap((event) => occurrenceOf(entry.id, event, zone) ?? []))
      .filter((occurrence) => occurrence.end >= now)
      .sort((a, b) => a.start - b.start);
    const occurrences = upcoming.filter((occurrence) => filter({ calendarId: occurrence.calendarId, event: occurrence.event })).slice(0, 200);
    if (occurrences.length === 0) {
      const next = upcoming.at(0);
      void this.vs.window.showInformationMessage(next && noneFits ? noneFits(next, this.when(next, zone)) : next ? this.t('None of the upcoming events fits.') : this.t('No upcoming events.'));
      return undefined;
    }
    return this.pick(occurrences.map((occurrence) => {
      const entry = this.tree.entry(occurrence.calendarId);
      return {
        label: eventTitle(occurrence.event, this.vs.l10n.t),
        description: this.when(occurrence, zone),
        detail: entry ? calendarName(entry) : occurrence.calendarId,
        value: { calendarId: occurrence.calendarId, event: occurrence.event },
      };
    }), placeHolder);
  }

  /** "Thu 26 Nov · 10:00–10:45" in the user's locale, as the Agenda writes a day. */
  when(occurrence: Occurrence, zone: string): string {
    return whenLabel(occurrence, zone, this.vs.env.language, this.vs.l10n.t);
  }
}
