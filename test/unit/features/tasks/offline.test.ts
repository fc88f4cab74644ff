import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { GoogleApiError, isUnreachable, ServiceUnreachableError } from '../../../../src/api/errors';
import type { DeskContext } from '../../../../src/core/deskContext';
import { WriteQueue } from '../../../../src/core/offline/writeQueue';
import { LOCAL_TASK_PREFIX, TasksOfflineHost, TasksOfflineWrites } from '../../../../src/features/tasks/offline';
import type { Task, TaskWrite } from '../../../../src/shared/schemas/tasks';
import { fakeVscode } from '../../../support/fakeVscode';
import { MapMemento } from '../../../support/memento';

function task(id: string, extra: Partial<Task> = {}): Task {
  return { kind: 'tasks#task', id, etag: `"${id}-1"`, title: id, updated: '2026-11-20T10:00:00.000Z', selfLink: '', position: '1', status: 'needsAction', links: [], ...extra };
}

/** A Tasks service in memory that can be "unplugged": every call then fails as a refused connection would. */
class FakeService {
  offline = false;
  readonly tasks = new Map<string, Task>();
  readonly writes: string[] = [];
  private seq = 0;
  private check(): void {
    if (this.offline) throw new ServiceUnreachableError('tasks', Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
  }
  async getTask(_list: string, id: string): Promise<Task> {
    this.check();
    const found = this.tasks.get(id);
    if (!found) throw new GoogleApiError(404, 'Not Found', 'notFound', [], undefined);
    return found;
  }
  async patchTask(_list: string, id: string, body: TaskWrite): Promise<Task> {
    this.check();
    const found = await this.getTask(_list, id);
    const next = { ...found, ...Object.fromEntries(Object.entries(body).map(([key, value]) => [key, value ?? undefined])), etag: `"${id}-${++this.seq}"` };
    this.tasks.set(id, next);
    this.writes.push(`patch ${id} ${JSON.stringify(body)}`);
    return next;
  }
  async insertTask(_list: string, body: TaskWrite): Promise<Task> {
    this.check();
    const created = task(`server-${++this.seq}`, { title: body.title ?? '', updated: new Date().toISOString() });
    this.tasks.set(created.id, created);
    this.writes.push(`insert ${created.title}`);
    return created;
  }
  async moveTask(_list: string, id: string, options: { parent?: string; previous?: string; destinationTasklist?: string }): Promise<Task> {
    this.check();
    const found = await this.getTask(_list, id);
    const moved = { ...found, parent: options.parent } as Task;
    this.tasks.set(id, moved);
    this.writes.push(`move ${id} ${JSON.stringify(options)}`);
    return moved;
  }
  async deleteTask(_list: string, id: string): Promise<void> {
    this.check();
    await this.getTask(_list, id);
    this.tasks.delete(id);
    this.writes.push(`delete ${id}`);
  }
  async listTasks(): Promise<{ items: Task[] }> {
    this.check();
    return { items: [...this.tasks.values()] };
  }
}

function setUp(warningAnswer?: string) {
  const service = new FakeService();
  const vs = fakeVscode() as unknown as Record<string, unknown>;
  const opened: string[] = [];
  (vs.window as Record<string, unknown>).showWarningMessage = async () => warningAnswer;
  (vs.window as Record<string, unknown>).showTextDocument = async () => undefined;
  vs.workspace = { openTextDocument: async (options: { content: string }) => (opened.push(options.content), { uri: options.content }) };
  vs.commands = { executeCommand: async () => undefined };
  const queue = new WriteQueue({ memento: new MapMemento(), account: () => 'emulator alice', now: () => Date.now(), isOffline: isUnreachable });
  const shown: string[] = [];
  const tree = { applyLocalTask: (_l: string, t: Task) => shown.push(`apply ${t.id} ${t.status}`), addLocalTask: (_l: string, t: Task) => shown.push(`add ${t.title}`), replaceLocalTask: (_l: string, local: string, t: Task) => shown.push(`replace ${String(local.startsWith(LOCAL_TASK_PREFIX))} ${t.id}`), removeLocalTask: (_l: string, id: string) => shown.push(`remove ${id}`), moveLocalTask: (_l: string, id: string, place: { parent?: string; toListId: string }) => shown.push(`move ${id} under ${place.parent ?? 'top'} in ${place.toListId}`) };
  const desk = { vs: vs as unknown as typeof vscode, offlineQueue: queue, log: { info: () => undefined }, showError: async () => undefined } as unknown as Pick<DeskContext, 'vs' | 'offlineQueue' | 'log' | 'showError'>;
  const host: TasksOfflineHost = { desk, api: service, tree };
  const offline = new TasksOfflineWrites(host);
  return { service, queue, offline, shown, opened };
}

describe('Tasks writes offline: kept, shown at once, replayed once', () => {
  it('a complete, an add and a notes save made offline are shown at once and applied once, in order, when back', async () => {
    const { service, queue, offline, shown } = setUp();
    service.tasks.set('a', task('a'));
    service.tasks.set('b', task('b', { notes: 'old' }));
    service.offline = true;
    const complete = await offline.orKeep(() => service.patchTask('L', 'a', { status: 'completed' }), () => offline.setStatus('L', task('a'), true));
    assert.equal(complete.kept, true);
    assert.equal(complete.value.status, 'completed');
    const added = await offline.orKeep(() => service.insertTask('L', { title: 'Buy milk' }), (mayHaveLanded) => offline.insert('L', 'My Tasks', 'Buy milk', {}, mayHaveLanded));
    assert.ok(added.value.id.startsWith(LOCAL_TASK_PREFIX));
    await offline.saveNotes('L', task('b', { notes: 'old' }), 'new notes');
    // Completing the task added offline: sent to the id the service gives it.
    await offline.setStatus('L', added.value, true);
    assert.deepEqual(shown, ['apply a completed', 'add Buy milk', 'apply b needsAction', `apply ${added.value.id} completed`]);
    assert.equal(queue.size, 4);
    offline.register();
    await queue.settled();
    assert.equal(service.writes.length, 0, 'nothing is sent while offline');
    service.offline = false;
    await queue.replay();
    const milk = [...service.tasks.values()].find((candidate) => candidate.title === 'Buy milk');
    assert.deepEqual(service.writes, ['patch a {"status":"completed"}', 'insert Buy milk', 'patch b {"notes":"new notes"}', `patch ${String(milk?.id)} {"status":"completed"}`]);
    assert.equal(milk?.status, 'completed');
    assert.equal(queue.size, 0);
    await queue.replay();
    assert.equal(service.writes.length, 4, 'each once');
  });

  it('an add whose answer was lost is looked for before it is repeated: found, it is not added twice', async () => {
    const { service, queue, offline } = setUp();
    await offline.insert('L', 'My Tasks', 'Landed already', {}, true);
    service.tasks.set('x', task('x', { title: 'Landed already', updated: new Date().toISOString() }));
    offline.register();
    await queue.settled();
    assert.deepEqual(service.writes, []);
    assert.equal(queue.size, 0);
  });

  it('notes changed elsewhere meanwhile: Cancel keeps the user\'s text in an editor and sends nothing', async () => {
    const { service, queue, offline, opened } = setUp(undefined);
    service.tasks.set('b', task('b', { notes: 'theirs', etag: '"b-9"' }));
    await offline.saveNotes('L', task('b', { notes: 'old', etag: '"b-1"' }), 'mine');
    offline.register();
    await queue.settled();
    assert.deepEqual(service.writes, []);
    assert.deepEqual(opened, ['mine']);
    assert.equal(queue.size, 0);
  });

  it('notes changed elsewhere meanwhile: Overwrite sends the user\'s notes', async () => {
    const { service, queue, offline } = setUp('Overwrite');
    service.tasks.set('b', task('b', { notes: 'theirs', etag: '"b-9"' }));
    await offline.saveNotes('L', task('b', { notes: 'old', etag: '"b-1"' }), 'mine');
    offline.register();
    await queue.settled();
    assert.deepEqual(service.writes, ['patch b {"notes":"mine"}']);
  });

  it('a task deleted elsewhere: its notes save says so and keeps the text', async () => {
    const { queue, offline, opened } = setUp();
    await offline.saveNotes('L', task('gone', { notes: 'old' }), 'my text');
    offline.register();
    await queue.settled();
    assert.deepEqual(opened, ['my text']);
    assert.equal(queue.size, 0);
  });

  it('a move and a delete made offline show at once and are sent once; a task added offline moves under its new id', async () => {
    const { service, queue, offline, shown } = setUp();
    service.tasks.set('a', task('a'));
    service.tasks.set('b', task('b'));
    service.offline = true;
    const added = await offline.insert('L', 'My Tasks', 'New', {}, false);
    await offline.move('New', { listId: 'L', taskId: added.id, parent: 'a' });
    await offline.move('b', { listId: 'L', taskId: 'b', destinationTasklist: 'M' });
    await offline.delete('L', task('a'));
    assert.deepEqual(shown.slice(1), [`move ${added.id} under a in L`, 'move b under top in M', 'remove a']);
    offline.register();
    await queue.settled();
    assert.equal(queue.size, 4);
    service.offline = false;
    await queue.replay();
    const created = [...service.tasks.values()].find((candidate) => candidate.title === 'New');
    assert.deepEqual(service.writes, ['insert New', `move ${String(created?.id)} {"parent":"a"}`, 'move b {"destinationTasklist":"M"}', 'delete a']);
    assert.equal(queue.size, 0);
  });

  it('a delete that landed before the connection broke (or of a task deleted elsewhere) is done, not an error', async () => {
    const { service, queue, offline } = setUp();
    await offline.delete('L', task('gone'));
    offline.register();
    await queue.settled();
    assert.deepEqual(service.writes, []);
    assert.equal(queue.size, 0);
  });

  it('a move of a task deleted elsewhere says so and is not kept', async () => {
    const { queue, offline } = setUp();
    const warnings: string[] = [];
    const vs = (offline as unknown as { host: { desk: { vs: { window: Record<string, unknown> } } } }).host.desk.vs;
    vs.window.showWarningMessage = async (message: string) => void warnings.push(message);
    await offline.move('Gone', { listId: 'L', taskId: 'gone' });
    offline.register();
    await queue.settled();
    assert.equal(queue.size, 0);
    assert.match(warnings[0] ?? '', /deleted elsewhere/);
  });
});
