import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { CalendarPrompts } from '../../../../../src/features/calendar/commands/context';
import type { EventStore } from '../../../../../src/features/calendar/sync/eventStore';
import type { CalendarTreeProvider } from '../../../../../src/features/calendar/tree/treeProvider';
import type { CalendarEvent, CalendarListEntry } from '../../../../../src/shared/schemas/calendar';
import { fakeVscode } from '../../../../support/fakeVscode';

const NOW = Date.parse('2026-11-26T09:00:00Z');

/** The prompts over one calendar holding `events`, recording what the user is told. */
function promptsWith(events: CalendarEvent[]): { prompts: CalendarPrompts; told: string[]; offered: vscode.QuickPickItem[][] } {
  const told: string[] = [];
  const offered: vscode.QuickPickItem[][] = [];
  const base = fakeVscode();
  const window = {
    ...base.window,
    showInformationMessage: async (message: string) => { told.push(message); return undefined; },
    showQuickPick: async (items: vscode.QuickPickItem[]) => { offered.push(items); return undefined; },
  };
  const vs = { ...base, window, env: { ...base.env, language: 'en-GB' } } as unknown as typeof vscode;
  const entry: CalendarListEntry = { id: 'alice@example.com', summary: 'Alice', accessRole: 'owner' };
  const tree = { agendaCalendars: async () => [entry], entry: () => entry } as unknown as CalendarTreeProvider;
  const store = { ensureLoaded: async () => undefined, events: () => events } as unknown as EventStore;
  return { prompts: new CalendarPrompts(vs, tree, store, async () => 'UTC', () => NOW), told, offered };
}

describe('Calendar: choosing an event', () => {
  it('says the next event has no call link (naming it) rather than "No upcoming events" when none can be joined', async () => {
    const standup: CalendarEvent = { id: 'e1', summary: 'Standup', start: { dateTime: '2026-11-26T10:00:00Z' }, end: { dateTime: '2026-11-26T10:15:00Z' } };
    const { prompts, told } = promptsWith([standup]);
    const picked = await prompts.resolveEvent(undefined, 'Join which event?', () => false, (next) => `The next event, “${String(next.event.summary)}”, has no call link.`);
    assert.equal(picked, undefined);
    assert.deepEqual(told, ['The next event, “Standup”, has no call link.']);
  });

  it('writes the next event\'s day and time as the Agenda writes them, in the picker and in what it says about the next one', async () => {
    const standup: CalendarEvent = { id: 'e1', summary: 'Standup', start: { dateTime: '2026-11-26T10:00:00Z' }, end: { dateTime: '2026-11-26T10:15:00Z' } };
    const offsite: CalendarEvent = { id: 'e2', summary: 'Offsite', start: { date: '2026-11-27' }, end: { date: '2026-11-28' } };
    const { prompts, told, offered } = promptsWith([standup, offsite]);
    await prompts.resolveEvent(undefined, 'Join which event?', () => false, (next, when) => `${String(next.event.summary)} (${when})`);
    assert.deepEqual(told, ['Standup (Thu 26 Nov · 10:00–10:15)']);
    await prompts.resolveEvent(undefined, 'Show which event?');
    assert.deepEqual(offered[0]?.map((item) => item.description), ['Thu 26 Nov · 10:00–10:15', 'Fri 27 Nov · All day']);
  });

  it('says "No upcoming events" only when there are none', async () => {
    const { prompts, told } = promptsWith([]);
    assert.equal(await prompts.resolveEvent(undefined, 'Join which event?', () => false, () => 'unused'), undefined);
    assert.deepEqual(told, ['No upcoming events.']);
  });
});
