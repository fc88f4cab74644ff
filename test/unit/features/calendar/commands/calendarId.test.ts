// Add Calendar by ID: an id that cannot be one is refused in the box, before the service's bare "Not Found".
import * as assert from 'node:assert/strict';
import { calendarIdProblem } from '../../../../../src/features/calendar/commands/calendars';
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
