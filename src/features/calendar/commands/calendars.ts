/**
 * Calendar commands: create, rename, delete and clear calendars (delete and clear are confirmed; the primary
 * calendar cannot be deleted), add an existing calendar to the list by its id, remove one from the list, and the
 * list entry's own settings (colour from colors.get, hidden, shown in the Agenda, default reminders, display name).
 */
import { errorMessage, GoogleApiError } from '../../../api/errors';
import { settleAll } from '../../../core/bulk';
import { attempt } from '../../../core/commands';
import { confirmModal } from '../../../core/ui/confirm';
import { nameInMessage } from '../../../core/text/names';
import type { Calendar, CalendarListEntry, CalendarListEntryWrite } from '../../../shared/schemas/calendar';
import { calendarName, CalendarTreeNode } from '../tree/model';
import { swatchDataUri } from '../tree/presentation';
import type { CalendarCommandContext } from './context';
import { parseReminderMinutes } from './when';

type SettingChoice = 'color' | 'hide' | 'show' | 'agenda' | 'reminders' | 'name';

export class CalendarListCommands {
  constructor(private readonly context: CalendarCommandContext) {}

  private t(message: string, ...args: Array<string | number>): string {
    return this.context.prompts.t(message, ...args);
  }

  private get vs() {
    return this.context.desk.vs;
  }

  private refreshList(): void {
    this.context.tree.refreshAll();
  }

  async createCalendar(): Promise<Calendar | undefined> {
    const summary = await this.context.prompts.ask(this.t('New calendar'), this.t('Name of the new calendar'), '', (text) => calendarNameProblem(text, (message, ...args) => this.t(message, ...args)));
    if (summary === undefined) return undefined;
    const timeZone = await this.context.timeZone();
    return attempt(this.context.desk, () => this.context.api().insertCalendar({ summary, timeZone }), {
      action: this.t('Could not create the calendar "{0}"', nameInMessage(summary)),
      onSuccess: () => { this.refreshList(); },
    });
  }

  /** calendars.patch of the summary (owners only). */
  async renameCalendar(node?: CalendarTreeNode): Promise<Calendar | undefined> {
    const entry = await this.context.prompts.resolveCalendar(node, this.t('Rename which calendar?'), (candidate) => candidate.accessRole === 'owner');
    if (!entry) return undefined;
    const current = await this.context.api().getCalendar(entry.id);
    const summary = await this.context.prompts.ask(this.t('Rename calendar'), this.t('New name of "{0}"', nameInMessage(current.summary ?? entry.id)), current.summary ?? '', (text) => calendarNameProblem(text, (message, ...args) => this.t(message, ...args)));
    if (summary === undefined || summary === current.summary) return undefined;
    return attempt(this.context.desk, () => this.context.api().patchCalendar(entry.id, { summary }, current.etag ? { ifMatch: current.etag } : {}), {
      action: this.t('Could not rename the calendar'),
      retry: true,
      onSuccess: () => { this.refreshList(); },
    });
  }

  async deleteCalendar(node?: CalendarTreeNode): Promise<boolean> {
    const entry = await this.context.prompts.resolveCalendar(node, this.t('Delete which calendar?'), (candidate) => candidate.accessRole === 'owner');
    if (!entry) return false;
    if (entry.primary) {
      void this.vs.window.showInformationMessage(this.t('The primary calendar cannot be deleted. Use "Clear Calendar" to delete its events.'));
      return false;
    }
    if (!(await confirmModal(this.vs, this.t('Delete the calendar "{0}" and all its events?', nameInMessage(calendarName(entry))), this.t('Everyone it is shared with loses it too. This cannot be undone.'), this.t('Delete Calendar')))) return false;
    await this.context.api().deleteCalendar(entry.id);
    this.context.store.forget(entry.id);
    this.refreshList();
    return true;
  }

  /** calendars.clear for the primary calendar; a secondary calendar is emptied event by event (Google clears primaries only). */
  async clearCalendar(node?: CalendarTreeNode): Promise<boolean> {
    const entry = await this.context.prompts.resolveCalendar(node, this.t('Delete all events of which calendar?'), (candidate) => candidate.accessRole === 'owner');
    if (!entry) return false;
    if (!(await confirmModal(this.vs, this.t('Delete every event of "{0}"?', nameInMessage(calendarName(entry))), this.t('The calendar stays, empty. This cannot be undone.'), this.t('Clear Calendar')))) return false;
    const api = this.context.api();
    try {
      if (entry.primary) {
        await api.clearCalendar(entry.id);
      } else {
        await this.vs.window.withProgress({ location: this.vs.ProgressLocation.Notification, title: this.t('Clearing {0}…', calendarName(entry)) }, async () => {
          const events = new Map<string, string>();
          let pageToken: string | undefined;
          do {
            const page = await api.listEvents(entry.id, { maxResults: 2500, ...(pageToken ? { pageToken } : {}) });
            for (const event of page.items) if (event.status !== 'cancelled' && !event.recurringEventId) events.set(event.id, event.summary ?? event.id);
            pageToken = page.nextPageToken;
          } while (pageToken);
          // Batched deletes (50 per request); an event already gone counts as deleted; the others that fail are named.
          await settleAll({
            items: [...events.keys()],
            run: async (ids) => (await api.deleteEvents(entry.id, ids)).map((result) => (!result.ok && result.error instanceof GoogleApiError && (result.error.status === 410 || result.error.status === 404) ? { ok: true, value: undefined } : result)),
            nameOf: (id) => events.get(id) ?? id,
            describe: (error) => errorMessage(error, this.vs.l10n.t),
            t: this.vs.l10n.t,
            onDone: () => undefined,
          });
        });
      }
    } finally {
      // What was deleted disappears from the view, also when some events could not be.
      await this.context.store.sync(entry.id).catch(() => this.context.store.fullLoad(entry.id));
    }
    return true;
  }

  /** calendarList.insert of a calendar someone shared (or a public one) by its id. */
  async addCalendar(id?: string): Promise<CalendarListEntry | undefined> {
    const calendarId = id ?? await this.context.prompts.ask(this.t('Add a calendar'), this.t('The id of the calendar (its address, e.g. someone@example.com)'), '', (text) => calendarIdProblem(text, (message, ...args) => this.t(message, ...args)));
    if (!calendarId) return undefined;
    return attempt(this.context.desk, () => this.context.api().insertCalendarListEntry({ id: calendarId, selected: true }), {
      action: this.t('Could not add the calendar "{0}"', calendarId),
      retry: true,
      onSuccess: () => { this.refreshList(); },
    });
  }

  /** calendarList.delete: the calendar stays, it only leaves this list. */
  async removeCalendar(node?: CalendarTreeNode): Promise<boolean> {
    const entry = await this.context.prompts.resolveCalendar(node, this.t('Remove which calendar from the list?'), (candidate) => !candidate.primary);
    if (!entry) return false;
    if (!(await confirmModal(this.vs, this.t('Remove "{0}" from your calendar list?', calendarName(entry)), this.t('The calendar itself is not deleted; add it again with its id: {0}', entry.id), this.t('Remove')))) return false;
    await this.context.api().deleteCalendarListEntry(entry.id);
    this.context.store.forget(entry.id);
    this.refreshList();
    return true;
  }

  /** The list entry's settings, one at a time, patched with its etag. */
  async calendarSettings(node?: CalendarTreeNode, choice?: SettingChoice, value?: string): Promise<CalendarListEntry | undefined> {
    const entry = await this.context.prompts.resolveCalendar(node, this.t('Settings of which calendar?'));
    if (!entry) return undefined;
    const reminders = (entry.defaultReminders ?? []).filter((reminder) => reminder.method === 'popup').map((reminder) => reminder.minutes).join(', ');
    const chosen = choice ?? await this.context.prompts.pick<SettingChoice>([
      { label: `$(symbol-color) ${this.t('Colour…')}`, description: entry.backgroundColor ?? '', value: 'color' },
      entry.hidden ? { label: `$(eye) ${this.t('Show in the List')}`, value: 'show' } : { label: `$(eye-closed) ${this.t('Hide from the List')}`, value: 'hide' },
      { label: `$(calendar) ${entry.selected === false ? this.t('Show in the Agenda') : this.t('Leave out of the Agenda')}`, value: 'agenda' },
      { label: `$(bell) ${this.t('Default Reminders…')}`, description: reminders ? this.t('{0} min before', reminders) : this.t('none'), value: 'reminders' },
      { label: `$(edit) ${this.t('Display Name…')}`, description: calendarName(entry), value: 'name' },
    ], this.t('Settings of "{0}"', calendarName(entry)));
    if (!chosen) return undefined;
    const body = await this.askSetting(chosen, entry, value);
    if (!body) return undefined;
    return attempt(this.context.desk, () => this.context.api().patchCalendarListEntry(entry.id, body, entry.etag ? { ifMatch: entry.etag } : {}), {
      action: this.t('Could not change the settings of "{0}"', calendarName(entry)),
      onSuccess: () => { this.refreshList(); },
    });
  }

  private async askSetting(choice: SettingChoice, entry: CalendarListEntry, value: string | undefined): Promise<CalendarListEntryWrite | undefined> {
    switch (choice) {
      case 'hide': return { hidden: true };
      case 'show': return { hidden: false };
      case 'agenda': return { selected: entry.selected === false };
      case 'color': {
        const colors = await this.context.api().getColors();
        const colorId = value ?? await this.context.prompts.pick(Object.entries(colors.calendar).map(([id, color]) => ({
          label: color.background,
          description: id === entry.colorId ? this.t('current') : '',
          iconPath: this.vs.Uri.parse(swatchDataUri(color.background)),
          value: id,
        })), this.t('Colour of "{0}"', calendarName(entry)));
        return colorId ? { colorId } : undefined;
      }
      case 'reminders': {
        const current = (entry.defaultReminders ?? []).filter((reminder) => reminder.method === 'popup').map((reminder) => reminder.minutes).join(', ');
        const answer = value ?? await this.context.prompts.ask(this.t('Default reminders of "{0}"', calendarName(entry)), this.t('Popup reminders, minutes before each event (e.g. 10, 30); empty for none'), current, (text) => (parseReminderMinutes(text) ? undefined : this.t('Enter minutes such as 10, 30.')));
        if (answer === undefined) return undefined;
        const minutes = parseReminderMinutes(answer) ?? [];
        const others = (entry.defaultReminders ?? []).filter((reminder) => reminder.method === 'email' && typeof reminder.minutes === 'number').map((reminder) => ({ method: 'email' as const, minutes: reminder.minutes as number }));
        return { defaultReminders: [...others, ...minutes.map((minute) => ({ method: 'popup' as const, minutes: minute }))] };
      }
      case 'name': {
        const answer = value ?? await this.context.prompts.ask(this.t('Display name'), this.t('How the calendar is named in your list (empty for its own name "{0}")', entry.summary ?? entry.id), entry.summaryOverride ?? '');
        return answer === undefined ? undefined : { summaryOverride: answer || null };
      }
    }
  }
}

/** Google Calendar keeps a calendar's name to 1024 characters. */
const CALENDAR_NAME_MAX = 1024;

/** Why a typed calendar name cannot be sent, while it is typed (so a refused name stays in the box). */
export function calendarNameProblem(text: string, t: (message: string, ...args: Array<string | number>) => string): string | undefined {
  if (text.trim() === '') return t('Enter a name.');
  if (text.length > CALENDAR_NAME_MAX) return t('A calendar name has at most {0} characters (this one has {1}).', CALENDAR_NAME_MAX, text.length);
  return undefined;
}

/**
 * What is wrong with a calendar id as typed, said in the box: every calendar's id is an address (someone@example.com,
 * …@group.calendar.google.com, en.usa#holiday@group.v.calendar.google.com), so text without "@" or with spaces is
 * refused before the service answers a bare "Not Found".
 */
export function calendarIdProblem(text: string, t: (message: string, ...args: Array<string | number>) => string): string | undefined {
  const id = text.trim();
  if (id === '') return t('Enter a calendar id.');
  if (/\s/.test(id) || !/^[^@]+@[^@]+$/.test(id)) return t('A calendar id is an address, such as someone@example.com or …@group.calendar.google.com.');
  return undefined;
}
