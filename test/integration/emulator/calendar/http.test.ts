import * as assert from 'node:assert/strict';
import { calendarModule } from '../../../../src/emulator/calendar';
import { startEmulator, RunningEmulator } from '../../../../src/emulator/emulator';
import { aclPageSchema, calendarListPageSchema, calendarSchema, eventSchema, eventsPageSchema } from '../../../../src/shared/schemas/calendar';
import { googleErrorBodySchema } from '../../../../src/shared/schemas/errors';
import { emulatorHttp, expectGoogleError, HttpAnswer } from '../../../support/emulatorHttp';

/** The Calendar emulator over real HTTP: errors, paging, sync tokens, etags and who may do what. */
describe('calendar emulator over HTTP', () => {
  let emulator: RunningEmulator;
  const tokens: Record<string, string> = {};

  before(async () => {
    // Only the calendar module: this suite tests it alone, whatever state the other services are in.
    emulator = await startEmulator({ port: 0 }, [calendarModule]);
    for (const name of ['alice', 'bob', 'carol']) tokens[name] = emulator.tokenFor(`${name}@example.com`).accessToken;
  });
  after(() => emulator.close());

  /** A Calendar call as a demo user (alice unless `as` names another), with a JSON body. */
  const call = (method: string, path: string, options: { as?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<HttpAnswer> =>
    emulatorHttp(emulator, () => tokens[options.as ?? 'alice'] ?? null)(method, `/calendar/v3${path}`, {
      ...(options.body !== undefined ? { json: options.body } : {}),
      ...(options.headers ? { headers: options.headers } : {}),
    });

  async function ok(answer: Promise<HttpAnswer>): Promise<unknown> {
    const { status, json } = await answer;
    assert.ok(status >= 200 && status < 300, `${status} ${JSON.stringify(json)}`);
    return json;
  }

  const expectError = async (answer: Promise<HttpAnswer>, status: number, reason?: string): Promise<void> => {
    await expectGoogleError(answer, status, reason);
  };


  const timed = (day: number, hour: number, minutes = 60): Record<string, unknown> => ({
    start: { dateTime: new Date(Date.UTC(2026, 0, day, hour)).toISOString() },
    end: { dateTime: new Date(Date.UTC(2026, 0, day, hour) + minutes * 60_000).toISOString() },
  });

  async function newCalendar(summary: string, as = 'alice'): Promise<string> {
    return calendarSchema.parse(await ok(call('POST', '/calendars', { as, body: { summary } }))).id;
  }

  async function newEvent(calendarId: string, body: Record<string, unknown>, as = 'alice'): Promise<ReturnType<typeof eventSchema.parse>> {
    return eventSchema.parse(await ok(call('POST', `/calendars/${encodeURIComponent(calendarId)}/events`, { as, body })));
  }

  describe('errors', () => {
    it('answers bad input with Google-format 400s and unknown things with 404s, never 500', async () => {
      const calendar = await newCalendar('Errors');
      const events = `/calendars/${encodeURIComponent(calendar)}/events`;
      await expectError(call('POST', events, { body: { summary: 'no times' } }), 400, 'required');
      await expectError(call('POST', events, { body: { ...timed(5, 9), id: 'UPPER_case' } }), 400, 'invalid');
      await expectError(call('POST', events, { body: { start: { dateTime: '2026-01-05T10:00:00Z' }, end: { dateTime: '2026-01-05T09:00:00Z' } } }), 400, 'timeRangeEmpty');
      await expectError(call('POST', events, { body: { start: { dateTime: 'tomorrow' }, end: { dateTime: '2026-01-05T09:00:00Z' } } }), 400, 'invalid');
      await expectError(call('POST', events, { body: { ...timed(5, 9), recurrence: ['RRULE:FREQ=DAILY'] } }), 400, 'invalid');
      await expectError(call('POST', events, { body: { ...timed(5, 9), summary: 42 } }), 400, 'invalid');
      await expectError(call('POST', events, { body: { ...timed(5, 9), colorId: '99' } }), 400, 'invalid');
      await expectError(call('GET', `${events}?maxResults=2501`), 400, 'invalid');
      await expectError(call('GET', `${events}?timeMin=yesterday`), 400, 'invalid');
      await expectError(call('GET', `${events}?timeMin=2026-01-02T00:00:00Z&timeMax=2026-01-01T00:00:00Z`), 400, 'timeRangeEmpty');
      await expectError(call('GET', `${events}?orderBy=startTime`), 400, 'invalid');
      await expectError(call('GET', `${events}?pageToken=garbage`), 400, 'invalid');
      await expectError(call('GET', `${events}/nosuchevent`), 404, 'notFound');
      await expectError(call('GET', '/calendars/nobody@nowhere.example/events'), 404, 'notFound');
      await expectError(call('GET', '/users/me/settings/nosuch'), 404, 'notFound');
      await expectError(call('POST', `${events}/quickAdd`), 400, 'required');
      await expectError(call('POST', '/freeBusy', { body: { items: [] } }), 400, 'required');
      await expectError(call('DELETE', '/calendars/primary'), 400);
      await expectError(call('POST', `/calendars/${encodeURIComponent(calendar)}/clear`), 400);
    });

    it('gives client-chosen ids, refuses duplicates with 409 and a second delete with 410', async () => {
      const calendar = await newCalendar('Ids');
      const events = `/calendars/${encodeURIComponent(calendar)}/events`;
      const event = await newEvent(calendar, { ...timed(5, 9), id: 'meeting0001' });
      assert.equal(event.id, 'meeting0001');
      await expectError(call('POST', events, { body: { ...timed(5, 9), id: 'meeting0001' } }), 409, 'duplicate');
      assert.equal((await call('DELETE', `${events}/meeting0001`)).status, 204);
      await expectError(call('DELETE', `${events}/meeting0001`), 410, 'deleted');
      assert.equal(eventSchema.parse(await ok(call('GET', `${events}/meeting0001`))).status, 'cancelled', 'get still returns a cancelled event');
    });
  });

  describe('paging and filters', () => {
    it('pages with nextPageToken, gives nextSyncToken only on the last page, and filters by window, q and iCalUID', async () => {
      const calendar = await newCalendar('Paging');
      const events = `/calendars/${encodeURIComponent(calendar)}/events`;
      for (let day = 1; day <= 7; day++) await newEvent(calendar, { ...timed(day, 9), summary: `Day ${day}`, ...(day === 3 ? { location: 'Cafe Luna', attendees: [{ email: 'ann@example.org', displayName: 'Ann' }] } : {}) });
      const ids: string[] = [];
      let pageToken: string | undefined;
      let pages = 0;
      do {
        const page = eventsPageSchema.parse(await ok(call('GET', `${events}?maxResults=3&singleEvents=true&orderBy=startTime${pageToken ? `&pageToken=${pageToken}` : ''}`)));
        pages++;
        ids.push(...page.items.map((item) => item.summary ?? ''));
        if (page.nextPageToken) assert.equal(page.nextSyncToken, undefined);
        else assert.ok(page.nextSyncToken);
        pageToken = page.nextPageToken;
      } while (pageToken);
      assert.equal(pages, 3);
      assert.deepEqual(ids, ['Day 1', 'Day 2', 'Day 3', 'Day 4', 'Day 5', 'Day 6', 'Day 7']);
      const window = eventsPageSchema.parse(await ok(call('GET', `${events}?timeMin=2026-01-03T09:30:00Z&timeMax=2026-01-05T09:00:00Z`)));
      assert.deepEqual(window.items.map((item) => item.summary), ['Day 3', 'Day 4'], 'timeMin bounds the end, timeMax (exclusive) the start');
      for (const q of ['luna', 'ann', 'ANN@example']) {
        assert.deepEqual(eventsPageSchema.parse(await ok(call('GET', `${events}?q=${q}`))).items.map((item) => item.summary), ['Day 3'], q);
      }
      const day3 = eventsPageSchema.parse(await ok(call('GET', `${events}?q=luna`))).items.at(0);
      assert.deepEqual(eventsPageSchema.parse(await ok(call('GET', `${events}?iCalUID=${encodeURIComponent(day3?.iCalUID ?? '')}`))).items.map((item) => item.id), [day3?.id]);
    });
  });

  describe('incremental sync', () => {
    it('returns only what changed (deletions as cancelled), refuses forbidden combinations and answers 410 for an unknown token', async () => {
      const calendar = await newCalendar('Sync');
      const events = `/calendars/${encodeURIComponent(calendar)}/events`;
      const keep = await newEvent(calendar, { ...timed(5, 9), summary: 'keep' });
      const change = await newEvent(calendar, { ...timed(6, 9), summary: 'change' });
      const remove = await newEvent(calendar, { ...timed(7, 9), summary: 'remove' });
      const full = eventsPageSchema.parse(await ok(call('GET', events)));
      assert.equal(full.items.length, 3);
      const token = full.nextSyncToken as string;
      assert.equal(eventsPageSchema.parse(await ok(call('GET', `${events}?syncToken=${token}`))).items.length, 0, 'nothing changed yet');
      await ok(call('PATCH', `${events}/${change.id}`, { body: { summary: 'changed' } }));
      await ok(call('DELETE', `${events}/${remove.id}`));
      const added = await newEvent(calendar, { ...timed(8, 9), summary: 'added' });
      const delta = eventsPageSchema.parse(await ok(call('GET', `${events}?syncToken=${token}`)));
      assert.deepEqual(delta.items.map((item) => [item.id, item.status]), [[change.id, 'confirmed'], [remove.id, 'cancelled'], [added.id, 'confirmed']]);
      assert.ok(!delta.items.some((item) => item.id === keep.id));
      assert.ok(delta.nextSyncToken && delta.nextSyncToken !== token);
      for (const extra of ['q=x', 'orderBy=updated', 'timeMin=2026-01-01T00:00:00Z', 'timeMax=2026-01-01T00:00:00Z', 'updatedMin=2026-01-01T00:00:00Z', 'iCalUID=x']) {
        await expectError(call('GET', `${events}?syncToken=${token}&${extra}`), 400, 'invalid');
      }
      await expectError(call('GET', `${events}?syncToken=bogus`), 410, 'fullSyncRequired');
      const otherToken = eventsPageSchema.parse(await ok(call('GET', '/calendars/primary/events'))).nextSyncToken as string;
      await expectError(call('GET', `${events}?syncToken=${otherToken}`), 410, 'fullSyncRequired');
      await expectError(call('GET', `/users/me/calendarList?syncToken=bogus`), 410, 'fullSyncRequired');
      await expectError(call('GET', `/calendars/${encodeURIComponent(calendar)}/acl?syncToken=bogus`), 410, 'fullSyncRequired');
    });

    it('reports calendar list and ACL changes incrementally', async () => {
      const list = calendarListPageSchema.parse(await ok(call('GET', '/users/me/calendarList')));
      const calendar = await newCalendar('Sync list');
      const listDelta = calendarListPageSchema.parse(await ok(call('GET', `/users/me/calendarList?syncToken=${String(list.nextSyncToken)}`)));
      assert.deepEqual(listDelta.items.map((item) => item.id), [calendar]);
      const acl = aclPageSchema.parse(await ok(call('GET', `/calendars/${encodeURIComponent(calendar)}/acl`)));
      await ok(call('POST', `/calendars/${encodeURIComponent(calendar)}/acl`, { body: { role: 'reader', scope: { type: 'user', value: 'bob@example.com' } } }));
      await ok(call('DELETE', `/calendars/${encodeURIComponent(calendar)}/acl/user:bob@example.com`));
      const aclDelta = aclPageSchema.parse(await ok(call('GET', `/calendars/${encodeURIComponent(calendar)}/acl?syncToken=${String(acl.nextSyncToken)}`)));
      assert.deepEqual(aclDelta.items.map((rule) => [rule.id, rule.role]), [['user:bob@example.com', 'none']]);
    });
  });

  describe('etags', () => {
    it('answers 412 to stale If-Match on update, patch and delete, and 304 to a matching If-None-Match', async () => {
      const calendar = await newCalendar('Etags');
      const events = `/calendars/${encodeURIComponent(calendar)}/events`;
      const event = await newEvent(calendar, { ...timed(5, 9), summary: 'v1' });
      const fresh = await fetch(`${emulator.url}/calendar/v3${events}/${event.id}`, { headers: { Authorization: `Bearer ${tokens.alice}`, 'If-None-Match': event.etag as string } });
      assert.equal(fresh.status, 304);
      const v2 = eventSchema.parse(await ok(call('PATCH', `${events}/${event.id}`, { body: { summary: 'v2' }, headers: { 'If-Match': event.etag as string } })));
      assert.notEqual(v2.etag, event.etag);
      await expectError(call('PATCH', `${events}/${event.id}`, { body: { summary: 'v3' }, headers: { 'If-Match': event.etag as string } }), 412, 'conditionNotMet');
      await expectError(call('PUT', `${events}/${event.id}`, { body: { ...timed(5, 9), summary: 'v3' }, headers: { 'If-Match': event.etag as string } }), 412, 'conditionNotMet');
      await expectError(call('DELETE', `${events}/${event.id}`, { headers: { 'If-Match': event.etag as string } }), 412, 'conditionNotMet');
      const stale = await fetch(`${emulator.url}/calendar/v3${events}/${event.id}`, { headers: { Authorization: `Bearer ${tokens.alice}`, 'If-None-Match': event.etag as string } });
      assert.equal(stale.status, 200);
      assert.equal((await call('DELETE', `${events}/${event.id}`, { headers: { 'If-Match': v2.etag as string } })).status, 204);
      const cal = calendarSchema.parse(await ok(call('GET', `/calendars/${encodeURIComponent(calendar)}`)));
      await ok(call('PATCH', `/calendars/${encodeURIComponent(calendar)}`, { body: { description: 'd' } }));
      await expectError(call('PATCH', `/calendars/${encodeURIComponent(calendar)}`, { body: { description: 'e' }, headers: { 'If-Match': cal.etag as string } }), 412, 'conditionNotMet');
    });
    it('takes the series etag an unchanged instance is listed with, and a refused write leaves no exception behind', async () => {
      const calendar = await newCalendar('Instance etags');
      const events = `/calendars/${encodeURIComponent(calendar)}/events`;
      // A recurring event needs its time zone (Google's rule).
      const series = await newEvent(calendar, {
        start: { dateTime: '2026-01-05T09:00:00Z', timeZone: 'UTC' },
        end: { dateTime: '2026-01-05T09:15:00Z', timeZone: 'UTC' },
        summary: 'Standup',
        recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
      });
      const listInstances = async (): Promise<Array<ReturnType<typeof eventSchema.parse>>> =>
        ((await ok(call('GET', `${events}/${series.id}/instances`))) as { items: unknown[] }).items.map((item) => eventSchema.parse(item));
      const instances = await listInstances();
      const first = instances.at(0);
      const second = instances.at(1);
      assert.ok(first && second);
      assert.equal(first.etag, series.etag, 'an unchanged instance carries its series\' etag');
      await expectError(call('PATCH', `${events}/${first.id}`, { body: { summary: 'late' }, headers: { 'If-Match': '"stale"' } }), 412, 'conditionNotMet');
      await expectError(call('DELETE', `${events}/${second.id}`, { headers: { 'If-Match': '"stale"' } }), 412, 'conditionNotMet');
      const untouched = await listInstances();
      assert.deepEqual(untouched.map((instance) => [instance.summary, instance.etag, instance.status]), untouched.map(() => ['Standup', series.etag, 'confirmed']));
      const changed = eventSchema.parse(await ok(call('PATCH', `${events}/${first.id}`, { body: { summary: 'Standup (moved)' }, headers: { 'If-Match': first.etag as string } })));
      assert.equal(changed.summary, 'Standup (moved)');
      assert.equal((await call('DELETE', `${events}/${second.id}`, { headers: { 'If-Match': second.etag as string } })).status, 204);
      assert.deepEqual((await listInstances()).map((instance) => instance.summary), ['Standup (moved)', 'Standup']);
    });
  });

  describe('access control', () => {
    /** What each role may do on alice's calendar: read events, write events, read the ACL, change the ACL. */
    const MATRIX: Record<string, { read: number; freeBusy: boolean; details: boolean; write: number; aclRead: number; aclWrite: number }> = {
      none: { read: 404, freeBusy: false, details: false, write: 404, aclRead: 404, aclWrite: 404 },
      freeBusyReader: { read: 200, freeBusy: true, details: false, write: 403, aclRead: 404, aclWrite: 403 },
      reader: { read: 200, freeBusy: true, details: true, write: 403, aclRead: 404, aclWrite: 403 },
      writer: { read: 200, freeBusy: true, details: true, write: 200, aclRead: 200, aclWrite: 403 },
      owner: { read: 200, freeBusy: true, details: true, write: 200, aclRead: 200, aclWrite: 200 },
    };

    for (const [role, expected] of Object.entries(MATRIX)) {
      it(`gives bob exactly ${role} access (carol, without a rule, none)`, async () => {
        const calendar = await newCalendar(`Shared ${role}`);
        const base = `/calendars/${encodeURIComponent(calendar)}`;
        const event = await newEvent(calendar, { ...timed(5, 9), summary: 'Secret plans', location: 'HQ' });
        if (role !== 'none') await ok(call('POST', `${base}/acl`, { body: { role, scope: { type: 'user', value: 'bob@example.com' } } }));

        const list = await call('GET', `${base}/events`, { as: 'bob' });
        assert.equal(list.status, expected.read, JSON.stringify(list.json));
        if (list.status === 200) {
          const page = eventsPageSchema.parse(list.json);
          assert.equal(page.accessRole, role);
          assert.equal(page.items[0]?.summary, expected.details ? 'Secret plans' : undefined, 'details hidden below reader');
          assert.ok(page.items[0]?.start?.dateTime, 'times always visible');
        }
        const write = await call('POST', `${base}/events`, { as: 'bob', body: { ...timed(6, 9), summary: 'bob was here' } });
        assert.equal(write.status, expected.write, JSON.stringify(write.json));
        if (expected.write === 403) assert.equal(googleErrorBodySchema.parse(write.json).error.errors?.[0]?.reason, 'requiredAccessLevel');
        const patch = await call('PATCH', `${base}/events/${event.id}`, { as: 'bob', body: { summary: 'edited' } });
        assert.equal(patch.status, expected.write);
        assert.equal((await call('GET', `${base}/acl`, { as: 'bob' })).status, expected.aclRead === 404 && role !== 'none' ? 403 : expected.aclRead);
        const share = await call('POST', `${base}/acl`, { as: 'bob', body: { role: 'reader', scope: { type: 'user', value: 'carol@example.com' } } });
        assert.equal(share.status, expected.aclWrite);
        const busy = (await ok(call('POST', '/freeBusy', { as: 'bob', body: { timeMin: '2026-01-05T00:00:00Z', timeMax: '2026-01-06T00:00:00Z', items: [{ id: calendar }] } }))) as { calendars: Partial<Record<string, { busy: unknown[]; errors?: unknown[] }>> };
        assert.equal(busy.calendars[calendar]?.errors === undefined, expected.freeBusy);
        if (expected.freeBusy) assert.deepEqual(busy.calendars[calendar]?.busy, [{ start: '2026-01-05T09:00:00Z', end: '2026-01-05T10:00:00Z' }]);
        if (expected.aclWrite !== 200) assert.equal((await call('GET', `${base}/events`, { as: 'carol' })).status, 404, 'carol has no access');
        // A calendar shared with bob can join his list; removing the rule removes his access and the entry.
        const insert = await call('POST', '/users/me/calendarList', { as: 'bob', body: { id: calendar } });
        assert.equal(insert.status, role === 'none' ? 404 : 200);
        if (role !== 'none') {
          assert.equal((await call('DELETE', `${base}/acl/user:bob@example.com`)).status, 204);
          assert.equal((await call('GET', `${base}/events`, { as: 'bob' })).status, 404);
          assert.equal((await call('GET', `/users/me/calendarList/${encodeURIComponent(calendar)}`, { as: 'bob' })).status, 404);
        }
      });
    }

    it('grants through domain and default scopes, and never lets the owner lose their own rule', async () => {
      const calendar = await newCalendar('Domain');
      const base = `/calendars/${encodeURIComponent(calendar)}`;
      await ok(call('POST', `${base}/acl`, { body: { role: 'reader', scope: { type: 'domain', value: 'example.com' } } }));
      assert.equal((await call('GET', `${base}/events`, { as: 'carol' })).status, 200);
      await ok(call('DELETE', `${base}/acl/domain:example.com`));
      assert.equal((await call('GET', `${base}/events`, { as: 'carol' })).status, 404);
      await ok(call('POST', `${base}/acl`, { body: { role: 'freeBusyReader', scope: { type: 'default' } } }));
      assert.equal(eventsPageSchema.parse(await ok(call('GET', `${base}/events`, { as: 'carol' }))).accessRole, 'freeBusyReader');
      await expectError(call('DELETE', `${base}/acl/user:alice@example.com`), 403, 'cannotChangeOwnAcl');
    });

    it('removes a deleted calendar from every calendar list', async () => {
      const calendar = await newCalendar('Doomed');
      await ok(call('POST', `/calendars/${encodeURIComponent(calendar)}/acl`, { body: { role: 'reader', scope: { type: 'user', value: 'bob@example.com' } } }));
      await ok(call('POST', '/users/me/calendarList', { as: 'bob', body: { id: calendar } }));
      await expectError(call('DELETE', `/calendars/${encodeURIComponent(calendar)}`, { as: 'bob' }), 403);
      assert.equal((await call('DELETE', `/calendars/${encodeURIComponent(calendar)}`)).status, 204);
      for (const who of ['alice', 'bob']) {
        const ids = calendarListPageSchema.parse(await ok(call('GET', '/users/me/calendarList', { as: who }))).items.map((item) => item.id);
        assert.ok(!ids.includes(calendar), who);
      }
      await expectError(call('GET', `/calendars/${encodeURIComponent(calendar)}`), 404, 'notFound');
    });
  });
});
