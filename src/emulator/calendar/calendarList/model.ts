/**
 * Each user's calendar list: which calendars they show, with their own colour, name override, visibility and default
 * reminders. Own calendars join it when created; shared ones by calendarList.insert. An entry whose calendar is
 * deleted, or whose access is revoked, becomes a tombstone (`deleted: true`) that incremental syncs report.
 */
import type { AccessRole, CalendarListEntryInput, EventReminderInput } from '../../../shared/schemas/calendar';
import { EmulatorUser, findUser } from '../../identity/users';
import { badRequest, invalid, notFound, required } from '../../core/errors';
import { checkIfMatch, combinedEtag, newEtag } from '../../core/etag';
import { atLeast } from '../access';
import type { StoredCalendar } from '../calendars/model';
import type { CalendarService } from '../service';
import { CALENDAR_COLORS, calendarColorIdFor } from '../settings/colors';
import { decodeSyncToken, SyncedGroups, syncedPage } from '../sync';

export interface StoredListEntry {
  userId: string;
  calendarId: string;
  summaryOverride?: string;
  colorId?: string;
  backgroundColor?: string;
  foregroundColor?: string;
  hidden: boolean;
  selected: boolean;
  defaultReminders: EventReminderInput[];
  notifications: { type: string; method: string }[];
  deleted: boolean;
  etag: string;
  seq: number;
  created: number;
}

export interface ListEntryOptions {
  maxResults: number;
  pageToken?: string;
  minAccessRole?: AccessRole;
  showDeleted: boolean;
  showHidden: boolean;
  syncToken?: string;
}

export interface ListEntryPage {
  items: StoredListEntry[];
  etag: string;
  nextPageToken?: string;
  nextSyncToken?: string;
}

const PRIMARY_NOTIFICATIONS = ['eventCreation', 'eventChange', 'eventCancellation', 'eventResponse'].map((type) => ({ type, method: 'email' }));
/** Colours handed to a user's own new calendars in turn, as Google varies them. */
const OWN_COLOR_CYCLE = ['14', '7', '17', '5', '22', '9', '1', '16'];

export class CalendarListModel {
  /** Each user's entries, with their change log for sync tokens. */
  private readonly entries: SyncedGroups<StoredListEntry>;

  constructor(private readonly service: CalendarService) {
    this.entries = new SyncedGroups(service.store.collection<StoredListEntry>('calendar.calendarList'), (entry) => entry.userId, (entry) => entry.calendarId);
  }

  /** Puts a calendar the user just created (or their primary) on their list, selected, with a colour of its own. */
  addOwn(user: EmulatorUser, calendar: StoredCalendar): StoredListEntry {
    const count = this.entriesOf(user.id).size;
    const entry: StoredListEntry = {
      userId: user.id,
      calendarId: calendar.id,
      colorId: OWN_COLOR_CYCLE[count % OWN_COLOR_CYCLE.length] as string,
      hidden: false,
      selected: true,
      defaultReminders: calendar.primary ? [{ method: 'popup', minutes: 10 }] : [],
      notifications: calendar.primary ? PRIMARY_NOTIFICATIONS : [],
      deleted: false,
      etag: newEtag(),
      seq: 0,
      created: this.service.now(),
    };
    this.write(entry);
    return entry;
  }

  roleOf(user: EmulatorUser, calendarId: string): AccessRole {
    const calendar = this.service.calendars.find(calendarId);
    return calendar ? this.service.acl.roleOf(user, calendar) : 'none';
  }

  list(user: EmulatorUser, options: ListEntryOptions): ListEntryPage {
    this.service.calendars.ensurePrimary(user);
    const scope = `calendarList:${user.id}`;
    const all = [...this.entriesOf(user.id).values()];
    let items: StoredListEntry[];
    if (options.syncToken !== undefined) {
      if (options.minAccessRole !== undefined) throw badRequest('The minAccessRole parameter cannot be combined with syncToken.');
      const since = decodeSyncToken(options.syncToken, scope, this.service.syncFloor(scope), this.service.currentSeq());
      items = this.entries.changedSince(user.id, since).map((calendarId) => this.entriesOf(user.id).get(calendarId)).filter((entry): entry is StoredListEntry => entry !== undefined);
    } else {
      items = all
        .filter((entry) => (options.showDeleted || !entry.deleted) && (options.showHidden || !entry.hidden))
        .filter((entry) => options.minAccessRole === undefined || atLeast(this.roleOf(user, entry.calendarId), options.minAccessRole))
        .sort((a, b) => Number(b.calendarId === user.email) - Number(a.calendarId === user.email) || a.created - b.created);
    }
    const page = syncedPage(items, {
      scope: `${scope}|${options.showDeleted}|${options.showHidden}|${options.minAccessRole ?? ''}|${options.syncToken ?? ''}`,
      maxResults: options.maxResults,
      currentSeq: this.service.currentSeq(),
      ...(options.pageToken !== undefined ? { pageToken: options.pageToken } : {}),
    });
    return { ...page, etag: combinedEtag(all.filter((entry) => !entry.deleted).map((entry) => entry.etag)) };
  }

  get(user: EmulatorUser, calendarId: string): StoredListEntry {
    this.service.calendars.ensurePrimary(user);
    const entry = this.entriesOf(user.id).get(this.service.calendars.resolveId(user, calendarId));
    if (!entry || entry.deleted) throw notFound('Not Found');
    return entry;
  }

  /** Adds an existing calendar the user can see to their list (again, if they removed it); the body's fields apply. */
  insert(user: EmulatorUser, body: CalendarListEntryInput, colorRgbFormat: boolean): StoredListEntry {
    if (!body.id) throw required('id', 'body');
    const { calendar } = this.service.calendars.access(user, body.id);
    const existing = this.entriesOf(user.id).get(calendar.id);
    const entry: StoredListEntry = existing && !existing.deleted ? existing : {
      userId: user.id,
      calendarId: calendar.id,
      hidden: false,
      selected: false,
      defaultReminders: [],
      notifications: [],
      deleted: false,
      etag: '',
      seq: 0,
      created: this.service.now(),
    };
    entry.deleted = false;
    this.apply(entry, body, 'patch', colorRgbFormat);
    if (entry.colorId === undefined && entry.backgroundColor === undefined) entry.colorId = '1';
    entry.etag = newEtag();
    this.write(entry);
    return entry;
  }

  update(user: EmulatorUser, calendarId: string, body: CalendarListEntryInput, mode: 'update' | 'patch', colorRgbFormat: boolean, ifMatch?: string): StoredListEntry {
    const entry = this.get(user, calendarId);
    checkIfMatch(entry.etag, ifMatch, 'the calendar list entry');
    this.apply(entry, body, mode, colorRgbFormat);
    entry.etag = newEtag();
    this.write(entry);
    return entry;
  }

  delete(user: EmulatorUser, calendarId: string, ifMatch?: string): void {
    const entry = this.get(user, calendarId);
    checkIfMatch(entry.etag, ifMatch, 'the calendar list entry');
    if (entry.calendarId === user.email) throw badRequest('The primary calendar cannot be removed from the calendar list.');
    this.tombstone(entry);
  }

  /** The calendar's metadata changed: every list showing it changes too (summary, time zone are part of an entry). */
  touchCalendar(calendarId: string): void {
    for (const entry of this.entriesFor(calendarId)) if (!entry.deleted) {
      entry.etag = newEtag();
      this.write(entry);
    }
  }

  /** After an ACL change: entries whose user lost all access disappear; the others show the new role. */
  reconcile(calendar: StoredCalendar): void {
    for (const entry of this.entriesFor(calendar.id)) {
      if (entry.deleted) continue;
      const member = findUser(entry.userId);
      if (!member || this.service.acl.roleOf(member, calendar) === 'none') this.tombstone(entry);
      else {
        entry.etag = newEtag();
        this.write(entry);
      }
    }
  }

  dropCalendar(calendarId: string): void {
    for (const entry of this.entriesFor(calendarId)) if (!entry.deleted) this.tombstone(entry);
  }

  private apply(entry: StoredListEntry, body: CalendarListEntryInput, mode: 'update' | 'patch', colorRgbFormat: boolean): void {
    const replace = mode === 'update';
    if (!colorRgbFormat) {
      // Colours echoed back unchanged (a fetched entry sent whole) are fine; changing them needs colorRgbFormat.
      const current = { backgroundColor: entry.backgroundColor ?? CALENDAR_COLORS[entry.colorId ?? '']?.background, foregroundColor: entry.foregroundColor ?? '#000000' };
      for (const field of ['backgroundColor', 'foregroundColor'] as const) {
        const given = body[field];
        if (given && given.toLowerCase() !== current[field]) throw invalid('Set colorRgbFormat=true to set backgroundColor or foregroundColor.', 'colorRgbFormat');
      }
      body = { ...body, backgroundColor: undefined, foregroundColor: undefined };
    }
    if (body.colorId !== undefined && body.colorId !== null && !CALENDAR_COLORS[body.colorId]) throw invalid(`Invalid colorId: ${body.colorId}`, 'colorId', 'body');
    if (body.backgroundColor) {
      entry.backgroundColor = body.backgroundColor.toLowerCase();
      entry.foregroundColor = (body.foregroundColor ?? entry.foregroundColor ?? '#000000').toLowerCase();
      const matching = calendarColorIdFor(entry.backgroundColor);
      if (matching) entry.colorId = matching;
      else delete entry.colorId;
    } else if (body.foregroundColor) {
      entry.foregroundColor = body.foregroundColor.toLowerCase();
    } else if (body.colorId) {
      entry.colorId = body.colorId;
      delete entry.backgroundColor;
      delete entry.foregroundColor;
    }
    // Without a colour (update, or colorId null) the entry keeps the one it has: Google always shows a colour.
    if (body.summaryOverride !== undefined || replace) {
      if (body.summaryOverride) entry.summaryOverride = body.summaryOverride;
      else delete entry.summaryOverride;
    }
    if (body.hidden !== undefined || replace) entry.hidden = body.hidden ?? false;
    if (body.selected !== undefined || replace) entry.selected = body.selected ?? false;
    if (body.defaultReminders !== undefined || replace) {
      const reminders = body.defaultReminders ?? [];
      if (reminders.length > 5) throw invalid('At most 5 default reminders are allowed', 'defaultReminders', 'body');
      entry.defaultReminders = reminders;
    }
    if (body.notificationSettings !== undefined || replace) entry.notifications = body.notificationSettings?.notifications ?? [];
  }

  private tombstone(entry: StoredListEntry): void {
    entry.deleted = true;
    entry.etag = newEtag();
    this.write(entry);
  }

  private write(entry: StoredListEntry): void {
    this.entries.write(entry, this.service.nextSeq());
    this.service.noteChange(`calendarList/${entry.userId}`);
  }

  private entriesOf(userId: string): Map<string, StoredListEntry> {
    return this.entries.group(userId);
  }

  private entriesFor(calendarId: string): StoredListEntry[] {
    const found: StoredListEntry[] = [];
    for (const entries of this.entries.allGroups()) {
      const entry = entries.get(calendarId);
      if (entry) found.push(entry);
    }
    return found;
  }



}
