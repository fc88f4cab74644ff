import * as assert from 'node:assert/strict';
import { NextEventStatus } from '../../../../../src/features/calendar/status/statusBar';
import { countdownText, dueReminders, nextOccurrence, popupReminders } from '../../../../../src/features/calendar/status/upcoming';
import { occurrenceOf, Occurrence } from '../../../../../src/features/calendar/tree/model';
import type { Clock } from '../../../../../src/core/sync/poller';
import type { CalendarEvent } from '../../../../../src/shared/schemas/calendar';
import { fakeVscode } from '../../../../support/fakeVscode';
import { allDay, timed } from '../../../../support/fakes/calendar';

const place = (events: CalendarEvent[]): Occurrence[] => events.flatMap((event) => occurrenceOf('cal', event, 'Europe/Berlin') ?? []);
const NOW = Date.parse('2026-11-23T09:48:00Z');

/** A clock the test moves by hand; timers fire when their time is passed. */
class FakeClock implements Clock {
  private timers: Array<{ at: number; callback: () => void; id: number }> = [];
  private ids = 0;
  constructor(public time: number) {}
  now(): number { return this.time; }
  setTimeout(callback: () => void, ms: number): unknown {
    const id = ++this.ids;
    this.timers.push({ at: this.time + ms, callback, id });
    return id;
  }
  clearTimeout(handle: unknown): void { this.timers = this.timers.filter((timer) => timer.id !== handle); }
  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      const next = this.timers.filter((timer) => timer.at <= target).sort((a, b) => a.at - b.at).at(0);
      if (!next) break;
      this.timers = this.timers.filter((timer) => timer !== next);
      this.time = next.at;
      next.callback();
    }
    this.time = target;
  }
}

function fakeStatusVscode() {
  const item = { text: '', tooltip: '', visible: false, show() { this.visible = true; }, hide() { this.visible = false; }, dispose() {} };
  const messages: string[][] = [];
  const vs = fakeVscode() as unknown as Record<string, unknown>;
  vs.StatusBarAlignment = { Left: 1, Right: 2 };
  vs.window = { ...(vs.window as object), createStatusBarItem: () => item, showInformationMessage: async (...args: string[]) => { messages.push(args); return undefined; } };
  return { vs: vs as never, item, messages };
}

describe('Calendar next event and reminders', () => {
  const events = [
    allDay('holiday', '2026-11-23', '2026-11-24'),
    timed('Standup', '2026-11-23T10:00:00Z', '2026-11-23T10:15:00Z', { hangoutLink: 'https://meet.google.com/x' }),
    timed('Declined', '2026-11-23T09:55:00Z', '2026-11-23T10:30:00Z', { attendees: [{ email: 'me@x', self: true, responseStatus: 'declined' }] }),
    timed('Review', '2026-11-23T13:00:00Z', '2026-11-23T14:00:00Z', { reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 30 }, { method: 'email', minutes: 60 }] } }),
  ];

  it('counts down to the next timed event, skipping all-day and declined ones', () => {
    const next = nextOccurrence(place(events), NOW, 'Europe/Berlin');
    assert.equal(next?.event.summary, 'Standup');
    assert.equal(countdownText(next, NOW), 'in 12 min: Standup');
    assert.equal(countdownText(next, Date.parse('2026-11-23T10:05:00Z')), 'now: Standup (ends in 10 min)');
    assert.equal(countdownText(nextOccurrence(place(events), Date.parse('2026-11-23T10:20:00Z'), 'Europe/Berlin') as Occurrence, Date.parse('2026-11-23T10:20:00Z')), 'in 2 h 40 min: Review');
  });

  it('cuts a very long title in the status bar (the hover has it whole), so the bar keeps its other items', () => {
    const long = 'x'.repeat(2000);
    const next = nextOccurrence(place([timed(long, '2026-11-23T10:00:00Z', '2026-11-23T10:15:00Z')]), NOW, 'Europe/Berlin') as Occurrence;
    const text = countdownText(next, NOW);
    assert.ok(text.startsWith('in 12 min: xxx'), text);
    assert.ok(text.endsWith('…'), text);
    assert.ok(text.length <= 'in 12 min: '.length + 40, `${text.length} characters`);
  });

  it('looks to the end of today in the Calendar zone, whatever the hour, and says when nothing is left', () => {
    const tomorrow = [timed('Early train', '2026-11-24T08:00:00Z', '2026-11-24T09:00:00Z')];
    // 20:00 in Berlin: tomorrow's 09:00 is 13 hours away, yet not today's; at 08:00 it would be 25 hours away.
    assert.equal(nextOccurrence(place(tomorrow), Date.parse('2026-11-23T19:00:00Z'), 'Europe/Berlin'), undefined);
    assert.equal(nextOccurrence(place(tomorrow), Date.parse('2026-11-24T05:00:00Z'), 'Europe/Berlin')?.event.summary, 'Early train');
    // 23:30 UTC is already tomorrow in Berlin: the same event is today's there.
    assert.equal(nextOccurrence(place(tomorrow), Date.parse('2026-11-23T23:30:00Z'), 'Europe/Berlin')?.event.summary, 'Early train');

    const clock = new FakeClock(Date.parse('2026-11-23T19:00:00Z'));
    const { vs, item } = fakeStatusVscode();
    const status = new NextEventStatus(vs, { occurrences: () => place(tomorrow), timeZone: () => 'Europe/Berlin', defaultReminders: () => [], open: async () => undefined, join: async () => undefined }, clock);
    status.start();
    assert.equal(item.text, '$(calendar) No more events today');
    assert.equal(item.visible, true, 'shown whatever the hour, not only when an event is near');
    assert.equal(status.current, undefined);
    clock.advance(10 * 60 * 60_000); // 05:00 UTC, 06:00 in Berlin
    status.update();
    assert.equal(item.text, '$(calendar) in 3 h: Early train');
    status.stop();
  });

  it('uses the event popup overrides, or the calendar defaults', () => {
    assert.deepEqual(popupReminders(events[3], [{ method: 'popup', minutes: 10 }]), [30]);
    assert.deepEqual(popupReminders(events[1], [{ method: 'popup', minutes: 10 }, { method: 'email', minutes: 5 }]), [10]);
    const due = dueReminders(place(events), () => [{ method: 'popup', minutes: 10 }], Date.parse('2026-11-23T09:49:00Z'), Date.parse('2026-11-23T09:50:00Z'));
    assert.deepEqual(due.map((reminder) => [reminder.occurrence.event.summary, reminder.minutes]), [['Standup', 10]]);
  });

  it('redraws the status text every minute and notifies each reminder once, with Join for a call', () => {
    const clock = new FakeClock(NOW);
    const { vs, item, messages } = fakeStatusVscode();
    const status = new NextEventStatus(vs, {
      occurrences: () => place(events),
      timeZone: () => 'Europe/Berlin',
      defaultReminders: () => [{ method: 'popup', minutes: 10 }],
      open: async () => undefined,
      join: async () => undefined,
    }, clock);
    status.start();
    assert.equal(item.text, '$(calendar) in 12 min: Standup');
    // The tick runs just after each whole minute.
    clock.advance(60_100);
    assert.equal(item.text, '$(calendar) in 11 min: Standup');
    assert.deepEqual(messages, []);
    clock.advance(60_000); // 09:50: Standup's 10-minute reminder
    assert.deepEqual(messages, [['"Standup" starts in 10 min (11:00).', 'Open', 'Join']]);
    clock.advance(3 * 60 * 60_000);
    assert.deepEqual(messages.map((message) => message[0]), ['"Standup" starts in 10 min (11:00).', '"Review" starts in 30 min (14:00).']);
    status.stop();
    assert.equal(item.visible, false);
    const before = messages.length;
    clock.advance(24 * 60 * 60_000);
    assert.equal(messages.length, before, 'a stopped status bar has no timer left');
  });

  it('with several accounts signed in, shows the soonest event of all saying whose, and fires each account\'s reminders saying whose', async () => {
    const clock = new FakeClock(NOW);
    const { vs, item, messages } = fakeStatusVscode();
    const aliceEvents = [events[3]];
    const bobEvents = [events[1]];
    const status = new NextEventStatus(vs, {
      occurrences: () => place(aliceEvents),
      timeZone: () => 'Europe/Berlin',
      defaultReminders: () => [],
      open: async () => undefined,
      join: async () => undefined,
      whose: () => 'Alice Demo',
      others: () => [{ account: 'bob@example.com', occurrences: () => place(bobEvents), defaultReminders: () => [{ method: 'popup', minutes: 10 }], whose: () => 'Bob Demo' }],
    }, clock);
    status.start();
    assert.equal(item.text, '$(calendar) in 12 min: Standup · Bob Demo', 'bob\'s Standup is sooner than alice\'s Review');
    assert.equal(status.currentAccount, 'bob@example.com');
    clock.advance(2 * 60_000 + 100); // 09:50: bob's Standup reminder
    assert.deepEqual(messages.map((message) => message[0]), ['"Standup" starts in 10 min (11:00). · Bob Demo']);
    clock.advance(40 * 60_000); // Standup is over: alice's Review is next
    assert.equal(item.text, '$(calendar) in 2 h 30 min: Review · Alice Demo');
    assert.equal(status.currentAccount, undefined, 'the first account\'s');
    clock.advance(3 * 60 * 60_000);
    assert.deepEqual(messages.map((message) => message[0]), ['"Standup" starts in 10 min (11:00). · Bob Demo', '"Review" starts in 30 min (14:00). · Alice Demo']);
    status.stop();
  });

  it('with several accounts and no event left today in any, names nobody', () => {
    const clock = new FakeClock(Date.parse('2026-11-23T20:00:00Z'));
    const { vs, item } = fakeStatusVscode();
    const status = new NextEventStatus(vs, {
      occurrences: () => [], timeZone: () => 'Europe/Berlin', defaultReminders: () => [], open: async () => undefined, join: async () => undefined,
      whose: () => 'Alice Demo',
      others: () => [{ account: 'bob@example.com', occurrences: () => [], defaultReminders: () => [], whose: () => 'Bob Demo' }],
    }, clock);
    status.start();
    assert.equal(item.text, '$(calendar) No more events today');
    status.stop();
  });
});
