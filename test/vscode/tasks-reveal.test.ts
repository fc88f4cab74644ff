// Showing a task in the Tasks view (desk.tasks.revealTask: TODO markers, the search, Calendar's due tasks) inside a
// real extension host, once VS Code already holds the task's list with its rows: VS Code refreshes a row by the object
// it was given, so a refresh Desk fires must name that object even after Desk read the lists again itself.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import { activateAndSignIn, emulatorRequest, eventually } from './support';

interface Created { id: string }

describe('Tasks: Enter on a task shows its row, also one added elsewhere after its list was shown', function () {
  this.timeout(60000);
  let api: DeskApi;
  let listId = '';

  const selectedTask = (): string | undefined => {
    const row = api.tasks.view.selection.at(0);
    return row?.kind === 'task' ? row.task.id : undefined;
  };
  const addTask = async (title: string): Promise<string> => (await emulatorRequest<Created>('POST', `/tasks/v1/lists/${listId}/tasks`, { title })).body.id;

  before(async () => {
    api = await activateAndSignIn();
    // A list of this test's own: no other file's rows matter, and none sees this one once it is deleted.
    listId = (await emulatorRequest<Created>('POST', '/tasks/v1/users/@me/lists', { title: `Reveal ${Date.now()}` })).body.id;
    api.tasks.tree.refreshLists();
  });

  after(async () => {
    if (listId) await emulatorRequest('DELETE', `/tasks/v1/users/@me/lists/${listId}`);
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set in before(), which may have failed first
    api?.tasks.tree.refreshLists();
  });

  it('selects a task added elsewhere after VS Code took the list\'s rows and Desk read the lists again itself', async () => {
    const firstId = await addTask('Shown first');
    // VS Code expands the list and keeps its rows (only "Shown first").
    assert.equal(await vscode.commands.executeCommand('desk.tasks.revealTask', listId, firstId), true);
    await eventually('the first task selected', () => (selectedTask() === firstId ? true : undefined));
    // Desk reads the list rows again on its own (a reveal does, and a search): the rows VS Code holds stay the same.
    await api.tasks.tree.getChildren();
    const addedId = await addTask('Added elsewhere');

    // Before the fix the command failed here: "Cannot resolve tree item for element …" (VS Code's old rows of the list).
    assert.equal(await vscode.commands.executeCommand('desk.tasks.revealTask', listId, addedId), true, 'the task is shown, no error');
    await eventually(`the added task selected (selected: ${String(selectedTask())})`, () => (selectedTask() === addedId ? true : undefined), 10000);
  });
});
