import * as assert from 'node:assert/strict';
import { SyncPoller } from '../../../../../src/core/sync/poller';
import { EventStore, isExpiredSyncToken } from '../../../../../src/features/calendar/sync/eventStore';
import type { CalendarEvent } from '../../../../../src/shared/schemas/calendar';
import { entry, FakeCalendarApi, timed } from '../../../../support/fakes/calendar';

function store(api: FakeCalendarApi, changes: string[] = []): EventStore {
  return new EventStore({ api: () => api, onChange: (id) => changes.push(id), now: () => Date.parse('2026-11-23T08:00:00Z') });
}

describe('Calendar event store', () => {
  it('loads a calendar once (series unexpanded, from shortly before now), then applies only what changed', async () => {
    const api = new FakeCalendarApi([entry('cal')], { cal: [timed('a', '2026-11-23T10:00:00Z', '2026-11-23T11:00:00Z'), timed('b', '2026-11-24T10:00:00Z', '2026-11-24T11:00:00Z')] });
    const changes: string[] = [];
    const events = store(api, changes);
    await Promise.all([events.ensureLoaded('cal'), events.ensureLoaded('cal')]);
    assert.equal(api.listCalls.length, 1, 'two callers share one load');
    assert.equal(api.listCalls[0]?.options.singleEvents, undefined, 'an endless series would arrive as five years of instances');
    assert.equal(api.listCalls[0]?.options.timeMin, '2026-11-21T08:00:00.000Z');
    assert.deepEqual(events.events('cal').map((event) => event.id).sort(), ['a', 'b']);

    api.put('cal', timed('c', '2026-11-25T10:00:00Z', '2026-11-25T11:00:00Z'));
    api.cancel('cal', 'a');
    await events.sync('cal');
    const last = api.listCalls.at(-1);
    assert.equal(last?.options.syncToken, 'sync-1', 'the refresh used the sync token, not a reload');
    assert.equal(last.options.timeMin, undefined);
    assert.deepEqual(events.events('cal').map((event) => event.id).sort(), ['b', 'c']);
    assert.deepEqual(changes, ['cal', 'cal']);
  });

  it('loads in full again when the sync token expired (410)', async () => {
    const api = new FakeCalendarApi([entry('cal')], { cal: [timed('a', '2026-11-23T10:00:00Z', '2026-11-23T11:00:00Z')] });
    const events = store(api);
    await events.ensureLoaded('cal');
    api.put('cal', timed('b', '2026-11-23T12:00:00Z', '2026-11-23T13:00:00Z'));
    api.floor = 99;
    await events.sync('cal');
    assert.deepEqual(events.events('cal').map((event) => event.id).sort(), ['a', 'b']);
    assert.equal(api.listCalls[api.listCalls.length - 1]?.options.syncToken, undefined, 'the last listing was a full one');
  });

  it('is a source of the generic sync engine: start token = full load, resume token = nextSyncToken, 410 = reset', async () => {
    const api = new FakeCalendarApi([entry('cal')], { cal: [timed('a', '2026-11-23T10:00:00Z', '2026-11-23T11:00:00Z')] });
    const events = store(api);
    const outcomes: Array<{ changes: readonly CalendarEvent[]; tokenReset: boolean }> = [];
    const timers: Array<() => void> = [];
    const poller = new SyncPoller<CalendarEvent>({
      source: events.source('cal'),
      tokens: events,
      tokenKey: 'cal',
      clock: { now: () => 0, setTimeout: (callback) => { timers.push(callback); return timers.length; }, clearTimeout: () => undefined },
      onChanges: (outcome) => {
        outcomes.push(outcome);
        if (!outcome.tokenReset) events.apply('cal', outcome.changes);
      },
      isInvalidToken: isExpiredSyncToken,
    });
    const tick = async (): Promise<void> => {
      const timer = timers.shift();
      timer?.();
      await new Promise((resolve) => setTimeout(resolve, 5));
    };
    poller.setSignedIn(true);
    poller.start();
    await tick();
    assert.equal(events.isLoaded('cal'), true, 'the first poll is the full load');
    api.put('cal', timed('b', '2026-11-23T12:00:00Z', '2026-11-23T13:00:00Z'));
    await tick();
    assert.deepEqual(outcomes.map((outcome) => outcome.changes.map((event) => event.id)), [['b']]);
    assert.ok(events.find('cal', 'b'));
    api.floor = 99;
    api.put('cal', timed('c', '2026-11-23T14:00:00Z', '2026-11-23T15:00:00Z'));
    await tick();
    assert.equal(outcomes[outcomes.length - 1]?.tokenReset, true);
    assert.ok(events.find('cal', 'c'), 'the reset reloaded the calendar');
    poller.stop();
  });

  it('reads the window ahead (not every future event), and reads again when the days shown reach its end', async () => {
    let now = Date.parse('2026-11-23T08:00:00Z');
    const api = new FakeCalendarApi([entry('cal')], { cal: [timed('a', '2026-11-23T10:00:00Z', '2026-11-23T11:00:00Z')] });
    const events = new EventStore({ api: () => api, onChange: () => undefined, now: () => now, horizonDays: () => 7 });
    await events.ensureLoaded('cal');
    assert.equal(api.listCalls[0]?.options.timeMax, '2027-01-24T08:00:00.000Z', 'twice the 31-day horizon ahead');
    events.events('cal');
    assert.equal(api.listCalls.length, 1, 'a read inside the window does not list again');
    now += 32 * 86_400_000;
    events.events('cal');
    assert.equal(api.listCalls.length, 2, 'the horizon passed the end of the window: read again');
    assert.equal(api.listCalls[1]?.options.timeMin, '2026-12-23T08:00:00.000Z');
    events.events('cal');
    assert.equal(api.listCalls.length, 2, 'one read at a time');
  });

  it('a first load with days shown first shows them after one listing, before the rest of the window is read', async () => {
    const now = Date.parse('2026-11-23T08:00:00Z');
    const api = new FakeCalendarApi([entry('cal')], { cal: [timed('today', '2026-11-23T10:00:00Z', '2026-11-23T11:00:00Z'), timed('later', '2026-12-20T10:00:00Z', '2026-12-20T11:00:00Z')] });
    // The whole window's listing waits until the test lets it answer: the first rows must not wait for it.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const gated = {
      listEvents: async (calendarId: string, options: Parameters<FakeCalendarApi['listEvents']>[1] = {}) => {
        const page = await api.listEvents(calendarId, options);
        const until = options.timeMax ? Date.parse(options.timeMax) : Infinity;
        if (until > now + 8 * 86_400_000) await held;
        return { ...page, items: page.items.filter((event) => Date.parse(event.start?.dateTime ?? '') < until) };
      },
    };
    const changes: string[] = [];
    const events = new EventStore({ api: () => gated, onChange: (id) => changes.push(id), now: () => now, firstDays: () => 7 });
    await events.ensureLoaded('cal');
    assert.equal(api.listCalls.length, 2, 'the first days, then the whole window');
    assert.equal(api.listCalls[0]?.options.timeMax, '2026-12-01T08:00:00.000Z', 'the 7 days shown and one more');
    assert.deepEqual(events.events('cal').map((event) => event.id), ['today'], 'shown before the window is in');
    assert.equal(events.msSinceFullLoad('cal'), 0, 'the rest is still loading');
    release();
    await events.fullLoad('cal');
    assert.deepEqual(events.events('cal').map((event) => event.id).sort(), ['later', 'today']);
    assert.deepEqual(changes, ['cal', 'cal']);
    assert.equal(api.listCalls.length, 2, 'waiting for the load under way does not list again');
  });
});
