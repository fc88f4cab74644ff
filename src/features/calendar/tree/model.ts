/**
 * The Calendar tree's data, without vscode: events become occurrences (start and end instants, all-day or timed),
 * occurrences are grouped by day in the user's time zone (Today, Tomorrow, then dates; all-day events first), and the
 * nodes carry stable ids (`<kind>/<ids>`) and their parent, so `reveal` and expansion survive reloads.
 */
import { CALENDAR_TREE_VIEW } from '../../../config/treeViews';
import { calendarListEntrySchema, eventSchema, type CalendarEvent, type CalendarListEntry } from '../../../shared/schemas/calendar';
import * as z from '../../../shared/schemas/zod';
import { addDays, dateKey, startOfDay } from '../time';
import type { DueTask } from '../agenda/dueTasks';

export const CALENDAR_VIEW_ID = CALENDAR_TREE_VIEW.id;

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

/** One event placed in time. All-day events keep their date keys (end exclusive), as the API gives them. */
export interface Occurrence {
  readonly calendarId: string;
  readonly event: CalendarEvent;
  readonly allDay: boolean;
  readonly start: number;
  readonly end: number;
  readonly startDate?: string;
  readonly endDate?: string;
}

/** Where an event is on the time line; undefined for cancelled events and ones without a usable start. */
export function occurrenceOf(calendarId: string, event: CalendarEvent, timeZone: string): Occurrence | undefined {
  if (event.status === 'cancelled' || !event.start) return undefined;
  const startDate = event.start.date ?? undefined;
  if (startDate) {
    const endDate = event.end?.date && event.end.date > startDate ? event.end.date : addDays(startDate, 1);
    return { calendarId, event, allDay: true, start: startOfDay(startDate, timeZone), end: startOfDay(endDate, timeZone), startDate, endDate };
  }
  const start = Date.parse(event.start.dateTime ?? '');
  if (Number.isNaN(start)) return undefined;
  const parsedEnd = Date.parse(event.end?.dateTime ?? '');
  return { calendarId, event, allDay: false, start, end: Number.isNaN(parsedEnd) || parsedEnd < start ? start : parsedEnd };
}

export type RelativeDay = 'today' | 'tomorrow';

export interface DayGroup {
  /** `YYYY-MM-DD` in the user's time zone. */
  readonly key: string;
  readonly relative: RelativeDay | undefined;
  readonly occurrences: readonly Occurrence[];
  /** The tasks due that day (the Agenda only; see agenda/dueTasks.ts). */
  readonly tasks?: readonly DueTask[];
}

export interface AgendaWindow {
  readonly now: number;
  readonly timeZone: string;
  /** How many days from today (today included). */
  readonly days: number;
}

function coversDay(occurrence: Occurrence, key: string, dayStart: number, dayEnd: number): boolean {
  if (occurrence.allDay) return (occurrence.startDate ?? '') <= key && key < (occurrence.endDate ?? '');
  if (occurrence.end === occurrence.start) return occurrence.start >= dayStart && occurrence.start < dayEnd;
  return occurrence.start < dayEnd && occurrence.end > dayStart;
}

/** All-day events first (by title), then by start time, then title: the order of every agenda. */
export function compareOccurrences(a: Occurrence, b: Occurrence): number {
  if (a.allDay !== b.allDay) return a.allDay ? -1 : 1;
  if (!a.allDay && a.start !== b.start) return a.start - b.start;
  const byTitle = (a.event.summary ?? '').localeCompare(b.event.summary ?? '');
  return byTitle || a.calendarId.localeCompare(b.calendarId) || a.event.id.localeCompare(b.event.id);
}

/**
 * The upcoming days that have events: today (only what has not ended yet), tomorrow, then dates. A multi-day event
 * appears under each day it covers; each day is sorted with all-day events first.
 */
export function groupByDay(occurrences: readonly Occurrence[], window: AgendaWindow): DayGroup[] {
  const today = dateKey(window.now, window.timeZone);
  const groups: DayGroup[] = [];
  for (let offset = 0; offset < window.days; offset++) {
    const key = addDays(today, offset);
    const dayStart = startOfDay(key, window.timeZone);
    const dayEnd = startOfDay(addDays(key, 1), window.timeZone);
    const onDay = occurrences
      .filter((occurrence) => coversDay(occurrence, key, dayStart, dayEnd))
      .filter((occurrence) => offset > 0 || occurrence.allDay || occurrence.end > window.now || (occurrence.end === occurrence.start && occurrence.start >= window.now))
      .sort(compareOccurrences);
    if (onDay.length === 0) continue;
    groups.push({ key, relative: offset === 0 ? 'today' : offset === 1 ? 'tomorrow' : undefined, occurrences: onDay });
  }
  return groups;
}

/** The attendee entry of the signed-in user, if the event lists one. */
export function selfResponse(event: CalendarEvent): string | undefined {
  return event.attendees?.find((attendee) => attendee.self)?.responseStatus ?? undefined;
}

/** The link that joins the event's call: the Meet link, else the first video entry point. */
export function joinLinkOf(event: CalendarEvent): string | undefined {
  if (event.hangoutLink) return event.hangoutLink;
  const points = event.conferenceData?.entryPoints ?? [];
  return (points.find((point) => point.entryPointType === 'video') ?? points.find((point) => point.uri))?.uri ?? undefined;
}

export function isWritable(entry: Pick<CalendarListEntry, 'accessRole'> | undefined): boolean {
  return entry?.accessRole === 'owner' || entry?.accessRole === 'writer';
}

export function calendarName(entry: Pick<CalendarListEntry, 'id' | 'summary' | 'summaryOverride'>): string {
  return entry.summaryOverride || entry.summary || entry.id;
}

// ---- nodes

export class AgendaNode {
  readonly kind = 'agenda';
  readonly id = 'agenda';
  readonly parent = undefined;
  readonly scopeKey = 'agenda';
}

export class CalendarNode {
  readonly kind = 'calendar';
  readonly parent = undefined;
  constructor(readonly entry: CalendarListEntry) {}

  get id(): string {
    return `calendar/${this.entry.id}`;
  }

  get calendarId(): string {
    return this.entry.id;
  }

  get scopeKey(): string {
    return this.entry.id;
  }
}

export type ScopeNode = AgendaNode | CalendarNode;

export class DayNode {
  readonly kind = 'day';
  constructor(readonly parent: ScopeNode, readonly group: DayGroup) {}

  get id(): string {
    return `day/${this.parent.scopeKey}/${this.group.key}`;
  }
}

export class EventNode {
  readonly kind = 'event';
  constructor(readonly parent: DayNode, readonly occurrence: Occurrence) {}

  get id(): string {
    return `event/${this.parent.parent.scopeKey}/${this.parent.group.key}/${this.calendarId}/${this.event.id}`;
  }

  get calendarId(): string {
    return this.occurrence.calendarId;
  }

  get event(): CalendarEvent {
    return this.occurrence.event;
  }

  /** Whether the tree shows it under the Agenda (with the calendar's name) rather than under its calendar. */
  get inAgenda(): boolean {
    return this.parent.parent.kind === 'agenda';
  }
}

/** A task due on the day (the Agenda only): a checkbox that completes it, a click that shows it in the Tasks view. */
export class DueTaskNode {
  readonly kind = 'dueTask';
  constructor(readonly parent: DayNode, readonly dueTask: DueTask) {}

  get id(): string {
    return `task/${this.parent.parent.scopeKey}/${this.parent.group.key}/${this.dueTask.listId}/${this.dueTask.task.id}`;
  }
}

/** A row that is not data: "No upcoming events", "Loading…", or a load error with a retry. */
export class MessageNode {
  readonly kind = 'message';
  constructor(readonly parent: ScopeNode | undefined, readonly key: string, readonly label: string, readonly severity: 'info' | 'error' = 'info') {}

  get id(): string {
    return `message/${this.parent?.scopeKey ?? ''}/${this.key}`;
  }
}

export type CalendarTreeNode = AgendaNode | CalendarNode | DayNode | EventNode | DueTaskNode | MessageNode;

/** Space-separated words for `when` clauses (`viewItem =~ /\bwritable\b/`). */
export function contextValueFor(node: CalendarTreeNode, entry?: CalendarListEntry): string {
  if (node.kind === 'calendar') {
    const words = ['calendar'];
    if (node.entry.primary) words.push('primary');
    if (node.entry.accessRole === 'owner') words.push('owner');
    if (isWritable(node.entry)) words.push('writable');
    words.push(node.entry.hidden ? 'hidden' : 'shown');
    return words.join(' ');
  }
  if (node.kind === 'event') {
    const words = ['event'];
    if (isWritable(entry)) words.push('writable');
    if (node.event.recurringEventId || node.event.recurrence?.length) words.push('recurring');
    if (joinLinkOf(node.event)) words.push('joinable');
    // Invited: the user answers Yes / No / Maybe (Respond to Invitation).
    if (node.event.attendees?.some((attendee) => attendee.self)) words.push('attendee');
    return words.join(' ');
  }
  if (node.kind === 'dueTask') return node.dueTask.task.status === 'completed' ? 'dueTask completed' : 'dueTask open';
  if (node.kind === 'message') return node.severity === 'error' ? 'message error' : 'message';
  return node.kind;
}
