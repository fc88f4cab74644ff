// Words, not Google's identifiers: the New Event calendar picker names calendars and what the user may do with them
// (a group calendar's id only tells apart two of the same name), and event details say nothing of a confirmed status.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { CalendarPrompts } from '../../../../../src/features/calendar/commands/context';
import type { EventStore } from '../../../../../src/features/calendar/sync/eventStore';
import { eventDetailsMarkdown } from '../../../../../src/features/calendar/tree/presentation';
import type { CalendarTreeProvider } from '../../../../../src/features/calendar/tree/treeProvider';
import type { CalendarEvent, CalendarListEntry } from '../../../../../src/shared/schemas/calendar';
import { fakeVscode } from '../../../../support/fakeVscode';

describe('Calendar: words instead of raw values', () => {
  it('offers calendars by name and access, without the group calendar\'s id', async () => {
    const offered: vscode.QuickPickItem[][] = [];
    const base = fakeVscode();
    const vs = { ...base, window: { ...base.window, showQuickPick: async (items: vscode.QuickPickItem[]) => { offered.push(items); return undefined; } } } as unknown as typeof vscode;
    const calendars: CalendarListEntry[] = [
      { id: 'alice@example.com', summary: 'alice@example.com', primary: true, accessRole: 'owner' },
      { id: 'c_b5dc0123456789@group.calendar.google.com', summary: 'Team', accessRole: 'writer' },
      { id: 'c_1@group.calendar.google.com', summary: 'Trips', accessRole: 'owner' },
      { id: 'c_2@group.calendar.google.com', summary: 'Trips', accessRole: 'owner' },
    ];
    const tree = { calendars: async () => calendars } as unknown as CalendarTreeProvider;
    const prompts = new CalendarPrompts(vs, tree, {} as unknown as EventStore, async () => 'UTC', () => 0);
    await prompts.calendarForNewEvent(undefined);
    const rows = (offered[0] ?? []).map((item) => [item.label, item.description ?? '', item.detail ?? '']);
    assert.deepEqual(rows, [
      ['alice@example.com', 'primary · yours', ''],
      ['Team', 'you can edit', ''],
      ['Trips', 'yours', 'c_1@group.calendar.google.com'],
      ['Trips', 'yours', 'c_2@group.calendar.google.com'],
    ]);
  });

  it('leaves "Status: confirmed" out of an event\'s details and words the other states', () => {
    const event: CalendarEvent = { id: 'e1', summary: 'Standup', status: 'confirmed', start: { dateTime: '2026-11-26T10:00:00Z' }, end: { dateTime: '2026-11-26T10:15:00Z' } };
    const occurrence = { calendarId: 'c', event, start: Date.parse('2026-11-26T10:00:00Z'), end: Date.parse('2026-11-26T10:15:00Z'), allDay: false };
    const confirmed = eventDetailsMarkdown(occurrence, 'Work', 'UTC', 'en-GB');
    assert.doesNotMatch(confirmed, /Status|confirmed/);
    const tentative = eventDetailsMarkdown({ ...occurrence, event: { ...event, status: 'tentative' } }, 'Work', 'UTC', 'en-GB');
    assert.match(tentative, /\| Status \| tentative \(not confirmed yet\) \|/);
  });
});
