import * as assert from 'node:assert/strict';
import { addDays, clockTime, dateKey, describeMinutes, isValidTimeZone, startOfDay, zonedToUtc } from '../../../../src/features/calendar/time';

describe('Calendar time zones', () => {
  it('reads the day and clock of an instant in a named zone, whatever the machine zone is', () => {
    const instant = Date.parse('2026-11-23T23:30:00Z');
    assert.equal(dateKey(instant, 'Europe/Berlin'), '2026-11-24');
    assert.equal(clockTime(instant, 'Europe/Berlin'), '00:30');
    assert.equal(dateKey(instant, 'America/New_York'), '2026-11-23');
    assert.equal(clockTime(instant, 'America/New_York'), '18:30');
  });

  it('finds midnight in a zone, across daylight-saving changes', () => {
    assert.equal(new Date(startOfDay('2026-11-24', 'Europe/Berlin')).toISOString(), '2026-11-23T23:00:00.000Z');
    assert.equal(new Date(startOfDay('2026-07-01', 'Europe/Berlin')).toISOString(), '2026-06-30T22:00:00.000Z');
    // 29 March 2026: Berlin springs forward at 02:00; 03:30 local is 01:30 UTC.
    assert.equal(new Date(zonedToUtc('2026-03-29', 3, 30, 'Europe/Berlin')).toISOString(), '2026-03-29T01:30:00.000Z');
    assert.equal(new Date(startOfDay('2026-11-24', 'Asia/Tokyo')).toISOString(), '2026-11-23T15:00:00.000Z');
  });

  it('moves date keys by calendar days and words minutes', () => {
    assert.equal(addDays('2026-12-31', 1), '2027-01-01');
    assert.equal(addDays('2026-03-01', -1), '2026-02-28');
    assert.equal(describeMinutes(12), '12 min');
    assert.equal(describeMinutes(60), '1 h');
    assert.equal(describeMinutes(125), '2 h 5 min');
    assert.equal(isValidTimeZone('Europe/Berlin'), true);
    assert.equal(isValidTimeZone('Mars/Olympus'), false);
  });
});
