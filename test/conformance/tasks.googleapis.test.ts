import * as assert from 'node:assert/strict';
import { tasks, tasks_v1 } from '@googleapis/tasks';
import { startEmulator, RunningEmulator } from '../../src/emulator/emulator';
import { officialClientOptions, rejectsWith } from '../support/officialClient';

describe('official @googleapis/tasks client against the emulator', () => {
  let emulator: RunningEmulator;
  let api: tasks_v1.Tasks;

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    api = tasks({ version: 'v1', ...officialClientOptions(emulator, 'alice@example.com') });
  });
  after(() => emulator.close());

  it('runs the tasklists operations', async () => {
    const initial = await api.tasklists.list();
    assert.equal(initial.status, 200);
    assert.equal(initial.data.kind, 'tasks#taskLists');
    assert.deepEqual(initial.data.items?.map((list) => list.title), ['My Tasks']);

    const inserted = await api.tasklists.insert({ requestBody: { title: 'Conformance' } });
    const id = inserted.data.id as string;
    assert.equal(inserted.data.kind, 'tasks#taskList');
    assert.equal((await api.tasklists.get({ tasklist: id })).data.title, 'Conformance');
    // The official client sends the whole resource back on update: read-only fields must be accepted.
    const updated = await api.tasklists.update({ tasklist: id, requestBody: { ...inserted.data, title: 'Renamed' } });
    assert.equal(updated.data.title, 'Renamed');
    assert.notEqual(updated.data.etag, inserted.data.etag);
    const patched = await api.tasklists.patch({ tasklist: id, requestBody: { title: 'Patched' } });
    assert.equal(patched.data.title, 'Patched');
    const paged = await api.tasklists.list({ maxResults: 1 });
    assert.equal(paged.data.items?.length, 1);
    assert.ok(paged.data.nextPageToken);
    const rest = await api.tasklists.list({ maxResults: 1, pageToken: paged.data.nextPageToken });
    assert.equal(rest.data.items?.[0]?.id, id);
    assert.equal(rest.data.nextPageToken, undefined);

    const deleted = await api.tasklists.delete({ tasklist: id });
    assert.equal(deleted.status, 204);
    await rejectsWith(api.tasklists.get({ tasklist: id }), 404);
  });

  it('runs the tasks operations', async () => {
    const list = (await api.tasklists.insert({ requestBody: { title: 'Work' } })).data.id as string;
    const parent = (await api.tasks.insert({ tasklist: list, requestBody: { title: 'Parent', notes: 'n', due: '2026-12-03T17:45:00.000Z' } })).data;
    assert.equal(parent.kind, 'tasks#task');
    assert.equal(parent.due, '2026-12-03T00:00:00.000Z');
    assert.equal(parent.status, 'needsAction');
    const child = (await api.tasks.insert({ tasklist: list, parent: parent.id as string, requestBody: { title: 'Child' } })).data;
    assert.equal(child.parent, parent.id);
    const last = (await api.tasks.insert({ tasklist: list, previous: parent.id as string, requestBody: { title: 'Last', status: 'completed' } })).data;
    assert.ok(last.completed);

    const got = await api.tasks.get({ tasklist: list, task: child.id as string });
    assert.equal(got.data.title, 'Child');
    const listed = await api.tasks.list({ tasklist: list });
    assert.equal(listed.data.kind, 'tasks#tasks');
    assert.deepEqual(listed.data.items?.map((task) => task.title), ['Parent', 'Child', 'Last']);
    const open = await api.tasks.list({ tasklist: list, showCompleted: false, dueMin: '2026-12-01T00:00:00Z' });
    assert.deepEqual(open.data.items?.map((task) => task.title), ['Parent']);

    const updated = await api.tasks.update({ tasklist: list, task: parent.id as string, requestBody: { ...parent, title: 'Parent v2', notes: null } });
    assert.equal(updated.data.title, 'Parent v2');
    assert.equal(updated.data.notes, undefined);
    const patched = await api.tasks.patch({ tasklist: list, task: child.id as string, requestBody: { status: 'completed' } });
    assert.equal(patched.data.status, 'completed');
    assert.ok(patched.data.completed);

    const moved = await api.tasks.move({ tasklist: list, task: last.id as string });
    assert.equal(moved.data.id, last.id);
    assert.deepEqual((await api.tasks.list({ tasklist: list })).data.items?.map((task) => task.title), ['Last', 'Parent v2', 'Child']);
    await rejectsWith(api.tasks.move({ tasklist: list, task: parent.id as string, parent: child.id as string }), 400);
    const other = (await api.tasklists.insert({ requestBody: { title: 'Other' } })).data.id as string;
    const across = await api.tasks.move({ tasklist: list, task: parent.id as string, destinationTasklist: other });
    assert.equal(across.data.id, parent.id);
    assert.deepEqual((await api.tasks.list({ tasklist: other })).data.items?.map((task) => task.title), ['Parent v2', 'Child']);

    const cleared = await api.tasks.clear({ tasklist: other });
    assert.equal(cleared.status, 204);
    assert.deepEqual((await api.tasks.list({ tasklist: other })).data.items?.map((task) => task.title), ['Parent v2']);
    const hidden = await api.tasks.list({ tasklist: other, showHidden: true });
    assert.equal(hidden.data.items?.find((task) => task.title === 'Child')?.hidden, true);

    const removed = await api.tasks.delete({ tasklist: other, task: parent.id as string });
    assert.equal(removed.status, 204);
    assert.deepEqual((await api.tasks.list({ tasklist: other })).data.items ?? [], []);
    const withDeleted = await api.tasks.list({ tasklist: other, showDeleted: true, showHidden: true });
    assert.ok(withDeleted.data.items?.every((task) => task.deleted === true));
  });

  it('pages tasks the way the official client expects', async () => {
    const list = (await api.tasklists.insert({ requestBody: { title: 'Paging' } })).data.id as string;
    let previous: string | undefined;
    for (let index = 0; index < 25; index++) {
      previous = (await api.tasks.insert({ tasklist: list, ...(previous ? { previous } : {}), requestBody: { title: `t${index}` } })).data.id as string;
    }
    const first = await api.tasks.list({ tasklist: list });
    assert.equal(first.data.items?.length, 20, 'the default page size is 20');
    const second = await api.tasks.list({ tasklist: list, pageToken: first.data.nextPageToken as string });
    assert.equal(second.data.items?.length, 5);
    assert.equal(second.data.nextPageToken, undefined);
    await rejectsWith(api.tasks.list({ tasklist: list, maxResults: 101 }), 400);
  });

  it('answers errors the official client understands', async () => {
    await rejectsWith(api.tasks.get({ tasklist: '@default', task: 'missing' }), 404);
    await rejectsWith(api.tasks.insert({ tasklist: '@default', requestBody: { title: 'x'.repeat(1025) } }), 400);
    const bobApi = tasks({ version: 'v1', ...officialClientOptions(emulator, 'bob@example.com') });
    const aliceList = (await api.tasklists.list()).data.items?.[0]?.id as string;
    await rejectsWith(bobApi.tasklists.get({ tasklist: aliceList }), 404);
    const anonymous = tasks({ version: 'v1', ...officialClientOptions(emulator) });
    await rejectsWith(anonymous.tasklists.list(), 401);
    // The client builds its message from errors[].message.
    await assert.rejects(api.tasks.get({ tasklist: '@default', task: 'missing' }), /Task not found/);
  });
});
