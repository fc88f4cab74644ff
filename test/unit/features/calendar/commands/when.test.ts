import * as assert from 'node:assert/strict';
import { describeWhen, eventTimes, parseDuration, parseReminderMinutes, parseWhen, recurrenceChoices, whenHelp } from '../../../../../src/features/calendar/commands/when';
import { icsSizeProblem, listProblems, MAX_ICS_BYTES, readIcs } from '../../../../../src/features/calendar/ics';

// Monday 23 November 2026, 23:30 in Berlin (already Tuesday in Tokyo).
const NOW = Date.parse('2026-11-23T22:30:00Z');

describe('Calendar input', () => {
  it('reads times in the user zone; a date alone is all-day', () => {
    assert.deepEqual(parseWhen('tomorrow 15:00', NOW, 'Europe/Berlin'), { kind: 'timed', date: '2026-11-24', hour: 15, minute: 0 });
    assert.deepEqual(parseWhen('tomorrow 3pm', NOW, 'Asia/Tokyo'), { kind: 'timed', date: '2026-11-25', hour: 15, minute: 0 });
    assert.deepEqual(parseWhen('2026-12-01', NOW, 'Europe/Berlin'), { kind: 'allDay', date: '2026-12-01' });
    assert.deepEqual(parseWhen('2026-12-01 09:30', NOW, 'Europe/Berlin'), { kind: 'timed', date: '2026-12-01', hour: 9, minute: 30 });
    assert.equal(parseWhen('whenever', NOW, 'Europe/Berlin').kind, 'invalid');
  });

  it('refuses a phrase whose time part does not parse instead of making it all day, and says why', () => {
    for (const text of ['tomorrow 32:99', 'tomorrow 25:00', 'fri 12:61']) {
      const when = parseWhen(text, NOW, 'Europe/Berlin');
      assert.equal(when.kind, 'invalid', text);
      assert.match(when.message, /is not a time of day: hours go from 0 to 23/, text);
    }
    const words = parseWhen('tomorrow blah', NOW, 'Europe/Berlin');
    assert.match(words.kind === 'invalid' ? words.message : '', /does not understand "blah"/);
    assert.equal(parseWhen('next monday', NOW, 'Europe/Berlin').kind, 'allDay');
    assert.equal(parseWhen('tomorrow at 3pm', NOW, 'Europe/Berlin').kind, 'timed');
  });

  it('quotes a long entry cut short, never the whole of it', () => {
    const pasted = `lunch ${'x'.repeat(2000)}`;
    const when = parseWhen(pasted, NOW, 'Europe/Berlin');
    const message = when.kind === 'invalid' ? when.message : '';
    assert.ok(message.length < 300, `${message.length} characters`);
    assert.match(message, /"lunch x+…"/);
  });

  it('says which day a month does not have, instead of "not a time Desk understands"', () => {
    const reason = (text: string): string => {
      const when = parseWhen(text, NOW, 'Europe/Berlin');
      return when.kind === 'invalid' ? when.message : `read as ${JSON.stringify(when)}`;
    };
    assert.equal(reason('31 Feb'), 'There is no 31 February: February has 28 days, 29 in a leap year.');
    assert.equal(reason('feb 30 10:00'), 'There is no 30 February: February has 28 days, 29 in a leap year.');
    assert.equal(reason('31 April 9:00'), 'There is no 31 April: April has 30 days.');
    assert.equal(reason('2027-02-29 09:00'), 'There is no 29 February 2027: February 2027 has 28 days.');
    assert.equal(reason('2026-13-01'), 'There is no month 13: months go from 1 to 12.');
    assert.deepEqual(parseWhen('2028-02-29 09:00', NOW, 'Europe/Berlin'), { kind: 'timed', date: '2028-02-29', hour: 9, minute: 0 });
    assert.equal(parseWhen('28 Feb', NOW, 'Europe/Berlin').kind, 'allDay');
  });

  it('gives an example date a week ahead of the user\'s today, never one in the past', () => {
    assert.match(whenHelp('2026-11-23'), /"2026-11-30 09:00"/);
    assert.match(whenHelp('2026-12-28'), /"2027-01-04 09:00"/);
    const empty = parseWhen('', NOW, 'Asia/Tokyo');
    assert.match(empty.kind === 'invalid' ? empty.message : '', /"2026-12-01 09:00"/, 'Tuesday 24th in Tokyo: a week later');
  });

  it('describes what a phrase resolves to, in the Calendar zone, before the user confirms', () => {
    const timed = parseWhen('tomorrow 15:00', NOW, 'Asia/Tokyo');
    assert.ok(timed.kind === 'timed');
    assert.equal(describeWhen(timed, '2026-11-24'), 'Wed 25 Nov · 15:00');
    const allDay = parseWhen('2027-01-04', NOW, 'Europe/Berlin');
    assert.ok(allDay.kind === 'allDay');
    assert.equal(describeWhen(allDay, '2026-11-23'), 'Mon, 4 Jan 2027 · All day');
  });

  it('reads lengths and reminders, and writes wall-clock times with the zone', () => {
    assert.equal(parseDuration('45m'), 45);
    assert.equal(parseDuration('1h30'), 90);
    assert.equal(parseDuration('1.5h'), 90);
    assert.equal(parseDuration('90'), 90);
    assert.equal(parseDuration('soon'), undefined);
    assert.deepEqual(parseReminderMinutes('10, 30'), [10, 30]);
    assert.deepEqual(parseReminderMinutes(''), []);
    assert.equal(parseReminderMinutes('ten'), undefined);
    assert.deepEqual(eventTimes({ kind: 'timed', date: '2026-11-24', hour: 23, minute: 30 }, 60, 'Europe/Berlin'), {
      start: { dateTime: '2026-11-24T23:30:00', timeZone: 'Europe/Berlin' },
      end: { dateTime: '2026-11-25T00:30:00', timeZone: 'Europe/Berlin' },
    });
    assert.deepEqual(eventTimes({ kind: 'allDay', date: '2026-11-24' }, 24 * 60, 'Europe/Berlin'), { start: { date: '2026-11-24' }, end: { date: '2026-11-25' } });
    assert.equal(recurrenceChoices('2026-11-24').find((choice) => choice.label.startsWith('Every week on'))?.rule, 'RRULE:FREQ=WEEKLY;BYDAY=TU');
  });

  it('reads .ics files into events.import bodies', () => {
    const ics = [
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN',
      'BEGIN:VEVENT', 'UID:one@example.com', 'SUMMARY:Planning', 'LOCATION:Room 1', 'DTSTART;TZID=Europe/Berlin:20261124T100000', 'DTEND;TZID=Europe/Berlin:20261124T110000', 'RRULE:FREQ=WEEKLY;COUNT=3', 'ATTENDEE:mailto:bob@example.com', 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:two@example.com', 'SUMMARY:Holiday', 'DTSTART;VALUE=DATE:20261225', 'DTEND;VALUE=DATE:20261226', 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:three@example.com', 'SUMMARY:Call', 'DTSTART:20261124T150000Z', 'DTEND:20261124T153000Z', 'END:VEVENT',
      'BEGIN:VEVENT', 'SUMMARY:No uid', 'DTSTART:20261124T150000Z', 'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const { events, skipped } = readIcs(ics, 'Europe/Berlin');
    assert.deepEqual(events, [
      { iCalUID: 'one@example.com', summary: 'Planning', start: { dateTime: '2026-11-24T10:00:00', timeZone: 'Europe/Berlin' }, end: { dateTime: '2026-11-24T11:00:00', timeZone: 'Europe/Berlin' }, location: 'Room 1', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'], attendees: [{ email: 'bob@example.com' }] },
      { iCalUID: 'two@example.com', summary: 'Holiday', start: { date: '2026-12-25' }, end: { date: '2026-12-26' } },
      { iCalUID: 'three@example.com', summary: 'Call', start: { dateTime: '2026-11-24T15:00:00Z' }, end: { dateTime: '2026-11-24T15:30:00Z' } },
    ]);
    assert.deepEqual(skipped, ['No uid: no UID']);
  });

  it('refuses a file that is not iCalendar as a whole, in words, and leaves out only the event whose repeat rule is unreadable', () => {
    // Before: ical.js's own "Cannot read properties of undefined" for an empty file or JSON.
    assert.throws(() => readIcs('', 'UTC'), /^Error: the file is empty$/);
    assert.throws(() => readIcs('  \r\n', 'UTC'), /^Error: the file is empty$/);
    assert.throws(() => readIcs('{"events": []}', 'UTC'), /^Error: it does not start with BEGIN:VCALENDAR$/);
    assert.throws(() => readIcs('hello world', 'UTC'), /^Error: it does not start with BEGIN:VCALENDAR$/);
    const calendar = (...lines: string[]): string => ['BEGIN:VCALENDAR', 'VERSION:2.0', ...lines, 'END:VCALENDAR'].join('\r\n');
    const event = (uid: string, rule: string): string[] => ['BEGIN:VEVENT', `UID:${uid}`, `SUMMARY:${uid}`, 'DTSTART:20261201T100000Z', rule, 'END:VEVENT'];
    // A frequency ical.js knows is wrong: the whole file is refused with its reason (nothing is half-imported).
    assert.throws(() => readIcs(calendar(...event('a', 'RRULE:FREQ=SOMETIMES')), 'UTC'), /invalid frequency "SOMETIMES"/);
    // A rule ical.js reads as empty ("RRULE:GARBAGE=undefined" went to Google): that event is left out, with why.
    const read = readIcs(calendar(...event('good', 'RRULE:FREQ=DAILY;COUNT=2'), ...event('bad', 'RRULE:garbage')), 'UTC');
    assert.deepEqual(read.events.map((one) => one.iCalUID), ['good']);
    assert.deepEqual(read.skipped, ['bad: its repeat rule (RRULE) has no valid FREQ']);
    assert.equal(icsSizeProblem(MAX_ICS_BYTES), undefined);
    assert.equal(icsSizeProblem(MAX_ICS_BYTES + 1), 'it is 11 MB, more than the 10 MB Desk imports at once: split it into smaller files');
    // Many failures: the first few and a count, so the message stays one readable line.
    assert.equal(listProblems(['a', 'b']), 'a; b');
    assert.equal(listProblems(['1', '2', '3', '4', '5', '6', '7']), '1; 2; 3; 4; 5 and 2 more');
  });
});
