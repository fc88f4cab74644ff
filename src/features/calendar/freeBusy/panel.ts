/** The free/busy command: chosen calendars over a chosen range → freebusy.query → a webview timeline (see html.ts). */
import { randomBytes } from 'node:crypto';
import type * as vscode from 'vscode';
import type { FreeBusyResponse } from '../../../shared/schemas/calendar';
import type { CalendarCommandContext } from '../commands/context';
import { calendarName, CalendarTreeNode } from '../tree/model';
import { dayLabel } from '../tree/presentation';
import { addDays, dateKey, startOfDay } from '../time';
import { freeBusyHtml, FreeBusyView } from './html';
import { CALENDAR_COMMAND } from '../../../config/commandIds';

export const FREE_BUSY_VIEW_TYPE = CALENDAR_COMMAND.freeBusy;

export interface FreeBusyRequestArgs {
  /** Calendar ids; without them a pick (the Agenda's calendars preselected). */
  readonly calendars?: readonly string[];
  /** Days from today; without them a pick. */
  readonly days?: number;
  /** The first day (YYYY-MM-DD); today by default. */
  readonly from?: string;
}

export interface FreeBusyResult {
  readonly response: FreeBusyResponse;
  readonly view: FreeBusyView;
  readonly panel: vscode.WebviewPanel;
}

export class FreeBusyPanels {
  private panel: vscode.WebviewPanel | undefined;
  /** The last page shown (tests read it). */
  lastHtml = '';

  constructor(private readonly context: CalendarCommandContext) {}

  private t(message: string, ...args: Array<string | number>): string {
    return this.context.prompts.t(message, ...args);
  }

  async show(node?: CalendarTreeNode, args: FreeBusyRequestArgs = {}): Promise<FreeBusyResult | undefined> {
    const vs = this.context.desk.vs;
    const entries = (await this.context.tree.calendars()).filter((entry) => !entry.deleted);
    const preselected = node?.kind === 'calendar' ? [node.calendarId] : entries.filter((entry) => this.context.tree.isInAgenda(entry)).map((entry) => entry.id);
    const calendars = args.calendars ?? await this.context.prompts.pickMany(entries.map((entry) => ({
      label: calendarName(entry),
      description: entry.id,
      picked: preselected.includes(entry.id),
      value: entry.id,
    })), this.t('Free/busy of which calendars?'));
    if (!calendars || calendars.length === 0) return undefined;
    const days = args.days ?? await this.context.prompts.pick([
      { label: this.t('Today'), value: 1 },
      { label: this.t('Today and tomorrow'), value: 2 },
      { label: this.t('The next 7 days'), value: 7 },
      { label: this.t('The next 14 days'), value: 14 },
    ], this.t('Over which days?'));
    if (!days) return undefined;
    const zone = await this.context.timeZone();
    const first = args.from ?? dateKey(this.context.now(), zone);
    const dayList = Array.from({ length: days }, (_, index) => {
      const key = addDays(first, index);
      return { key, label: dayLabel(key), start: startOfDay(key, zone), end: startOfDay(addDays(key, 1), zone) };
    });
    const response = await this.context.api().queryFreeBusy({
      timeMin: new Date(dayList[0]?.start ?? 0).toISOString(),
      timeMax: new Date(dayList[dayList.length - 1]?.end ?? 0).toISOString(),
      timeZone: zone,
      items: calendars.map((id) => ({ id })),
    });
    const view: FreeBusyView = {
      title: days === 1 ? this.t('Free/busy on {0}', dayList[0]?.label ?? first) : this.t('Free/busy, {0} to {1}', dayList[0]?.label ?? '', dayList[dayList.length - 1]?.label ?? ''),
      timeZone: zone,
      days: dayList,
      lanes: calendars.map((id) => {
        const entry = entries.find((candidate) => candidate.id === id);
        // A calendar the answer leaves out is shown as not available.
        const answered: Partial<typeof response.calendars> = response.calendars;
        const result = answered[id];
        const error = result?.errors?.[0]?.reason;
        return {
          id,
          label: entry ? calendarName(entry) : id,
          color: entry?.backgroundColor,
          foreground: entry?.foregroundColor,
          busy: (result?.busy ?? []).map((period) => ({ start: Date.parse(period.start), end: Date.parse(period.end) })),
          error: error ? this.t('Not available ({0})', error) : result ? undefined : this.t('Not available'),
        };
      }),
    };
    const panel = this.panel ?? vs.window.createWebviewPanel(FREE_BUSY_VIEW_TYPE, view.title, vs.ViewColumn.Active, { enableScripts: true, localResourceRoots: [] });
    if (!this.panel) {
      this.panel = panel;
      panel.onDidDispose(() => { this.panel = undefined; });
    }
    panel.title = view.title;
    this.lastHtml = freeBusyHtml(view, { nonce: randomBytes(16).toString('base64'), cspSource: panel.webview.cspSource, t: vs.l10n.t, lang: vs.env.language });
    panel.webview.html = this.lastHtml;
    panel.reveal();
    return { response, view, panel };
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
