import * as assert from 'node:assert/strict';
import { describeDay, describeDueDate, dueDateOf, isOverdue, parseDueInput, toDueTimestamp } from '../../../../src/core/text/dates';

// Wednesday 2026-11-25, local time.
const WEDNESDAY = new Date(2026, 10, 25, 15, 30);

describe('due date input', () => {
  it('accepts ISO dates that exist and refuses those that do not', () => {
    assert.deepEqual(parseDueInput('2026-12-01', WEDNESDAY), { kind: 'date', date: '2026-12-01' });
    assert.deepEqual(parseDueInput(' 2028-02-29 ', WEDNESDAY), { kind: 'date', date: '2028-02-29' });
    assert.equal(parseDueInput('2026-02-30', WEDNESDAY).kind, 'invalid');
    assert.equal(parseDueInput('2026-13-01', WEDNESDAY).kind, 'invalid');
  });

  it('understands today, tomorrow and yesterday across month ends', () => {
    assert.deepEqual(parseDueInput('Today', WEDNESDAY), { kind: 'date', date: '2026-11-25' });
    assert.deepEqual(parseDueInput('tomorrow', new Date(2026, 10, 30)), { kind: 'date', date: '2026-12-01' });
    assert.deepEqual(parseDueInput('yesterday', new Date(2027, 0, 1)), { kind: 'date', date: '2026-12-31' });
  });

  it('reads weekday names as the coming such day, never today', () => {
    assert.deepEqual(parseDueInput('friday', WEDNESDAY), { kind: 'date', date: '2026-11-27' });
    assert.deepEqual(parseDueInput('Mon', WEDNESDAY), { kind: 'date', date: '2026-11-30' });
    assert.deepEqual(parseDueInput('next wed', WEDNESDAY), { kind: 'date', date: '2026-12-02' });
    assert.deepEqual(parseDueInput('wednesday', WEDNESDAY), { kind: 'date', date: '2026-12-02' });
  });

  it('reads "in N days"', () => {
    assert.deepEqual(parseDueInput('in 10 days', WEDNESDAY), { kind: 'date', date: '2026-12-05' });
    assert.deepEqual(parseDueInput('+1d', WEDNESDAY), { kind: 'date', date: '2026-11-26' });
  });

  it('treats an empty answer as no due date and explains anything else', () => {
    assert.deepEqual(parseDueInput('   ', WEDNESDAY), { kind: 'none' });
    for (const text of ['soon', 't', '25/11/2026', 'next']) {
      const result = parseDueInput(text, WEDNESDAY);
      assert.equal(result.kind, 'invalid', text);
      assert.match(result.message, /YYYY-MM-DD/);
    }
  });
});

describe('due date input with a time', () => {
  it('refuses a time (a task is due on a day) and names it, and shows the day a word resolves to', () => {
    const today = new Date(2026, 10, 26);
    for (const [text, time] of [['tomorrow 32:99', '32:99'], ['tomorrow 15:00', '15:00'], ['friday 3pm', '3pm']]) {
      const parsed = parseDueInput(text, today);
      assert.equal(parsed.kind, 'invalid', text);
      assert.match(parsed.message, new RegExp(`day without a time: remove "${time}"`), text);
    }
    // Desk's one day form (core/text/clock.ts), as the Agenda and the Tasks rows write a day; the year only when it is not this year.
    assert.equal(describeDay('2026-11-27', 'en-GB', '2026-11-26'), 'Fri 27 Nov');
    assert.equal(describeDay('2027-01-04', 'en-GB', '2026-11-26'), 'Mon, 4 Jan 2027');
  });
});

describe('due date display', () => {
  it('round-trips the API form, whose time part is midnight UTC', () => {
    assert.equal(toDueTimestamp('2026-11-27'), '2026-11-27T00:00:00.000Z');
    assert.equal(dueDateOf('2026-11-27T00:00:00.000Z'), '2026-11-27');
    assert.equal(dueDateOf(undefined), undefined);
    assert.equal(dueDateOf('garbage'), undefined);
  });

  it('uses words near today and flags past dates as overdue', () => {
    assert.equal(describeDueDate('2026-11-25', WEDNESDAY), 'today');
    assert.equal(describeDueDate('2026-11-26', WEDNESDAY), 'tomorrow');
    assert.equal(describeDueDate('2026-11-24', WEDNESDAY), 'yesterday');
    assert.equal(describeDueDate('2026-12-24', WEDNESDAY), '2026-12-24');
    assert.equal(isOverdue('2026-11-24', WEDNESDAY), true);
    assert.equal(isOverdue('2026-11-25', WEDNESDAY), false);
  });
});
