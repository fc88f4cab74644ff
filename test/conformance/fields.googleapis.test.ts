import * as assert from 'node:assert/strict';
import { calendar, calendar_v3 } from '@googleapis/calendar';
import { drive, drive_v2 } from '@googleapis/drive';
import { tasks, tasks_v1 } from '@googleapis/tasks';
import { startEmulator, RunningEmulator } from '../../src/emulator/emulator';
import { officialClientOptions, statusOf } from '../support/officialClient';

/** Partial responses (`fields=`) through Google's official clients, which pass the parameter through unchanged. */
describe('official clients asking for partial responses (fields=)', function () {
  this.timeout(20000);
  let emulator: RunningEmulator;
  let driveApi: drive_v2.Drive;
  let tasksApi: tasks_v1.Tasks;
  let calendarApi: calendar_v3.Calendar;

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    const options = officialClientOptions(emulator, 'alice@example.com');
    driveApi = drive({ version: 'v2', ...options });
    tasksApi = tasks({ version: 'v1', ...options });
    calendarApi = calendar({ version: 'v3', ...options });
  });
  after(() => emulator.close());

  it('drive files.list answers only items(id,title,mimeType) and nextPageToken, on every page', async () => {
    for (const title of ['one', 'two', 'three']) await driveApi.files.insert({ requestBody: { title, mimeType: 'text/plain', parents: [{ id: 'root' }] } });
    const fields = 'items(id,title,mimeType,parents/id),nextPageToken';
    const first = await driveApi.files.list({ q: "'root' in parents", maxResults: 2, fields });
    assert.deepEqual(Object.keys(first.data).sort(), ['items', 'nextPageToken']);
    for (const item of first.data.items ?? []) assert.deepEqual(Object.keys(item).sort(), ['id', 'mimeType', 'parents', 'title']);
    assert.deepEqual(first.data.items?.[0]?.parents?.map((parent) => Object.keys(parent)), [['id']]);
    const second = await driveApi.files.list({ q: "'root' in parents", maxResults: 2, fields, pageToken: first.data.nextPageToken as string });
    assert.deepEqual(Object.keys(second.data), ['items']);
    assert.equal(second.data.items?.length, 1);
    assert.deepEqual(new Set([...(first.data.items ?? []), ...(second.data.items ?? [])].map((item) => item.title)), new Set(['one', 'two', 'three']));
  });

  it('drive files.get and files.insert answer only the selected fields; the write still happens whole', async () => {
    const inserted = await driveApi.files.insert({ requestBody: { title: 'kept whole', description: 'd', mimeType: 'text/plain' }, fields: 'id' });
    assert.deepEqual(Object.keys(inserted.data), ['id']);
    const got = await driveApi.files.get({ fileId: inserted.data.id as string, fields: 'title,description,labels/starred' });
    assert.deepEqual(got.data, { title: 'kept whole', description: 'd', labels: { starred: false } });
  });

  it('tasks.list and tasklists.list keep only the selection', async () => {
    const lists = await tasksApi.tasklists.list({ fields: 'items(id,title)' });
    const list = lists.data.items?.[0];
    assert.deepEqual(Object.keys(list ?? {}).sort(), ['id', 'title']);
    await tasksApi.tasks.insert({ tasklist: list?.id as string, requestBody: { title: 'Buy milk', notes: 'two litres' } });
    const listed = await tasksApi.tasks.list({ tasklist: list?.id as string, fields: 'items(id,title,status,due,parent,position),nextPageToken' });
    assert.deepEqual(listed.data, { items: [{ id: listed.data.items?.[0]?.id, title: 'Buy milk', status: 'needsAction', position: listed.data.items?.[0]?.position }] });
  });

  it('calendar events.list keeps nextSyncToken when asked for it, and nothing else unasked (times in the calendar zone)', async () => {
    await calendarApi.events.insert({ calendarId: 'primary', requestBody: { summary: 'Standup', start: { dateTime: '2026-12-01T09:00:00Z' }, end: { dateTime: '2026-12-01T09:15:00Z' } } });
    const listed = await calendarApi.events.list({ calendarId: 'primary', fields: 'items(id,summary,start,end),nextPageToken,nextSyncToken' });
    assert.deepEqual(Object.keys(listed.data).sort(), ['items', 'nextSyncToken']);
    assert.deepEqual(listed.data.items?.map((event) => [event.summary, event.start?.dateTime]), [['Standup', '2026-12-01T10:00:00+01:00']]);
    assert.deepEqual(Object.keys(listed.data.items.at(0) ?? {}).sort(), ['end', 'id', 'start', 'summary']);
  });

  it('refuses a field the resource lacks, or a malformed selection, with Google\'s 400 before changing anything', async () => {
    for (const fields of ['items(id,colour)', 'items(id']) {
      await assert.rejects(driveApi.files.list({ fields }), (error: unknown) => {
        assert.equal(statusOf(error), 400);
        const body = (error as { response?: { data?: { error?: { errors?: { reason?: string; location?: string }[]; message?: string } } } }).response?.data?.error;
        assert.equal(body?.errors?.[0]?.reason, 'invalidParameter');
        assert.equal(body.errors[0]?.location, 'fields');
        assert.match(body.message ?? '', /^Invalid field selection /);
        return true;
      });
    }
    const before = (await driveApi.files.list({ fields: 'items/id' })).data.items?.length;
    await assert.rejects(driveApi.files.insert({ requestBody: { title: 'never made' }, fields: 'nothing' }));
    assert.equal((await driveApi.files.list({ fields: 'items/id' })).data.items?.length, before);
  });
});
