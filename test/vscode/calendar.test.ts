// The Calendar view and commands inside a real extension host, against the harness's emulator (demo data, alice in
// Europe/Berlin): read the tree, run every command with stubbed prompts, and check each result on the emulator over
// HTTP as another client would.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import type { CalendarNode, CalendarTreeNode, DayNode, EventNode } from '../../src/features/calendar/tree/model';
import { addDays, dateKey, zonedToUtc } from '../../src/features/calendar/time';
import { freeHalfHourTomorrow, statusAt } from './statusClock';
import { activateAndSignIn, byLabel, emulatorRequest, eventually, labelText, messageText, WindowStubs, detailsTab } from './support';

interface ApiEvent { id: string; summary?: string; status?: string; location?: string; etag?: string; recurringEventId?: string; iCalUID?: string; start?: { dateTime?: string; date?: string; timeZone?: string }; attendees?: Array<{ email: string }> }
interface ApiEntry { id: string; summary?: string; primary?: boolean; colorId?: string; hidden?: boolean; accessRole?: string }

const ALICE = 'alice@example.com';
const ZONE = 'Europe/Berlin';
const enc = encodeURIComponent;

async function eventOnEmulator(calendarId: string, eventId: string, account?: string): Promise<{ status: number; body: ApiEvent }> {
  return emulatorRequest<ApiEvent>('GET', `/calendar/v3/calendars/${enc(calendarId)}/events/${enc(eventId)}`, undefined, account);
}

async function eventsOnEmulator(calendarId: string, query = ''): Promise<ApiEvent[]> {
  return (await emulatorRequest<{ items?: ApiEvent[] }>('GET', `/calendar/v3/calendars/${enc(calendarId)}/events?maxResults=2500${query}`)).body.items ?? [];
}

async function listOnEmulator(): Promise<ApiEntry[]> {
  return (await emulatorRequest<{ items?: ApiEntry[] }>('GET', '/calendar/v3/users/me/calendarList?showHidden=true')).body.items ?? [];
}

const stubs = new WindowStubs();

describe('Calendar view in VS Code', function () {
  this.timeout(40000);
  let api: DeskApi;
  const tomorrow = (): string => addDays(dateKey(Date.now(), ZONE), 1);
  const label = (node: CalendarTreeNode): string => labelText(api.calendar.tree.getTreeItem(node));

  async function calendarNode(predicate: (node: CalendarNode) => boolean): Promise<CalendarNode> {
    const roots = await api.calendar.tree.getChildren();
    const node = roots.find((root): root is CalendarNode => root.kind === 'calendar' && predicate(root));
    assert.ok(node, `no such calendar among ${roots.map(label).join(', ')}`);
    return node;
  }

  const primary = () => calendarNode((node) => node.entry.primary === true);
  const team = () => calendarNode((node) => node.entry.summary === 'Team');

  async function eventNode(scope: CalendarTreeNode, summary: string): Promise<EventNode> {
    for (const day of (await api.calendar.tree.getChildren(scope)).filter((node): node is DayNode => node.kind === 'day')) {
      const found = (await api.calendar.tree.getChildren(day)).find((node): node is EventNode => node.kind === 'event' && node.event.summary === summary);
      if (found) return found;
    }
    assert.fail(`no event "${summary}" under ${label(scope)}`);
  }

  before(async () => {
    api = await activateAndSignIn();
    await vscode.workspace.getConfiguration().update('desk.calendar.daysAhead', 21, vscode.ConfigurationTarget.Global);
    api.calendar.tree.refreshAll();
  });

  afterEach(() => { stubs.restore(); });

  after(async () => {
    await vscode.workspace.getConfiguration().update('desk.calendar.daysAhead', undefined, vscode.ConfigurationTarget.Global);
  });

  it('shows the Agenda and the calendar list with swatches, events by day with all-day first, details in the hover', async () => {
    const roots = await api.calendar.tree.getChildren();
    assert.equal(roots[0]?.kind, 'agenda');
    assert.ok(roots.some((node) => node.kind === 'calendar' && node.entry.primary), 'no primary calendar');
    const teamNode = await team();
    const item = api.calendar.tree.getTreeItem(teamNode);
    assert.match((item.iconPath as vscode.Uri).toString(true), /^data:image\/svg\+xml/);
    assert.match(String(item.contextValue), /^calendar\b.*\bowner\b/);
    assert.equal(await api.calendar.timeZone(), ZONE, 'times follow the Calendar time-zone setting');

    const days = (await api.calendar.tree.getChildren(roots[0])).filter((node): node is DayNode => node.kind === 'day');
    assert.ok(days.length > 0, 'the Agenda is empty');
    for (const day of days) {
      const occurrences = day.group.occurrences;
      const firstTimed = occurrences.findIndex((occurrence) => !occurrence.allDay);
      if (firstTimed >= 0) assert.ok(occurrences.slice(firstTimed).every((occurrence) => !occurrence.allDay), `${day.group.key}: all-day events must come first`);
    }
    const keys = days.map((day) => day.group.key);
    assert.deepEqual(keys, [...keys].sort(), 'days in order');
    // Team's "Sprint retro" repeats: its dates arrive as single instances.
    const retro = await eventNode(roots[0], 'Sprint retro');
    assert.ok(retro.event.recurringEventId, 'recurring events are expanded into instances');
    const review = await eventNode(await primary(), 'Design review: Desk calendar view').catch(() => undefined);
    if (review) {
      const tooltip = api.calendar.tree.resolveTreeItem(api.calendar.tree.getTreeItem(review), review).tooltip;
      assert.ok(tooltip instanceof vscode.MarkdownString);
      assert.match(tooltip.value, /bob@example\\\.com — accepted/);
      assert.match(tooltip.value, /Join: \[/);
    }
  });

  it('an API not enabled in the Cloud project is one message naming it, with a button that enables it', async () => {
    // The emulator answers Calendar calls as Google does for a project that has not enabled the Calendar API.
    assert.equal((await emulatorRequest('PUT', '/emulator/v1/disabled-apis', { apis: ['calendar'] })).status, 200);
    try {
      const shown: unknown[][] = [];
      stubs.stub('showInputBox', async () => 'Holidays');
      stubs.stub('showErrorMessage', async (...args: unknown[]) => {
        shown.push(args);
        return undefined;
      });
      await vscode.commands.executeCommand('desk.calendar.createCalendar');
      assert.equal(shown.length, 1, JSON.stringify(shown));
      assert.match(String(shown[0]?.[0]), /Google Calendar API is not enabled in the Google Cloud project of your OAuth client\. Enable it there/);
      assert.doesNotMatch(String(shown[0]?.[0]), /has not been used in project|Not allowed/);
      assert.deepEqual(shown[0]?.slice(1), ['Enable Google Calendar API']);
    } finally {
      await emulatorRequest('PUT', '/emulator/v1/disabled-apis', { apis: [] });
    }
  });

  it('a refused New Calendar with a very long name says so once, quoting the name cut, not 2000 characters', async () => {
    assert.equal((await emulatorRequest('PUT', '/emulator/v1/disabled-apis', { apis: ['calendar'] })).status, 200);
    try {
      const shown: unknown[][] = [];
      stubs.stub('showInputBox', async () => `Long ${'name '.repeat(400)}`);
      stubs.stub('showErrorMessage', async (...args: unknown[]) => {
        shown.push(args);
        return undefined;
      });
      await vscode.commands.executeCommand('desk.calendar.createCalendar');
      assert.equal(shown.length, 1, JSON.stringify(shown).slice(0, 500));
      const text = String(shown[0]?.[0]);
      assert.match(text, /^Could not create the calendar "Long name name .*…"\. .*Google Calendar API is not enabled/);
      assert.ok(text.length < 400, `${text.length} characters: ${text.slice(0, 200)}`);
    } finally {
      await emulatorRequest('PUT', '/emulator/v1/disabled-apis', { apis: [] });
    }
  });

  it('confirms an event with a 2,000-character title, quoting its start (the buttons stay on screen)', async () => {
    const longTitle = `Pasted ${'page '.repeat(400)}`;
    stubs.answerInputs(longTitle, `${tomorrow()} 11:00`, '30m', '');
    const confirmations: unknown[][] = [];
    let confirmed = (): void => undefined;
    const answered = new Promise<void>((resolve) => { confirmed = resolve; });
    stubs.stub('showInformationMessage', async (...args: unknown[]) => {
      confirmations.push(args);
      confirmed();
      return undefined;
    });
    const created = await vscode.commands.executeCommand<ApiEvent | undefined>('desk.calendar.createEvent', await primary());
    assert.equal(created?.summary, longTitle.trim(), 'the event keeps the whole title');
    await answered;
    const text = String(confirmations[0]?.[0]);
    assert.match(text, /^Created “Pasted page page .*…” in .+: .+ · 11:00\.$/);
    assert.ok(text.length < 200, `${text.length} characters`);
    assert.deepEqual(confirmations[0]?.slice(1), ['Open', 'Show in Agenda']);
    // Gone again, so the tests after this one see the calendar they expect.
    assert.equal((await emulatorRequest('DELETE', `/calendar/v3/calendars/${enc(ALICE)}/events/${enc(created.id)}`)).status, 204);
  });

  it('creates an event step by step and with Quick Add, and the emulator has them', async () => {
    const seen = stubs.answerInputs('Desk sync', `${tomorrow()} 10:00`, '45m', 'Room 7');
    const confirmations: unknown[][] = [];
    let confirmed = (): void => undefined;
    const answered = new Promise<void>((resolve) => { confirmed = resolve; });
    // The user reads the notice, then clicks Show in Agenda.
    let click = (_choice: string | undefined): void => undefined;
    const clicked = new Promise<string | undefined>((resolve) => { click = resolve; });
    stubs.stub('showInformationMessage', async (...args: unknown[]) => {
      confirmations.push(args);
      confirmed();
      return confirmations.length === 1 ? clicked : undefined;
    });
    const created = await vscode.commands.executeCommand<ApiEvent | undefined>('desk.calendar.createEvent', await primary());
    assert.equal(created?.summary, 'Desk sync');
    // After the last step: a confirmation with Open and Show in Agenda; Show in Agenda selects the new row.
    await answered;
    assert.match(String(confirmations[0]?.[0]), /^Created “Desk sync” in .+: .+ · 10:00\.$/);
    assert.deepEqual(confirmations[0]?.slice(1), ['Open', 'Show in Agenda']);
    // The user clicks once the Agenda shows the event (a moment after the notice).
    await eventually('the new event in the Agenda', async () => {
      await api.calendar.tree.getChildren();
      return eventNode(api.calendar.tree.agenda, 'Desk sync').catch(() => undefined);
    });
    click('Show in Agenda');
    await eventually('the new event selected in the Agenda', () => {
      const selected = api.calendar.view.selection.at(0);
      return selected?.kind === 'event' && selected.event.id === created.id && selected.inAgenda ? true : undefined;
    });
    stubs.restore();
    assert.ok(seen[1]?.validateInput && await seen[1].validateInput('next blue moon'), 'an unreadable time is refused');
    const onEmulator = await eventOnEmulator(ALICE, created.id);
    assert.equal(onEmulator.body.location, 'Room 7');
    assert.equal(Date.parse(onEmulator.body.start?.dateTime ?? ''), zonedToUtc(tomorrow(), 10, 0, ZONE), '10:00 in the Calendar zone (Berlin), in summer and in winter');
    // Shown under Tomorrow at once (synced with the sync token, not reloaded).
    const node = await eventNode(api.calendar.tree.agenda, 'Desk sync');
    assert.equal(node.parent.group.key, tomorrow());

    // From a day row of a calendar: that calendar, and that day filled in.
    const dayRow = (await api.calendar.tree.getChildren(await primary())).find((row): row is DayNode => row.kind === 'day' && row.group.key === tomorrow());
    assert.ok(dayRow);
    const asked = stubs.answerInputs('Day-row event', `${tomorrow()} 18:00`, '30m', '');
    const fromDay = await vscode.commands.executeCommand<ApiEvent | undefined>('desk.calendar.createEvent', dayRow);
    assert.equal(asked[1]?.value, `${tomorrow()} 09:00`);
    assert.equal((await eventOnEmulator(ALICE, fromDay?.id ?? '')).body.summary, 'Day-row event');

    const quick = await vscode.commands.executeCommand<ApiEvent | undefined>('desk.calendar.quickAdd', await primary(), 'Coffee with Ann tomorrow 15:00');
    assert.ok(quick?.id);
    assert.equal((await eventOnEmulator(ALICE, quick.id)).status, 200);
  });

  it('Edit Event\'s When step starts with the time the Agenda shows, previews it as the Agenda writes it, and keeps a time left with Escape', async () => {
    const node = await eventNode(await primary(), 'Desk sync');
    const shown = String(api.calendar.tree.getTreeItem(node).description ?? '');
    const start = /^(\d{2}:\d{2})/.exec(shown)?.[1];
    assert.ok(start, shown);
    // Escape on the When step: nothing is changed.
    let asked = stubs.answerInputs(undefined);
    assert.equal(await vscode.commands.executeCommand('desk.calendar.editEvent', node, 'time'), undefined);
    assert.equal(asked[0]?.value, `${node.parent.group.key} ${start}`);
    const preview = await asked[0]?.validateInput?.(asked[0]?.value ?? '');
    const dayRow = String(api.calendar.tree.getTreeItem(node.parent).description ?? '').split(' · ')[0];
    assert.equal(typeof preview === 'object' ? preview?.message : preview, `${dayRow} · ${start}`);

    // A new time typed, then Escape on How long: the next Edit Event on it starts with that time, and says so.
    asked = stubs.answerInputs(`${tomorrow()} 07:15`, undefined);
    assert.equal(await vscode.commands.executeCommand('desk.calendar.editEvent', node, 'time'), undefined);
    asked = stubs.answerInputs(undefined);
    await vscode.commands.executeCommand('desk.calendar.editEvent', node, 'time');
    assert.equal(asked[0]?.value, `${tomorrow()} 07:15`);
    assert.match(asked[0]?.prompt ?? '', /unsaved text from last time/);
    // Typed back as it was: no draft is left.
    asked = stubs.answerInputs(`${node.parent.group.key} ${start}`, undefined);
    await vscode.commands.executeCommand('desk.calendar.editEvent', node, 'time');
    asked = stubs.answerInputs(undefined);
    await vscode.commands.executeCommand('desk.calendar.editEvent', node, 'time');
    assert.equal(asked[0]?.value, `${node.parent.group.key} ${start}`);
  });

  it('edits with the etag, and asks Reload / Overwrite / Cancel when the event changed elsewhere', async () => {
    let node = await eventNode(await primary(), 'Desk sync');
    stubs.answerInputs('Desk sync (moved)');
    const renamed = await vscode.commands.executeCommand<ApiEvent | undefined>('desk.calendar.editEvent', node, 'title');
    assert.equal(renamed?.summary, 'Desk sync (moved)');
    assert.equal((await eventOnEmulator(ALICE, node.event.id)).body.summary, 'Desk sync (moved)');

    node = await eventNode(await primary(), 'Desk sync (moved)');
    // Another client changes it; Desk's copy is now stale.
    await emulatorRequest('PATCH', `/calendar/v3/calendars/${enc(ALICE)}/events/${enc(node.event.id)}`, { location: 'Changed elsewhere' });
    stubs.answerInputs('Room 9');
    let asked = stubs.confirmWith('Reload');
    assert.equal(await vscode.commands.executeCommand('desk.calendar.editEvent', node, 'location'), undefined);
    assert.match(asked[0] ?? '', /changed elsewhere/);
    assert.equal((await eventOnEmulator(ALICE, node.event.id)).body.location, 'Changed elsewhere', 'Reload never overwrites');
    assert.equal(api.calendar.store.find(ALICE, node.event.id)?.location, 'Changed elsewhere', 'Reload brought the newer version');

    // Changed elsewhere again: this time Overwrite.
    await emulatorRequest('PATCH', `/calendar/v3/calendars/${enc(ALICE)}/events/${enc(node.event.id)}`, { location: 'Changed elsewhere again' });
    stubs.answerInputs('Room 9');
    asked = stubs.confirmWith('Overwrite');
    const overwritten = await vscode.commands.executeCommand<ApiEvent | undefined>('desk.calendar.editEvent', node, 'location');
    assert.equal(asked.length, 1);
    assert.equal(overwritten?.location, 'Room 9');

    // Attendees, reminders and recurrence.
    node = await eventNode(await primary(), 'Desk sync (moved)');
    stubs.answerInputs('bob@example.com, carol@example.com');
    await vscode.commands.executeCommand('desk.calendar.editEvent', node, 'attendees');
    assert.deepEqual((await eventOnEmulator(ALICE, node.event.id)).body.attendees?.map((attendee) => attendee.email), ['bob@example.com', 'carol@example.com']);
    node = await eventNode(await primary(), 'Desk sync (moved)');
    stubs.answerInputs('5, 30');
    await vscode.commands.executeCommand('desk.calendar.editEvent', node, 'reminders');
    assert.deepEqual((await eventOnEmulator(ALICE, node.event.id)).body, { ...(await eventOnEmulator(ALICE, node.event.id)).body, reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 5 }, { method: 'popup', minutes: 30 }] } });
    node = await eventNode(await primary(), 'Desk sync (moved)');
    stubs.answerPicks(byLabel(/^Every day$/));
    await vscode.commands.executeCommand('desk.calendar.editEvent', node, 'recurrence');
    assert.deepEqual((await eventOnEmulator(ALICE, node.event.id)).body, { ...(await eventOnEmulator(ALICE, node.event.id)).body, recurrence: ['RRULE:FREQ=DAILY'] });
  });

  it('shows the dates of a repeating event, deletes one date only, then the whole series', async () => {
    const node = await eventNode(await primary(), 'Desk sync (moved)');
    assert.ok(node.event.recurringEventId, 'the daily event shows as instances');
    const picks = stubs.answerPicks(() => undefined);
    await vscode.commands.executeCommand('desk.calendar.showInstances', node);
    assert.ok((picks[0]?.length ?? 0) >= 5, 'the instances are listed');

    stubs.answerPicks(byLabel(/only this event/i));
    stubs.confirmWith('Delete Event');
    const errors: string[] = [];
    stubs.stub('showErrorMessage', async (message) => { errors.push(String(message)); return undefined; });
    assert.equal(await vscode.commands.executeCommand('desk.calendar.deleteEvent', node), true, errors.join('\n'));
    const instance = await eventOnEmulator(ALICE, node.event.id);
    assert.ok(instance.status === 410 || instance.body.status === 'cancelled', 'the instance is cancelled');
    assert.equal((await eventOnEmulator(ALICE, node.event.recurringEventId)).body.status, 'confirmed', 'the series stays');

    const next = await eventNode(await primary(), 'Desk sync (moved)');
    stubs.answerPicks(byLabel(/all events in the series/i));
    stubs.confirmWith('Delete Series');
    assert.equal(await vscode.commands.executeCommand('desk.calendar.deleteEvent', next), true);
    const series = await eventOnEmulator(ALICE, node.event.recurringEventId);
    assert.ok(series.status === 410 || series.body.status === 'cancelled', 'the series is deleted');
  });

  it('moves an event to another calendar', async () => {
    const node = await eventNode(await primary(), 'Coffee with Ann');
    const teamNode = await team();
    stubs.answerPicks((items) => items.find((item) => (item.value as ApiEntry).id === teamNode.calendarId));
    const moved = await vscode.commands.executeCommand<ApiEvent | undefined>('desk.calendar.moveEvent', node);
    assert.ok(moved);
    assert.ok((await eventsOnEmulator(teamNode.calendarId)).some((event) => event.id === node.event.id), 'not in Team');
    assert.ok(!(await eventsOnEmulator(ALICE)).some((event) => event.id === node.event.id && event.status !== 'cancelled'), 'still in the primary');
  });

  it('imports an .ics file by iCalUID (again updates instead of duplicating)', async () => {
    const file = path.join(os.tmpdir(), `desk-import-${process.pid}.ics`);
    fs.writeFileSync(file, ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//desk test//EN',
      'BEGIN:VEVENT', 'UID:desk-import-1@example.com', 'SUMMARY:Imported planning', `DTSTART;TZID=Europe/Berlin:${tomorrow().replace(/-/g, '')}T140000`, `DTEND;TZID=Europe/Berlin:${tomorrow().replace(/-/g, '')}T150000`, 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:desk-import-2@example.com', 'SUMMARY:Imported holiday', `DTSTART;VALUE=DATE:${tomorrow().replace(/-/g, '')}`, `DTEND;VALUE=DATE:${addDays(tomorrow(), 1).replace(/-/g, '')}`, 'END:VEVENT',
      'END:VCALENDAR'].join('\r\n'));
    stubs.stub('showInformationMessage', async () => undefined);
    const imported = await vscode.commands.executeCommand<ApiEvent[] | undefined>('desk.calendar.importIcs', await primary(), vscode.Uri.file(file));
    assert.equal(imported?.length, 2);
    await vscode.commands.executeCommand('desk.calendar.importIcs', await primary(), vscode.Uri.file(file));
    const copies = (await eventsOnEmulator(ALICE, `&iCalUID=${enc('desk-import-1@example.com')}`)).filter((event) => event.status !== 'cancelled');
    assert.equal(copies.length, 1);
    const holiday = await eventNode(api.calendar.tree.agenda, 'Imported holiday');
    const siblings = await api.calendar.tree.getChildren(holiday.parent);
    assert.equal(siblings[0]?.kind === 'event' && siblings[0].occurrence.allDay, true, 'all-day first on its day');
    fs.rmSync(file, { force: true });
  });

  it('imports no part of a file that is not iCalendar, and says which events of a good file were left out', async () => {
    const shown: string[] = [];
    const say = async (message: unknown): Promise<undefined> => void shown.push(String(message));
    stubs.stub('showErrorMessage', say);
    stubs.stub('showWarningMessage', say);
    stubs.stub('showInformationMessage', say);
    const write = (name: string, lines: string[]): vscode.Uri => {
      const file = path.join(os.tmpdir(), `desk-${name}-${process.pid}.ics`);
      fs.writeFileSync(file, lines.join('\r\n'));
      return vscode.Uri.file(file);
    };
    const empty = write('empty', []);
    assert.equal(await vscode.commands.executeCommand('desk.calendar.importIcs', await primary(), empty), undefined);
    assert.match(shown.pop() ?? '', /^Nothing was imported: desk-empty-\d+\.ics is not an iCalendar file Desk can read \(the file is empty\)\.$/);
    const day = tomorrow().replace(/-/g, '');
    const mixed = write('mixed', ['BEGIN:VCALENDAR', 'VERSION:2.0',
      'BEGIN:VEVENT', 'UID:desk-import-good@example.com', 'SUMMARY:Good one', `DTSTART:${day}T090000Z`, `DTEND:${day}T100000Z`, 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:desk-import-bad@example.com', 'SUMMARY:Bad rule', `DTSTART:${day}T110000Z`, 'RRULE:whenever', 'END:VEVENT',
      'END:VCALENDAR']);
    const imported = await vscode.commands.executeCommand<ApiEvent[] | undefined>('desk.calendar.importIcs', await primary(), mixed);
    assert.deepEqual(imported?.map((event) => event.summary), ['Good one']);
    assert.match(shown.pop() ?? '', /^Imported 1 of 2 events into .*\. Left out: Bad rule: its repeat rule \(RRULE\) has no valid FREQ$/);
    assert.equal((await eventsOnEmulator(ALICE, `&iCalUID=${enc('desk-import-bad@example.com')}`)).length, 0);
    for (const uri of [empty, mixed]) fs.rmSync(uri.fsPath, { force: true });
  });

  it('shares a calendar: add with a role, change the role, stop sharing', async () => {
    const teamNode = await team();
    const acl = async () => (await emulatorRequest<{ items?: Array<{ id: string; role: string; scope: { value?: string } }> }>('GET', `/calendar/v3/calendars/${enc(teamNode.calendarId)}/acl`)).body.items ?? [];
    const roles = stubs.answerPicks(byLabel(/Share with someone/), (items) => items.find((item) => item.value === 'writer'));
    stubs.answerInputs('carol@example.com');
    await vscode.commands.executeCommand('desk.calendar.share', teamNode);
    assert.ok(roles[1]?.some((item) => item.value === 'freeBusyReader' && /free\/busy/i.test(item.label)), 'roles are explained');
    assert.equal((await acl()).find((rule) => rule.scope.value === 'carol@example.com')?.role, 'writer');

    stubs.answerPicks((items) => items.find((item) => item.label === 'carol@example.com'), byLabel(/Change what/), (items) => items.find((item) => item.value === 'reader'));
    await vscode.commands.executeCommand('desk.calendar.share', teamNode);
    assert.equal((await acl()).find((rule) => rule.scope.value === 'carol@example.com')?.role, 'reader');

    stubs.answerPicks((items) => items.find((item) => item.label === 'carol@example.com'), byLabel(/Stop sharing/));
    stubs.confirmWith('Stop Sharing');
    await vscode.commands.executeCommand('desk.calendar.share', teamNode);
    assert.ok(!(await acl()).some((rule) => rule.scope.value === 'carol@example.com'));
  });

  it('creates, renames, sets up, clears and deletes a calendar; the primary cannot be deleted', async () => {
    stubs.answerInputs('Side project');
    const created = await vscode.commands.executeCommand<ApiEntry | undefined>('desk.calendar.createCalendar');
    assert.ok(created?.id);
    assert.ok((await listOnEmulator()).some((entry) => entry.id === created.id));
    let node = await calendarNode((candidate) => candidate.calendarId === created.id);
    stubs.answerInputs('Side project (2026)');
    await vscode.commands.executeCommand('desk.calendar.renameCalendar', node);
    assert.equal((await emulatorRequest<ApiEntry>('GET', `/calendar/v3/calendars/${enc(created.id)}`)).body.summary, 'Side project (2026)');

    node = await calendarNode((candidate) => candidate.calendarId === created.id);
    const colors = stubs.answerPicks((items) => items.find((item) => item.description === '' && item.iconPath !== undefined));
    await vscode.commands.executeCommand('desk.calendar.calendarSettings', node, 'color');
    const picked = colors[0]?.find((item) => item.description === '' && item.iconPath !== undefined);
    assert.equal((await listOnEmulator()).find((entry) => entry.id === created.id)?.colorId, picked?.value, 'colour from colors.get');
    node = await calendarNode((candidate) => candidate.calendarId === created.id);
    await vscode.commands.executeCommand('desk.calendar.calendarSettings', node, 'reminders', '15');
    node = await calendarNode((candidate) => candidate.calendarId === created.id);
    await vscode.commands.executeCommand('desk.calendar.calendarSettings', node, 'hide');
    assert.equal((await listOnEmulator()).find((entry) => entry.id === created.id)?.hidden, true);
    assert.ok(!(await api.calendar.tree.getChildren()).some((root) => root.kind === 'calendar' && root.calendarId === created.id), 'hidden calendars leave the tree');
    await vscode.commands.executeCommand('desk.calendar.showHidden');
    node = await calendarNode((candidate) => candidate.calendarId === created.id);
    await vscode.commands.executeCommand('desk.calendar.hideHidden');

    await emulatorRequest('POST', `/calendar/v3/calendars/${enc(created.id)}/events`, { summary: 'To clear', start: { date: tomorrow() }, end: { date: addDays(tomorrow(), 1) } });
    stubs.confirmWith('Clear Calendar');
    assert.equal(await vscode.commands.executeCommand('desk.calendar.clearCalendar', node), true);
    assert.equal((await eventsOnEmulator(created.id)).filter((event) => event.status !== 'cancelled').length, 0);

    const asked = stubs.confirmWith('Delete Calendar');
    assert.equal(await vscode.commands.executeCommand('desk.calendar.deleteCalendar', node), true);
    assert.match(asked[0] ?? '', /Side project/);
    assert.ok(!(await listOnEmulator()).some((entry) => entry.id === created.id));

    const infos: string[] = [];
    stubs.stub('showInformationMessage', async (message) => { infos.push(String(message)); return undefined; });
    assert.equal(await vscode.commands.executeCommand('desk.calendar.deleteCalendar', await primary()), false);
    assert.match(infos[0] ?? '', /primary calendar cannot be deleted/);
  });

  it('adds a calendar someone shared by its id, and removes it from the list', async () => {
    const bobs = await emulatorRequest<ApiEntry>('POST', '/calendar/v3/calendars', { summary: "Bob's trips" }, 'bob@example.com');
    await emulatorRequest('POST', `/calendar/v3/calendars/${enc(bobs.body.id)}/acl`, { role: 'reader', scope: { type: 'user', value: ALICE } }, 'bob@example.com');
    const asked = stubs.answerInputs(bobs.body.id);
    const added = await vscode.commands.executeCommand<ApiEntry | undefined>('desk.calendar.addCalendar');
    assert.equal(added?.id, bobs.body.id);
    // What is not an id is refused with the reason while typing (a calendar's web address, an emoji, nothing).
    const box = asked.at(0);
    assert.ok(typeof box?.validateInput === 'function');
    assert.match(messageText(await box.validateInput('https://calendar.google.com/calendar/embed?src=team%40example.com')), /A calendar id is an address/);
    assert.match(messageText(await box.validateInput('😀')), /A calendar id is an address/);
    assert.equal(await box.validateInput(''), 'Enter a calendar id.');
    const node = await calendarNode((candidate) => candidate.calendarId === bobs.body.id);
    assert.match(String(api.calendar.tree.getTreeItem(node).description), /read-only/);
    stubs.confirmWith('Remove');
    assert.equal(await vscode.commands.executeCommand('desk.calendar.removeCalendar', node), true);
    assert.ok(!(await listOnEmulator()).some((entry) => entry.id === bobs.body.id));
  });

  it('shows settings and colours, and event details, as read-only documents', async () => {
    await vscode.commands.executeCommand('desk.calendar.showSettings');
    const settings = vscode.workspace.textDocuments.find((document) => document.uri.scheme === 'desk-calendar-info');
    assert.ok(settings);
    assert.match(settings.getText(), /\| timezone \| Europe\/Berlin \|/);
    assert.match(settings.getText(), /## Calendar colours/);
    const retro = await eventNode(api.calendar.tree.agenda, 'Sprint retro');
    await vscode.commands.executeCommand('desk.calendar.openEvent', retro);
    // Other suites may have left details of other events open: this one is named by the event's id.
    const details = vscode.workspace.textDocuments.find((document) => document.uri.scheme === 'desk-calendar-event' && document.uri.path.endsWith(`/${encodeURIComponent(retro.event.id)}.md`));
    assert.match(details?.getText() ?? '', /# Sprint retro/);
    // One read-only tab named after the event, not the document and its preview named after an opaque id.
    const tabs = await detailsTab('Sprint retro');
    assert.deepEqual(tabs.filter((tab) => tab.label === 'Sprint retro').map((tab) => tab.input instanceof vscode.TabInputWebview), [true], tabs.map((tab) => tab.label).join(', '));
    assert.deepEqual(tabs.filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === 'desk-calendar-event').map((tab) => tab.label), []);
    assert.ok(!tabs.some((tab) => /\.md$/.test(tab.label) || tab.label.startsWith('Preview ')), tabs.map((tab) => tab.label).join(', '));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opens the free/busy webview for chosen calendars and days', async () => {
    const teamNode = await team();
    const result = await vscode.commands.executeCommand<{ response: { calendars: Partial<Record<string, { busy: unknown[] }>> }; panel: vscode.WebviewPanel } | undefined>('desk.calendar.freeBusy', undefined, { calendars: [ALICE, teamNode.calendarId], days: 7 });
    assert.ok(result);
    assert.ok((result.response.calendars[ALICE]?.busy.length ?? 0) > 0, 'alice is busy some time this week');
    const html = result.panel.webview.html;
    assert.match(html, /Content-Security-Policy/);
    assert.match(html, /class="busy[a-z ]*" id="b0" tabindex="0" role="img"[^>]*aria-label="[^"]*busy/);
    result.panel.dispose();
    // From the palette: the calendars and the range are picked.
    stubs.answerPicks((items) => items.filter((item) => item.picked), byLabel(/^Today$/));
    const picked = await vscode.commands.executeCommand<{ view: { days: unknown[] }; panel: vscode.WebviewPanel } | undefined>('desk.calendar.freeBusy');
    assert.equal(picked?.view.days.length, 1);
    picked.panel.dispose();
  });

  it('syncs changes made elsewhere with the sync token and counts down to the next event in the status bar', async () => {
    await api.calendar.startTimers();
    assert.equal(api.calendar.status.isRunning, true);
    // Half an hour before a start tomorrow that nothing else on alice's calendars touches (statusClock.ts).
    const free = await freeHalfHourTomorrow(await api.calendar.timeZone(), [ALICE]);
    const halfHour = 30 * 60_000;
    const made = await emulatorRequest<ApiEvent>('POST', `/calendar/v3/calendars/${enc(ALICE)}/events`, { summary: 'Standup from elsewhere', start: { dateTime: new Date(free).toISOString() }, end: { dateTime: new Date(free + halfHour).toISOString() } });
    const before = api.calendar.store.fullLoads;
    await vscode.commands.executeCommand('desk.calendar.refresh', await primary());
    assert.ok(api.calendar.store.find(ALICE, made.body.id), 'the refresh brought the new event');
    assert.equal(api.calendar.store.fullLoads, before, 'an incremental listing, not a reload');
    // The status item's own source and logic, on the agenda the refresh updated, read at the test's clock.
    assert.equal(statusAt(api, free - halfHour).text, '$(calendar) in 30 min: Standup from elsewhere');
  });
});
