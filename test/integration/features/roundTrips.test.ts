// Requests and round trips per view action, over HTTP against the emulator with Desk's own clients and the views'
// vscode-free models: independent requests must go out together (one round trip), not wait on each other.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { AGENDA_EVENT_FIELDS, CALENDAR_ROW_FIELDS, CalendarClient } from '../../../src/api/calendar';
import nodeFetch from 'node-fetch';
import { HttpClient, SharedReads, type FetchFunction } from '../../../src/api/http';
import { TASK_LIST_ROW_FIELDS, TASK_ROW_FIELDS, TasksClient } from '../../../src/api/tasks';
import { startEmulator, RunningEmulator } from '../../../src/emulator/emulator';
import { DriveClient } from '../../../src/api/drive';
import { DueTaskStore } from '../../../src/features/calendar/agenda/dueTaskStore';
import { adaptDriveClient } from '../../../src/features/drive/driveAdapter';
import { DriveFileSystemProvider, FS_LISTING_FIELDS } from '../../../src/features/drive/fs/driveFileSystem';
import { DRIVE_SCHEME, driveUriParts } from '../../../src/features/drive/fs/drivePath';
import { DriveTreeModel, FileNode, TREE_LISTING_FIELDS } from '../../../src/features/drive/tree/model';
import { TaskNotesFileSystemProvider } from '../../../src/features/tasks/notes/notesFileSystem';
import { NOTES_SCHEME, notesUriParts } from '../../../src/features/tasks/notes/notesPath';
import { TasksTreeModel } from '../../../src/features/tasks/tree/model';
import type { TasksSnapshot } from '../../../src/features/tasks/tree/snapshot';
import { listTooltip, renameListPrompt, taskDescription, taskDetailsMarkdown, taskLabel, taskTooltip } from '../../../src/features/tasks/tree/presentation';
import { BooksClient } from '../../../src/api/books';
import { BooksTreeModel, MY_LIBRARY } from '../../../src/features/books/tree/model';
import { TasksSearchSource } from '../../../src/features/search/sources/tasks';
import { DriveSearchSource } from '../../../src/features/search/sources/drive';
import { CalendarSearchSource } from '../../../src/features/search/sources/calendar';
import { BooksSearchSource } from '../../../src/features/search/sources/books';
import type { SearchHit } from '../../../src/features/search/model';
import type { CalendarListEntry } from '../../../src/shared/schemas/calendar';
import { EventStore } from '../../../src/features/calendar/sync/eventStore';
import { CalendarSync } from '../../../src/features/calendar/sync/calendarSync';
import { joinLinkOf, occurrenceOf } from '../../../src/features/calendar/tree/model';
import type { AgendaSnapshot } from '../../../src/features/calendar/tree/snapshot';
import { calendarTooltip, eventDescription, eventDetailsMarkdown, eventTooltip } from '../../../src/features/calendar/tree/presentation';
import { dueReminders } from '../../../src/features/calendar/status/upcoming';
import { dateKey } from '../../../src/features/calendar/time';
import type { ViewSnapshotStore } from '../../../src/core/storage/viewCache';
import { CalendarTreeProvider } from '../../../src/features/calendar/tree/treeProvider';
import { fakeVscode } from '../../support/fakeVscode';
import { RequestWaves } from '../../support/requestWaves';
import { UriAccounts } from '../../../src/core/accounts/accounts';

/** The file systems' URIs are alice's, and alice is the one signed in (the emulator's requests here are hers). */
const ALICE = 'alice@example.com';
const ALICE_ONLY = new UriAccounts({ gate: { signedInAccounts: async () => [ALICE], runAs: (_account, work) => work() } });

function httpFor(emulator: RunningEmulator, waves: RequestWaves, email = 'alice@example.com'): HttpClient {
  const token = emulator.tokenFor(email).accessToken;
  return new HttpClient({ rootUrl: () => emulator.url, token: async () => token, fetch: waves.fetch });
}

/** The part of `vscode` the Drive file system uses when VS Code opens a file (stat, then readFile). */
function fileSystemVscode(): typeof vscode {
  const vs = fakeVscode() as unknown as Record<string, unknown>;
  vs.workspace = { onWillSaveTextDocument: () => ({ dispose: () => undefined }), textDocuments: [] };
  vs.FileType = { File: 1, Directory: 2 };
  vs.FilePermission = { Readonly: 1 };
  const error = (code: string) => (what: unknown) => Object.assign(new Error(`${code}: ${String(what)}`), { code });
  vs.FileSystemError = { FileNotFound: error('FileNotFound'), FileIsADirectory: error('FileIsADirectory'), NoPermissions: error('NoPermissions'), Unavailable: error('Unavailable') };
  return vs as unknown as typeof vscode;
}

/**
 * The `vscode` of a file system that saves as VS Code does on Ctrl+S (onWillSaveTextDocument, Manual), with the
 * conflict question answered from `answers` (undefined: dismissed) and recorded in `asked`.
 */
function savingVscode(answers: (string | undefined)[] = []): { vs: typeof vscode; asked: string[]; saveWith: (fileSystem: vscode.FileSystemProvider, uri: vscode.Uri) => (text: string) => Promise<void> } {
  const vs = fileSystemVscode() as unknown as Record<string, unknown>;
  let willSave: ((event: { document: { uri: vscode.Uri }; reason: number }) => void) | undefined;
  const asked: string[] = [];
  vs.workspace = { onWillSaveTextDocument: (listener: typeof willSave) => { willSave = listener; return { dispose: () => undefined }; }, textDocuments: [] };
  vs.TextDocumentSaveReason = { Manual: 1, AfterDelay: 2, FocusOut: 3 };
  vs.window = { showWarningMessage: async (message: string) => { asked.push(message); return answers.shift(); } };
  const saveWith = (fileSystem: vscode.FileSystemProvider, uri: vscode.Uri) => async (text: string): Promise<void> => {
    willSave?.({ document: { uri }, reason: 1 });
    await fileSystem.stat(uri);
    await fileSystem.writeFile(uri, Buffer.from(text), { create: false, overwrite: true });
  };
  return { vs: vs as unknown as typeof vscode, asked, saveWith };
}

/** The Calendar view's tree with its Agenda and due tasks, over these clients (and a view cache, when given). */
function agendaTree(calendarApi: CalendarClient, tasksApi: TasksClient, cache?: ViewSnapshotStore<AgendaSnapshot>): CalendarTreeProvider {
  let tree: CalendarTreeProvider | undefined;
  const store = new EventStore({ api: () => calendarApi, onChange: (id) => tree?.redrawCalendar(id) });
  const dueTasks = new DueTaskStore({ api: () => tasksApi, showCompleted: () => false, onChange: () => undefined });
  let zone: Promise<string> | undefined;
  const vs = fakeVscode() as unknown as Record<string, unknown>;
  vs.Uri = { parse: (text: string) => ({ toString: () => text }) };
  tree = new CalendarTreeProvider(vs as never, {
    api: () => calendarApi,
    store,
    timeZone: () => (zone ??= calendarApi.getSetting('timezone').then((setting) => setting.value)),
    daysAhead: () => 7,
    showHidden: () => false,
    isSignedIn: async () => true,
    withProgress: (work) => work(),
    log: () => undefined,
    dueTasks: { store: dueTasks, enabled: () => true, showCompleted: () => false },
    ...(cache ? { cache } : {}),
  });
  return tree;
}

describe('round trips per view action, against the emulator', function () {
  this.timeout(20000);
  let emulator: RunningEmulator;
  let waves: RequestWaves;

  beforeEach(async () => {
    emulator = await startEmulator({ port: 0, seed: 'demo' });
    waves = new RequestWaves();
  });
  afterEach(() => emulator.close());

  it('Calendar: the calendars, the zone, the Agenda events and the due tasks in two round trips', async () => {
    const http = httpFor(emulator, waves);
    const tree = agendaTree(new CalendarClient(http), new TasksClient(http));
    const [agenda] = await tree.getChildren();
    await tree.getChildren(agenda);
    const paths = waves.requests.map((request) => request.target.split('?')[0]);
    assert.ok(paths.some((path) => path.endsWith('/calendarList')) && paths.some((path) => path.endsWith('/events')) && paths.some((path) => path.startsWith('/tasks/v1/lists/')), waves.describe());
    // calendarList ‖ settings ‖ tasklists, then events ‖ tasks: nothing of Tasks waits for Calendar.
    assert.equal(waves.roundTrips, 2, waves.describe());
  });

  it('Calendar: after a reload, the Agenda\'s fresh rows come in one round trip from the calendars and lists the cache knows; a calendar added or removed since is reconciled', async () => {
    const http = httpFor(emulator, waves);
    const calendarApi = new CalendarClient(http);
    const tasksApi = new TasksClient(http);
    const inWindow = (hours: number): { dateTime: string } => ({ dateTime: new Date(Date.now() + hours * 3_600_000).toISOString() });
    const doomed = await calendarApi.insertCalendar({ summary: 'Old team' });
    await calendarApi.insertEvent(doomed.id, { summary: 'Old team sync', start: inWindow(2), end: inWindow(3) });
    const [list] = (await tasksApi.listTaskLists()).items ?? [];
    assert.ok(list);
    await tasksApi.insertTask(list.id, { title: 'Pay the rent', due: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) + 'T00:00:00.000Z' });
    let saved: AgendaSnapshot | undefined;
    const cache: ViewSnapshotStore<AgendaSnapshot> = { read: async () => saved, write: async (value) => { saved = value; } };
    /** One window's Calendar view over the same cache file; resolves with the Agenda's rows once fresh. */
    const session = async (): Promise<{ rows: string[]; cachedRows: number }> => {
      const hadCache = saved !== undefined;
      const tree = agendaTree(calendarApi, tasksApi, cache);
      // The whole tree redrawn: the cached rows gave way to fresh ones (one calendar's redraw names its node).
      const refreshed = new Promise<void>((resolve) => tree.onDidChangeTreeData((node) => { if (node === undefined) resolve(); }));
      const [agenda] = await tree.getChildren();
      const cachedRows = (await tree.getChildren(agenda)).length;
      if (hadCache) await refreshed;
      const [freshAgenda] = await tree.getChildren();
      const days = await tree.getChildren(freshAgenda);
      const rows = (await Promise.all(days.map((day) => tree.getChildren(day)))).flat().map((row) => tree.getTreeItem(row).label as string);
      await waves.quiet();
      return { rows, cachedRows };
    };
    await session();
    assert.ok(saved?.taskLists?.some((known) => known.id === list.id), 'the cache keeps the task lists');

    waves.reset();
    const reload = await session();
    assert.ok(reload.cachedRows > 0, 'the cached rows show first');
    assert.ok(reload.rows.includes('Old team sync') && reload.rows.includes('Pay the rent'), JSON.stringify(reload.rows));
    // calendarList ‖ settings ‖ tasklists ‖ each known calendar's events ‖ each known list's tasks.
    assert.equal(waves.roundTrips, 1, waves.describe());

    // Since then: one calendar removed, one added. The removed one's rows go; the added one is listed (its own trip).
    await calendarApi.deleteCalendar(doomed.id);
    const added = await calendarApi.insertCalendar({ summary: 'New team' });
    await calendarApi.insertEvent(added.id, { summary: 'New team kickoff', start: inWindow(4), end: inWindow(5) });
    waves.reset();
    const changed = await session();
    assert.ok(changed.rows.includes('New team kickoff') && !changed.rows.includes('Old team sync'), JSON.stringify(changed.rows));
    assert.equal(waves.roundTrips, 2, waves.describe());
    assert.ok(!saved?.calendars.some((entry) => entry.id === doomed.id));
  });

  it('Tasks and the Agenda: at a reload both views list the task lists with one request between them, everything in one round trip', async () => {
    // Each feature has its own clients, as in the extension (desk.httpClient), sharing the Desk's reads in flight.
    const token = emulator.tokenFor('alice@example.com').accessToken;
    const sharedReads = new SharedReads();
    const featureHttp = (): HttpClient => new HttpClient({ rootUrl: () => emulator.url, token: async () => token, fetch: waves.fetch, sharedReads });
    const tasksApi = new TasksClient(featureHttp());
    const calendarApi = new CalendarClient(featureHttp());
    const dueTasksApi = new TasksClient(featureHttp());
    const [list] = (await tasksApi.listTaskLists()).items ?? [];
    assert.ok(list);
    await tasksApi.insertTask(list.id, { title: 'Pay the rent', due: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) + 'T00:00:00.000Z' });
    let tasksSaved: TasksSnapshot | undefined;
    let agendaSaved: AgendaSnapshot | undefined;
    const tasksCache: ViewSnapshotStore<TasksSnapshot> = { read: async () => tasksSaved, write: async (value) => { tasksSaved = value; } };
    const agendaCache: ViewSnapshotStore<AgendaSnapshot> = { read: async () => agendaSaved, write: async (value) => { agendaSaved = value; } };
    /** One window: both views visible at once, each until its fresh rows are in. */
    const session = async (): Promise<void> => {
      const reloaded = tasksSaved !== undefined && agendaSaved !== undefined;
      let tasksRefreshed: () => void = () => undefined;
      const tasksFresh = new Promise<void>((resolve) => { tasksRefreshed = resolve; });
      const tasks = new TasksTreeModel({ api: tasksApi, showCompleted: () => false, pageSize: () => 100, withProgress: (work) => work(), log: () => undefined, onListLoaded: () => undefined, cache: tasksCache, onRefreshed: tasksRefreshed });
      const agenda = agendaTree(calendarApi, dueTasksApi, agendaCache);
      const agendaFresh = new Promise<void>((resolve) => agenda.onDidChangeTreeData((node) => { if (node === undefined) resolve(); }));
      const [lists, [agendaNode]] = await Promise.all([tasks.roots(), agenda.getChildren()]);
      const firstList = lists.find((node) => node.kind === 'list');
      assert.ok(firstList?.kind === 'list');
      await Promise.all([tasks.listChildren(firstList), agenda.getChildren(agendaNode)]);
      if (reloaded) await Promise.all([tasksFresh, agendaFresh]);
      await waves.quiet();
    };
    await session();
    assert.ok(tasksSaved && agendaSaved, 'both views cached their rows');

    waves.reset();
    await session();
    const listings = waves.requests.filter((request) => request.target.split('?')[0] === '/tasks/v1/users/@me/lists');
    assert.equal(listings.length, 1, waves.describe());
    assert.equal(waves.roundTrips, 1, waves.describe());

    // A write while a listing is in flight (its answer held back): a listing asked after the write is a request of its
    // own, which sees the write, not the one asked before it.
    let answered: () => void = () => undefined;
    const serverAnswered = new Promise<void>((resolve) => { answered = resolve; });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => { release = resolve; });
    const heldFetch: FetchFunction = async (url, init) => {
      const response = await nodeFetch(url, init);
      answered();
      await held;
      return response;
    };
    const plainClient = (fetch?: FetchFunction): TasksClient => new TasksClient(new HttpClient({ rootUrl: () => emulator.url, token: async () => token, sharedReads, ...(fetch ? { fetch } : {}) }));
    const before = plainClient(heldFetch).listTaskLists();
    await serverAnswered;
    await plainClient().insertTaskList('Errands');
    const after = plainClient().listTaskLists();
    release();
    const [afterPage] = await Promise.all([after, before]);
    assert.ok(afterPage.items?.some((candidate) => candidate.title === 'Errands'), JSON.stringify(afterPage.items?.map((candidate) => candidate.title)));
  });

  it('Calendar: the calendar list and the events (full read and sync) ask only for the fields Desk reads; rows, hovers, details and reminders read as from the whole event', async () => {
    const http = httpFor(emulator, waves);
    const calendarApi = new CalendarClient(http);
    const inWindow = (hours: number): { dateTime: string } => ({ dateTime: new Date(Date.now() + hours * 3_600_000).toISOString() });
    const created = await calendarApi.insertEvent('alice@example.com', {
      summary: 'Design review', description: 'Bring the **mock-ups**', location: 'Room 4', colorId: '5', start: inWindow(2), end: inWindow(3),
      attendees: [{ email: 'bob@example.com' }, { email: 'alice@example.com', responseStatus: 'accepted' }],
      reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 15 }] },
      conferenceData: { createRequest: { requestId: 'design-review', conferenceSolutionKey: { type: 'hangoutsMeet' } } },
    }, { conferenceDataVersion: 1 });
    const tree = agendaTree(calendarApi, new TasksClient(http));
    const store = new EventStore({ api: () => calendarApi, onChange: () => undefined });
    waves.reset();
    const [agenda] = await tree.getChildren();
    await store.ensureLoaded('alice@example.com');
    const fieldsOf = (path: string): (string | null)[] => waves.requests.filter((request) => request.target.split('?')[0]?.endsWith(path)).map((request) => new URL(`http://x${request.target}`).searchParams.get('fields'));
    assert.deepEqual(fieldsOf('/calendarList'), [CALENDAR_ROW_FIELDS], waves.describe());
    assert.deepEqual(fieldsOf('/events').filter((fields) => fields !== AGENDA_EVENT_FIELDS), [], waves.describe());

    const zone = 'Europe/Berlin';
    const listed = store.find('alice@example.com', created.id);
    assert.ok(listed && agenda);
    const full = await calendarApi.getEvent('alice@example.com', created.id);
    const [listedOccurrence, fullOccurrence] = [occurrenceOf('alice@example.com', listed, zone), occurrenceOf('alice@example.com', full, zone)];
    assert.ok(listedOccurrence && fullOccurrence);
    for (const shown of ['etag', 'summary', 'description', 'location', 'colorId', 'start', 'end', 'attendees', 'hangoutLink', 'conferenceData', 'reminders', 'htmlLink', 'organizer', 'status'] as const) assert.deepEqual(listed[shown], full[shown], shown);
    assert.equal(eventTooltip(listedOccurrence, 'Alice', zone), eventTooltip(fullOccurrence, 'Alice', zone));
    assert.equal(eventDetailsMarkdown(listedOccurrence, 'Alice', zone), eventDetailsMarkdown(fullOccurrence, 'Alice', zone));
    const day = dateKey(listedOccurrence.start, zone);
    assert.equal(eventDescription(listedOccurrence, zone, day, 'Alice'), eventDescription(fullOccurrence, zone, day, 'Alice'));
    assert.equal(joinLinkOf(listed), joinLinkOf(full));
    const remindersOf = (occurrence: typeof listedOccurrence): string[] => dueReminders([occurrence], () => [], Date.now(), Date.now() + 3 * 3_600_000).map((reminder) => `${reminder.key} ${reminder.minutes}`);
    assert.deepEqual(remindersOf(listedOccurrence), remindersOf(fullOccurrence));
    assert.equal(remindersOf(listedOccurrence).length, 1);
    for (const left of ['kind', 'iCalUID', 'creator', 'created', 'sequence'] as const) assert.equal(listed[left], undefined, left);

    // The sync answer has the same fields, and its token came through the selection: only what changed is asked for.
    await calendarApi.patchEvent('alice@example.com', created.id, { summary: 'Design review (moved)' });
    waves.reset();
    await store.sync('alice@example.com');
    assert.equal(store.find('alice@example.com', created.id)?.summary, 'Design review (moved)');
    const syncRequest = waves.requests.find((request) => request.target.includes('syncToken='));
    assert.ok(syncRequest, waves.describe());
    assert.equal(new URL(`http://x${syncRequest.target}`).searchParams.get('fields'), AGENDA_EVENT_FIELDS);
    assert.equal(store.find('alice@example.com', created.id)?.attendees?.length, 2);

    // The calendar rows' hovers read as from the whole entry.
    const [, ...calendarRows] = await tree.getChildren();
    const row = calendarRows.find((node) => node.kind === 'calendar' && node.entry.id === 'alice@example.com');
    assert.ok(row?.kind === 'calendar');
    const fullEntry = await calendarApi.getCalendarListEntry('alice@example.com');
    assert.equal(calendarTooltip(row.entry, 1), calendarTooltip(fullEntry, 1));
    assert.equal(row.entry.kind, undefined);
  });

  it('Calendar: the sync that follows the Agenda\'s calendars does not list again at once the ones the Agenda just read', async () => {
    const calendarApi = new CalendarClient(httpFor(emulator, waves));
    const store = new EventStore({ api: () => calendarApi, onChange: () => undefined });
    await store.ensureLoaded('alice@example.com');
    const firstPolls = new Map<number, number>();
    let timers = 0;
    const clock = { now: () => Date.now(), setTimeout: (_callback: () => void, ms: number) => { firstPolls.set(++timers, ms); return timers; }, clearTimeout: () => undefined };
    const sync = new CalendarSync({ store, focused: () => true, onError: () => undefined, onSignedOut: () => undefined, clock });
    waves.reset();
    sync.follow(['alice@example.com']);
    await waves.quiet();
    assert.equal(waves.requests.length, 0, waves.describe());
    assert.ok((firstPolls.get(1) ?? 0) > 20_000, `first sync in ${String(firstPolls.get(1))} ms`);
    // A calendar not read yet is listed at once; one whose full read is under way waits too.
    sync.follow(['alice@example.com', 'a-calendar-not-read']);
    assert.equal(firstPolls.get(2), 0);
    const reading = store.ensureLoaded('work@example.com').catch(() => undefined);
    sync.follow(['alice@example.com', 'a-calendar-not-read', 'work@example.com']);
    assert.ok((firstPolls.get(3) ?? 0) > 20_000, `first sync in ${String(firstPolls.get(3))} ms`);
    await reading;
    sync.stopAll();
  });

  it('Drive: opening a file (stat, then read) costs two round trips, not three, one from the tree; a version changed in between is still pinned right', async () => {
    const http = httpFor(emulator, waves);
    const drive = new DriveClient(http);
    const file = await drive.uploadFile({ title: 'notes.txt', mimeType: 'text/plain', parents: [{ id: 'root' }] }, Buffer.from('first\n'));
    const fileSystem = new DriveFileSystemProvider(fileSystemVscode(), { api: () => adaptDriveClient(drive), exportFormats: async () => [], accounts: ALICE_ONLY });
    const uri = { scheme: DRIVE_SCHEME, ...driveUriParts(ALICE, file, ['My Drive']), toString: () => 'desk-drive://alice@example.com/My Drive/notes.txt' } as unknown as vscode.Uri;
    waves.reset();
    await fileSystem.stat(uri);
    const bytes = await fileSystem.readFile(uri);
    assert.equal(Buffer.from(bytes).toString('utf8'), 'first\n');
    // files.get (stat), then the download, whose etag says the metadata just read describes its bytes.
    assert.equal(waves.roundTrips, 2, waves.describe());
    assert.equal(waves.requests.length, 2, waves.describe());

    // Changed elsewhere between the stat and the read: the download's etag differs, the metadata is read again.
    const stat = await fileSystem.stat(uri);
    await drive.updateFile(file.id, {}, { content: Buffer.from('second, longer\n'), contentType: 'text/plain' });
    assert.equal(Buffer.from(await fileSystem.readFile(uri)).toString('utf8'), 'second, longer\n');
    const pinned = await fileSystem.stat(uri);
    assert.ok(pinned.mtime >= stat.mtime);
    assert.equal(pinned.size, 'second, longer\n'.length, 'the pinned version is the one read, not the one stat saw');
    fileSystem.dispose();

    // Opened from the tree (commands/files.ts open): the row's metadata stands in for the stat's request.
    const fromTree = new DriveFileSystemProvider(fileSystemVscode(), { api: () => adaptDriveClient(drive), exportFormats: async () => [], accounts: ALICE_ONLY });
    const model = new DriveTreeModel(adaptDriveClient(drive));
    const row = (await model.children(model.section('myDrive'))).find((node): node is FileNode => node.kind === 'file' && node.item.id === file.id);
    assert.ok(row);
    waves.reset();
    fromTree.know(row.item);
    await fromTree.stat(uri);
    assert.equal(Buffer.from(await fromTree.readFile(uri)).toString('utf8'), 'second, longer\n');
    assert.equal(waves.requests.length, 1, waves.describe());
    fromTree.dispose();
  });

  it('Drive: saving a file the user edited is one round trip (the upload); a change made on Drive meanwhile is met by its If-Match and asked about', async () => {
    const http = httpFor(emulator, waves);
    const drive = new DriveClient(http);
    const file = await drive.uploadFile({ title: 'plan.txt', mimeType: 'text/plain', parents: [{ id: 'root' }] }, Buffer.from('first\n'));
    const answers: (string | undefined)[] = [];
    const { vs, asked, saveWith } = savingVscode(answers);
    const fileSystem = new DriveFileSystemProvider(vs, { api: () => adaptDriveClient(drive), exportFormats: async () => [], accounts: ALICE_ONLY });
    const uri = { scheme: DRIVE_SCHEME, ...driveUriParts(ALICE, file, ['My Drive']), toString: () => 'desk-drive://alice@example.com/My Drive/plan.txt' } as unknown as vscode.Uri;
    await fileSystem.stat(uri);
    await fileSystem.readFile(uri);
    const contentOf = async (fileId: string): Promise<string> => {
      const chunks: Buffer[] = [];
      for await (const chunk of (await drive.download(fileId)).stream) chunks.push(Buffer.from(chunk as Uint8Array));
      return Buffer.concat(chunks).toString('utf8');
    };
    // What VS Code does on Ctrl+S: onWillSaveTextDocument (Manual), the stat, then writeFile.
    const save = saveWith(fileSystem, uri);
    waves.reset();
    await save('second\n');
    assert.equal(waves.roundTrips, 1, waves.describe());
    assert.deepEqual(waves.requests.map((request) => request.method), ['PUT'], waves.describe());
    assert.equal(await contentOf(file.id), 'second\n');

    // Changed on Drive by someone else: the upload fails its If-Match, the user is asked; Cancel writes nothing.
    await drive.updateFile(file.id, {}, { content: Buffer.from('theirs\n'), contentType: 'text/plain' });
    answers.push('Cancel');
    await assert.rejects(save('mine\n'));
    assert.equal(asked.length, 1);
    assert.equal(await contentOf(file.id), 'theirs\n', 'nothing of theirs was overwritten');
    // Overwrite replaces their version with the user's.
    answers.push('Overwrite');
    await save('mine\n');
    assert.equal(asked.length, 2);
    assert.equal(await contentOf(file.id), 'mine\n');
    fileSystem.dispose();
  });

  it('Drive: a folder of 500 files opens in one round trip, and "Load more" shows the page fetched while the first was read', async () => {
    const drive = new DriveClient(httpFor(emulator, waves));
    const folder = await drive.insertFolder('Five hundred', 'root');
    await Promise.all(Array.from({ length: 500 }, (_, index) => drive.insertFile({ title: `file-${index}.txt`, mimeType: 'text/plain', parents: [{ id: folder.id }] })));
    const model = new DriveTreeModel(adaptDriveClient(drive));
    const row = (await model.children(model.section('myDrive'))).find((node): node is FileNode => node.kind === 'file' && node.item.id === folder.id);
    assert.ok(row);
    waves.reset();
    const firstPage = await model.children(row);
    assert.equal(firstPage.filter((node) => node.kind === 'file').length, 200);
    assert.equal(waves.requests[0]?.wave, 1, waves.describe());
    const pageTokenOf = (index: number): string | null => new URL(`http://x${waves.requests[index]?.target ?? ''}`).searchParams.get('pageToken');
    assert.equal(pageTokenOf(0), null);
    // Behind the first page, the second is asked for (not on the expansion's critical path: the rows were already shown).
    await waves.quiet();
    assert.equal(waves.requests.length, 2, waves.describe());
    const secondPage = pageTokenOf(1);
    assert.ok(secondPage);

    waves.reset();
    assert.equal(await model.loadMore(row), true);
    assert.equal((await model.children(row)).filter((node) => node.kind === 'file').length, 400);
    // "Load more" sent nothing for the page it shows; only the one after it went out, ahead again.
    await waves.quiet();
    assert.equal(waves.requests.length, 1, waves.describe());
    assert.ok(pageTokenOf(0) && pageTokenOf(0) !== secondPage, waves.describe());
  });

  it('Tasks: opening a task\'s notes (stat, then read) is one round trip; completing a task is one, its row updated in place', async () => {
    const tasksApi = new TasksClient(httpFor(emulator, waves));
    const [list] = (await tasksApi.listTaskLists()).items ?? [];
    assert.ok(list);
    const task = await tasksApi.insertTask(list.id, { title: 'Write the report', notes: 'Two pages' });
    const notes = new TaskNotesFileSystemProvider(fileSystemVscode(), { api: () => tasksApi, accounts: ALICE_ONLY });
    const parts = notesUriParts(ALICE, list.id, list.title, task);
    const uri = { scheme: NOTES_SCHEME, ...parts, toString: () => `${NOTES_SCHEME}://${parts.authority}${parts.path}?${parts.query}` } as unknown as vscode.Uri;
    waves.reset();
    await notes.stat(uri);
    assert.equal(Buffer.from(await notes.readFile(uri)).toString('utf8'), 'Two pages');
    assert.equal(waves.requests.length, 1, waves.describe());
    notes.dispose();

    const model = new TasksTreeModel({ api: tasksApi, showCompleted: () => true, pageSize: () => 100, withProgress: (work) => work(), log: () => undefined, onListLoaded: () => undefined });
    const listNode = (await model.roots()).find((node) => node.kind === 'list' && node.listId === list.id);
    assert.ok(listNode?.kind === 'list');
    await model.listChildren(listNode);
    waves.reset();
    // What the checkbox does (commands/tasks.ts patchStatus → tree.updateTask): the write, then its answer in place.
    const completed = await tasksApi.patchTask(list.id, task.id, { status: 'completed' });
    assert.equal(model.applyTask(list.id, completed), true);
    const row = (await model.listChildren(listNode)).find((node) => node.kind === 'task' && node.task.id === task.id);
    assert.equal(row?.kind === 'task' ? row.task.status : undefined, 'completed');
    assert.equal(waves.requests.length, 1, waves.describe());
  });

  it('Tasks: saving a task\'s notes is two round trips (the task as it is now, then the patch), not three; a change made elsewhere is asked about', async () => {
    const tasksApi = new TasksClient(httpFor(emulator, waves));
    const [list] = (await tasksApi.listTaskLists()).items ?? [];
    assert.ok(list);
    const task = await tasksApi.insertTask(list.id, { title: 'Write the report', notes: 'Two pages' });
    const { vs, asked, saveWith } = savingVscode();
    const notes = new TaskNotesFileSystemProvider(vs, { api: () => tasksApi, accounts: ALICE_ONLY });
    const parts = notesUriParts(ALICE, list.id, list.title, task);
    const uri = { scheme: NOTES_SCHEME, ...parts, toString: () => `${NOTES_SCHEME}://${parts.authority}${parts.path}?${parts.query}` } as unknown as vscode.Uri;
    await notes.stat(uri);
    await notes.readFile(uri);
    const save = saveWith(notes, uri);
    waves.reset();
    await save('Three pages');
    assert.deepEqual(waves.requests.map((request) => `${request.method} ${request.wave}`), ['GET 1', 'PATCH 2'], waves.describe());
    assert.equal((await tasksApi.getTask(list.id, task.id)).notes, 'Three pages');

    await tasksApi.patchTask(list.id, task.id, { notes: 'Theirs' });
    await assert.rejects(save('Four pages'));
    assert.equal(asked.length, 1);
    assert.equal((await tasksApi.getTask(list.id, task.id)).notes, 'Theirs', 'nothing of theirs was overwritten');
    notes.dispose();
  });

  it('Drive: the tree asks only for the fields it shows (fields=), which the service accepts and answers', async () => {
    const drive = new DriveClient(httpFor(emulator, waves));
    const model = new DriveTreeModel(adaptDriveClient(drive));
    waves.reset();
    const rows = (await model.children(model.section('myDrive'))).filter((node): node is FileNode => node.kind === 'file');
    assert.ok(rows.length > 0);
    assert.equal(new URL(`http://x${waves.requests[0]?.target ?? ''}`).searchParams.get('fields'), TREE_LISTING_FIELDS);
    const full = await drive.getFile(rows[0]?.item.id ?? '');
    const row = rows.find((candidate) => candidate.item.id === full.id)?.item;
    // What the rows show and their commands read is there; what they never read (links, the whole permission list) is not.
    for (const shown of ['id', 'title', 'mimeType', 'labels', 'parents', 'modifiedDate', 'etag', 'capabilities', 'userPermission', 'ownedByMe'] as const) {
      assert.deepEqual(row?.[shown] === undefined, full[shown] === undefined, `${shown}: ${JSON.stringify(row?.[shown])} vs ${JSON.stringify(full[shown])}`);
    }
    assert.equal(row?.labels?.starred, full.labels?.starred);
    assert.equal(row?.userPermission?.role, full.userPermission?.role);
    for (const left of ['selfLink', 'alternateLink', 'exportLinks', 'permissions', 'kind'] as const) assert.equal(row?.[left], undefined, left);
  });

  it('Tasks: the tree and the Agenda\'s due tasks ask only for the fields they show (fields=); rows, hovers and details read as from the whole task', async () => {
    const tasksApi = new TasksClient(httpFor(emulator, waves));
    const [list] = (await tasksApi.listTaskLists()).items ?? [];
    assert.ok(list);
    const due = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) + 'T00:00:00.000Z';
    const parent = await tasksApi.insertTask(list.id, { title: 'Write the report', notes: 'Two pages', due });
    await tasksApi.insertTask(list.id, { title: 'Outline' }, { parent: parent.id });
    const model = new TasksTreeModel({ api: tasksApi, showCompleted: () => true, pageSize: () => 100, withProgress: (work) => work(), log: () => undefined, onListLoaded: () => undefined });
    waves.reset();
    const listNode = (await model.roots()).find((node) => node.kind === 'list' && node.listId === list.id);
    assert.ok(listNode?.kind === 'list');
    await model.allTasks(list.id);
    const rows = (await model.listChildren(listNode)).filter((node) => node.kind === 'task');
    const fieldsOf = (index: number): string | null => new URL(`http://x${waves.requests[index]?.target ?? ''}`).searchParams.get('fields');
    assert.deepEqual([fieldsOf(0), fieldsOf(1)], [TASK_LIST_ROW_FIELDS, TASK_ROW_FIELDS], waves.describe());
    const fullList = await tasksApi.getTaskList(list.id);
    const today = new Date();
    assert.equal(listTooltip(listNode.list, 2), listTooltip(fullList, 2));
    assert.equal(renameListPrompt(listNode.list), renameListPrompt(fullList));
    const row = rows.find((node) => node.task.id === parent.id);
    assert.ok(row?.kind === 'task');
    const full = await tasksApi.getTask(list.id, parent.id);
    // What the row, its hover, its details page and its notes editor read is there; kind and selfLink are not.
    for (const shown of ['id', 'etag', 'title', 'updated', 'position', 'notes', 'status', 'due', 'webViewLink'] as const) assert.deepEqual(row.task[shown], full[shown], shown);
    assert.equal(taskLabel(row.task), taskLabel(full));
    assert.equal(taskDescription(row.task, today), taskDescription(full, today));
    assert.equal(taskTooltip(row.task, list.title, today), taskTooltip(full, list.title, today));
    assert.equal(taskDetailsMarkdown(row.task, list.title, today), taskDetailsMarkdown(full, list.title, today));
    assert.equal(row.task.selfLink, undefined);
    assert.equal(model.taskChildren(row).length, 1, 'the subtask is under its parent (parent and position are there)');

    // The Agenda's due tasks: the same fields, the lists as the tree asks for them.
    const dueTasks = new DueTaskStore({ api: () => tasksApi, showCompleted: () => false, onChange: () => undefined });
    waves.reset();
    const dueRows = await dueTasks.ensureLoaded();
    assert.ok(dueRows.some((dueTask) => dueTask.task.id === parent.id && dueTask.task.due === full.due && dueTask.task.title === full.title), JSON.stringify(dueRows));
    for (const request of waves.requests) assert.equal(new URL(`http://x${request.target}`).searchParams.get('fields'), request.target.startsWith('/tasks/v1/users/') ? TASK_LIST_ROW_FIELDS : TASK_ROW_FIELDS, request.target);

    // Bytes per task on the wire, whole against the tree's fields (the demo data: 436 → 309 a task, 236 → 117 a list).
    const token = emulator.tokenFor('alice@example.com').accessToken;
    const bytesPerItem = async (target: string): Promise<number> => {
      const response = await nodeFetch(`${emulator.url}${target}`, { headers: { Authorization: `Bearer ${token}` } });
      const text = await response.text();
      return text.length / Math.max(1, (JSON.parse(text) as { items?: unknown[] }).items?.length ?? 0);
    };
    const tasksPath = `/tasks/v1/lists/${encodeURIComponent(list.id)}/tasks?showCompleted=true&maxResults=100`;
    const [wholeTask, rowTask] = [await bytesPerItem(tasksPath), await bytesPerItem(`${tasksPath}&fields=${encodeURIComponent(TASK_ROW_FIELDS)}`)];
    const [wholeList, rowList] = [await bytesPerItem('/tasks/v1/users/@me/lists'), await bytesPerItem(`/tasks/v1/users/@me/lists?fields=${encodeURIComponent(TASK_LIST_ROW_FIELDS)}`)];
    assert.ok(rowTask < wholeTask && rowList < wholeList, `bytes per task ${wholeTask} → ${rowTask}, per list ${wholeList} → ${rowList}`);
  });

  it('Drive Explorer: folder listings and path lookups ask only for the fields the file system reads; a file read at its path saves in one round trip (the upload), its conflict protection kept', async () => {
    const http = httpFor(emulator, waves);
    const drive = new DriveClient(http);
    const folder = await drive.insertFolder('Explorer', 'root');
    const file = await drive.uploadFile({ title: 'a.txt', mimeType: 'text/plain', parents: [{ id: folder.id }] }, Buffer.from('first\n'));
    await drive.insertFolder('sub', folder.id);
    const answers: (string | undefined)[] = [];
    const { vs, asked, saveWith } = savingVscode(answers);
    /** Workspace-folder URIs, as the Explorer names files: by path, no id. */
    const pathUri = (path: string): vscode.Uri => ({
      scheme: DRIVE_SCHEME, authority: ALICE, path, query: '',
      with: (change: { path?: string }) => pathUri(change.path ?? path),
      toString: () => `${DRIVE_SCHEME}://${ALICE}${path}`,
    }) as unknown as vscode.Uri;
    (vs as unknown as { Uri: unknown }).Uri = { joinPath: (base: vscode.Uri, ...parts: string[]) => pathUri([base.path, ...parts].join('/')) };
    const fileSystem = new DriveFileSystemProvider(vs, { api: () => adaptDriveClient(drive), exportFormats: async () => [], accounts: ALICE_ONLY });
    waves.reset();
    assert.deepEqual((await fileSystem.readDirectory(pathUri('/My Drive/Explorer'))).sort(), [['a.txt', 1], ['sub', 2]]);
    const uri = pathUri('/My Drive/Explorer/a.txt');
    const stat = await fileSystem.stat(uri);
    const listings = waves.requests.filter((request) => request.target.split('?')[0] === '/drive/v2/files');
    assert.ok(listings.length >= 2, waves.describe());
    for (const listing of listings) assert.equal(new URL(`http://x${listing.target}`).searchParams.get('fields'), FS_LISTING_FIELDS, listing.target);
    // The stat from the listed row is the stat of the whole file.
    const full = await drive.getFile(file.id);
    assert.deepEqual({ type: stat.type, mtime: stat.mtime, size: stat.size, ctime: stat.ctime, permissions: stat.permissions }, { type: 1, mtime: Date.parse(full.modifiedDate ?? ''), size: Number(full.fileSize), ctime: Date.parse(full.createdDate ?? ''), permissions: undefined });
    assert.equal(Buffer.from(await fileSystem.readFile(uri)).toString('utf8'), 'first\n');

    // Saved as the user saves: the version pinned from the listed row carries the If-Match (one request, the upload).
    const save = saveWith(fileSystem, uri);
    waves.reset();
    await save('second\n');
    assert.deepEqual(waves.requests.map((request) => request.method), ['PUT'], waves.describe());
    // A change on Drive meanwhile is met by the If-Match and asked about; a rename only (same content) is not.
    await drive.patchFile(file.id, { description: 'renamed elsewhere' });
    await save('third\n');
    assert.equal(asked.length, 0, 'a change of metadata only saves without asking');
    await drive.updateFile(file.id, {}, { content: Buffer.from('theirs\n'), contentType: 'text/plain' });
    answers.push('Cancel');
    await assert.rejects(save('mine\n'));
    assert.equal(asked.length, 1);
    fileSystem.dispose();
  });

  it('the other views and the search sources stay at the round trips their data needs', async () => {
    const http = httpFor(emulator, waves);
    const tasksApi = new TasksClient(http);
    const measure = async (action: () => Promise<unknown>): Promise<number> => {
      waves.reset();
      await action();
      return waves.roundTrips;
    };
    const tasks = new TasksTreeModel({ api: tasksApi, showCompleted: () => true, pageSize: () => 100, withProgress: (work) => work(), log: () => undefined, onListLoaded: () => undefined });
    let lists: Awaited<ReturnType<TasksTreeModel['roots']>> = [];
    assert.equal(await measure(async () => { lists = await tasks.roots(); }), 1, waves.describe());
    const firstList = lists.at(0);
    assert.ok(firstList?.kind === 'list');
    assert.equal(await measure(() => tasks.listChildren(firstList)), 1, waves.describe());

    const books = new BooksTreeModel(() => new BooksClient(http), { publicLibraries: () => [] });
    let shelves: Awaited<ReturnType<BooksTreeModel['children']>> = [];
    assert.equal(await measure(async () => { shelves = await books.children(books.library(MY_LIBRARY)); }), 1, waves.describe());
    const shelf = shelves.find((node) => node.kind === 'shelf');
    assert.ok(shelf);
    assert.equal(await measure(() => books.children(shelf)), 1, waves.describe());

    // Each search source: what to search in, then its contents (every list's tasks at once; every calendar's events at once).
    const signal = new AbortController().signal;
    assert.equal(await measure(() => new TasksSearchSource(tasksApi).search('report', signal)), 2, waves.describe());
    assert.equal(await measure(() => new CalendarSearchSource(new CalendarClient(http)).search('standup', signal)), 2, waves.describe());
    // files.list, then the folders of the hits at once (their path under each result).
    assert.ok(await measure(() => new DriveSearchSource(new DriveClient(http)).search('plan', signal)) <= 2, waves.describe());
  });

  it('search: each source asks for its containers at once, not after the view cache\'s read (a disk read that can take longer than a request)', async () => {
    const http = httpFor(emulator, waves);
    const signal = new AbortController().signal;
    /** A view cache whose read ends only when the test says so. */
    const slowCache = <T>(rows: T): { read: () => Promise<T>; done: () => void } => {
      let done: () => void = () => undefined;
      const read = new Promise<T>((resolve) => { done = () => { resolve(rows); }; });
      return { read: () => read, done };
    };
    const tasksApi = new TasksClient(http);
    const calendarApi = new CalendarClient(http);
    const booksApi = new BooksClient(http);
    const lists = slowCache((await tasksApi.listTaskLists()).items ?? []);
    const calendars: CalendarListEntry[] = [];
    for await (const entry of calendarApi.allCalendarListEntries()) calendars.push(entry);
    const known = slowCache(calendars);
    const shelves = slowCache((await booksApi.listMyBookshelves()).items ?? []);
    waves.reset();
    const searches = Promise.all([
      new TasksSearchSource(tasksApi, undefined, {}, lists.read).search('report', signal),
      new CalendarSearchSource(calendarApi, { knownCalendars: known.read }).search('standup', signal),
      new BooksSearchSource(booksApi, undefined, shelves.read).search('dune', signal),
    ]);
    await waves.quiet();
    const asked = waves.requests.map((request) => request.target.split('?')[0]);
    for (const containers of ['/tasks/v1/users/@me/lists', '/calendar/v3/users/me/calendarList', '/books/v1/mylibrary/bookshelves']) assert.ok(asked.includes(containers), `${containers} while the cache is read: ${waves.describe()}`);
    lists.done();
    known.done();
    shelves.done();
    await searches;
    assert.equal(waves.roundTrips, 1, waves.describe());
  });

  it('search: with what the views\' caches know, each source answers in one round trip; a container added or removed since is reconciled', async () => {
    const http = httpFor(emulator, waves);
    const signal = new AbortController().signal;
    const measure = async <T>(action: () => Promise<T>): Promise<T> => {
      waves.reset();
      const answer = await action();
      await waves.quiet();
      return answer;
    };

    // Books: the shelves the Books view cached are searched beside the shelf list (and the catalogue).
    const booksApi = new BooksClient(http);
    const shelves = (await booksApi.listMyBookshelves()).items ?? [];
    const full = shelves.find((shelf) => (shelf.volumeCount ?? 0) > 0);
    assert.ok(full);
    const volume = ((await booksApi.listMyShelfVolumes(full.id)).items ?? []).at(0);
    const word = volume?.volumeInfo.title?.split(/\s+/).find((part) => part.length > 3);
    assert.ok(volume && word);
    const onShelf = (hits: readonly SearchHit[]): boolean => hits.some((hit) => hit.target.kind === 'volume' && hit.target.volumeId === volume.id && hit.context.includes(full.title));
    const bookHits = await measure(() => new BooksSearchSource(booksApi, undefined, async () => shelves).search(word, signal));
    assert.ok(onShelf(bookHits), JSON.stringify(bookHits));
    assert.equal(waves.roundTrips, 1, waves.describe());
    // A cache that does not know the shelf (added since): it is searched once the list names it, so nothing is missed.
    const staleHits = await measure(() => new BooksSearchSource(booksApi, undefined, async () => shelves.filter((shelf) => shelf.id !== full.id)).search(word, signal));
    assert.ok(onShelf(staleHits), JSON.stringify(staleHits));
    assert.equal(waves.roundTrips, 2, waves.describe());

    // Tasks: the lists the Tasks view cached have their tasks read beside the list of lists; a removed list is dropped.
    const tasksApi = new TasksClient(http);
    const taskLists = (await tasksApi.listTaskLists()).items ?? [];
    const [list] = taskLists;
    assert.ok(list);
    await tasksApi.insertTask(list.id, { title: 'Quarterly report draft' });
    const taskHits = await measure(() => new TasksSearchSource(tasksApi, undefined, {}, async () => [...taskLists, { id: 'a-list-removed-since' }]).search('quarterly', signal));
    assert.deepEqual(taskHits.map((hit) => hit.title), ['Quarterly report draft']);
    assert.equal(waves.roundTrips, 1, waves.describe());

    // Calendar: the calendars the Agenda cached are searched beside the calendar list.
    const calendarApi = new CalendarClient(http);
    const calendars: CalendarListEntry[] = [];
    for await (const entry of calendarApi.allCalendarListEntries()) calendars.push(entry);
    const inWindow = (hours: number): { dateTime: string } => ({ dateTime: new Date(Date.now() + hours * 3_600_000).toISOString() });
    await calendarApi.insertEvent('alice@example.com', { summary: 'Budget review', start: inWindow(2), end: inWindow(3) });
    const eventHits = await measure(() => new CalendarSearchSource(calendarApi, { knownCalendars: async () => calendars }).search('budget', signal));
    assert.deepEqual(eventHits.map((hit) => hit.title), ['Budget review']);
    assert.equal(waves.roundTrips, 1, waves.describe());

    // Drive: a hit in a folder of My Drive's cached rows has its path without a files.get after the search.
    const driveApi = new DriveClient(http);
    const folder = await driveApi.insertFolder('Quarterly plans', 'root');
    await driveApi.uploadFile({ title: 'zebra-budget.txt', mimeType: 'text/plain', parents: [{ id: folder.id }] }, Buffer.from('numbers'));
    const rootRows = (await driveApi.listFiles({ q: "'root' in parents and trashed = false" })).items;
    const fileHits = await measure(() => new DriveSearchSource(driveApi, undefined, async () => rootRows).search('zebra-budget', signal));
    assert.deepEqual(fileHits.map((hit) => hit.context.split(' · ')[0]), ['My Drive › Quarterly plans']);
    assert.equal(waves.roundTrips, 1, waves.describe());

    // Drive: a hit at a shared drive's top level has its path ("Shared drives › Team") from drives.list, asked beside
    // the search, not from a files.get of the drive's root after it.
    const team = await driveApi.insertDrive({ name: 'Zebra team' });
    await driveApi.uploadFile({ title: 'zebra-roadmap.txt', mimeType: 'text/plain', parents: [{ id: team.id }] }, Buffer.from('milestones'));
    const sharedHits = await measure(() => new DriveSearchSource(driveApi, undefined, async () => rootRows).search('zebra-roadmap', signal));
    assert.deepEqual(sharedHits.map((hit) => hit.context.split(' · ')[0]), ['Shared drives › Zebra team']);
    assert.equal(waves.roundTrips, 1, waves.describe());
  });
});
