// The Tasks view and commands inside a real extension host, against the harness's emulator (demo data):
// sign in through the real provider (consent completed programmatically), read the tree, change things with
// the commands and the checkbox handler, and check on the emulator over HTTP that the change happened.
import * as assert from 'node:assert/strict';
import fetch from 'node-fetch';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import type { TaskListNode, TaskNode, TasksNode } from '../../src/features/tasks/tree/nodes';
import { activateAndSignIn, emulatorRequest, emulatorUrl, labelText, messageText, WindowStubs, detailsTab } from './support';

interface ApiTask { id: string; title: string; status: string; notes?: string; due?: string; parent?: string; completed?: string }
interface ApiList { id: string; title: string }

async function listsOnEmulator(): Promise<ApiList[]> {
  return (await emulatorRequest<{ items?: ApiList[] }>('GET', '/tasks/v1/users/@me/lists')).body.items ?? [];
}

async function tasksOnEmulator(listId: string): Promise<ApiTask[]> {
  return (await emulatorRequest<{ items?: ApiTask[] }>('GET', `/tasks/v1/lists/${encodeURIComponent(listId)}/tasks?showHidden=true&maxResults=100`)).body.items ?? [];
}

/** Whether a condition the extension reaches asynchronously (after a settings change event) holds within 10 s. */
async function eventually(condition: () => boolean | Promise<boolean>): Promise<boolean> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

async function waitFor(condition: () => boolean): Promise<void> {
  assert.ok(await eventually(condition), 'the condition was not reached');
}

/** Stubbed vscode.window functions, put back after every test. */
const stubs = new WindowStubs();

describe('Tasks view in VS Code', function () {
  this.timeout(30000);
  let api: DeskApi;

  const label = (node: TasksNode): string => labelText(api.tasks.tree.getTreeItem(node));

  async function listNode(title: string): Promise<TaskListNode> {
    const roots = await api.tasks.tree.getChildren();
    const node = roots.find((root) => root.kind === 'list' && label(root) === title);
    assert.ok(node && node.kind === 'list', `no list "${title}" among ${roots.map(label).join(', ')}`);
    return node;
  }

  async function taskNode(parent: TasksNode, title: string): Promise<TaskNode> {
    const rows = await api.tasks.tree.getChildren(parent);
    const node = rows.find((row) => row.kind === 'task' && label(row) === title);
    assert.ok(node && node.kind === 'task', `no task "${title}" among ${rows.map(label).join(', ')}`);
    return node;
  }

  before(async () => {
    api = await activateAndSignIn();
  });

  afterEach(() => {
    stubs.restore();
  });

  it('reports its activation time and uses the harness emulator instead of starting its own', () => {
    assert.ok(api.activationTimeMs >= 0);
    assert.equal(api.emulatorUrl(), emulatorUrl());
  });

  it('shows the demo task lists of the signed-in user, with subtasks nested and completed ones ticked', async () => {
    api.tasks.tree.refreshAll();
    const titles = (await api.tasks.tree.getChildren()).map(label);
    for (const expected of ['My Tasks', 'Groceries', 'Desk launch']) assert.ok(titles.includes(expected), `missing ${expected} in ${titles.join(', ')}`);
    const myTasks = await listNode('My Tasks');
    const trip = await taskNode(myTasks, 'Plan the weekend trip');
    assert.deepEqual((await api.tasks.tree.getChildren(trip)).map(label), ['Pick a destination', 'Book the hotel', 'Buy train tickets']);
    const picked = await taskNode(trip, 'Pick a destination');
    assert.equal(api.tasks.tree.getTreeItem(picked).checkboxState && typeof api.tasks.tree.getTreeItem(picked).checkboxState === 'object'
      ? (api.tasks.tree.getTreeItem(picked).checkboxState as { state: vscode.TreeItemCheckboxState }).state
      : undefined, vscode.TreeItemCheckboxState.Checked);
    assert.equal(api.tasks.tree.getParent(picked)?.id, trip.id);
    const passport = await taskNode(myTasks, 'Renew passport');
    const tooltip = api.tasks.tree.resolveTreeItem(api.tasks.tree.getTreeItem(passport), passport).tooltip;
    assert.ok(tooltip instanceof vscode.MarkdownString && tooltip.value.includes('Photos are in the top drawer'), 'the notes are not in the hover');
  });

  it('remembers a list the user expands and collapses, so it starts that way in any workspace (issue 33)', async () => {
    const groceries = await listNode('Groceries');
    const state = async (): Promise<vscode.TreeItemCollapsibleState | undefined> => api.tasks.tree.getTreeItem(await listNode('Groceries')).collapsibleState;
    // The view's own expand event is what Desk remembers (globalState), and each list row starts from it.
    await api.tasks.view.reveal(groceries, { expand: true });
    assert.ok(await eventually(async () => (await state()) === vscode.TreeItemCollapsibleState.Expanded), 'an expanded list is not remembered as expanded');
    await vscode.commands.executeCommand('workbench.actions.treeView.desk.tasks.collapseAll');
    assert.ok(await eventually(async () => (await state()) === vscode.TreeItemCollapsibleState.Collapsed), 'a collapsed list is still remembered as expanded');
  });

  it('creates a list and a task through the commands, and the emulator has them', async () => {
    stubs.answerInputs('Errands from VS Code');
    const list = await vscode.commands.executeCommand<ApiList | undefined>('desk.tasks.createList');
    assert.equal(list?.title, 'Errands from VS Code');
    assert.ok((await listsOnEmulator()).some((item) => item.id === list.id && item.title === 'Errands from VS Code'));

    const node = await listNode('Errands from VS Code');
    stubs.answerInputs('Buy stamps');
    const task = await vscode.commands.executeCommand<ApiTask | undefined>('desk.tasks.addTask', node);
    assert.equal(task?.title, 'Buy stamps');
    assert.deepEqual((await tasksOnEmulator(list.id)).map((item) => item.title), ['Buy stamps']);
    assert.deepEqual((await api.tasks.tree.getChildren(await listNode('Errands from VS Code'))).map(label), ['Buy stamps']);
  });

  it('completes and reopens a task through its checkbox', async () => {
    const node = await taskNode(await listNode('Errands from VS Code'), 'Buy stamps');
    await api.tasks.handleCheckboxes([[node, vscode.TreeItemCheckboxState.Checked]]);
    let onEmulator = (await tasksOnEmulator(node.listId)).find((item) => item.id === node.task.id);
    assert.equal(onEmulator?.status, 'completed');
    assert.ok(onEmulator.completed, 'a completed task carries its completion time');
    const ticked = await taskNode(await listNode('Errands from VS Code'), 'Buy stamps');
    assert.equal((api.tasks.tree.getTreeItem(ticked).checkboxState as { state: vscode.TreeItemCheckboxState }).state, vscode.TreeItemCheckboxState.Checked);

    await api.tasks.handleCheckboxes([[ticked, vscode.TreeItemCheckboxState.Unchecked]]);
    onEmulator = (await tasksOnEmulator(node.listId)).find((item) => item.id === node.task.id);
    assert.equal(onEmulator?.status, 'needsAction');
    assert.equal(onEmulator.completed, undefined);
  });

  it('edits a task (title, notes, due date) and refuses an empty title or a date it cannot read', async () => {
    const node = await taskNode(await listNode('Errands from VS Code'), 'Buy stamps');
    const seen = stubs.answerInputs('Buy stamps and envelopes', 'At the post office', '2031-05-17');
    const saved = await vscode.commands.executeCommand<ApiTask | undefined>('desk.tasks.editTask', node);
    assert.equal(saved?.title, 'Buy stamps and envelopes');
    const titleBox = seen.at(0);
    const dueBox = seen.at(2);
    assert.ok(typeof titleBox?.validateInput === 'function' && typeof dueBox?.validateInput === 'function');
    assert.ok(await titleBox.validateInput(' '), 'an empty title is accepted');
    assert.equal(await titleBox.validateInput('ok'), undefined);
    assert.match(messageText(await dueBox.validateInput('next blue moon')), /YYYY-MM-DD/);
    // A phrase that reads is accepted, and the step says which day it means before the user confirms.
    const tomorrow = await dueBox.validateInput('tomorrow');
    assert.ok(typeof tomorrow === 'object' && tomorrow !== null, 'tomorrow is accepted with the day it means');
    assert.equal(tomorrow.severity, vscode.InputBoxValidationSeverity.Info);
    assert.match(tomorrow.message, /^Due /);
    assert.match(messageText(await dueBox.validateInput('tomorrow 32:99')), /day without a time: remove "32:99"/);
    const onEmulator = (await tasksOnEmulator(node.listId)).find((item) => item.id === node.task.id);
    assert.equal(onEmulator?.title, 'Buy stamps and envelopes');
    assert.equal(onEmulator.notes, 'At the post office');
    assert.equal(onEmulator.due, '2031-05-17T00:00:00.000Z');
  });

  it('adds a subtask and moves it to another list with the Move command', async () => {
    const parent = await taskNode(await listNode('Errands from VS Code'), 'Buy stamps and envelopes');
    stubs.answerInputs('Find the post office');
    const subtask = await vscode.commands.executeCommand<ApiTask | undefined>('desk.tasks.addSubtask', parent);
    assert.equal(subtask?.parent, parent.task.id);
    const child = await taskNode(await taskNode(await listNode('Errands from VS Code'), 'Buy stamps and envelopes'), 'Find the post office');

    const groceries = (await listsOnEmulator()).find((item) => item.title === 'Groceries');
    assert.ok(groceries);
    // First pick: the destination list; second: the place in it (the top).
    stubs.stub('showQuickPick', async (items) => {
      const choices = (await items) as Array<{ label: string; value: unknown }>;
      return choices.find((choice) => (choice.value as { id?: string }).id === groceries.id) ?? choices[0];
    });
    await vscode.commands.executeCommand('desk.tasks.moveTask', child);
    const moved = (await tasksOnEmulator(groceries.id)).find((item) => item.title === 'Find the post office');
    assert.ok(moved, 'the subtask did not arrive in Groceries');
    assert.equal(moved.parent, undefined);
    assert.ok(!(await tasksOnEmulator(parent.listId)).some((item) => item.title === 'Find the post office'));
  });

  it('reports a refused change clearly and keeps what the user typed for the retry', async () => {
    const node = await listNode('Errands from VS Code');
    const tooLong = 'x'.repeat(1100);
    const errors: string[] = [];
    stubs.stub('showErrorMessage', async (message) => {
      errors.push(String(message));
      return undefined;
    });
    stubs.answerInputs(tooLong);
    const created = await vscode.commands.executeCommand('desk.tasks.addTask', node);
    assert.equal(created, undefined);
    assert.equal(errors.length, 1);
    assert.match(errors[0] ?? '', /Could not add the task.*Invalid request/s);
    const seen = stubs.answerInputs(undefined);
    await vscode.commands.executeCommand('desk.tasks.addTask', node);
    assert.equal(seen[0]?.value, tooLong, 'the typed title was not offered again');
  });

  it('reorders by dropping a task on a sibling, and nests it by dropping on a task of another list', async () => {
    const groceries = await listNode('Groceries');
    const oat = await taskNode(groceries, 'Oat milk');
    const coffee = await taskNode(groceries, 'Coffee beans');
    let transfer = new vscode.DataTransfer();
    api.tasks.dragAndDrop.handleDrag([oat], transfer);
    await api.tasks.dragAndDrop.handleDrop(coffee, transfer);
    const topLevel = (await tasksOnEmulator(groceries.listId)).filter((item) => !item.parent && item.status === 'needsAction');
    const order = [...topLevel].sort((a, b) => ((a as { position?: string }).position ?? '').localeCompare((b as { position?: string }).position ?? '')).map((item) => item.title);
    assert.ok(order.indexOf('Oat milk') === order.indexOf('Coffee beans') + 1, `order after the drop: ${order.join(', ')}`);

    const readme = await taskNode(await listNode('Desk launch'), 'Write the README');
    transfer = new vscode.DataTransfer();
    api.tasks.dragAndDrop.handleDrag([await taskNode(await listNode('Groceries'), 'Eggs (12)')], transfer);
    await api.tasks.dragAndDrop.handleDrop(readme, transfer);
    const eggs = (await tasksOnEmulator(readme.listId)).find((item) => item.title === 'Eggs (12)');
    assert.equal(eggs?.parent, readme.task.id, 'the dropped task is not a subtask in the other list');
    assert.ok(!(await tasksOnEmulator(groceries.listId)).some((item) => item.title === 'Eggs (12)'));
    const readmeRows = await api.tasks.tree.getChildren(await taskNode(await listNode('Desk launch'), 'Write the README'));
    assert.ok(readmeRows.map(label).includes('Eggs (12)'));
  });

  it('clears the completed tasks of a list after confirmation (they become hidden)', async () => {
    const groceries = await listNode('Groceries');
    stubs.stub('showWarningMessage', async (_message, _options, ...actions) => actions[0]);
    assert.equal(await vscode.commands.executeCommand('desk.tasks.clearCompleted', groceries), true);
    const onEmulator = await tasksOnEmulator(groceries.listId);
    for (const title of ['Bananas', 'Tomatoes']) {
      assert.equal((onEmulator.find((item) => item.title === title) as { hidden?: boolean } | undefined)?.hidden, true, `${title} is not hidden`);
    }
    const rows = (await api.tasks.tree.getChildren(await listNode('Groceries'))).map(label);
    assert.ok(!rows.includes('Bananas') && !rows.includes('Tomatoes'), rows.join(', '));
  });

  it('renames a list from its current version (get, then update), starting from a title changed elsewhere', async () => {
    const launch = await listNode('Desk launch');
    await emulatorRequest('PATCH', `/tasks/v1/users/@me/lists/${encodeURIComponent(launch.list.id)}`, { title: 'Desk launch (renamed elsewhere)' });
    const seen = stubs.answerInputs('Desk launch week');
    const renamed = await vscode.commands.executeCommand<ApiList | undefined>('desk.tasks.renameList', launch);
    assert.equal(seen[0]?.value, 'Desk launch (renamed elsewhere)', 'the rename did not start from the current title');
    assert.equal(renamed?.title, 'Desk launch week');
    assert.ok((await listsOnEmulator()).some((item) => item.title === 'Desk launch week'));
  });

  it('opens read-only task details with the notes (tasks.get)', async () => {
    const passport = await taskNode(await listNode('My Tasks'), 'Renew passport');
    const uri = vscode.Uri.from({ scheme: 'desk-task', authority: 'alice@example.com', path: `/${encodeURIComponent(passport.listId)}/${encodeURIComponent(passport.task.id)}.md`, query: 'list=My%20Tasks' });
    const document = await vscode.workspace.openTextDocument(uri);
    assert.match(document.getText(), /^# Renew passport/);
    assert.match(document.getText(), /Photos are in the top drawer/);
    assert.match(document.getText(), /\| List \| My Tasks \|/);

    const errors: string[] = [];
    stubs.stub('showErrorMessage', async (message) => {
      errors.push(String(message));
      return undefined;
    });
    await vscode.commands.executeCommand('desk.tasks.getTask', passport);
    assert.deepEqual(errors, []);
    // One read-only tab named after the task, not "<id>.md" and its preview.
    const tabs = await detailsTab('Renew passport');
    assert.deepEqual(tabs.filter((tab) => tab.label === 'Renew passport').map((tab) => tab.input instanceof vscode.TabInputWebview), [true], `tabs: ${tabs.map((tab) => tab.label).join(', ')}`);
    assert.ok(!tabs.some((tab) => tab.label.includes(passport.task.id)), `tabs: ${tabs.map((tab) => tab.label).join(', ')}`);
  });

  it('deletes a task only after the user confirms', async () => {
    const myTasks = await listNode('My Tasks');
    const water = await taskNode(myTasks, 'Water the plants');
    stubs.stub('showWarningMessage', async () => undefined);
    assert.equal(await vscode.commands.executeCommand('desk.tasks.deleteTask', water), false);
    assert.ok((await tasksOnEmulator(water.listId)).some((item) => item.id === water.task.id && !(item as { deleted?: boolean }).deleted));
    stubs.restore();
    stubs.stub('showWarningMessage', async (_message, _options, ...actions) => actions[0]);
    assert.equal(await vscode.commands.executeCommand('desk.tasks.deleteTask', water), true);
    // Google keeps a deleted task readable, flagged `deleted`, and out of ordinary listings.
    const after = await emulatorRequest<{ deleted?: boolean }>('GET', `/tasks/v1/lists/${encodeURIComponent(water.listId)}/tasks/${encodeURIComponent(water.task.id)}`);
    assert.ok(after.status === 404 || after.body.deleted === true, `the task is still there (${after.status})`);
    assert.ok(!(await emulatorRequest<{ items?: ApiTask[] }>('GET', `/tasks/v1/lists/${encodeURIComponent(water.listId)}/tasks`)).body.items?.some((item) => item.id === water.task.id));
    assert.ok(!(await api.tasks.tree.getChildren(await listNode('My Tasks'))).map(label).includes('Water the plants'));
  });

  it('hides and shows completed tasks with the toggle commands', async () => {
    const rowsOf = async (): Promise<string[]> => (await api.tasks.tree.getChildren(await listNode('My Tasks'))).map(label);
    assert.ok((await rowsOf()).includes('Call the bank about the card'));
    await vscode.commands.executeCommand('desk.tasks.hideCompleted');
    assert.equal(vscode.workspace.getConfiguration('desk').get('tasks.showCompleted'), false);
    // The tree reloads on the settings change event, which arrives after the command.
    assert.ok(await eventually(async () => !(await rowsOf()).includes('Call the bank about the card')), 'a completed task is still shown');
    assert.ok((await rowsOf()).includes('Renew passport'));
    await vscode.commands.executeCommand('desk.tasks.showCompleted');
    assert.ok(await eventually(async () => (await rowsOf()).includes('Call the bank about the card')), 'completed tasks did not come back');
  });

  it('pages through a list with a small page size and ends with every task', async () => {
    const configuration = vscode.workspace.getConfiguration();
    const onEmulator = (await tasksOnEmulator((await listNode('My Tasks')).listId)).filter((item) => !(item as { hidden?: boolean }).hidden && !(item as { deleted?: boolean }).deleted);
    await configuration.update('desk.tasks.pageSize', 2, vscode.ConfigurationTarget.Global);
    try {
      const complete = async (): Promise<boolean> => {
        const rows = await api.tasks.tree.getChildren(await listNode('My Tasks'));
        if (rows.some((row) => row.kind === 'message')) return false;
        const nested = await Promise.all(rows.map((row) => api.tasks.tree.getChildren(row)));
        return rows.length + nested.flat().length === onEmulator.length;
      };
      assert.ok(await eventually(complete), 'the tree did not end with every task of the list');
    } finally {
      await configuration.update('desk.tasks.pageSize', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('deletes a list only after the user confirms', async () => {
    const node = await listNode('Errands from VS Code');
    stubs.stub('showWarningMessage', async () => undefined);
    assert.equal(await vscode.commands.executeCommand('desk.tasks.deleteList', node), false);
    assert.ok((await listsOnEmulator()).some((item) => item.id === node.listId));
    stubs.restore();
    stubs.stub('showWarningMessage', async (_message, _options, ...actions) => actions[0]);
    assert.equal(await vscode.commands.executeCommand('desk.tasks.deleteList', node), true);
    assert.equal((await emulatorRequest('GET', `/tasks/v1/users/@me/lists/${encodeURIComponent(node.listId)}`)).status, 404);
    assert.ok(!(await api.tasks.tree.getChildren()).some((root) => label(root) === 'Errands from VS Code'));
  });

  it('starts its own emulator on demand when no emulator address is set, and stops it when one is set again', async () => {
    const configuration = vscode.workspace.getConfiguration();
    const harnessUrl = emulatorUrl();
    await configuration.update('desk.emulator.url', '', vscode.ConfigurationTarget.Global);
    let embedded: string | undefined;
    try {
      await waitFor(() => api.desk.backend.choice.kind === 'emulator' && api.desk.backend.choice.url === undefined);
      assert.equal(api.emulatorUrl(), undefined, 'an emulator was started before anything needed it');
      const endpoints = await api.desk.backend.ensure();
      embedded = api.emulatorUrl();
      assert.ok(embedded && embedded !== harnessUrl);
      assert.equal(endpoints.tasks, embedded);
      const health = await fetch(`${embedded}/emulator/v1/health`);
      assert.equal(health.status, 200);
    } finally {
      await configuration.update('desk.emulator.url', harnessUrl, vscode.ConfigurationTarget.Global);
    }
    await waitFor(() => api.emulatorUrl() === harnessUrl);
    assert.equal(api.desk.backend.current?.tasks, harnessUrl);
    // The embedded emulator is stopped once it is no longer the backend.
    assert.ok(await eventually(async () => fetch(`${embedded}/emulator/v1/health`).then(() => false, () => true)), 'the embedded emulator still answers');
  });
});
