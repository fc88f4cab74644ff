import * as assert from 'node:assert/strict';
import { startEmulator, RunningEmulator } from '../../../../src/emulator/emulator';
import { emulatorHttp, expectGoogleError, HttpAnswer, HttpCallOptions } from '../../../support/emulatorHttp';
import { googleErrorBodySchema } from '../../../../src/shared/schemas/errors';
import { taskListSchema, taskListsPageSchema, taskSchema, tasksPageSchema } from '../../../../src/shared/schemas/tasks';

describe('tasks emulator over HTTP', () => {
  let emulator: RunningEmulator;
  let alice: string;
  let bob: string;

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    alice = emulator.tokenFor('alice@example.com').accessToken;
    bob = emulator.tokenFor('bob@example.com').accessToken;
  });
  after(() => emulator.close());

  const call = (method: string, path: string, options: HttpCallOptions = {}): Promise<HttpAnswer> => emulatorHttp(emulator, () => alice)(method, path, options);
  const expectError = async (answer: Promise<HttpAnswer>, status: number, reason?: string): Promise<string> => (await expectGoogleError(answer, status, reason)).message;

  async function newList(title = 'List', token = alice): Promise<string> {
    const answer = await call('POST', '/tasks/v1/users/@me/lists', { json: { title }, token });
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    return taskListSchema.parse(answer.json).id;
  }

  async function newTask(list: string, body: Record<string, unknown>, query = ''): Promise<ReturnType<typeof taskSchema.parse>> {
    const answer = await call('POST', `/tasks/v1/lists/${list}/tasks${query}`, { json: body });
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    return taskSchema.parse(answer.json);
  }

  async function listTitles(list: string, query = ''): Promise<string[]> {
    const answer = await call('GET', `/tasks/v1/lists/${list}/tasks${query}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    return (tasksPageSchema.parse(answer.json).items ?? []).map((task) => task.title);
  }

  describe('task lists', () => {
    it('lists the lazily created default list, then inserts, gets, updates, patches and deletes', async () => {
      const first = taskListsPageSchema.parse((await call('GET', '/tasks/v1/users/@me/lists', { token: emulator.tokenFor('carol@example.com').accessToken })).json);
      assert.deepEqual(first.items?.map((list) => list.title), ['My Tasks']);
      assert.ok(first.etag);

      const id = await newList('Errands');
      const got = taskListSchema.parse((await call('GET', `/tasks/v1/users/@me/lists/${id}`)).json);
      assert.equal(got.title, 'Errands');
      assert.equal(got.selfLink, `${emulator.url}/tasks/v1/users/@me/lists/${id}`);
      assert.ok(!Number.isNaN(Date.parse(got.updated)));

      const updated = taskListSchema.parse((await call('PUT', `/tasks/v1/users/@me/lists/${id}`, { json: { title: 'Chores' } })).json);
      assert.equal(updated.title, 'Chores');
      assert.notEqual(updated.etag, got.etag);
      const patched = taskListSchema.parse((await call('PATCH', `/tasks/v1/users/@me/lists/${id}`, { json: { title: 'Chores!' } })).json);
      assert.equal(patched.title, 'Chores!');

      const all = taskListsPageSchema.parse((await call('GET', '/tasks/v1/users/@me/lists')).json);
      assert.ok(all.items?.some((list) => list.id === id));

      const deleted = await call('DELETE', `/tasks/v1/users/@me/lists/${id}`);
      assert.equal(deleted.status, 204);
      await expectError(call('GET', `/tasks/v1/users/@me/lists/${id}`), 404, 'notFound');
    });

    it('pages task lists and checks maxResults against the real range [1, 1000]', async () => {
      await newList('Second');
      const page = taskListsPageSchema.parse((await call('GET', '/tasks/v1/users/@me/lists?maxResults=1')).json);
      assert.equal(page.items?.length, 1);
      assert.ok(page.nextPageToken);
      const next = taskListsPageSchema.parse((await call('GET', `/tasks/v1/users/@me/lists?maxResults=1&pageToken=${page.nextPageToken}`)).json);
      assert.notEqual(next.items?.[0]?.id, page.items.at(0)?.id);
      await expectError(call('GET', '/tasks/v1/users/@me/lists?maxResults=1001'), 400, 'invalid');
      await expectError(call('GET', '/tasks/v1/users/@me/lists?maxResults=0'), 400, 'invalid');
    });

    it('keeps bob out of alice\'s lists and tasks (404, never 403)', async () => {
      const list = await newList('Private');
      const task = await newTask(list, { title: 'secret' });
      await expectError(call('GET', `/tasks/v1/users/@me/lists/${list}`, { token: bob }), 404);
      await expectError(call('GET', `/tasks/v1/lists/${list}/tasks`, { token: bob }), 404);
      await expectError(call('GET', `/tasks/v1/lists/${list}/tasks/${task.id}`, { token: bob }), 404);
      await expectError(call('PATCH', `/tasks/v1/lists/${list}/tasks/${task.id}`, { token: bob, json: { title: 'mine' } }), 404);
      await expectError(call('DELETE', `/tasks/v1/users/@me/lists/${list}`, { token: bob }), 404);
      const bobsLists = taskListsPageSchema.parse((await call('GET', '/tasks/v1/users/@me/lists', { token: bob })).json);
      assert.ok(!bobsLists.items?.some((item) => item.id === list));
      assert.equal(taskSchema.parse((await call('GET', `/tasks/v1/lists/${list}/tasks/${task.id}`)).json).title, 'secret');
    });
  });

  describe('tasks', () => {
    let list: string;
    beforeEach(async () => {
      list = await newList('Tasks');
    });

    it('inserts (first by default, after previous, under parent), gets, lists in tree order', async () => {
      const a = await newTask(list, { title: 'a', notes: 'note', due: '2026-12-24T15:00:00.000Z' });
      assert.equal(a.kind, 'tasks#task');
      assert.equal(a.status, 'needsAction');
      assert.equal(a.due, '2026-12-24T00:00:00.000Z');
      assert.match(a.position, /^\d{20}$/);
      assert.equal(a.selfLink, `${emulator.url}/tasks/v1/lists/${list}/tasks/${a.id}`);
      assert.ok(a.webViewLink);
      const view = await fetch(a.webViewLink);
      assert.equal(view.status, 200, 'webViewLink opens without a token');
      assert.ok(!(await view.text()).includes('note'), 'and shows none of the task\'s content');
      assert.deepEqual(a.links, []);
      await newTask(list, { title: 'first' });
      const c = await newTask(list, { title: 'c' }, `?previous=${a.id}`);
      await newTask(list, { title: 'a1' }, `?parent=${a.id}`);
      const got = taskSchema.parse((await call('GET', `/tasks/v1/lists/${list}/tasks/${c.id}`)).json);
      assert.equal(got.title, 'c');
      assert.deepEqual(await listTitles(list), ['first', 'a', 'a1', 'c']);
    });

    it('updates (replace) and patches (merge), with completed timestamps', async () => {
      const task = await newTask(list, { title: 't', notes: 'keep?', due: '2026-12-01T00:00:00Z' });
      const patched = taskSchema.parse((await call('PATCH', `/tasks/v1/lists/${list}/tasks/${task.id}`, { json: { status: 'completed' } })).json);
      assert.equal(patched.status, 'completed');
      assert.ok(patched.completed && !Number.isNaN(Date.parse(patched.completed)));
      assert.equal(patched.notes, 'keep?');
      assert.notEqual(patched.etag, task.etag);
      const replaced = taskSchema.parse((await call('PUT', `/tasks/v1/lists/${list}/tasks/${task.id}`, { json: { title: 'new' } })).json);
      assert.equal(replaced.title, 'new');
      assert.equal(replaced.notes, undefined);
      assert.equal(replaced.due, undefined);
      assert.equal(replaced.status, 'needsAction');
      assert.equal(replaced.completed, undefined);
    });

    it('deletes a task with its subtasks, clears completed ones, honours show* filters', async () => {
      const parent = await newTask(list, { title: 'parent' });
      await newTask(list, { title: 'child' }, `?parent=${parent.id}`);
      const done = await newTask(list, { title: 'done', status: 'completed' }, `?previous=${parent.id}`);
      assert.ok(done.completed);
      assert.equal((await call('DELETE', `/tasks/v1/lists/${list}/tasks/${parent.id}`)).status, 204);
      assert.deepEqual(await listTitles(list), ['done']);
      assert.deepEqual(await listTitles(list, '?showDeleted=true'), ['parent', 'child', 'done']);
      const deleted = taskSchema.parse((await call('GET', `/tasks/v1/lists/${list}/tasks/${parent.id}`)).json);
      assert.equal(deleted.deleted, true);

      assert.equal((await call('POST', `/tasks/v1/lists/${list}/clear`)).status, 204);
      assert.deepEqual(await listTitles(list), []);
      const hidden = tasksPageSchema.parse((await call('GET', `/tasks/v1/lists/${list}/tasks?showHidden=true`)).json);
      assert.deepEqual(hidden.items?.map((task) => [task.title, task.hidden]), [['done', true]]);
      assert.deepEqual(await listTitles(list, '?showHidden=true&showCompleted=false'), []);
    });

    it('moves within a list, under a parent, and to another list', async () => {
      const a = await newTask(list, { title: 'a' });
      const b = await newTask(list, { title: 'b' }, `?previous=${a.id}`);
      const moved = taskSchema.parse((await call('POST', `/tasks/v1/lists/${list}/tasks/${a.id}/move?previous=${b.id}`)).json);
      assert.equal(moved.id, a.id);
      assert.deepEqual(await listTitles(list), ['b', 'a']);
      const nested = taskSchema.parse((await call('POST', `/tasks/v1/lists/${list}/tasks/${a.id}/move?parent=${b.id}`)).json);
      assert.equal(nested.parent, b.id);
      await expectError(call('POST', `/tasks/v1/lists/${list}/tasks/${b.id}/move?parent=${a.id}`), 400, 'invalid');
      await expectError(call('POST', `/tasks/v1/lists/${list}/tasks/${b.id}/move?previous=nope`), 400, 'invalid');
      const other = await newList('Other');
      const across = taskSchema.parse((await call('POST', `/tasks/v1/lists/${list}/tasks/${b.id}/move?destinationTasklist=${other}`)).json);
      assert.equal(across.selfLink, `${emulator.url}/tasks/v1/lists/${other}/tasks/${b.id}`);
      assert.deepEqual(await listTitles(list), []);
      assert.deepEqual(await listTitles(other), ['b', 'a']);
      const bobsList = await newList('Bob', bob);
      await expectError(call('POST', `/tasks/v1/lists/${other}/tasks/${b.id}/move?destinationTasklist=${bobsList}`), 404);
    });

    it('pages tasks: default 20, tokens until the end, maxResults within [1, 100]', async () => {
      let previous = '';
      for (let index = 0; index < 45; index++) {
        previous = (await newTask(list, { title: `t${String(index).padStart(2, '0')}` }, previous ? `?previous=${previous}` : '')).id;
      }
      const first = tasksPageSchema.parse((await call('GET', `/tasks/v1/lists/${list}/tasks`)).json);
      assert.equal(first.items?.length, 20);
      const titles: string[] = [];
      let token: string | undefined;
      do {
        const page = tasksPageSchema.parse((await call('GET', `/tasks/v1/lists/${list}/tasks?maxResults=17${token ? `&pageToken=${token}` : ''}`)).json);
        titles.push(...(page.items ?? []).map((task) => task.title));
        token = page.nextPageToken;
      } while (token);
      assert.equal(titles.length, 45);
      assert.deepEqual(titles, [...titles].sort());
      await expectError(call('GET', `/tasks/v1/lists/${list}/tasks?maxResults=101`), 400, 'invalid');
      await expectError(call('GET', `/tasks/v1/lists/${list}/tasks?maxResults=abc`), 400, 'invalid');
      await expectError(call('GET', `/tasks/v1/lists/${list}/tasks?pageToken=bogus`), 400, 'invalid');
    });

    it('filters by dates and rejects malformed dates and booleans', async () => {
      await newTask(list, { title: 'soon', due: '2026-11-25T00:00:00Z' });
      await newTask(list, { title: 'later', due: '2027-01-10T00:00:00Z' });
      assert.deepEqual(await listTitles(list, '?dueMin=2026-12-01T00:00:00Z'), ['later']);
      assert.deepEqual(await listTitles(list, '?dueMax=2026-12-01T00:00:00Z'), ['soon']);
      assert.deepEqual(await listTitles(list, '?updatedMin=2000-01-01T00:00:00Z'), ['later', 'soon']);
      assert.deepEqual(await listTitles(list, '?completedMin=2000-01-01T00:00:00Z'), []);
      await expectError(call('GET', `/tasks/v1/lists/${list}/tasks?dueMin=tomorrow`), 400, 'invalid');
      await expectError(call('GET', `/tasks/v1/lists/${list}/tasks?showHidden=yes`), 400, 'invalid');
    });

    it('answers the list envelope with an etag that changes with the list', async () => {
      const before = tasksPageSchema.parse((await call('GET', `/tasks/v1/lists/${list}/tasks`)).json).etag;
      await newTask(list, { title: 'x' });
      const after = tasksPageSchema.parse((await call('GET', `/tasks/v1/lists/${list}/tasks`)).json).etag;
      assert.ok(before && after);
      assert.notEqual(before, after);
    });
  });

  describe('demo seed', () => {
    it('gives alice and bob realistic lists, and carol only her default list, with tasks in it', async () => {
      const seeded = await startEmulator({ port: 0, seed: 'demo' });
      try {
        const get = async (email: string, route: string): Promise<unknown> => {
          const response = await fetch(`${seeded.url}${route}`, { headers: { Authorization: `Bearer ${seeded.tokenFor(email).accessToken}` } });
          assert.equal(response.status, 200);
          return response.json();
        };
        const aliceLists = taskListsPageSchema.parse(await get('alice@example.com', '/tasks/v1/users/@me/lists')).items ?? [];
        assert.deepEqual(aliceLists.map((list) => list.title), ['My Tasks', 'Groceries', 'Desk launch']);
        const myTasks = tasksPageSchema.parse(await get('alice@example.com', `/tasks/v1/lists/${aliceLists[0]?.id}/tasks?maxResults=100`)).items ?? [];
        assert.ok(myTasks.some((task) => task.parent), 'some subtasks');
        assert.ok(myTasks.some((task) => task.due), 'some due dates');
        assert.ok(myTasks.some((task) => task.notes), 'some notes');
        assert.ok(myTasks.some((task) => task.status === 'completed' && task.completed), 'some completed');
        const bobLists = taskListsPageSchema.parse(await get('bob@example.com', '/tasks/v1/users/@me/lists')).items ?? [];
        assert.ok(bobLists.length >= 2);
        const carolLists = taskListsPageSchema.parse(await get('carol@example.com', '/tasks/v1/users/@me/lists')).items ?? [];
        assert.deepEqual(carolLists.map((list) => list.title), ['My Tasks']);
      } finally {
        await seeded.close();
      }
    });
  });

  describe('bad input', () => {
    let list: string;
    before(async () => {
      list = await newList('Junk');
    });

    it('answers an unknown route with a Google 404', async () => {
      await expectError(call('GET', '/tasks/v1/nothing/here'), 404, 'notFound');
      await expectError(call('GET', `/tasks/v1/lists/${list}/tasks/nope`), 404, 'notFound');
    });

    it('answers malformed JSON with 400 parseError', async () => {
      await expectError(call('POST', `/tasks/v1/lists/${list}/tasks`, { body: '{"title": ' }), 400, 'parseError');
    });

    it('names the field for wrong types, over-long text and unknown status values', async () => {
      const wrongType = await expectError(call('POST', `/tasks/v1/lists/${list}/tasks`, { json: { title: 42 } }), 400, 'invalid');
      assert.match(wrongType, /title/);
      const longTitle = await expectError(call('POST', `/tasks/v1/lists/${list}/tasks`, { json: { title: 'x'.repeat(1025) } }), 400, 'invalid');
      assert.match(longTitle, /title/);
      const longNotes = await expectError(call('POST', `/tasks/v1/lists/${list}/tasks`, { json: { notes: 'x'.repeat(8193) } }), 400, 'invalid');
      assert.match(longNotes, /notes/);
      const status = await expectError(call('POST', `/tasks/v1/lists/${list}/tasks`, { json: { status: 'done' } }), 400, 'invalid');
      assert.match(status, /status/);
      const due = await expectError(call('POST', `/tasks/v1/lists/${list}/tasks`, { json: { due: 'next friday' } }), 400, 'invalid');
      assert.match(due, /due/);
      await expectError(call('POST', '/tasks/v1/users/@me/lists', { json: { title: 'y'.repeat(1025) } }), 400, 'invalid');
      // the limits are inclusive
      await newTask(list, { title: 'x'.repeat(1024), notes: 'n'.repeat(8192) });
    });

    it('asks for credentials: no token is 401, a bad token is 401 authError', async () => {
      const missing = await call('GET', '/tasks/v1/users/@me/lists', { token: null });
      assert.equal(missing.status, 401);
      googleErrorBodySchema.parse(missing.json);
      await expectError(call('GET', '/tasks/v1/users/@me/lists', { token: 'not-a-token' }), 401, 'authError');
    });

    it('never answers junk with a 500', async () => {
      const bodies: string[] = [
        '', 'null', '[]', '"text"', '42', 'true', '{', '{"title":null}', '{"title":[]}', '{"title":{}}',
        '{"notes":5}', '{"status":null}', '{"status":1}', '{"due":12}', '{"due":"2026-13-45T99:99:99Z"}',
        '{"completed":"yesterday"}', '{"deleted":"yes"}', '{"hidden":1}', '{"links":"x"}', '{"links":[1]}',
        '{"parent":{}}', '{"position":5}', '{"id":[]}', '{"title":"\\u0000"}', '\u0000\u0001', '{"__proto__":{"x":1}}',
        JSON.stringify({ title: 'x'.repeat(100_000) }),
      ];
      const targets = [
        ['POST', `/tasks/v1/lists/${list}/tasks`],
        ['POST', '/tasks/v1/users/@me/lists'],
        ['PATCH', `/tasks/v1/users/@me/lists/${list}`],
      ] as const;
      const task = await newTask(list, { title: 'target' });
      const statuses: number[] = [];
      for (const [method, path] of [...targets, ['PUT', `/tasks/v1/lists/${list}/tasks/${task.id}`] as const, ['PATCH', `/tasks/v1/lists/${list}/tasks/${task.id}`] as const]) {
        for (const raw of bodies) {
          const answer = await call(method, path, { body: raw });
          statuses.push(answer.status);
          assert.ok(answer.status < 500, `${method} ${path} ${raw.slice(0, 40)} → ${answer.status}`);
          if (answer.status >= 400) googleErrorBodySchema.parse(answer.json);
        }
      }
      const params = [
        'maxResults=-1', 'maxResults=1e3', 'maxResults=', 'showDeleted=1', 'pageToken=%FF%FE', 'pageToken=' + 'a'.repeat(5000),
        'updatedMin=0', 'completedMax=2026-02-30T00:00:00Z', 'dueMin=%00', 'showCompleted=TRUE', 'showAssigned=maybe',
      ];
      for (const query of params) {
        const answer = await call('GET', `/tasks/v1/lists/${list}/tasks?${query}`);
        assert.ok(answer.status < 500, `${query} → ${answer.status}`);
        if (answer.status >= 400) googleErrorBodySchema.parse(answer.json);
      }
      for (const query of ['parent=nope', 'previous=nope', 'parent=&previous=', 'destinationTasklist=nope', `parent=${task.id}`]) {
        const answer = await call('POST', `/tasks/v1/lists/${list}/tasks/${task.id}/move?${query}`);
        assert.ok(answer.status < 500, `move ${query} → ${answer.status}`);
        if (answer.status >= 400) googleErrorBodySchema.parse(answer.json);
      }
      for (const path of ['/tasks/v1/lists/%ZZ/tasks', '/tasks/v1/lists/@default/tasks/%E0%A4%A', '/tasks/v1/users/@me/lists/..%2F..']) {
        const answer = await call('GET', path);
        assert.ok(answer.status < 500, `${path} → ${answer.status}`);
        googleErrorBodySchema.parse(answer.json);
      }
      // Most of that junk must have been refused rather than silently accepted.
      assert.ok(statuses.filter((status) => status === 400).length > statuses.length / 2);
    });
  });
});

describe('tasks emulator: a rejected request changes nothing', () => {
  it('answers a patch or update that cannot restore a subtask of a deleted parent 400, and leaves the subtask as it was, also after a restart', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'desk-tasks-atomic-'));
    let emulator = await startEmulator({ port: 0, dataDir });
    try {
      const token = emulator.tokenFor('alice@example.com').accessToken;
      let call = emulatorHttp(emulator, () => token);
      const list = taskListSchema.parse((await call('POST', '/tasks/v1/users/@me/lists', { json: { title: 'Atomic' } })).json).id;
      const parent = taskSchema.parse((await call('POST', `/tasks/v1/lists/${list}/tasks`, { json: { title: 'parent' } })).json);
      const child = taskSchema.parse((await call('POST', `/tasks/v1/lists/${list}/tasks?parent=${parent.id}`, { json: { title: 'child', notes: 'keep' } })).json);
      assert.equal((await call('DELETE', `/tasks/v1/lists/${list}/tasks/${parent.id}`)).status, 204);
      const before = taskSchema.parse((await call('GET', `/tasks/v1/lists/${list}/tasks/${child.id}`)).json);
      assert.equal(before.deleted, true);

      const path = `/tasks/v1/lists/${list}/tasks/${child.id}`;
      const patch = { title: 'changed anyway?', notes: null, status: 'completed', deleted: false };
      await expectGoogleError(call('PATCH', path, { json: patch }), 400, 'invalid');
      await expectGoogleError(call('PUT', path, { json: { ...patch, id: child.id } }), 400, 'invalid');
      // Another write after the rejection flushes whatever the rejected one might have left pending.
      assert.equal((await call('POST', `/tasks/v1/lists/${list}/tasks`, { json: { title: 'later' } })).status, 200);
      const after = taskSchema.parse((await call('GET', path)).json);
      assert.deepEqual(after, before);

      await emulator.close();
      emulator = await startEmulator({ port: 0, dataDir });
      call = emulatorHttp(emulator, () => token);
      assert.deepEqual(taskSchema.parse((await call('GET', path)).json).title, 'child');
      const reopened = taskSchema.parse((await call('GET', path)).json);
      assert.deepEqual({ ...reopened, selfLink: undefined, webViewLink: undefined }, { ...before, selfLink: undefined, webViewLink: undefined });
    } finally {
      await emulator.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
