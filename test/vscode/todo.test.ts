// TODO ↔ task tracking in a real extension host: the quick fix on a TODO comment creates a task on the emulator
// and writes the task marker into the comment; the hover on the marker shows the task; completing it from the
// editor completes it on the emulator and the marker line is decorated.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import { activateAndSignIn, emulatorRequest, WindowStubs } from './support';

interface ApiTask { id: string; title: string; status: string; notes?: string }
interface ApiList { id: string; title: string }

async function listsOnEmulator(): Promise<ApiList[]> {
  return (await emulatorRequest<{ items?: ApiList[] }>('GET', '/tasks/v1/users/@me/lists')).body.items ?? [];
}

async function taskOnEmulator(listId: string, taskId: string): Promise<{ status: number; body: ApiTask }> {
  return emulatorRequest<ApiTask>('GET', `/tasks/v1/lists/${encodeURIComponent(listId)}/tasks/${encodeURIComponent(taskId)}`);
}

function codeActionsAt(uri: vscode.Uri, line: number): Thenable<vscode.CodeAction[]> {
  return vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, new vscode.Range(line, 0, line, 0));
}

function hoverText(hovers: readonly vscode.Hover[]): string {
  return hovers.flatMap((hover) => hover.contents.map((content) => (typeof content === 'string' ? content : 'value' in content ? content.value : ''))).join('\n');
}

describe('TODO comments → tasks in the editor', function () {
  this.timeout(30000);
  let api: DeskApi;
  let file: vscode.Uri;
  let document: vscode.TextDocument;
  let target: ApiList;
  const stubs = new WindowStubs();
  const SOURCE = [
    'export function total(items: number[]): number {',
    '  // TODO: handle an empty list',
    '  return items.reduce((sum, item) => sum + item);',
    '}',
    '# not a comment in TS, but no TODO either',
    '',
  ].join('\n');

  before(async () => {
    api = await activateAndSignIn();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(folder, 'the test window has no workspace folder');
    const filePath = path.join(folder, 'todo-sample.ts');
    fs.writeFileSync(filePath, SOURCE);
    file = vscode.Uri.file(filePath);
    document = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(document);
    // A list of our own, so the quick pick has more than one list to offer.
    const created = await emulatorRequest<ApiList>('POST', '/tasks/v1/users/@me/lists', { title: 'From TODOs' });
    assert.equal(created.status, 200);
    target = created.body;
    api.tasks.tree.refreshLists();
  });

  afterEach(() => stubs.restore());

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('offers "Create task from TODO" as a quick fix on the TODO line only (no lens elsewhere)', async () => {
    const onTodo = await codeActionsAt(file, 1);
    assert.deepEqual(onTodo.filter((action) => action.command?.command === 'desk.tasks.linkTodo').map((action) => action.title), ['Create task from TODO']);
    assert.equal(onTodo.find((action) => action.command?.command === 'desk.tasks.linkTodo')?.kind?.value, vscode.CodeActionKind.QuickFix.value);
    const elsewhere = await codeActionsAt(file, 2);
    assert.ok(!elsewhere.some((action) => action.command?.command.startsWith('desk.tasks.')), 'a Desk action on a line without a TODO');
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', file);
    assert.ok(!(lenses ?? []).some((lens) => lens.command?.command.startsWith('desk.')), 'Desk contributes a CodeLens');
  });

  it('creates the task in the picked list with a link back to the line, and marks the comment', async () => {
    const offered: string[] = [];
    stubs.stub('showQuickPick', async (items) => {
      const choices = (await items) as Array<vscode.QuickPickItem & { list: ApiList }>;
      offered.push(...choices.map((choice) => choice.label));
      return choices.find((choice) => choice.list.id === target.id);
    });
    const action = (await codeActionsAt(file, 1)).find((candidate) => candidate.command?.command === 'desk.tasks.linkTodo');
    assert.ok(action?.command);
    const task = await vscode.commands.executeCommand<ApiTask | undefined>(action.command.command, ...(action.command.arguments ?? []));
    assert.ok(task, 'the command did not create a task');
    assert.ok(offered.includes('From TODOs') && offered.includes('My Tasks'), `lists offered: ${offered.join(', ')}`);

    const onEmulator = await taskOnEmulator(target.id, task.id);
    assert.equal(onEmulator.status, 200);
    assert.equal(onEmulator.body.title, 'handle an empty list');
    assert.equal(onEmulator.body.status, 'needsAction');
    assert.match(onEmulator.body.notes ?? '', /todo-sample\.ts:2/);
    assert.ok((onEmulator.body.notes ?? '').includes(file.with({ fragment: 'L2' }).toString()), `notes: ${onEmulator.body.notes}`);

    assert.equal(document.lineAt(1).text, `  // TODO(task:${task.id}): handle an empty list`);
    // The rest of the file is untouched.
    assert.equal(document.lineAt(2).text, '  return items.reduce((sum, item) => sum + item);');
  });

  it('offers the last used list first the next time', async () => {
    const edit = new vscode.WorkspaceEdit();
    edit.insert(file, new vscode.Position(3, 0), '  # FIXME second one\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    let first: string | undefined;
    stubs.stub('showQuickPick', async (items) => {
      const choices = (await items) as Array<vscode.QuickPickItem & { list: ApiList }>;
      first = choices[0]?.label;
      return undefined; // the user presses Escape
    });
    // From the palette: no arguments, the cursor's line.
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(3, 4, 3, 4);
    const created = await vscode.commands.executeCommand('desk.tasks.linkTodo');
    assert.equal(created, undefined);
    assert.equal(first, 'From TODOs');
    assert.equal(document.lineAt(3).text, '  # FIXME second one', 'a cancelled pick changed the comment');
  });

  it('shows the linked task in a hover on the marker, with its actions', async () => {
    const line = document.lineAt(1).text;
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', file, new vscode.Position(1, line.indexOf('TODO') + 2));
    const text = hoverText(hovers);
    assert.match(text, /handle an empty list/);
    assert.match(text, /Open · in From TODOs/);
    assert.match(text, /command:desk\.tasks\.completeFromTodo/);
    assert.match(text, /command:desk\.tasks\.openTodoTask/);
  });

  it('reveals the linked task in the Tasks view', async () => {
    const taskId = /task:([\w-]+)/.exec(document.lineAt(1).text)?.[1];
    assert.ok(taskId);
    assert.equal(await vscode.commands.executeCommand('desk.tasks.openTodoTask', file, 1), true);
    assert.deepEqual(api.tasks.view.selection.map((node) => node.id), [`task/${target.id}/${taskId}`]);
    await vscode.window.showTextDocument(document);
  });

  it('completes the linked task from the editor, and the marker line shows it', async () => {
    const taskId = /task:([\w-]+)/.exec(document.lineAt(1).text)?.[1];
    assert.ok(taskId);
    assert.deepEqual(await api.todo.decoratedLines(document), []);
    const completed = await vscode.commands.executeCommand<ApiTask | undefined>('desk.tasks.completeFromTodo', file.toString(), 1);
    assert.equal(completed?.status, 'completed');
    assert.equal((await taskOnEmulator(target.id, taskId)).body.status, 'completed');
    assert.deepEqual(await api.todo.decoratedLines(document), [1]);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', file, new vscode.Position(1, document.lineAt(1).text.indexOf('TODO') + 2));
    const text = hoverText(hovers);
    assert.match(text, /Completed/);
    assert.doesNotMatch(text, /completeFromTodo/, 'a completed task still offers "Complete task"');
  });

  it('finds a linked task from a marker written elsewhere (another list, unknown to this workspace)', async () => {
    const lists = await listsOnEmulator();
    const groceries = lists.find((list) => list.title === 'Groceries');
    assert.ok(groceries);
    const made = await emulatorRequest<ApiTask>('POST', `/tasks/v1/lists/${encodeURIComponent(groceries.id)}/tasks`, { title: 'Written by a teammate' });
    const edit = new vscode.WorkspaceEdit();
    edit.insert(file, new vscode.Position(0, 0), `// TODO(task:${made.body.id}): from a teammate\n`);
    assert.ok(await vscode.workspace.applyEdit(edit));
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', file, new vscode.Position(0, 5));
    assert.match(hoverText(hovers), /Written by a teammate[\s\S]*in Groceries/);
  });

  it('says so instead of failing when a linked task was deleted', async () => {
    const made = await emulatorRequest<ApiTask>('POST', `/tasks/v1/lists/${encodeURIComponent(target.id)}/tasks`, { title: 'Soon gone' });
    await emulatorRequest('DELETE', `/tasks/v1/lists/${encodeURIComponent(target.id)}/tasks/${encodeURIComponent(made.body.id)}`);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(file, new vscode.Position(0, 0), `// TODO(task:${made.body.id}): deleted elsewhere\n`);
    assert.ok(await vscode.workspace.applyEdit(edit));
    const warnings: string[] = [];
    stubs.stub('showWarningMessage', async (message) => {
      warnings.push(String(message));
      return undefined;
    });
    assert.equal(await vscode.commands.executeCommand('desk.tasks.completeFromTodo', file, 0), undefined);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /no longer exists/);
  });

  it('offers nothing and shows nothing while signed out', async () => {
    const linkedLine = document.getText().split('\n').findIndex((text) => text.includes('TODO(task:'));
    assert.ok(linkedLine >= 0);
    stubs.stub('showQuickPick', async (items) => ((await items) as unknown[])[0]);
    await vscode.commands.executeCommand('desk.signOut');
    try {
      assert.equal(api.desk.session.signedIn, false, 'still signed in');
      assert.deepEqual((await codeActionsAt(file, linkedLine)).filter((action) => action.command?.command.startsWith('desk.tasks.')), []);
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', file, new vscode.Position(linkedLine, document.lineAt(linkedLine).text.indexOf('TODO') + 2));
      assert.doesNotMatch(hoverText(hovers), /task/i);
      assert.deepEqual(await api.todo.decoratedLines(document), []);
    } finally {
      stubs.restore();
      await activateAndSignIn();
    }
  });
});
