/**
 * A FREQ=MINUTELY series must not make a calendar unlistable: a window far from the series' start is expanded from
 * the window (events.list and events.instances), and a window holding more of its instances than one request
 * expands is paged by time, a page's work following maxResults — every instance and every other event listed once,
 * in start order, the last page with its sync token. Fixed dates throughout: nothing depends on today.
 */
import * as assert from 'node:assert/strict';
import { calendarModule } from '../../../../src/emulator/calendar';
import { startEmulator, RunningEmulator } from '../../../../src/emulator/emulator';
import { emulatorHttp, EmulatorCall } from '../../../support/emulatorHttp';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const SERIES_START = Date.parse('2024-01-01T00:00:00Z');
const WINDOW_START = Date.parse('2024-06-01T00:00:00Z');

interface Listed {
  items: { id: string; summary?: string; start: { dateTime?: string; date?: string } }[];
  nextPageToken?: string;
  nextSyncToken?: string;
}

describe('calendar: a FREQ=MINUTELY series over long windows', function () {
  this.timeout(120_000);
  let emulator: RunningEmulator;
  let alice: EmulatorCall;
  let events: string;
  let minutelyId: string;

  before(async () => {
    emulator = await startEmulator({ port: 0 }, [calendarModule]);
    alice = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken);
    const calendar = (await alice('POST', '/calendar/v3/calendars', { json: { summary: 'Busy', timeZone: 'UTC' } })).json as { id: string };
    events = `/calendar/v3/calendars/${encodeURIComponent(calendar.id)}/events`;
    const at = (time: number): { dateTime: string; timeZone: string } => ({ dateTime: new Date(time).toISOString(), timeZone: 'UTC' });
    const minutely = await alice('POST', events, { json: { summary: 'tick', start: at(SERIES_START), end: at(SERIES_START + 30_000), recurrence: ['RRULE:FREQ=MINUTELY'] } });
    assert.equal(minutely.status, 200, minutely.text);
    minutelyId = (minutely.json as { id: string }).id;
    assert.equal((await alice('POST', events, { json: { summary: 'daily', start: at(SERIES_START + 30 * 1000), end: at(SERIES_START + 40 * 1000), recurrence: ['RRULE:FREQ=DAILY'] } })).status, 200);
    assert.equal((await alice('POST', events, { json: { summary: 'lunch', start: at(WINDOW_START + 12 * 60 * MINUTE + 15_000), end: at(WINDOW_START + 13 * 60 * MINUTE) } })).status, 200);
  });
  after(() => emulator.close());

  const list = async (query: string): Promise<Listed> => {
    const answer = await alice('GET', `${events}?${query}`);
    assert.equal(answer.status, 200, answer.text.slice(0, 300));
    return answer.json as Listed;
  };
  const window = (from: number, to: number): string => `timeMin=${new Date(from).toISOString()}&timeMax=${new Date(to).toISOString()}`;
  const startOf = (item: Listed['items'][number]): number => Date.parse(item.start.dateTime ?? item.start.date ?? '');

  it('lists an hour five months after the series began (events.list and events.instances), every instance in order', async () => {
    const hour = window(WINDOW_START, WINDOW_START + 60 * MINUTE);
    const listed = await list(`singleEvents=true&orderBy=startTime&${hour}`);
    const ticks = listed.items.filter((item) => item.summary === 'tick');
    assert.equal(ticks.length, 60);
    assert.deepEqual(ticks.map(startOf), Array.from({ length: 60 }, (_, index) => WINDOW_START + index * MINUTE));
    assert.deepEqual(listed.items.filter((item) => item.summary === 'daily').map(startOf), [WINDOW_START + 30_000]);
    const instances = await alice('GET', `${events}/${minutelyId}/instances?${hour}`);
    assert.equal(instances.status, 200, instances.text.slice(0, 300));
    assert.equal((instances.json as Listed).items.length, 60);
  });

  it('answers events.instances of the whole series page by page from its start, each page continuing the last', async () => {
    const first = await alice('GET', `${events}/${minutelyId}/instances?maxResults=2500`);
    assert.equal(first.status, 200, first.text.slice(0, 300));
    const page1 = first.json as Listed;
    assert.deepEqual(page1.items.map(startOf), Array.from({ length: 2500 }, (_, index) => SERIES_START + index * MINUTE));
    assert.ok(page1.nextPageToken);
    const page2 = (await alice('GET', `${events}/${minutelyId}/instances?maxResults=2500&pageToken=${encodeURIComponent(page1.nextPageToken)}`)).json as Listed;
    assert.deepEqual(page2.items.map(startOf), Array.from({ length: 2500 }, (_, index) => SERIES_START + (2500 + index) * MINUTE));
  });

  it('pages a hundred days of it (144,000 instances) by time: each instance and event once, in order, a sync token at the end', async function () {
    const until = WINDOW_START + 100 * DAY;
    const query = `singleEvents=true&maxResults=2500&${window(WINDOW_START, until)}`;
    let page = await list(query);
    const seen = new Set<string>();
    let previous = Number.NEGATIVE_INFINITY;
    let pages = 0;
    let ticks = 0;
    const summaries = new Map<string, number>();
    for (;;) {
      pages++;
      assert.ok(page.items.length <= 2500);
      for (const item of page.items) {
        assert.ok(!seen.has(item.id), `${item.id} listed twice`);
        seen.add(item.id);
        const start = startOf(item);
        assert.ok(start >= previous, `out of order at ${item.id}`);
        previous = start;
        summaries.set(item.summary ?? '', (summaries.get(item.summary ?? '') ?? 0) + 1);
        if (item.summary === 'tick') ticks++;
      }
      if (!page.nextPageToken) break;
      page = await list(`maxResults=2500&pageToken=${encodeURIComponent(page.nextPageToken)}`);
    }
    assert.equal(ticks, 100 * 24 * 60, 'every minute once');
    assert.equal(summaries.get('daily'), 100);
    assert.equal(summaries.get('lunch'), 1);
    assert.ok(pages >= 58 && pages <= 60, `${pages} pages`);
    assert.ok(page.nextSyncToken, 'the last page carries the sync token');
  });
});
