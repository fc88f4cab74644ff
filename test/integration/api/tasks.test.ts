import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import nodeFetch from 'node-fetch';
import { GoogleApiError, ResponseValidationError } from '../../../src/api/errors';
import { FetchFunction, HttpClient, RetryPolicy } from '../../../src/api/http';
import { Task, TasksClient } from '../../../src/api/tasks';
import { startEmulator, RunningEmulator } from '../../../src/emulator/emulator';
import { tasksModelFor } from '../../../src/emulator/tasks';

const FAST_RETRY: RetryPolicy = { maxAttempts: 10, baseDelayMs: 1, maxDelayMs: 5 };

interface Counted {
  fetch: FetchFunction;
  requests: string[];
}

/** node-fetch that records every request it sends (method + path). */
function countingFetch(): Counted {
  const requests: string[] = [];
  return {
    requests,
    fetch: (url, init) => {
      requests.push(`${init?.method ?? 'GET'} ${new URL(url).pathname}`);
      return nodeFetch(url, init);
    },
  };
}

function clientFor(rootUrl: string, token: (options: { forceRefresh: boolean }) => Promise<string>, fetch?: FetchFunction): TasksClient {
  return new TasksClient(new HttpClient({ rootUrl: () => rootUrl, token, retry: FAST_RETRY, ...(fetch ? { fetch } : {}) }));
}

async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterator) items.push(item);
  return items;
}

describe('TasksClient against the emulator', () => {
  let emulator: RunningEmulator;
  let client: TasksClient;

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    const token = emulator.tokenFor('alice@example.com').accessToken;
    client = clientFor(emulator.url, async () => token);
  });
  after(() => emulator.close());

  it('runs all 14 operations', async () => {
    // tasklists: list, insert, get, update, patch
    const initial = await client.listTaskLists();
    assert.equal(initial.kind, 'tasks#taskLists');
    assert.deepEqual(initial.items?.map((list) => list.title), ['My Tasks']);
    const list = await client.insertTaskList('Desk');
    assert.equal((await client.getTaskList(list.id)).title, 'Desk');
    assert.equal((await client.updateTaskList(list.id, { title: 'Desk 2' })).title, 'Desk 2');
    assert.equal((await client.patchTaskList(list.id, { title: 'Desk 3' })).title, 'Desk 3');

    // tasks: insert, get, list, update, patch, move, clear, delete
    const parent = await client.insertTask(list.id, { title: 'Ship it', notes: 'soon', due: '2026-12-01T09:30:00.000Z' });
    assert.equal(parent.due, '2026-12-01T00:00:00.000Z');
    const child = await client.insertTask(list.id, { title: 'Write docs' }, { parent: parent.id });
    const sibling = await client.insertTask(list.id, { title: 'Celebrate' }, { previous: parent.id });
    assert.equal((await client.getTask(list.id, child.id)).parent, parent.id);
    const page = await client.listTasks(list.id);
    assert.deepEqual(page.items?.map((task) => task.title), ['Ship it', 'Write docs', 'Celebrate']);

    const updated = await client.updateTask(list.id, sibling.id, { title: 'Celebrate!', status: 'completed' });
    assert.equal(updated.status, 'completed');
    assert.ok(updated.completed);
    const patched = await client.patchTask(list.id, parent.id, { notes: null });
    assert.equal(patched.notes, undefined);
    assert.equal(patched.title, 'Ship it');

    const moved = await client.moveTask(list.id, sibling.id, {});
    assert.equal(moved.id, sibling.id);
    assert.deepEqual((await collect(client.allTasks(list.id))).map((task) => task.title), ['Celebrate!', 'Ship it', 'Write docs']);
    const other = await client.insertTaskList('Other');
    const across = await client.moveTask(list.id, child.id, { destinationTasklist: other.id });
    assert.equal(across.parent, undefined);
    assert.deepEqual((await client.listTasks(other.id)).items?.map((task) => task.id), [child.id]);

    await client.clearTasks(list.id);
    assert.deepEqual((await client.listTasks(list.id)).items?.map((task) => task.title), ['Ship it']);
    assert.equal((await client.listTasks(list.id, { showHidden: true })).items?.length, 2);

    await client.deleteTask(list.id, parent.id);
    assert.deepEqual((await client.listTasks(list.id)).items ?? [], []);
    assert.equal((await client.getTask(list.id, parent.id)).deleted, true);

    // tasklists: delete
    await client.deleteTaskList(other.id);
    await assert.rejects(client.getTaskList(other.id), (error: unknown) => error instanceof GoogleApiError && error.isNotFound);
    assert.deepEqual((await collect(client.allTaskLists())).map((item) => item.title), ['My Tasks', 'Desk 3']);
  });

  it('follows page tokens across more than 100 tasks, with filters', async () => {
    const list = await client.insertTaskList('Big');
    let previous: string | undefined;
    const expected: string[] = [];
    for (let index = 0; index < 130; index++) {
      const title = `task ${String(index).padStart(3, '0')}`;
      const task: Task = await client.insertTask(list.id, { title, status: index % 10 === 0 ? 'completed' : 'needsAction' }, { previous });
      previous = task.id;
      expected.push(title);
    }
    const everything = await collect(client.allTasks(list.id, { maxResults: 100 }));
    assert.deepEqual(everything.map((task) => task.title), expected);
    const open = await collect(client.allTasks(list.id, { showCompleted: false }));
    assert.equal(open.length, 117);
    assert.ok(open.every((task) => task.status === 'needsAction'));
    for (let index = 0; index < 5; index++) await client.insertTaskList(`Extra ${index}`);
    const lists = await collect(client.allTaskLists({ maxResults: 2 }));
    assert.ok(lists.length >= 7);
    assert.equal(new Set(lists.map((item) => item.id)).size, lists.length);
  });

  it('cancels a call with an AbortSignal', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(client.listTaskLists({ signal: controller.signal }), (error: unknown) => error instanceof Error && error.name === 'CancelledError');
  });

  describe('resilience', () => {
    it('gets through a 30% fault rate on reads by retrying', async () => {
      const flaky = await startEmulator({ port: 0, faultRate: 0.3 });
      try {
        const token = flaky.tokenFor('bob@example.com').accessToken;
        const counted = countingFetch();
        const flakyClient = clientFor(flaky.url, async () => token, counted.fetch);
        // Writes go in through the model so only the reads below meet the faults.
        const model = tasksModelFor(flaky.deps);
        const listId = model.defaultListId('100000000000000000002');
        for (let index = 0; index < 30; index++) model.insertTask('100000000000000000002', listId, { title: `t${index}` }, {});
        for (let round = 0; round < 10; round++) {
          assert.equal((await flakyClient.getTaskList(listId)).id, listId);
          assert.equal((await collect(flakyClient.allTasks(listId, { maxResults: 7 }))).length, 30);
        }
        // 60 logical reads; with faults some were repeated.
        assert.ok(counted.requests.length > 60, `expected retries, saw ${counted.requests.length} requests`);
      } finally {
        await flaky.close();
      }
    });

    it('never repeats tasks.insert (POST) blindly when the service fails: a 503 is reconciled first, and it gives up with a typed error', async () => {
      // Before reconciliation, tasks.insert was sent once and any fault reached the user; now a 429 (refused before
      // processing) is repeated and a 503 (unclear) is repeated only after the list shows the task is not there.
      const broken = await startEmulator({ port: 0, faultRate: 1 });
      try {
        const token = broken.tokenFor('bob@example.com').accessToken;
        const statuses: string[] = [];
        const brokenClient = clientFor(broken.url, async () => token, async (url, init) => {
          const response = await nodeFetch(url, init);
          statuses.push(`${init?.method ?? 'GET'} ${response.status}`);
          return response;
        });
        await assert.rejects(brokenClient.insertTask('@default', { title: 'only once' }), (error: unknown) =>
          error instanceof GoogleApiError && (error.status === 503 || error.status === 429));
        assert.equal(statuses[0]?.startsWith('POST '), true);
        statuses.forEach((line, index) => {
          // A POST that follows a 503 to a POST comes only after a (failed here) look at the list.
          if (line.startsWith('POST ') && index > 0) assert.notEqual(statuses[index - 1], 'POST 503', `blind repeat: ${statuses.join(' | ')}`);
        });
        assert.ok(statuses.filter((line) => line.startsWith('POST ')).length <= FAST_RETRY.maxAttempts);
        const model = tasksModelFor(broken.deps);
        const listId = model.defaultListId('100000000000000000002');
        assert.equal(model.listTasks('100000000000000000002', listId, { maxResults: 100, showCompleted: true, showHidden: true, showDeleted: true }).items.length, 0);
        // A GET under the same faults is retried until it gives up.
        const counted = countingFetch();
        await assert.rejects(clientFor(broken.url, async () => token, counted.fetch).listTaskLists(), GoogleApiError);
        assert.equal(counted.requests.length, FAST_RETRY.maxAttempts);
      } finally {
        await broken.close();
      }
    });

    it('refreshes the token once after a 401 and succeeds', async () => {
      const good = emulator.tokenFor('alice@example.com').accessToken;
      const asked: boolean[] = [];
      const refreshing = clientFor(emulator.url, async ({ forceRefresh }) => {
        asked.push(forceRefresh);
        return forceRefresh ? good : 'stale-token';
      });
      const lists = await refreshing.listTaskLists();
      assert.ok((lists.items?.length ?? 0) > 0);
      assert.deepEqual(asked, [false, true]);
    });

    it('gives up after one refresh when the new token is bad too', async () => {
      const hopeless = clientFor(emulator.url, async () => 'still-bad');
      await assert.rejects(hopeless.listTaskLists(), (error: unknown) => error instanceof GoogleApiError && error.isAuthError);
    });

    it('reports a malformed answer as ResponseValidationError', async () => {
      const answers: Record<string, string> = {
        '/tasks/v1/users/@me/lists': JSON.stringify({ kind: 'tasks#taskLists', items: [{ id: 7 }] }),
        '/tasks/v1/lists/x/tasks/y': 'this is not json',
        '/tasks/v1/lists/x/tasks': JSON.stringify({ kind: 'tasks#task', id: 'not a page' }),
      };
      const junk = http.createServer((request, response) => {
        const body = answers[new URL(request.url ?? '/', 'http://localhost').pathname.replace('%40', '@')] ?? '{}';
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(body);
      });
      await new Promise<void>((resolve) => junk.listen(0, '127.0.0.1', resolve));
      try {
        const junkClient = clientFor(`http://127.0.0.1:${(junk.address() as AddressInfo).port}`, async () => 'token');
        await assert.rejects(junkClient.listTaskLists(), ResponseValidationError);
        await assert.rejects(junkClient.getTask('x', 'y'), ResponseValidationError);
        await assert.rejects(junkClient.listTasks('x'), ResponseValidationError);
        await assert.rejects(junkClient.getTaskList('z'), ResponseValidationError);
      } finally {
        await new Promise<void>((resolve) => junk.close(() => { resolve(); }));
      }
    });
  });
});
