import * as assert from 'node:assert/strict';
import { AgendaNode, CalendarNode, contextValueFor, DayNode, EventNode, groupByDay, joinLinkOf, occurrenceOf, Occurrence } from '../../../../../src/features/calendar/tree/model';
import type { CalendarEvent } from '../../../../../src/shared/schemas/calendar';
import { allDay, entry, timed } from '../../../../support/fakes/calendar';

const BERLIN = 'Europe/Berlin';
// Monday 23 November 2026, 09:00 in Berlin.
const NOW = Date.parse('2026-11-23T08:00:00Z');

function occurrences(events: CalendarEvent[], zone = BERLIN, calendarId = 'cal'): Occurrence[] {
  return events.flatMap((event) => occurrenceOf(calendarId, event, zone) ?? []);
}

const titles = (groups: ReturnType<typeof groupByDay>) => groups.map((group) => [group.key, group.relative ?? '', group.occurrences.map((occurrence) => occurrence.event.summary).join(',')]);

describe('Calendar tree model', () => {
  it('groups upcoming events by day in the user zone: Today, Tomorrow, then dates; all-day first', () => {
    const groups = groupByDay(occurrences([
      timed('standup', '2026-11-23T09:30:00+01:00', '2026-11-23T09:45:00+01:00'),
      timed('earlier', '2026-11-23T07:00:00+01:00', '2026-11-23T08:00:00+01:00'),
      allDay('holiday', '2026-11-23', '2026-11-24'),
      timed('lunch', '2026-11-24T12:30:00+01:00', '2026-11-24T13:15:00+01:00'),
      allDay('conference', '2026-11-24', '2026-11-26'),
      timed('late', '2026-11-25T23:30:00Z', '2026-11-26T00:30:00Z'),
      timed('far', '2026-12-20T10:00:00+01:00', '2026-12-20T11:00:00+01:00'),
    ]), { now: NOW, timeZone: BERLIN, days: 7 });
    assert.deepEqual(titles(groups), [
      // What has ended today is left out; all-day first.
      ['2026-11-23', 'today', 'holiday,standup'],
      ['2026-11-24', 'tomorrow', 'conference,lunch'],
      ['2026-11-25', '', 'conference'],
      // 23:30 UTC on the 25th is 00:30 on the 26th in Berlin.
      ['2026-11-26', '', 'late'],
    ]);
  });

  it('puts a late-evening event on another day in another zone', () => {
    const event = timed('call', '2026-11-24T02:00:00Z', '2026-11-24T03:00:00Z');
    assert.deepEqual(titles(groupByDay(occurrences([event], 'America/New_York'), { now: NOW, timeZone: 'America/New_York', days: 3 })), [['2026-11-23', 'today', 'call']]);
    assert.deepEqual(titles(groupByDay(occurrences([event], BERLIN), { now: NOW, timeZone: BERLIN, days: 3 })), [['2026-11-24', 'tomorrow', 'call']]);
  });

  it('keeps an event that is on now under Today, and leaves cancelled ones out', () => {
    const groups = groupByDay(occurrences([
      timed('ongoing', '2026-11-23T08:30:00+01:00', '2026-11-23T10:00:00+01:00'),
      timed('gone', '2026-11-23T11:00:00+01:00', '2026-11-23T12:00:00+01:00', { status: 'cancelled' }),
    ]), { now: NOW, timeZone: BERLIN, days: 2 });
    assert.deepEqual(titles(groups), [['2026-11-23', 'today', 'ongoing']]);
  });

  it('gives nodes stable ids and parents, and context words for menus', () => {
    const agenda = new AgendaNode();
    const [group] = groupByDay(occurrences([timed('e1', '2026-11-23T10:00:00+01:00', '2026-11-23T11:00:00+01:00', { recurringEventId: 's', hangoutLink: 'https://meet.google.com/abc' })]), { now: NOW, timeZone: BERLIN, days: 1 });
    assert.ok(group);
    const day = new DayNode(agenda, group);
    const event = new EventNode(day, group.occurrences[0]);
    assert.equal(day.id, 'day/agenda/2026-11-23');
    assert.equal(event.id, 'event/agenda/2026-11-23/cal/e1');
    assert.equal(event.parent.parent, agenda);
    assert.equal(contextValueFor(event, entry('cal', { accessRole: 'writer' })), 'event writable recurring joinable');
    assert.equal(contextValueFor(event, entry('cal', { accessRole: 'reader' })), 'event recurring joinable');
    const calendar = new CalendarNode(entry('me@example.com', { primary: true }));
    assert.equal(calendar.id, 'calendar/me@example.com');
    assert.equal(contextValueFor(calendar), 'calendar primary owner writable shown');
  });

  it('finds the call link: the Meet link, else a video entry point', () => {
    assert.equal(joinLinkOf(timed('a', '2026-11-23T10:00:00Z', '2026-11-23T11:00:00Z', { conferenceData: { entryPoints: [{ entryPointType: 'phone', uri: 'tel:+1' }, { entryPointType: 'video', uri: 'https://zoom.example/j/1' }] } })), 'https://zoom.example/j/1');
    assert.equal(joinLinkOf(timed('b', '2026-11-23T10:00:00Z', '2026-11-23T11:00:00Z')), undefined);
  });
});
