// Desk's one clock: every view writes a moment in the user's Calendar zone, 24-hour, in the user's locale.
import * as assert from 'node:assert/strict';
import { DeskClock, formatClockTime, formatDateTime, formatDay, writeTimestamp } from '../../../../src/core/text/clock';
import { channelTooltip, notificationDescription } from '../../../../src/features/channels/tree/presentation';
import type { ChannelRecord } from '../../../../src/features/channels/model';
import { english } from '../../../../src/shared/l10n';
import { tooltipMarkdown } from '../../../../src/features/drive/tree/presentation';
import { driveTooltipLines } from '../../../../src/features/drive/sharedDrives/nodes';
import { relativeTime } from '../../../../src/features/drive/changes/statusBar';
import { taskDetailsMarkdown } from '../../../../src/features/tasks/tree/presentation';
import { shelfDetailsMarkdown } from '../../../../src/features/books/tree/presentation';
import type { Task } from '../../../../src/shared/schemas/tasks';

const AFTERNOON = Date.UTC(2026, 10, 27, 14, 5); // Fri 27 Nov 2026, 14:05 UTC

class MapMemory {
  readonly values = new Map<string, unknown>();
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- Memento's get<T>, whose T the caller names
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  update(key: string, value: unknown): Thenable<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
}

describe('Desk clock', () => {
  it('writes times 24-hour in the given zone, whatever the locale\'s own habit', () => {
    assert.equal(formatClockTime(AFTERNOON, 'Europe/Berlin', 'en-US'), '15:05');
    assert.equal(formatClockTime(AFTERNOON, 'UTC', 'en-GB'), '14:05');
    assert.equal(formatClockTime(AFTERNOON, 'Asia/Tokyo', 'en-GB'), '23:05');
  });

  it('writes a date and time short, with the year only when it is not this year', () => {
    assert.equal(formatDateTime(AFTERNOON, 'Europe/Berlin', 'en-GB', AFTERNOON), 'Fri 27 Nov, 15:05');
    assert.match(formatDateTime(AFTERNOON, 'Europe/Berlin', 'en-GB', Date.UTC(2025, 0, 1)), /^Fri,? 27 Nov 2026, 15:05$/);
  });

  it('writes a day (no time) short, in the zone, with the year only when it is not this year', () => {
    assert.match(formatDay(AFTERNOON, 'Europe/Berlin', 'en-GB', AFTERNOON), /^Fri,? 27 Nov$/);
    assert.match(formatDay(AFTERNOON, 'Asia/Tokyo', 'en-GB', AFTERNOON), /^Fri,? 27 Nov$/);
    assert.match(formatDay(Date.UTC(2026, 10, 27, 23, 30), 'Asia/Tokyo', 'en-GB', AFTERNOON), /^Sat,? 28 Nov$/);
    assert.match(formatDay(AFTERNOON, 'UTC', 'en-GB', Date.UTC(2025, 5, 1)), /^Fri,? 27 Nov 2026$/);
    assert.match(writeTimestamp('2026-11-27T14:05:00.000Z', (ms) => new DeskClock('en-GB', undefined, 'UTC').day(ms, AFTERNOON)), /^Fri,? 27 Nov$/);
    assert.equal(writeTimestamp('not a date', () => 'never'), 'not a date');
  });

  it('follows the Calendar zone once known, and remembers it for the next session', () => {
    const memory = new MapMemory();
    const clock = new DeskClock('en-GB', memory, 'UTC');
    assert.equal(clock.time(AFTERNOON), '14:05');
    clock.setTimeZone('Europe/Berlin');
    assert.equal(clock.time(AFTERNOON), '15:05');
    clock.setTimeZone('Not/AZone');
    assert.equal(clock.timeZone, 'Europe/Berlin');
    assert.equal(new DeskClock('en-GB', memory, 'UTC').timeZone, 'Europe/Berlin');
  });

  it('is what the Channels view writes its times with (not the machine\'s 12-hour UTC)', () => {
    const clock = new DeskClock('en-US', undefined, 'UTC');
    clock.setTimeZone('Europe/Berlin');
    const record = { id: 'c1', resourceId: 'r1', address: 'https://127.0.0.1/hook', expiration: AFTERNOON, created: 0, messages: 1, lastMessageAt: AFTERNOON, lastState: 'change', target: { kind: 'driveChanges' } } as unknown as ChannelRecord;
    const tooltip = channelTooltip(record, english, clock, AFTERNOON - 60_000);
    assert.match(tooltip, /Expires .*15:05/);
    assert.match(tooltip, /1 notification arrived, at .*15:05/);
    assert.doesNotMatch(tooltip, /\b[AP]M\b/);
    assert.equal(notificationDescription({ channelId: 'c1', messageNumber: 2, resourceState: 'change', receivedAt: AFTERNOON } as Parameters<typeof notificationDescription>[0], clock), '15:05');
  });

  it('is what Drive hovers, the changes list and the details pages write moments with (no machine format, no raw ISO)', () => {
    const clock = new DeskClock('en-US', undefined, 'UTC');
    clock.setTimeZone('Europe/Berlin');
    const when = (ms: number): string => clock.dateTime(ms);
    const iso = new Date(AFTERNOON).toISOString();
    const shown = [
      tooltipMarkdown({ id: 'f1', title: 'ideas.txt', mimeType: 'text/plain', modifiedDate: iso, lastModifyingUserName: 'Alice' }, when, english),
      driveTooltipLines({ id: 'd1', kind: 'drive#drive', createdDate: iso }, english, when).join('\n'),
      relativeTime(AFTERNOON, AFTERNOON + 3 * 86_400_000, when, english),
      taskDetailsMarkdown({ id: 't1', title: 'Pay rent', status: 'completed', completed: iso, updated: iso } as Task, 'Home', new Date(AFTERNOON), english, when),
      shelfDetailsMarkdown({ kind: 'books#bookshelf', id: 1001, title: 'Book club', created: iso, updated: iso }, { mine: true, writable: true, owner: 'me', when }, english),
    ];
    for (const text of shown) {
      assert.match(text, /15:05/, text);
      assert.doesNotMatch(text, /\b[AP]M\b|\d{4}-\d{2}-\d{2}T/, text);
    }
  });
});
