import * as assert from 'node:assert/strict';
import { freeBusyHtml, visibleHours } from '../../../../../src/features/calendar/freeBusy/html';

const day = { key: '2026-11-24', label: 'Tue 24 Nov', start: Date.parse('2026-11-23T23:00:00Z'), end: Date.parse('2026-11-24T23:00:00Z') };

describe('Free/busy page', () => {
  const view = {
    title: 'Free/busy on Tue 24 Nov',
    timeZone: 'Europe/Berlin',
    days: [day],
    lanes: [
      { id: 'alice', label: 'Alice <3', color: '#9fc6e7', busy: [{ start: Date.parse('2026-11-24T09:00:00Z'), end: Date.parse('2026-11-24T09:45:00Z') }] },
      { id: 'team', label: 'Team', color: 'red;}body{display:none', busy: [] },
      { id: 'x', label: 'Other', busy: [], error: 'Not available (notFound)' },
    ],
  };

  it('has a strict CSP with a nonce, and no inline style attributes', () => {
    const html = freeBusyHtml(view, { nonce: 'abc123', cspSource: 'vscode-resource:' });
    assert.match(html, /Content-Security-Policy" content="default-src 'none'; img-src vscode-resource: data:; style-src 'nonce-abc123'; script-src 'nonce-abc123';"/);
    assert.doesNotMatch(html, /\sstyle="/);
    assert.equal((html.match(/<script nonce="abc123">/g) ?? []).length, 1);
    assert.doesNotMatch(html, /red;\}body/, 'a colour that is not hex never reaches the stylesheet');
  });

  it('places focusable busy blocks with aria-labels, escapes names, uses theme variables', () => {
    const html = freeBusyHtml(view, { nonce: 'n', cspSource: 'src' });
    assert.match(html, /<div class="busy short" id="b0" tabindex="0" role="img" data-lane="0" aria-label="Alice &lt;3: busy 10:00–10:45, Tue 24 Nov"/);
    // 10:00 in an 08:00–18:00 window is 20 % in; 45 minutes of 10 hours is 7.5 %.
    assert.match(html, /#b0\{left:20\.000%;width:7\.500%\}/);
    assert.match(html, /var\(--vscode-focusBorder\)/);
    assert.match(html, /Not available \(notFound\)/);
    assert.deepEqual(visibleHours(view), { from: 8, to: 18 });
  });

  it('shows an all-day block across the window without widening the hours', () => {
    const allDay = { ...view, lanes: [{ id: 'team', label: 'Team', busy: [{ start: day.start, end: day.end }, { start: Date.parse('2026-11-24T06:30:00Z'), end: Date.parse('2026-11-24T06:40:00Z') }] }] };
    assert.deepEqual(visibleHours(allDay), { from: 7, to: 18 });
    const html = freeBusyHtml(allDay, { nonce: 'n', cspSource: 'src' });
    assert.match(html, /class="busy allday" id="b0"[^>]*aria-label="Team: busy all day, Tue 24 Nov"/);
    assert.match(html, /class="busy narrow" id="b1"/);
    assert.match(freeBusyHtml(view, { nonce: "n", cspSource: "s" }), /class="busy short" id="b0"[^>]*><span>10:00<\/span>/);
  });
});
