/** Import of .ics files (ical.js → events.import) and the read-only documents: user settings and colours, event details. */
import type * as vscode from 'vscode';
import { errorMessage } from '../../../api/errors';
import { attempt } from '../../../core/commands';
import { showDetails } from '../../../core/ui/detailsView';
import type { CalendarEvent } from '../../../shared/schemas/calendar';
import { icsSizeProblem, listProblems, readIcs } from '../ics';
import { calendarName, CalendarTreeNode, isWritable, occurrenceOf } from '../tree/model';
import { eventDetailsMarkdown, settingsMarkdown } from '../tree/presentation';
import type { CalendarCommandContext } from './context';
import type { EventCommands } from './events';

export const CALENDAR_INFO_SCHEME = 'desk-calendar-info';

export class DocumentCommands {
  constructor(private readonly context: CalendarCommandContext, private readonly events: Pick<EventCommands, 'loadEvent'>) {}

  private t(message: string, ...args: Array<string | number>): string {
    return this.context.prompts.t(message, ...args);
  }

  /** Reads an .ics file and imports each event by its iCalUID (importing again updates instead of duplicating). */
  async importIcs(node?: CalendarTreeNode, file?: unknown): Promise<CalendarEvent[] | undefined> {
    const vs = this.context.desk.vs;
    const uri = file instanceof vs.Uri ? file : (await vs.window.showOpenDialog({ canSelectMany: false, filters: { [this.t('iCalendar')]: ['ics'] }, openLabel: this.t('Import') }))?.[0];
    if (!uri) return undefined;
    const entry = await this.context.prompts.resolveCalendar(node, this.t('Import into which calendar?'), isWritable);
    if (!entry) return undefined;
    const name = uri.path.split('/').pop() ?? '';
    let read: ReturnType<typeof readIcs>;
    try {
      const tooLarge = icsSizeProblem((await vs.workspace.fs.stat(uri)).size, vs.l10n.t);
      if (tooLarge) throw new Error(tooLarge);
      read = readIcs(new TextDecoder().decode(await vs.workspace.fs.readFile(uri)), await this.context.timeZone(), vs.l10n.t);
    } catch (error) {
      void vs.window.showErrorMessage(this.t('Nothing was imported: {0} is not an iCalendar file Desk can read ({1}).', name, error instanceof Error ? error.message : String(error)));
      return undefined;
    }
    if (read.events.length === 0) {
      const why = read.skipped.length ? ` ${this.t('Left out: {0}', listProblems(read.skipped, vs.l10n.t))}` : '';
      void vs.window.showInformationMessage(`${this.t('No events to import in {0}.', name)}${why}`);
      return [];
    }
    const imported: CalendarEvent[] = [];
    const failed: string[] = [];
    // Cancellable: a long file is one request per event; what was sent stays, the rest is counted as not imported.
    const stopped = await vs.window.withProgress({ location: vs.ProgressLocation.Notification, title: this.t('Importing into {0}', calendarName(entry)), cancellable: true }, async (progress, token) => {
      for (const event of read.events) {
        if (token.isCancellationRequested) return true;
        progress.report({ message: event.summary ?? event.iCalUID, increment: 100 / read.events.length });
        const saved = await attempt({ showError: (error) => { failed.push(this.t('{0}: {1}', event.summary ?? event.iCalUID, errorMessage(error, vs.l10n.t))); return Promise.resolve(); } }, () => this.context.api().importEvent(entry.id, event));
        if (saved) imported.push(saved);
      }
      return false;
    });
    await this.context.store.sync(entry.id).catch(() => undefined);
    const unsent = read.events.length - imported.length - failed.length;
    const skipped = [...read.skipped, ...failed, ...(stopped && unsent > 0 ? [this.t('{0} events not sent: the import was cancelled', unsent)] : [])];
    const message = this.t('Imported {0} of {1} events into {2}.', imported.length, read.events.length + read.skipped.length, calendarName(entry));
    if (skipped.length) void vs.window.showWarningMessage(`${message} ${this.t('Left out: {0}', listProblems(skipped, vs.l10n.t))}`);
    else void vs.window.showInformationMessage(message);
    return imported;
  }

  /** settings.list and colors.get as a read-only markdown document. */
  async showSettings(): Promise<void> {
    const vs = this.context.desk.vs;
    const uri = vs.Uri.from({ scheme: CALENDAR_INFO_SCHEME, authority: this.context.desk.session.viewAccount(), path: '/Calendar Settings.md' });
    await showDetails(vs, uri, vs.l10n.t('Calendar settings'));
  }

  /** desk-calendar-event:/<calendar>/<event>.md → the event (from the store, else events.get) as markdown. */
  async eventDocument(uri: vscode.Uri): Promise<string> {
    const { desk, tree } = this.context;
    const [calendarId, file] = uri.path.split('/').filter(Boolean).map((part) => decodeURIComponent(part));
    if (!calendarId || !file) return `# ${this.t('Unknown event')}\n`;
    try {
      const target = await this.events.loadEvent(calendarId, file.replace(/\.md$/, ''));
      const zone = await this.context.timeZone();
      const occurrence = occurrenceOf(calendarId, target.event, zone);
      const entry = tree.entry(calendarId);
      if (!occurrence) return `# ${target.event.summary ?? this.t('Event')}\n\n${this.t('This event was cancelled.')}\n`;
      return eventDetailsMarkdown(occurrence, entry ? calendarName(entry) : calendarId, zone, desk.vs.env.language, desk.vs.l10n.t);
    } catch (error) {
      void desk.showError(error, { action: this.t('Could not open the event') });
      return `# ${this.t('Could not load the event')}\n\n${errorMessage(error, desk.vs.l10n.t)}\n`;
    }
  }

  /** The calendar-info document: settings.list and colors.get. */
  async settingsDocument(): Promise<string> {
    const { desk } = this.context;
    try {
      const settings = [];
      for await (const setting of this.context.api().allSettings()) settings.push(setting);
      return settingsMarkdown(settings, await this.context.api().getColors(), desk.vs.l10n.t);
    } catch (error) {
      return `# ${this.t('Could not load the settings')}\n\n${errorMessage(error, desk.vs.l10n.t)}\n`;
    }
  }
}
