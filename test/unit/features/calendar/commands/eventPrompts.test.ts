// Edit Event's "When?" step: it starts with the event's time as the Agenda shows it, in the zone it reads the answer in, and accepting it leaves the event where it is.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { CalendarPrompts, CalendarCommandContext } from '../../../../../src/features/calendar/commands/context';
import { EventPrompts } from '../../../../../src/features/calendar/commands/eventPrompts';
import { Drafts } from '../../../../../src/core/ui/drafts';
import type { EventStore } from '../../../../../src/features/calendar/sync/eventStore';
import type { CalendarTreeProvider } from '../../../../../src/features/calendar/tree/treeProvider';
import { occurrenceOf } from '../../../../../src/features/calendar/tree/model';
import { whenLabel } from '../../../../../src/features/calendar/tree/presentation';
import type { CalendarEvent } from '../../../../../src/shared/schemas/calendar';
import { fakeVscode } from '../../../../support/fakeVscode';

// Thursday 26 November 2026, 09:00 UTC.
const NOW = Date.parse('2026-11-26T09:00:00Z');

/** What the user does in a box: accept a text, or type something (or nothing) and press Escape. */
type Answer = string | { typed?: string; escape: true };

interface Asked { prompt: string; value: string; preview: string | undefined }

/** EventPrompts over a fake VS Code whose input boxes accept what they start with (or what `answer` gives). */
function eventPrompts(zone: string, answer: (asked: Asked) => Answer = (asked) => asked.value) {
  const asked: Asked[] = [];
  const base = fakeVscode();
  const window = {
    ...base.window,
    showInputBox: async (options: vscode.InputBoxOptions) => {
      const value = options.value ?? '';
      const shown = await options.validateInput?.(value);
      const step = { prompt: options.prompt ?? '', value, preview: typeof shown === 'string' ? shown : shown?.message };
      asked.push(step);
      const action = answer(step);
      // VS Code validates the box's text as it changes; Escape answers undefined, whatever was typed.
      const typed = typeof action === 'string' ? action : action.typed;
      if (typed !== undefined) await options.validateInput?.(typed);
      return typeof action === 'string' ? action : undefined;
    },
  };
  const vs = { ...base, window, InputBoxValidationSeverity: { Info: 1, Warning: 2, Error: 3 }, env: { ...base.env, language: 'en-GB' } } as unknown as typeof vscode;
  const prompts = new CalendarPrompts(vs, {} as unknown as CalendarTreeProvider, {} as unknown as EventStore, async () => zone, () => NOW);
  const context = { desk: { vs }, timeZone: async () => zone, now: () => NOW, prompts, drafts: new Drafts() } as unknown as CalendarCommandContext;
  return { asking: new EventPrompts(context), asked };
}

describe('Calendar: Edit Event, date and time', () => {
  // 10:30 in Paris (UTC+1 in November), written by the API with its offset as Google does.
  const meeting: CalendarEvent = { id: 'e1', summary: 'Design review', start: { dateTime: '2026-11-27T10:30:00+01:00', timeZone: 'Europe/Paris' }, end: { dateTime: '2026-11-27T11:15:00+01:00', timeZone: 'Europe/Paris' } };

  it('starts with the time the Agenda shows, and accepting it keeps the same start and length', async () => {
    const { asking, asked } = eventPrompts('Europe/Paris');
    const patch = await asking.askChange('time', meeting, meeting);
    assert.equal(asked[0]?.value, '2026-11-27 10:30');
    const occurrence = occurrenceOf('', meeting, 'Europe/Paris');
    assert.ok(occurrence);
    assert.match(whenLabel(occurrence, 'Europe/Paris', 'en-GB'), /10:30/);
    assert.equal(asked[1]?.value, '45m');
    assert.ok(patch?.start && patch.end);
    assert.equal(Date.parse(`${String(patch.start.dateTime)}+01:00`), Date.parse(meeting.start?.dateTime ?? ''));
    assert.equal(patch.start.timeZone, 'Europe/Paris');
    assert.equal(Date.parse(`${String(patch.end.dateTime)}+01:00`), Date.parse(meeting.end?.dateTime ?? ''));
  });

  it('shows what the text resolves to in the form the Agenda writes a day and time', async () => {
    const { asking, asked } = eventPrompts('Europe/Paris');
    await asking.askChange('time', meeting, meeting);
    assert.equal(asked[0]?.preview, 'Fri 27 Nov · 10:30');
    const occurrence = occurrenceOf('', meeting, 'Europe/Paris');
    assert.ok(occurrence);
    assert.ok(whenLabel(occurrence, 'Europe/Paris', 'en-GB').startsWith(asked[0]?.preview ?? '?'));
  });
});

describe('Calendar: text typed in Edit Event left with Escape', () => {
  const meeting: CalendarEvent = { id: 'e1', summary: 'Design review', start: { dateTime: '2026-11-27T10:30:00+01:00' }, end: { dateTime: '2026-11-27T11:15:00+01:00' } };
  const standup: CalendarEvent = { ...meeting, id: 'e2', summary: 'Standup' };

  /** Plays `answers` in order, then accepts what each box starts with. */
  const playing = (answers: Answer[]) => (shown: Asked): Answer => answers.shift() ?? shown.value;

  it('starts the same step of the same event with what was typed, says so, and another event starts from itself', async () => {
    const { asking, asked } = eventPrompts('Europe/Paris', playing([{ typed: 'Design review (moved)', escape: true }, { escape: true }]));
    assert.equal(await asking.askChange('title', meeting, meeting, 'cal'), undefined);
    assert.equal(await asking.askChange('title', meeting, meeting, 'cal'), undefined);
    assert.equal(asked[1]?.value, 'Design review (moved)');
    assert.match(asked[1]?.prompt ?? '', /unsaved text from last time/);
    await asking.askChange('title', standup, standup, 'cal');
    assert.equal(asked[2]?.value, 'Standup');
    assert.doesNotMatch(asked[2]?.prompt ?? '', /unsaved/);
  });

  it('keeps a time typed on the When step after Escape on the How long step, and the next run saves it', async () => {
    const { asking, asked } = eventPrompts('Europe/Paris', playing(['fri 14:00', { typed: '2h', escape: true }]));
    assert.equal(await asking.askChange('time', meeting, meeting, 'cal'), undefined);
    const patch = await asking.askChange('time', meeting, meeting, 'cal');
    assert.deepEqual(asked.slice(2).map((step) => step.value), ['fri 14:00', '2h']);
    assert.equal(patch?.start?.dateTime, '2026-11-27T14:00:00');
    assert.equal(patch.end?.dateTime, '2026-11-27T16:00:00');
  });
});

describe('Calendar: Edit Event, attendees', () => {
  it('keeps the answers of the 20,000 attendees already invited (any case) and adds the new one, looked up by address', async () => {
    const invited = Array.from({ length: 20_000 }, (_, index) => ({ email: `Guest${index}@Example.com`, responseStatus: index % 2 === 0 ? 'accepted' : 'declined' }));
    const event: CalendarEvent = { id: 'e3', summary: 'All hands', start: { dateTime: '2026-11-27T10:30:00+01:00' }, end: { dateTime: '2026-11-27T11:15:00+01:00' }, attendees: invited };
    const typed = [...invited.map((attendee) => attendee.email.toLowerCase()), 'new@example.com'].join(', ');
    const { asking } = eventPrompts('Europe/Paris', () => typed);
    const patch = await asking.askChange('attendees', event, event, 'cal');
    assert.deepEqual(patch?.attendees, [...invited, { email: 'new@example.com' }]);
  });
});
