import * as assert from 'node:assert/strict';
import { calendarModule } from '../../../../src/emulator/calendar';
import { startEmulator, RunningEmulator } from '../../../../src/emulator/emulator';
import { calendarSchema, eventSchema } from '../../../../src/shared/schemas/calendar';
import { emulatorHttp, HttpAnswer } from '../../../support/emulatorHttp';

/**
 * events.list and events.instances send each event's cached JSON inside the envelope: the answer must still be one
 * well-formed calendar#events resource, with the envelope's own fields, and each item exactly what events.get answers
 * (also after a change, also in another time zone, also for a viewer with less access).
 */
describe('calendar event listings as JSON', () => {
  let emulator: RunningEmulator;
  const tokens: Record<string, string> = {};

  before(async () => {
    emulator = await startEmulator({ port: 0 }, [calendarModule]);
    for (const name of ['alice', 'bob']) tokens[name] = emulator.tokenFor(`${name}@example.com`).accessToken;
  });
  after(() => emulator.close());

  const call = (method: string, path: string, options: { as?: string; body?: unknown } = {}): Promise<HttpAnswer> =>
    emulatorHttp(emulator, () => tokens[options.as ?? 'alice'] ?? null)(method, `/calendar/v3${path}`, options.body !== undefined ? { json: options.body } : {});

  async function ok(answer: Promise<HttpAnswer>): Promise<Record<string, unknown>> {
    const { status, json, headers } = await answer;
    assert.ok(status >= 200 && status < 300, `${status} ${JSON.stringify(json)}`);
    assert.equal(headers.get('content-type'), 'application/json; charset=UTF-8');
    return json as Record<string, unknown>;
  }

  async function assertItemsAsGot(calendarId: string, listed: Record<string, unknown>, query = '', as = 'alice'): Promise<void> {
    for (const item of listed.items as Record<string, unknown>[]) {
      assert.deepEqual(item, await ok(call('GET', `/calendars/${encodeURIComponent(calendarId)}/events/${item.id as string}${query}`, { as })), `item ${item.id as string}`);
    }
  }

  it('answers a whole calendar#events resource whose items are the events as events.get gives them', async () => {
    const calendarId = calendarSchema.parse(await ok(call('POST', '/calendars', { body: { summary: 'Listed "quotes" ü', description: 'With a description' } }))).id;
    const events = `/calendars/${encodeURIComponent(calendarId)}/events`;
    const empty = await ok(call('GET', events));
    assert.deepEqual(Object.keys(empty), ['kind', 'etag', 'summary', 'description', 'updated', 'timeZone', 'accessRole', 'defaultReminders', 'nextSyncToken', 'items']);
    assert.deepEqual(empty.items, []);
    assert.equal(empty.description, 'With a description');

    for (let day = 1; day <= 3; day++) {
      eventSchema.parse(await ok(call('POST', events, { body: { summary: `Day ${day} “ü” \\ "x"`, start: { dateTime: `2026-01-0${day}T09:00:00Z` }, end: { dateTime: `2026-01-0${day}T10:00:00Z` } } })));
    }
    const series = eventSchema.parse(await ok(call('POST', events, {
      body: { summary: 'Weekly', start: { dateTime: '2026-01-05T08:00:00', timeZone: 'Europe/Berlin' }, end: { dateTime: '2026-01-05T08:30:00', timeZone: 'Europe/Berlin' }, recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] },
    })));

    const first = await ok(call('GET', `${events}?maxResults=2`));
    assert.equal(typeof first.nextPageToken, 'string');
    assert.equal((first.items as unknown[]).length, 2);
    await assertItemsAsGot(calendarId, first);
    const all = await ok(call('GET', events));
    assert.equal((all.items as unknown[]).length, 4);
    await assertItemsAsGot(calendarId, all);

    // A change shows at once (a listing never sends an older event's JSON), in whichever zone was asked for.
    const changed = (all.items as { id: string }[])[0]?.id;
    await ok(call('PATCH', `${events}/${changed}`, { body: { summary: 'Renamed' } }));
    const again = await ok(call('GET', events));
    assert.equal((again.items as { id: string; summary?: string }[]).find((item) => item.id === changed)?.summary, 'Renamed');
    const tokyo = await ok(call('GET', `${events}?timeZone=Asia%2FTokyo`));
    assert.ok((tokyo.items as { summary?: string }[]).some((item) => item.summary === 'Renamed'));
    await assertItemsAsGot(calendarId, tokyo, '?timeZone=Asia%2FTokyo');

    const instances = await ok(call('GET', `${events}/${series.id}/instances`));
    assert.equal(instances.kind, 'calendar#events');
    assert.equal((instances.items as unknown[]).length, 3);
    await assertItemsAsGot(calendarId, instances);

    // Bob as reader sees the details; once cut down to free/busy (the events unchanged), only the reduced items.
    const acl = `/calendars/${encodeURIComponent(calendarId)}/acl`;
    const rule = await ok(call('POST', acl, { body: { role: 'reader', scope: { type: 'user', value: 'bob@example.com' } } }));
    const asReader = await ok(call('GET', events, { as: 'bob' }));
    assert.ok((asReader.items as { summary?: string }[]).every((item) => item.summary !== undefined));
    await ok(call('PATCH', `${acl}/${encodeURIComponent(rule.id as string)}`, { body: { role: 'freeBusyReader' } }));
    const forBob = await ok(call('GET', events, { as: 'bob' }));
    assert.equal(forBob.accessRole, 'freeBusyReader');
    assert.ok((forBob.items as { summary?: string }[]).every((item) => item.summary === undefined));
  });
});
