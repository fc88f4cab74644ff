// Issue 31's walkthrough inside a real extension host: Desk signed in to an emulator of this suite's own (durable
// data), the emulator stopped as a network loss, five actions offline (complete a task, add a task, save task
// notes, save a Drive file, create an event), then the emulator started again on the same port and data. Each action
// must be on the service exactly once, with no click. The window reload of the walkthrough is not part of this run
// (a suite cannot reload its own host); the queue surviving one is covered by the unit tests of the write queue.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fetch from 'node-fetch';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import { driveUri } from '../../src/features/drive/fs/driveFileSystem';
import type { CalendarNode, DayNode, EventNode } from '../../src/features/calendar/tree/model';
import type { TaskListNode, TaskNode } from '../../src/features/tasks/tree/nodes';
import { activateAndSignIn, EXTENSION_ID, eventually, labelText, replaceText, WindowStubs } from './support';
import { type RunningEmulator, startEmulator, stopEmulator } from './twoPhase/emulatorProcess';

const stubs = new WindowStubs();

describe('Offline walkthrough: five actions offline, then the service back', function () {
  this.timeout(180000);
  let api: DeskApi;
  let dataDir: string;
  let emulator: RunningEmulator;
  let port: number;
  let originalUrl: string | undefined;

  async function onEmulator<T>(method: string, requestPath: string): Promise<T> {
    const token = ((await (await fetch(`${emulator.url}/emulator/v1/token?user=alice%40example.com`, { method: 'POST' })).json()) as { access_token: string }).access_token;
    const response = await fetch(`${emulator.url}${requestPath}`, { method, headers: { Authorization: `Bearer ${token}` } });
    return (requestPath.includes('alt=media') ? await response.text() : await response.json()) as T;
  }

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-offline-'));
    emulator = await startEmulator(dataDir, 0);
    port = Number(new URL(emulator.url).port);
    const extension = vscode.extensions.getExtension<DeskApi>(EXTENSION_ID);
    api = await (extension as vscode.Extension<DeskApi>).activate();
    originalUrl = vscode.workspace.getConfiguration().get<string>('desk.emulator.url');
    await vscode.workspace.getConfiguration().update('desk.emulator.url', emulator.url, vscode.ConfigurationTarget.Global);
    await eventually('Desk to use this suite\'s emulator', () => (api.desk.backend.current?.tasks.startsWith(emulator.url) ? true : undefined));
    api = await activateAndSignIn();
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
  });

  afterEach(() => { stubs.restore(); });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration().update('desk.emulator.url', originalUrl, vscode.ConfigurationTarget.Global);
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set in before(), which may have failed first
    if (emulator) await stopEmulator(emulator);
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set in before(), which may have failed first
    await api?.desk.session.check();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps what the views show, accepts every action, and applies each exactly once when the service is back', async () => {
    // Online: the rows the user sees, the notes and the Drive file open in editors (as in the walkthrough).
    const lists = (await api.tasks.tree.getChildren()).filter((node): node is TaskListNode => node.kind === 'list');
    const list = lists[0];
    assert.ok(list, 'the demo data has task lists');
    const open = (await api.tasks.tree.getChildren(list)).filter((node): node is TaskNode => node.kind === 'task' && node.task.status !== 'completed');
    const toComplete = open.at(0);
    const withNotes = open.at(1);
    assert.ok(toComplete && withNotes, 'two open tasks in the first list');
    await vscode.commands.executeCommand('desk.tasks.editNotes', withNotes);
    const notes = await eventually('the notes editor', () => vscode.workspace.textDocuments.find((doc) => doc.uri.scheme === 'desk-tasks' && doc.uri.query.includes(withNotes.task.id)));
    const files = await onEmulator<{ items: Array<{ id: string; title: string }> }>('GET', `/drive/v2/files?q=${encodeURIComponent("title = 'meeting-notes.md'")}`);
    const file = files.items[0];
    assert.ok(file);
    const driveDocument = await vscode.workspace.openTextDocument(driveUri(vscode, 'alice@example.com', file));
    const calendars = (await api.calendar.tree.getChildren()).filter((node): node is CalendarNode => node.kind === 'calendar');
    const primary = calendars.find((node) => node.entry.primary);
    assert.ok(primary);
    await api.calendar.tree.getChildren(api.calendar.tree.agenda);

    // The network goes.
    await stopEmulator(emulator);

    // 1. Complete a task (its checkbox).
    await api.tasks.handleCheckboxes([[toComplete, vscode.TreeItemCheckboxState.Checked]]);
    assert.equal(api.desk.connectivity.online, false, 'Desk knows it is offline');
    // 2. Add a task.
    stubs.answerInputs('Bought offline');
    await vscode.commands.executeCommand('desk.tasks.addTask', list);
    // 3. Save task notes: accepted (no "Failed to save").
    await replaceText(notes, 'Written on the train');
    assert.equal(await notes.save(), true, 'the notes save is accepted offline');
    // 4. Save a Drive file.
    await replaceText(driveDocument, '# Weekly sync\n\nSaved offline.\n');
    assert.equal(await driveDocument.save(), true, 'the Drive save is accepted offline');
    // 5. Create an event.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    stubs.answerInputs('Planned offline', `${tomorrow} 10:00`, '30m', '');
    await vscode.commands.executeCommand('desk.calendar.createEvent', primary);

    assert.deepEqual(api.desk.offlineQueue.list().map((change) => change.kind), ['tasks.setStatus', 'tasks.insert', 'tasks.notes', 'drive.save', 'calendar.insertEvent']);
    // The views keep their rows (marked offline in their header), never error rows; the new task shows at once.
    api.tasks.tree.refreshAll();
    const offlineLists = await api.tasks.tree.getChildren();
    assert.deepEqual(offlineLists.map((node) => node.id), lists.map((node) => node.id));
    const offlineRows = await api.tasks.tree.getChildren(offlineLists[0]);
    assert.ok(offlineRows.some((node) => node.kind === 'task' && node.task.title === 'Bought offline'), 'the task added offline shows');
    assert.ok(!offlineRows.some((node) => node.kind === 'message' && node.severity === 'error'), offlineRows.map((node) => labelText(api.tasks.tree.getTreeItem(node))).join(', '));
    assert.ok(offlineRows.some((node) => node.kind === 'task' && node.task.id === toComplete.task.id && node.task.status === 'completed'), 'the completion shows');

    // The network comes back: the same port, the same data. Nothing is clicked.
    emulator = await startEmulator(dataDir, port);
    await eventually('every waiting change to be sent', () => (api.desk.offlineQueue.size === 0 && api.desk.connectivity.online ? true : undefined), 90000);

    type ApiTask = { id: string; title: string; status: string; notes?: string };
    const tasks = (await onEmulator<{ items: ApiTask[] }>('GET', `/tasks/v1/lists/${list.listId}/tasks?showCompleted=true&showHidden=true&maxResults=100`)).items;
    assert.equal(tasks.find((task) => task.id === toComplete.task.id)?.status, 'completed', '1. the completion');
    assert.equal(tasks.filter((task) => task.title === 'Bought offline').length, 1, '2. the new task, once');
    assert.equal(tasks.find((task) => task.id === withNotes.task.id)?.notes, 'Written on the train', '3. the notes');
    assert.equal(await onEmulator<string>('GET', `/drive/v2/files/${file.id}?alt=media`), '# Weekly sync\n\nSaved offline.\n', '4. the Drive file');
    const events = (await onEmulator<{ items: Array<{ summary?: string }> }>('GET', `/calendar/v3/calendars/${encodeURIComponent(primary.calendarId)}/events?maxResults=2500`)).items;
    assert.equal(events.filter((event) => event.summary === 'Planned offline').length, 1, '5. the event, once');
    // Nothing is sent twice by a later replay.
    await api.desk.offlineQueue.replay();
    const again = (await onEmulator<{ items: ApiTask[] }>('GET', `/tasks/v1/lists/${list.listId}/tasks?showCompleted=true&showHidden=true&maxResults=100`)).items;
    assert.equal(again.filter((task) => task.title === 'Bought offline').length, 1);
  });

  it('keeps a response to an invitation and a new Drive file offline, shows the answer at once, and sends each once when back', async () => {
    const findReview = async (): Promise<EventNode | undefined> => {
      for (const day of (await api.calendar.tree.getChildren(api.calendar.tree.agenda)).filter((node): node is DayNode => node.kind === 'day')) {
        const found = (await api.calendar.tree.getChildren(day)).find((node): node is EventNode => node.kind === 'event' && node.event.summary === 'Design review: Desk calendar view');
        if (found) return found;
      }
      return undefined;
    };
    const review = await findReview();
    assert.ok(review, 'the demo invites alice to the design review');
    assert.match(api.calendar.tree.getTreeItem(review).contextValue ?? '', /\battendee\b/, 'Respond to Invitation is offered on its row');

    await stopEmulator(emulator);
    assert.equal(await vscode.commands.executeCommand('desk.calendar.respondToEvent', review, 'tentative'), 'tentative');
    stubs.answerInputs('Offline idea.md');
    await vscode.commands.executeCommand('desk.drive.newFile');
    assert.deepEqual(api.desk.offlineQueue.list().map((change) => change.kind), ['calendar.respond', 'drive.newFile']);
    await eventually('the answer on the row at once', async () => ((await findReview())?.event.attendees?.find((attendee) => attendee.self)?.responseStatus === 'tentative' ? true : undefined));

    emulator = await startEmulator(dataDir, port);
    await eventually('the response and the new file to be sent', () => (api.desk.offlineQueue.size === 0 && api.desk.connectivity.online ? true : undefined), 90000);
    const event = await onEmulator<{ attendees?: Array<{ email: string; responseStatus: string }> }>('GET', `/calendar/v3/calendars/${encodeURIComponent(review.calendarId)}/events/${review.event.id}`);
    assert.equal(event.attendees?.find((attendee) => attendee.email === 'alice@example.com')?.responseStatus, 'tentative');
    const made = await onEmulator<{ items: Array<{ id: string }> }>('GET', `/drive/v2/files?q=${encodeURIComponent("title = 'Offline idea.md' and trashed = false")}`);
    assert.equal(made.items.length, 1, 'the new file, once');
  });
});
