// Phase 2 of the walkthrough across a reload (see phase1.ts), in the window the runner reloaded: still offline, Desk
// finds the five changes waiting and the views keep their rows; then the service comes back (the emulator on the same
// port and data) and, with no click, each of the five is on the service exactly once.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DeskApi } from '../../../src/extension';
import { EXTENSION_ID, eventually, labelText } from '../support';
import { onEmulator, type RunningEmulator, startEmulator, stopEmulator } from './emulatorProcess';
import { HANDOFF_FILE, type OfflineReloadHandoff } from './offlineReload.handoff';

describe('Offline walkthrough across a reload, phase 2: the reloaded window, then the service back', function () {
  this.timeout(180000);
  let emulator: RunningEmulator | undefined;
  let handoff: OfflineReloadHandoff;

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- read in before(), which may have failed first
    if (handoff) await vscode.workspace.getConfiguration().update('desk.emulator.url', handoff.originalUrl, vscode.ConfigurationTarget.Global);
    if (emulator) await stopEmulator(emulator);
  });

  it('finds the five changes after the reload, keeps the views, and applies each once when the service is back, with no click', async () => {
    const handoffDir = process.env.DESK_TEST_HANDOFF;
    assert.ok(handoffDir);
    handoff = JSON.parse(fs.readFileSync(path.join(handoffDir, HANDOFF_FILE), 'utf8')) as OfflineReloadHandoff;
    assert.notEqual(process.pid, handoff.hostPid, 'a new extension host: the window was really reloaded');
    const api = await (vscode.extensions.getExtension(EXTENSION_ID) as vscode.Extension<DeskApi>).activate();

    // Still offline after the reload: the waiting changes are there (read from the queue's file), in order.
    const kinds = await eventually('the changes kept before the reload', () => {
      const waiting = api.desk.offlineQueue.list().map((change) => change.kind);
      return waiting.length === 5 ? waiting : undefined;
    }, 30000);
    assert.deepEqual(kinds, ['tasks.setStatus', 'tasks.insert', 'tasks.notes', 'drive.save', 'calendar.insertEvent']);
    // The Tasks view shows its cached rows, never error rows.
    const lists = await eventually('the task lists (cached rows)', async () => {
      const nodes = await api.tasks.tree.getChildren();
      return nodes.some((node) => node.kind === 'list') ? nodes : undefined;
    }, 30000);
    assert.deepEqual(lists.filter((node) => node.kind === 'list').map((node) => node.id), handoff.listIds);
    assert.ok(!lists.some((node) => node.kind === 'message' && node.severity === 'error'), lists.map((node) => labelText(api.tasks.tree.getTreeItem(node))).join(', '));

    // The network comes back: the same port, the same data. Nothing is clicked.
    emulator = await startEmulator(handoff.dataDir, handoff.port);
    const url = emulator.url;
    await eventually('every waiting change to be sent', () => (api.desk.offlineQueue.size === 0 && api.desk.connectivity.online ? true : undefined), 120000);

    type ApiTask = { id: string; title: string; status: string; notes?: string };
    const tasksPath = `/tasks/v1/lists/${handoff.listId}/tasks?showCompleted=true&showHidden=true&maxResults=100`;
    const tasks = (await onEmulator<{ items: ApiTask[] }>(url, 'GET', tasksPath)).items;
    assert.equal(tasks.find((task) => task.id === handoff.completedTaskId)?.status, 'completed', '1. the completion');
    assert.equal(tasks.filter((task) => task.title === 'Bought offline').length, 1, '2. the new task, once');
    assert.equal(tasks.find((task) => task.id === handoff.notesTaskId)?.notes, 'Written on the train', '3. the notes');
    assert.equal(await onEmulator<string>(url, 'GET', `/drive/v2/files/${handoff.fileId}?alt=media`), '# Weekly sync\n\nSaved offline.\n', '4. the Drive file');
    const events = (await onEmulator<{ items: Array<{ summary?: string }> }>(url, 'GET', `/calendar/v3/calendars/${encodeURIComponent(handoff.calendarId)}/events?maxResults=2500`)).items;
    assert.equal(events.filter((event) => event.summary === 'Planned offline').length, 1, '5. the event, once');
    // A later replay (another window, the next time online) sends nothing again.
    await api.desk.offlineQueue.replay();
    const again = (await onEmulator<{ items: ApiTask[] }>(url, 'GET', tasksPath)).items;
    assert.equal(again.filter((task) => task.title === 'Bought offline').length, 1);
  });
});
