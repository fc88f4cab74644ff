import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { taskListsPageSchema, taskSchema, tasksPageSchema } from '../../../../src/shared/schemas/tasks';
import { bundleEmulator, Child, killHard, startChild, tokenFor } from '../../../support/emulatorChild';

async function getJson(url: string, token: string): Promise<unknown> {
  const response = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  assert.equal(response.status, 200, await response.clone().text());
  return response.json();
}

async function allTaskIds(url: string, token: string, list: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let pageToken: string | undefined;
  do {
    const query = `maxResults=100&showHidden=true&showDeleted=true${pageToken ? `&pageToken=${pageToken}` : ''}`;
    const page = tasksPageSchema.parse(await getJson(`${url}/tasks/v1/lists/${list}/tasks?${query}`, token));
    for (const task of page.items ?? []) ids.add(task.id);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return ids;
}

async function listTitles(url: string, token: string): Promise<string[]> {
  const page = taskListsPageSchema.parse(await getJson(`${url}/tasks/v1/users/@me/lists`, token));
  return (page.items ?? []).map((list) => `${list.id}:${list.title}`);
}

describe('tasks survive kill -9 (emulator as a child process)', function () {
  this.timeout(60_000);
  let work: string;
  let bundle: string;
  const running: Child[] = [];

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'desk-durability-'));
    bundle = path.join(work, 'emulator.js');
    await bundleEmulator(bundle);
  });
  after(async () => {
    for (const child of running) await killHard(child);
    rmSync(work, { recursive: true, force: true });
  });

  async function start(dataDir: string, extra: string[] = []): Promise<Child> {
    const child = await startChild(bundle, ['--data-dir', dataDir, ...extra]);
    running.push(child);
    return child;
  }

  it('keeps every acknowledged insert after kill -9, and a restart duplicates nothing', async () => {
    const dataDir = path.join(work, 'data');
    const first = await start(dataDir, ['--seed', 'demo']);
    const token = await tokenFor(first.url, 'alice@example.com');
    const seededLists = await listTitles(first.url, token);
    assert.ok(seededLists.length >= 3, 'the demo seed gives alice several lists');
    const list = (seededLists[0]).split(':')[0];
    const seededTasks = await allTaskIds(first.url, token, list);

    // Sequential inserts, then a burst in flight; kill -9 right after the last acknowledgement we see.
    const acknowledged: string[] = [];
    const insert = async (title: string): Promise<void> => {
      const response = await fetch(`${first.url}/tasks/v1/lists/${list}/tasks`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title, notes: 'durable?' }),
      });
      if (response.status === 200) acknowledged.push(taskSchema.parse(await response.json()).id);
    };
    for (let index = 0; index < 20; index++) await insert(`sequential ${index}`);
    const burst = Array.from({ length: 20 }, (_, index) => insert(`burst ${index}`).catch(() => undefined));
    await Promise.race([Promise.all(burst), new Promise((resolve) => setTimeout(resolve, 5))]);
    const acknowledgedBeforeKill = [...acknowledged];
    await killHard(first);
    await Promise.allSettled(burst);
    assert.ok(acknowledgedBeforeKill.length >= 20);

    const second = await start(dataDir);
    const token2 = await tokenFor(second.url, 'alice@example.com');
    const afterRestart = await allTaskIds(second.url, token2, list);
    for (const id of acknowledgedBeforeKill) assert.ok(afterRestart.has(id), `acknowledged task ${id} was lost`);
    // Anything acknowledged before the kill, even in the burst, must be there too.
    for (const id of acknowledged) assert.ok(afterRestart.has(id), `acknowledged task ${id} was lost`);
    for (const id of seededTasks) assert.ok(afterRestart.has(id));
    assert.deepEqual(await listTitles(second.url, token2), seededLists, 'no list was duplicated or lost');
    await killHard(second);

    // Starting again with --seed demo on the same folder must not seed twice.
    const third = await start(dataDir, ['--seed', 'demo']);
    const token3 = await tokenFor(third.url, 'alice@example.com');
    assert.deepEqual(await listTitles(third.url, token3), seededLists);
    assert.equal((await allTaskIds(third.url, token3, list)).size, afterRestart.size);
    await killHard(third);
  });

  it('keeps the default list a first read created, across kill -9', async () => {
    const dataDir = path.join(work, 'data-3');
    const first = await start(dataDir);
    const before = await listTitles(first.url, await tokenFor(first.url, 'carol@example.com'));
    await killHard(first);
    const second = await start(dataDir);
    assert.deepEqual(await listTitles(second.url, await tokenFor(second.url, 'carol@example.com')), before);
    await killHard(second);
  });

  it('keeps moves, updates and deletes across kill -9', async () => {
    const dataDir = path.join(work, 'data-2');
    const first = await start(dataDir);
    const token = await tokenFor(first.url, 'bob@example.com');
    const call = async (method: string, route: string, body?: unknown): Promise<unknown> => {
      const response = await fetch(`${first.url}${route}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      assert.ok(response.status < 300, `${method} ${route} → ${response.status}`);
      return response.status === 204 ? undefined : response.json();
    };
    const a = taskSchema.parse(await call('POST', '/tasks/v1/lists/@default/tasks', { title: 'a' }));
    const b = taskSchema.parse(await call('POST', `/tasks/v1/lists/@default/tasks?previous=${a.id}`, { title: 'b' }));
    const c = taskSchema.parse(await call('POST', `/tasks/v1/lists/@default/tasks?previous=${b.id}`, { title: 'c', status: 'completed' }));
    await call('POST', `/tasks/v1/lists/@default/tasks/${a.id}/move?parent=${b.id}`);
    await call('PATCH', `/tasks/v1/lists/@default/tasks/${b.id}`, { notes: 'patched' });
    await call('POST', '/tasks/v1/lists/@default/clear');
    await call('DELETE', `/tasks/v1/lists/@default/tasks/${c.id}`);
    await killHard(first);

    const second = await start(dataDir);
    const token2 = await tokenFor(second.url, 'bob@example.com');
    const page = tasksPageSchema.parse(await getJson(`${second.url}/tasks/v1/lists/@default/tasks?showHidden=true&showDeleted=true`, token2));
    const byTitle = new Map((page.items ?? []).map((task) => [task.title, task]));
    assert.deepEqual((page.items ?? []).map((task) => task.title), ['b', 'a', 'c']);
    assert.equal(byTitle.get('a')?.parent, b.id);
    assert.equal(byTitle.get('b')?.notes, 'patched');
    assert.equal(byTitle.get('c')?.hidden, true);
    assert.equal(byTitle.get('c')?.deleted, true);
    await killHard(second);
  });
});

describe('a data folder whose compaction fails keeps working (in process)', () => {
  it('acknowledges writes, survives a restart, and logs the failed compaction instead of answering 500', async () => {
    const { mkdirSync } = await import('node:fs');
    const { startEmulator } = await import('../../../../src/emulator/emulator');
    const { setLogSink } = await import('../../../../src/emulator/core/log');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'desk-compaction-fails-'));
    // A directory where the temporary snapshot must go: every compaction fails (EISDIR), as on a full or read-only disk.
    mkdirSync(path.join(dataDir, 'snapshot.jsonl.tmp'));
    const logged: string[] = [];
    const previous = setLogSink((line) => logged.push(line));
    try {
      let emulator = await startEmulator({ port: 0, dataDir });
      const token = emulator.tokenFor('alice@example.com').accessToken;
      const titles: string[] = [];
      for (let index = 0; index < 5; index++) {
        const response = await fetch(`${emulator.url}/tasks/v1/lists/@default/tasks`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ title: `kept ${index}` }),
        });
        assert.equal(response.status, 200);
        titles.push(`kept ${index}`);
      }
      await emulator.close(); // its compaction fails: logged, not thrown
      assert.match(logged.join('\n'), /compaction failed/);
      emulator = await startEmulator({ port: 0, dataDir });
      try {
        const page = tasksPageSchema.parse(await getJson(`${emulator.url}/tasks/v1/lists/@default/tasks`, token));
        assert.deepEqual((page.items ?? []).map((task) => task.title).sort(), titles.sort());
        const again = await fetch(`${emulator.url}/tasks/v1/lists/@default/tasks`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ title: 'after restart' }),
        });
        assert.equal(again.status, 200);
      } finally {
        await emulator.close();
      }
    } finally {
      setLogSink(previous);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
