import * as assert from 'node:assert/strict';
import { startEmulator, RunningEmulator } from '../../../src/emulator/emulator';
import { emulatorHttp, expectGoogleError, HttpAnswer } from '../../support/emulatorHttp';

/**
 * A page token continues the query that issued it, as Google's do: page 2 asked with only `pageToken` (as some real
 * clients ask), or with other filters, is answered 200 with the original query's next page, never 400. Each
 * listing of each service is paged three ways (filters repeated, filters left out, filters changed) and must give
 * the same items as one big page of the original query.
 */
describe('page tokens continue their query in every service', function () {
  this.timeout(20000);
  let emulator: RunningEmulator;
  let alice: string;

  before(async () => {
    emulator = await startEmulator({ port: 0, seed: 'demo' });
    alice = emulator.tokenFor('alice@example.com').accessToken;
  });
  after(() => emulator.close());

  const call = (method: string, path: string, json?: unknown): Promise<HttpAnswer> => emulatorHttp(emulator, () => alice)(method, path, json !== undefined ? { json } : {});

  async function ok(answer: Promise<HttpAnswer>): Promise<Record<string, unknown>> {
    const { status, json } = await answer;
    assert.equal(status, 200, JSON.stringify(json));
    return json as Record<string, unknown>;
  }

  /**
   * Pages `path` + `query` two at a time; after the first page each request sends `later` instead of the query
   * (plus the token). Returns the ids seen, in order.
   */
  async function pageIds(path: string, query: string, later: string, itemsKey: string, idKey = 'id'): Promise<string[]> {
    const ids: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const params = token === undefined ? query : `${later}${later ? '&' : ''}pageToken=${encodeURIComponent(token)}`;
      const page = await ok(call('GET', `${path}?${params}${params ? '&' : ''}maxResults=2`));
      for (const item of (page[itemsKey] as Record<string, unknown>[] | undefined) ?? []) ids.push(String(item[idKey]));
      token = typeof page.nextPageToken === 'string' ? page.nextPageToken : undefined;
      pages++;
      assert.ok(pages < 50, 'paging ends');
    } while (token);
    assert.ok(pages > 1, `${path} paged (${ids.length} items)`);
    return ids;
  }

  /** Every way of asking for the later pages gives the items one page of the original query gives. */
  async function expectContinues(path: string, query: string, changed: string, itemsKey: string, idKey = 'id'): Promise<void> {
    const whole = await ok(call('GET', `${path}?${query}&maxResults=100`));
    const expected = ((whole[itemsKey] as Record<string, unknown>[] | undefined) ?? []).map((item) => String(item[idKey]));
    assert.ok(expected.length >= 3, `${path}: enough items to page (${expected.length})`);
    assert.deepEqual(await pageIds(path, query, query, itemsKey, idKey), expected, `${path}: filters repeated`);
    assert.deepEqual(await pageIds(path, query, '', itemsKey, idKey), expected, `${path}: only pageToken`);
    assert.deepEqual(await pageIds(path, query, changed, itemsKey, idKey), expected, `${path}: other filters`);
  }

  it('Tasks: tasks.list keeps showCompleted/dueMax; tasklists.list pages too', async () => {
    const list = String((await ok(call('POST', '/tasks/v1/users/@me/lists', { title: 'Paged' }))).id);
    for (let index = 0; index < 7; index++) {
      await ok(call('POST', `/tasks/v1/lists/${list}/tasks`, { title: `t${index}`, due: `2026-03-0${index + 1}T00:00:00.000Z`, ...(index % 3 === 0 ? { status: 'completed' } : {}) }));
    }
    await expectContinues(`/tasks/v1/lists/${list}/tasks`, 'showCompleted=false&dueMax=2026-03-07T00:00:00.000Z', 'showCompleted=true&showHidden=true', 'items');
    for (let index = 0; index < 3; index++) await ok(call('POST', '/tasks/v1/users/@me/lists', { title: `more ${index}` }));
    await expectContinues('/tasks/v1/users/@me/lists', '', '', 'items');
  });

  it('Calendar: events.list keeps timeMin/timeMax/q/singleEvents; calendarList and acl page too', async () => {
    const calendar = String((await ok(call('POST', '/calendar/v3/calendars', { summary: 'Paged' }))).id);
    const events = `/calendar/v3/calendars/${encodeURIComponent(calendar)}/events`;
    for (let day = 1; day <= 9; day++) {
      await ok(call('POST', events, { summary: day % 2 ? `standup ${day}` : `review ${day}`, start: { dateTime: `2026-02-0${day}T09:00:00Z` }, end: { dateTime: `2026-02-0${day}T09:30:00Z` } }));
    }
    await expectContinues(events, 'timeMin=2026-02-02T00:00:00Z&timeMax=2026-02-09T00:00:00Z&q=standup&singleEvents=true&orderBy=startTime', 'q=review', 'items');
    for (let index = 0; index < 3; index++) await ok(call('POST', '/calendar/v3/calendars', { summary: `extra ${index}` }));
    await expectContinues('/calendar/v3/users/me/calendarList', 'minAccessRole=owner', 'minAccessRole=reader&showHidden=true', 'items');
    for (const who of ['bob', 'carol', 'dave']) await ok(call('POST', `/calendar/v3/calendars/${encodeURIComponent(calendar)}/acl`, { role: 'reader', scope: { type: 'user', value: `${who}@example.com` } }));
    await expectContinues(`/calendar/v3/calendars/${encodeURIComponent(calendar)}/acl`, 'showDeleted=false', 'showDeleted=true', 'items');
  });

  it('Drive: files.list keeps q and orderBy (nextLink too); children, comments and revisions page too', async () => {
    const folder = String((await ok(call('POST', '/drive/v2/files', { title: 'Paged', mimeType: 'application/vnd.google-apps.folder' }))).id);
    for (let index = 0; index < 5; index++) await ok(call('POST', '/drive/v2/files', { title: `paged-${index}`, mimeType: 'text/plain', parents: [{ id: folder }] }));
    const q = encodeURIComponent(`'${folder}' in parents and title contains 'paged'`);
    await expectContinues('/drive/v2/files', `q=${q}&orderBy=title desc`, `q=${encodeURIComponent('starred = true')}`, 'items');
    // The nextLink a page gives leads to the same next page.
    const first = await ok(call('GET', `/drive/v2/files?q=${q}&maxResults=2`));
    const viaLink = await ok(call('GET', `${new URL(String(first.nextLink)).pathname}${new URL(String(first.nextLink)).search}&maxResults=2`));
    const viaToken = await ok(call('GET', `/drive/v2/files?pageToken=${encodeURIComponent(String(first.nextPageToken))}&maxResults=2`));
    assert.deepEqual(viaLink.items, viaToken.items);
    await expectContinues(`/drive/v2/files/${folder}/children`, `q=${encodeURIComponent("title contains 'paged'")}`, '', 'items');
    const listed = (await ok(call('GET', `/drive/v2/files?q=${q}`))).items as { id: string }[];
    const file = String(listed.at(0)?.id);
    for (let index = 0; index < 4; index++) await ok(call('POST', `/drive/v2/files/${file}/comments`, { content: `comment ${index}` }));
    await expectContinues(`/drive/v2/files/${file}/comments`, 'includeDeleted=false', 'includeDeleted=true', 'items', 'commentId');
  });

  it('Directory: users.list keeps customer, orderBy and sortOrder', async () => {
    await expectContinues('/admin/directory/v1/users', 'customer=my_customer&orderBy=email&sortOrder=DESCENDING', 'customer=my_customer&orderBy=givenName', 'users');
  });

  it('still answers 400 for a token that does not decode or belongs to another listing', async () => {
    const listA = String((await ok(call('POST', '/tasks/v1/users/@me/lists', { title: 'A' }))).id);
    const listB = String((await ok(call('POST', '/tasks/v1/users/@me/lists', { title: 'B' }))).id);
    for (let index = 0; index < 3; index++) await ok(call('POST', `/tasks/v1/lists/${listA}/tasks`, { title: `a${index}` }));
    const page = await ok(call('GET', `/tasks/v1/lists/${listA}/tasks?maxResults=1`));
    await expectGoogleError(call('GET', `/tasks/v1/lists/${listB}/tasks?pageToken=${encodeURIComponent(String(page.nextPageToken))}`), 400, 'invalid');
    await expectGoogleError(call('GET', `/tasks/v1/lists/${listA}/tasks?pageToken=garbage`), 400, 'invalid');
  });
});
