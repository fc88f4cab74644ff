// Issue 31's walkthrough across a real window reload, phase 1 (run by `run-extension-tests.js --reload offlineReload`):
// Desk signed in to an emulator of this suite's own (durable data), the emulator stopped as a network loss, then five
// actions offline: complete a task, add a task, save task notes, save a Drive file, create an event. What phase 2 needs
// goes to the handoff folder; the runner then reloads the window, still offline (phase2.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DeskApi } from '../../../src/extension';
import type { CalendarNode } from '../../../src/features/calendar/tree/model';
import { driveUri } from '../../../src/features/drive/fs/driveFileSystem';
import type { TaskListNode, TaskNode } from '../../../src/features/tasks/tree/nodes';
import { activateAndSignIn, EXTENSION_ID, eventually, replaceText, WindowStubs } from '../support';
import { onEmulator, startEmulator, stopEmulator } from './emulatorProcess';
import { HANDOFF_FILE, type OfflineReloadHandoff } from './offlineReload.handoff';


const stubs = new WindowStubs();

describe('Offline walkthrough across a reload, phase 1: five actions offline', function () {
  this.timeout(180000);
  afterEach(() => { stubs.restore(); });

  it('accepts the five actions offline and keeps them (to be found again after the reload)', async () => {
    const handoffDir = process.env.DESK_TEST_HANDOFF;
    assert.ok(handoffDir, 'run by run-extension-tests.js --reload');
    const dataDir = path.join(handoffDir, 'emulator-data');
    fs.mkdirSync(dataDir, { recursive: true });
    const emulator = await startEmulator(dataDir, 0);
    const port = Number(new URL(emulator.url).port);
    let api = await (vscode.extensions.getExtension(EXTENSION_ID) as vscode.Extension<DeskApi>).activate();
    const originalUrl = vscode.workspace.getConfiguration().get<string>('desk.emulator.url');
    await vscode.workspace.getConfiguration().update('desk.emulator.url', emulator.url, vscode.ConfigurationTarget.Global);
    await eventually('Desk to use this suite\'s emulator', () => (api.desk.backend.current?.tasks.startsWith(emulator.url) ? true : undefined));
    api = await activateAndSignIn();
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);

    // Online: the rows the user sees, the notes and the Drive file open in editors.
    const lists = (await api.tasks.tree.getChildren()).filter((node): node is TaskListNode => node.kind === 'list');
    const list = lists[0];
    assert.ok(list, 'the demo data has task lists');
    const open = (await api.tasks.tree.getChildren(list)).filter((node): node is TaskNode => node.kind === 'task' && node.task.status !== 'completed');
    const toComplete = open.at(0);
    const withNotes = open.at(1);
    assert.ok(toComplete && withNotes, 'two open tasks in the first list');
    await vscode.commands.executeCommand('desk.tasks.editNotes', withNotes);
    const notes = await eventually('the notes editor', () => vscode.workspace.textDocuments.find((doc) => doc.uri.scheme === 'desk-tasks' && doc.uri.query.includes(withNotes.task.id)));
    const files = await onEmulator<{ items: Array<{ id: string; title: string }> }>(emulator.url, 'GET', `/drive/v2/files?q=${encodeURIComponent("title = 'meeting-notes.md'")}`);
    const file = files.items[0];
    assert.ok(file);
    const driveDocument = await vscode.workspace.openTextDocument(driveUri(vscode, 'alice@example.com', file));
    const primary = (await api.calendar.tree.getChildren()).find((node): node is CalendarNode => node.kind === 'calendar' && node.entry.primary === true);
    assert.ok(primary);
    await api.calendar.tree.getChildren(api.calendar.tree.agenda);

    // The network goes.
    await stopEmulator(emulator);
    await api.tasks.handleCheckboxes([[toComplete, vscode.TreeItemCheckboxState.Checked]]);
    assert.equal(api.desk.connectivity.online, false, 'Desk knows it is offline');
    stubs.answerInputs('Bought offline');
    await vscode.commands.executeCommand('desk.tasks.addTask', list);
    await replaceText(notes, 'Written on the train');
    assert.equal(await notes.save(), true, 'the notes save is accepted offline');
    await replaceText(driveDocument, '# Weekly sync\n\nSaved offline.\n');
    assert.equal(await driveDocument.save(), true, 'the Drive save is accepted offline');
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    stubs.answerInputs('Planned offline', `${tomorrow} 10:00`, '30m', '');
    await vscode.commands.executeCommand('desk.calendar.createEvent', primary);
    assert.deepEqual(api.desk.offlineQueue.list().map((change) => change.kind), ['tasks.setStatus', 'tasks.insert', 'tasks.notes', 'drive.save', 'calendar.insertEvent']);

    const handoff: OfflineReloadHandoff = {
      dataDir, port, originalUrl, listId: list.listId, listIds: lists.map((node) => node.id), completedTaskId: toComplete.task.id, notesTaskId: withNotes.task.id, fileId: file.id, calendarId: primary.calendarId, hostPid: process.pid,
    };
    fs.writeFileSync(path.join(handoffDir, HANDOFF_FILE), JSON.stringify(handoff));
    // The editors stay as they are (saved): the reload comes next, with nothing for the user to click.
  });
});
