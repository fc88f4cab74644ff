// Add Calendar by ID and New / Rename Calendar: what cannot be sent is refused in the box, before the service's bare refusal.
import * as assert from 'node:assert/strict';
import { calendarIdProblem, calendarNameProblem } from '../../../../../src/features/calendar/commands/calendars';
import { english } from '../../../../../src/shared/l10n';

describe('calendar ids as typed', () => {
  it('accepts addresses of people, groups and public calendars', () => {
    for (const id of ['bob@example.com', 'c_abc123@group.calendar.google.com', 'en.usa#holiday@group.v.calendar.google.com', '  bob@example.com ']) {
      assert.equal(calendarIdProblem(id, english), undefined, id);
    }
  });

  it('refuses empty text and text that is no address, saying what an id looks like', () => {
    assert.equal(calendarIdProblem('   ', english), 'Enter a calendar id.');
    for (const text of ['not an email', 'bob', 'bob@', '@example.com', 'a@b@c', 'bob @example.com']) {
      assert.match(calendarIdProblem(text, english) ?? '', /is an address/, text);
    }
  });
});

describe('calendar names as typed', () => {
  it('refuses an empty name and one longer than Google keeps, in the box, saying why', () => {
    assert.equal(calendarNameProblem('  ', english), 'Enter a name.');
    assert.equal(calendarNameProblem('y'.repeat(2000), english), 'A calendar name has at most 1024 characters (this one has 2000).');
    assert.equal(calendarNameProblem('Trips 🧳', english), undefined);
    assert.equal(calendarNameProblem('y'.repeat(1024), english), undefined);
  });
});
