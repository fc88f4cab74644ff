// Quick Add: the line typed and left with Escape, or refused by Calendar, comes back the next time Quick Add opens on the same calendar; adding drops it.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { Drafts } from '../../../../../src/core/ui/drafts';
import { CalendarPrompts, CalendarCommandContext } from '../../../../../src/features/calendar/commands/context';
import { EventCommands } from '../../../../../src/features/calendar/commands/events';
import type { EventStore } from '../../../../../src/features/calendar/sync/eventStore';
import type { CalendarTreeProvider } from '../../../../../src/features/calendar/tree/treeProvider';
import type { CalendarEvent, CalendarListEntry } from '../../../../../src/shared/schemas/calendar';
import { fakeVscode } from '../../../../support/fakeVscode';
import { scriptedInputBoxes } from '../../../../support/scriptedInputBoxes';


/** Event commands over fake input boxes that play `actions`, a calendar picked by the user's choice, and a Calendar API refusing while `failing`. */
function quickAddCommands() {
  const { showInputBox, steps, play } = scriptedInputBoxes();
  let failing = false;
  let calendar: CalendarListEntry = { id: 'work', summary: 'Work', accessRole: 'owner' };
  const added: { calendarId: string; line: string }[] = [];
  const base = fakeVscode();
  const window = {
    ...base.window,
    showInputBox,
  };
  const vs = { ...base, window, InputBoxValidationSeverity: { Info: 1, Warning: 2, Error: 3 } } as unknown as typeof vscode;
  const prompts = Object.assign(new CalendarPrompts(vs, {} as unknown as CalendarTreeProvider, {} as unknown as EventStore, async () => 'UTC', () => 0), { calendarForNewEvent: async () => calendar });
  const api = {
    quickAddEvent: async (calendarId: string, line: string) => {
      if (failing) throw new Error('Calendar is unreachable');
      added.push({ calendarId, line });
      return { id: 'e1', summary: line } as CalendarEvent;
    },
  };
  const desk = { vs, showError: async () => undefined, log: { warn: () => undefined, debug: () => undefined } };
  const context = { desk, api: () => api, store: { sync: async () => undefined }, timeZone: async () => 'UTC', now: () => 0, prompts, drafts: new Drafts() } as unknown as CalendarCommandContext;
  return {
    commands: new EventCommands(context), steps, added,
    play,
    fail: (on: boolean) => { failing = on; },
    onCalendar: (entry: CalendarListEntry) => { calendar = entry; },
  };
}

describe('Calendar: Quick Add keeps the line typed', () => {
  it('offers the line left with Escape or refused on the same calendar, says so, and adding drops it', async () => {
    const { commands, steps, added, play, fail, onCalendar } = quickAddCommands();
    play([{ type: 'Dentist fri 8:30', escape: true }]);
    assert.equal(await commands.quickAdd(), undefined);
    fail(true);
    play([{ type: 'Dentist fri 8:30 with Sam' }]);
    await commands.quickAdd();
    assert.equal(steps[0]?.value, 'Dentist fri 8:30');
    assert.match(steps[0]?.prompt ?? '', /unsaved text from last time/);
    assert.equal(added.length, 0);

    fail(false);
    onCalendar({ id: 'home', summary: 'Home', accessRole: 'owner' });
    play([{ escape: true }]);
    await commands.quickAdd();
    assert.equal(steps[0]?.value, '', 'another calendar starts empty');

    onCalendar({ id: 'work', summary: 'Work', accessRole: 'owner' });
    play([{}]);
    await commands.quickAdd();
    assert.equal(steps[0]?.value, 'Dentist fri 8:30 with Sam');
    assert.deepEqual(added, [{ calendarId: 'work', line: 'Dentist fri 8:30 with Sam' }]);
    play([{ escape: true }]);
    await commands.quickAdd();
    assert.equal(steps[0]?.value, '');
    assert.doesNotMatch(steps[0]?.prompt ?? '', /unsaved/);
  });
});
