import * as assert from 'node:assert/strict';
import { parseNaturalDue } from '../../../../../src/features/tasks/todo/dueInput';

describe('Track as Task: due dates in plain words', () => {
  // Monday 23 November 2026, late in the evening (a time zone must not move the day).
  const today = new Date(2026, 10, 23, 23, 30);
  const date = (input: string): string | undefined => {
    const parsed = parseNaturalDue(input, today);
    return parsed.kind === 'date' ? parsed.date : parsed.kind;
  };

  it('keeps ISO dates and empty answers on the Tasks commands\' path (calendar-checked)', () => {
    assert.equal(date('2026-12-01'), '2026-12-01');
    assert.equal(date('2026-02-30'), 'invalid');
    assert.equal(date('  '), 'none');
  });

  it('reads natural language with chrono-node, always forward', () => {
    assert.equal(date('tomorrow'), '2026-11-24');
    assert.equal(date('friday'), '2026-11-27');
    assert.equal(date('next friday'), '2026-12-04');
    assert.equal(date('in 2 weeks'), '2026-12-07');
    assert.equal(date('dec 3'), '2026-12-03');
    assert.equal(date('march 1'), '2027-03-01', 'a date already past this year is next year\'s');
  });

  it('falls back to the short forms, and refuses text that is not (only) a date', () => {
    assert.equal(date('3d'), '2026-11-26');
    assert.equal(date('fix the bug'), 'invalid');
    assert.equal(date('call bob on friday about it'), 'invalid');
  });
});
