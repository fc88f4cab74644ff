import * as assert from 'node:assert/strict';
import { occurrenceOf, Occurrence } from '../../../../../src/features/calendar/tree/model';
import { eventDescription, eventTooltip, settingsMarkdown, swatchDataUri, timeRange } from '../../../../../src/features/calendar/tree/presentation';
import type { CalendarEvent } from '../../../../../src/shared/schemas/calendar';
import { allDay, timed } from '../../../../support/fakes/calendar';

const BERLIN = 'Europe/Berlin';
const place = (event: CalendarEvent, zone = BERLIN): Occurrence => occurrenceOf('cal', event, zone) as Occurrence;

describe('Calendar presentation', () => {
  it('shows times in the user zone, and all-day spans in days', () => {
    const meeting = place(timed('m', '2026-11-23T09:00:00Z', '2026-11-23T09:45:00Z'));
    assert.equal(timeRange(meeting, BERLIN), '10:00–10:45');
    assert.equal(timeRange(place(timed('m', '2026-11-23T09:00:00Z', '2026-11-23T09:45:00Z'), 'Asia/Tokyo'), 'Asia/Tokyo'), '18:00–18:45');
    assert.equal(timeRange(place(allDay('c', '2026-11-24', '2026-11-27')), BERLIN), 'All day (3 days)');
    assert.equal(timeRange(place(allDay('c', '2026-11-24', '2026-11-25')), BERLIN), 'All day');
    const overnight = place(timed('n', '2026-11-23T21:00:00Z', '2026-11-24T06:00:00Z'));
    assert.equal(timeRange(overnight, BERLIN, '2026-11-24'), 'until 07:00');
    // Seen from its first day, the end's day is written as the Agenda's rows write a day, not as "2026-11-24".
    assert.equal(timeRange(overnight, BERLIN, '2026-11-23'), '22:00–Tue 24 Nov 07:00');
    assert.equal(timeRange(overnight, BERLIN, undefined, undefined, 'en-US'), '22:00–Tue, Nov 24 07:00');
  });

  it('describes a row with the calendar (in the Agenda), the answer of the user and the place', () => {
    const event = timed('m', '2026-11-23T09:00:00Z', '2026-11-23T10:00:00Z', { location: 'Room 4', attendees: [{ email: 'me@example.com', self: true, responseStatus: 'declined' }] });
    assert.equal(eventDescription(place(event), BERLIN, '2026-11-23', 'Team'), '10:00–11:00 · Team · declined · Room 4');
  });

  it('builds the hover with attendees and their answers, escaping user text and linking only http(s)', () => {
    const event = timed('m', '2026-11-23T09:00:00Z', '2026-11-23T10:00:00Z', {
      summary: 'Review *now* [x](command:evil)',
      description: 'Bring [notes](javascript:alert(1))',
      hangoutLink: 'https://meet.google.com/abc-defg-hij',
      attendees: [{ email: 'bob@example.com', responseStatus: 'accepted', organizer: true }, { email: 'carol@example.com', responseStatus: 'tentative', optional: true }],
    });
    const tooltip = eventTooltip(place(event), 'Team', BERLIN);
    assert.match(tooltip, /\*\*Review \\\*now\\\* \\\[x\\\]\\\(command:evil\\\)\*\*/);
    assert.match(tooltip, /bob@example\\\.com — accepted, organizer/);
    assert.match(tooltip, /carol@example\\\.com — maybe, optional/);
    assert.match(tooltip, /Join: \[.*\]\(https:\/\/meet\.google\.com\/abc-defg-hij\)/);
    assert.doesNotMatch(tooltip, /\]\(javascript:/);
    assert.match(tooltip, /Europe\/Berlin/);
  });

  it('shows a description of half a million lines (1 MB) in the hover, each line escaped and kept', () => {
    const description = 'a *b*\n'.repeat(500_000);
    const tooltip = eventTooltip(place(timed('m', '2026-11-23T09:00:00Z', '2026-11-23T10:00:00Z', { description })), 'Team', BERLIN);
    assert.ok(tooltip.endsWith(`${'a \\*b\\*  \n'.repeat(500_000)}  `));
  });

  it('draws colour swatches as SVG data URIs, refusing anything that is not a hex colour', () => {
    assert.match(decodeURIComponent(swatchDataUri('#ff8800')), /fill="#ff8800"/);
    assert.match(decodeURIComponent(swatchDataUri('red"/><script>', 'dot')), /fill="#888888"/);
  });

  it('lists settings and colours for the read-only settings page', () => {
    const text = settingsMarkdown([{ id: 'timezone', value: 'Europe/Berlin' }], { calendar: { 1: { background: '#ac725e', foreground: '#1d1d1d' } }, event: {} });
    assert.match(text, /\| timezone \| Europe\/Berlin \|/);
    assert.match(text, /\| 1 \| \\#ac725e \| \\#1d1d1d \|/);
  });
});
