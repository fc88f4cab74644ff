// TODO ↔ task tracking in a real extension host: the quick fix on a TODO comment creates a task on the emulator
// and writes the task marker into the comment; the hover on the marker shows the task; completing it from the
// editor completes it on the emulator and the marker line is decorated.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import { shortDueDate } from '../../src/core/text/dates';
import { activateAndSignIn, emulatorRequest, eventually, WindowStubs } from './support';

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
  // A part is a MarkdownString or a (deprecated) MarkedString: read as what both are, text or an object with a value.
  return hovers.flatMap((hover) => (hover.contents as ReadonlyArray<string | { value: string }>).map((content) => (typeof content === 'string' ? content : 'value' in content ? content.value : ''))).join('\n');
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

  afterEach(() => { stubs.restore(); });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('offers "Create task from TODO" as a quick fix on the TODO line only (no lens elsewhere)', async () => {
    const onTodo = await codeActionsAt(file, 1);
    assert.deepEqual(onTodo.filter((action) => action.command?.command === 'desk.tasks.linkTodo').map((action) => action.title), ['Create task from TODO']);
    assert.equal(onTodo.find((action) => action.command?.command === 'desk.tasks.linkTodo')?.kind?.value, vscode.CodeActionKind.QuickFix.value);
    const elsewhere = await codeActionsAt(file, 2);
    assert.ok(!elsewhere.some((action) => action.command?.command.startsWith('desk.tasks.')), 'a Desk action on a line without a TODO');
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[] | undefined>('vscode.executeCodeLensProvider', file);
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
    const task = await vscode.commands.executeCommand<ApiTask | undefined>(action.command.command, ...((action.command.arguments ?? []) as unknown[]));
    assert.ok(task, 'the command did not create a task');
    assert.ok(offered.includes('From TODOs') && offered.includes('My Tasks'), `lists offered: ${offered.join(', ')}`);

    const onEmulator = await taskOnEmulator(target.id, task.id);
    assert.equal(onEmulator.status, 200);
    assert.equal(onEmulator.body.title, 'handle an empty list');
    assert.equal(onEmulator.body.status, 'needsAction');
    assert.match(onEmulator.body.notes ?? '', /^Source: todo-sample\.ts$/m);
    assert.ok((onEmulator.body.notes ?? '').includes(file.with({ fragment: 'L2' }).toString()), `notes: ${String(onEmulator.body.notes)}`);

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
    // The selection comes back from the workbench after reveal's answer (at once only when the view was open before).
    const expected = `task/${target.id}/${taskId}`;
    await eventually('the task row selected', () => (api.tasks.view.selection.some((node) => node.id === expected) ? true : undefined));
    assert.deepEqual(api.tasks.view.selection.map((node) => node.id), [expected]);
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

describe('Workspace TODOs: the TODOs view, Track as Task, Go to Source, Unlink, Clean Up', function () {
  this.timeout(60000);
  let api: DeskApi;
  let root = '';
  let target: ApiList;
  const stubs = new WindowStubs();
  const write = (file: string, text: string): void => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  const uriOf = (file: string): vscode.Uri => vscode.Uri.file(path.join(root, file));
  const view = () => api.todo.workspace;
  /** The TODOs view's rows as `section > file > text`, after pending changes are in. */
  async function rows(): Promise<string[]> {
    await view().settled();
    const out: string[] = [];
    for (const section of await view().getChildren()) {
      for (const file of await view().getChildren(section)) {
        for (const item of await view().getChildren(file)) {
          if (item.kind === 'todo') out.push(`${section.kind === 'section' ? section.section : ''} > ${item.found.file} > ${item.found.todo.text}`);
        }
      }
    }
    return out.filter((row) => row.includes('todo-ws/') || row.includes('ignored-dir/') || row.includes('excluded-dir/'));
  }
  async function itemNode(file: string, text: string) {
    await view().settled();
    for (const section of await view().getChildren()) {
      for (const fileNode of await view().getChildren(section)) {
        for (const item of await view().getChildren(fileNode)) if (item.kind === 'todo' && item.found.file === file && item.found.todo.text === text) return item;
      }
    }
    return undefined;
  }
  async function fileNode(file: string, section: 'unlinked' | 'linked') {
    await view().settled();
    for (const sectionNode of await view().getChildren()) {
      if (sectionNode.kind !== 'section' || sectionNode.section !== section) continue;
      for (const node of await view().getChildren(sectionNode)) if (node.kind === 'file' && node.file === file) return node;
    }
    return undefined;
  }
  const pickTarget = () => { stubs.stub('showQuickPick', async (items) => ((await items) as Array<{ list?: ApiList }>).find((choice) => choice.list?.id === target.id)); };
  async function taskById(taskId: string): Promise<{ status: number; body: ApiTask & { due?: string; deleted?: boolean } }> {
    return emulatorRequest('GET', `/tasks/v1/lists/${encodeURIComponent(target.id)}/tasks/${encodeURIComponent(taskId)}`);
  }
  function markerOf(text: string): string {
    const id = /task:([\w-]+)/.exec(text)?.[1];
    assert.ok(id, `no marker in ${text}`);
    return id;
  }

  before(async () => {
    api = await activateAndSignIn();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(folder);
    root = folder;
    write('.gitignore', 'ignored-dir/\n');
    write('todo-ws/a.ts', ['export const a = 1;', '// TODO: track me from the view', '// FIXME: second in a', ''].join('\n'));
    write('todo-ws/b.py', ['# TODO: bulk one', 'x = 1  # TODO bulk two', '# see the TODO list (prose)', ''].join('\n'));
    write('todo-ws/c.md', ['# Notes', '<!-- TODO: unlink keep -->', '<!-- TODO: unlink delete -->', '<!-- TODO: finished elsewhere -->', ''].join('\n'));
    write('ignored-dir/x.ts', '// TODO: ignored by .gitignore\n');
    write('excluded-dir/y.ts', '// TODO: excluded by files.exclude\n');
    await vscode.workspace.getConfiguration('files').update('exclude', { '**/excluded-dir': true }, vscode.ConfigurationTarget.Workspace);
    const created = await emulatorRequest<ApiList>('POST', '/tasks/v1/users/@me/lists', { title: 'Workspace TODOs' });
    target = created.body;
    api.tasks.tree.refreshLists();
    await view().refresh();
  });

  afterEach(() => { stubs.restore(); });

  after(async () => {
    await vscode.workspace.getConfiguration('files').update('exclude', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('lists the workspace TODOs by file, not tracked apart; .gitignore, files.exclude and prose left out', async () => {
    assert.deepEqual(await rows(), [
      'unlinked > todo-ws/a.ts > track me from the view',
      'unlinked > todo-ws/a.ts > second in a',
      'unlinked > todo-ws/b.py > bulk one',
      'unlinked > todo-ws/b.py > bulk two',
      'unlinked > todo-ws/c.md > unlink keep',
      'unlinked > todo-ws/c.md > unlink delete',
      'unlinked > todo-ws/c.md > finished elsewhere',
    ]);
    const item = await itemNode('todo-ws/a.ts', 'track me from the view');
    assert.ok(item);
    const treeItem = view().getTreeItem(item);
    assert.equal(treeItem.contextValue, 'todo-item unlinked');
    assert.equal(treeItem.command?.command, 'vscode.open');
  });

  it('updates as files change: only the changed file is re-scanned', async () => {
    write('todo-ws/new.ts', '// TODO: appeared later\n');
    write('ignored-dir/late.ts', '// TODO: still ignored\n');
    // The file watcher's event, then the debounce.
    await eventually('the new file\'s TODO in the view', async () => ((await rows()).includes('unlinked > todo-ws/new.ts > appeared later') ? true : undefined));
    await view().updateFiles([uriOf('ignored-dir/late.ts')]); // its own event may come later: checked now
    const now = await rows();
    assert.ok(!now.some((row) => row.includes('ignored-dir')), now.join('\n'));
    fs.rmSync(path.join(root, 'todo-ws/new.ts'));
    await eventually('the deleted file gone from the view', async () => ((await rows()).some((row) => row.includes('new.ts')) ? undefined : true));
  });

  it('a folder event re-scans the files in it: none is dropped, a file the watcher missed is found', async () => {
    const before = await rows();
    // An event for a folder that exists (the watcher reports a new folder, maybe without the files written in it).
    await view().updateFiles([uriOf('todo-ws')]);
    assert.deepEqual(await rows(), before);
    write('todo-ws/sub/d.ts', '// TODO: only the folder was reported\n');
    await view().updateFiles([uriOf('todo-ws/sub')]);
    assert.ok((await rows()).includes('unlinked > todo-ws/sub/d.ts > only the folder was reported'));
    fs.rmSync(path.join(root, 'todo-ws/sub'), { recursive: true });
    await view().updateFiles([uriOf('todo-ws/sub')]);
    assert.deepEqual(await rows(), before);
  });

  let trackedId = '';
  it('tracks one TODO from the view with a due date in plain words ("next friday")', async () => {
    const item = await itemNode('todo-ws/a.ts', 'track me from the view');
    assert.ok(item);
    pickTarget();
    stubs.stub('showInputBox', async () => 'next friday');
    const created = await vscode.commands.executeCommand<ApiTask[] | undefined>('desk.todo.track', item, [item]);
    assert.equal(created?.length, 1);
    trackedId = created.at(0)?.id ?? '';
    const onEmulator = await taskById(trackedId);
    assert.equal(onEmulator.body.title, 'track me from the view');
    assert.match(onEmulator.body.notes ?? '', /^Source: todo-ws\/a\.ts$/m);
    const due = onEmulator.body.due?.slice(0, 10) ?? '';
    const dueDay = new Date(`${due}T12:00:00`);
    assert.equal(dueDay.getDay(), 5, `due ${due} is not a Friday`);
    assert.ok(dueDay.getTime() > Date.now(), `due ${due} is not ahead`);
    const document = await vscode.workspace.openTextDocument(uriOf('todo-ws/a.ts'));
    assert.equal(document.lineAt(1).text, `// TODO(task:${trackedId}): track me from the view`);
    assert.equal(document.lineAt(2).text, '// FIXME: second in a', 'another TODO of the file was changed');
    await document.save();
    assert.ok((await rows()).includes('linked > todo-ws/a.ts > track me from the view'));
    // The linked row shows the task's state and due date (fetched when drawn).
    const linked = await itemNode('todo-ws/a.ts', 'track me from the view');
    assert.ok(linked);
    view().getTreeItem(linked);
    await view().settledTaskStates();
    // The Tasks view's short words, date first (a narrow side bar cuts the end), never the API's ISO date.
    const description = String(view().getTreeItem(linked).description);
    assert.ok(description.startsWith(`${shortDueDate(due, new Date(), vscode.l10n.t, vscode.env.language)} · `), description);
    assert.match(description, / · open$/);
    assert.doesNotMatch(description, /\d{4}-\d{2}-\d{2}/);
  });

  it('tracks a whole file in bulk: one task per TODO, one undo step for the file', async () => {
    const node = await fileNode('todo-ws/b.py', 'unlinked');
    assert.ok(node);
    pickTarget();
    stubs.stub('showInputBox', async () => '');
    const created = await vscode.commands.executeCommand<ApiTask[] | undefined>('desk.todo.track', node, [node]);
    assert.deepEqual(created?.map((task) => task.title), ['bulk one', 'bulk two']);
    const document = await vscode.workspace.openTextDocument(uriOf('todo-ws/b.py'));
    const editor = await vscode.window.showTextDocument(document);
    assert.match(document.lineAt(0).text, /^# TODO\(task:[\w-]+\): bulk one$/);
    assert.match(document.lineAt(1).text, /^x = 1 {2}# TODO\(task:[\w-]+\): bulk two$/);
    assert.equal(document.lineAt(2).text, '# see the TODO list (prose)');
    await vscode.commands.executeCommand('undo');
    assert.equal(document.lineAt(0).text, '# TODO: bulk one', 'one undo did not take both markers back');
    assert.equal(document.lineAt(1).text, 'x = 1  # TODO bulk two');
    await vscode.commands.executeCommand('redo');
    assert.match(document.lineAt(1).text, /TODO\(task:/);
    assert.equal(editor.document, document);
    await document.save();
  });

  it('goes to the source from the Tasks view after lines were inserted above, and after a rename', async () => {
    await api.tasks.tree.getChildren();
    api.tasks.tree.refreshList(target.id);
    const node = await api.tasks.tree.findTaskNode(target.id, trackedId);
    assert.ok(node, 'the tracked task is not in the Tasks tree');
    assert.match(api.tasks.tree.getTreeItem(node).contextValue ?? '', /\bfrom-todo\b/);

    // The user inserts lines above the comment in the editor and saves.
    const opened = await vscode.workspace.openTextDocument(uriOf('todo-ws/a.ts'));
    const insert = new vscode.WorkspaceEdit();
    insert.insert(opened.uri, new vscode.Position(0, 0), '// added\n// added\n// added\n');
    assert.ok(await vscode.workspace.applyEdit(insert));
    await opened.save();
    const moved = await vscode.commands.executeCommand<{ uri: vscode.Uri; line: number } | undefined>('desk.todo.goToSource', node);
    assert.equal(moved?.line, 4, `${fs.readFileSync(path.join(root, 'todo-ws/a.ts'), 'utf8')} / ${JSON.stringify(vscode.workspace.textDocuments.filter((doc) => doc.uri.path.endsWith('a.ts')).map((doc) => [doc.isDirty, doc.getText()]))}`);
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, uriOf('todo-ws/a.ts').fsPath);
    assert.equal(vscode.window.activeTextEditor.selection.start.line, 4);

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.renameSync(path.join(root, 'todo-ws/a.ts'), path.join(root, 'todo-ws/renamed.ts'));
    const renamed = await vscode.commands.executeCommand<{ uri: vscode.Uri; line: number } | undefined>('desk.todo.goToSource', node);
    assert.equal(renamed?.uri.fsPath, uriOf('todo-ws/renamed.ts').fsPath);
    assert.equal(renamed.line, 4);
    // The link back follows: the task's Source line names the new path.
    let notes = '';
    for (let attempt = 0; attempt < 40 && !/renamed\.ts/.test(notes); attempt++) {
      notes = (await taskById(trackedId)).body.notes ?? '';
      if (!/renamed\.ts/.test(notes)) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.match(notes, /^Source: todo-ws\/renamed\.ts$/m);
  });

  it('unlinks both ways: the marker only (the task stays), or the task too', async () => {
    pickTarget();
    stubs.stub('showInputBox', async () => '');
    const node = await fileNode('todo-ws/c.md', 'unlinked');
    assert.ok(node);
    const created = await vscode.commands.executeCommand<ApiTask[] | undefined>('desk.todo.track', node, [node]);
    assert.equal(created?.length, 3);
    stubs.restore();
    const document = await vscode.workspace.openTextDocument(uriOf('todo-ws/c.md'));
    await document.save();

    const asked: string[][] = [];
    let answer = 'Remove Marker, Keep Task';
    stubs.stub('showWarningMessage', async (...args) => {
      asked.push(args.slice(2).map(String));
      return answer;
    });
    const keepId = markerOf(document.lineAt(1).text);
    const kept = await vscode.commands.executeCommand<{ deletedTask: boolean } | undefined>('desk.todo.unlink', document.uri, 1);
    assert.equal(kept?.deletedTask, false);
    assert.equal(document.lineAt(1).text, '<!-- TODO: unlink keep -->');
    assert.equal((await taskById(keepId)).status, 200);
    assert.notEqual((await taskById(keepId)).body.deleted, true);
    assert.deepEqual(asked[0], ['Remove Marker, Keep Task', 'Remove Marker and Delete Task']);

    answer = 'Remove Marker and Delete Task';
    const deleteId = markerOf(document.lineAt(2).text);
    const item = await itemNode('todo-ws/c.md', 'unlink delete');
    assert.ok(item && item.found.todo.taskId === deleteId);
    const gone = await vscode.commands.executeCommand<{ deletedTask: boolean } | undefined>('desk.todo.unlink', item);
    assert.equal(gone?.deletedTask, true);
    assert.equal(document.lineAt(2).text, '<!-- TODO: unlink delete -->');
    const after = await taskById(deleteId);
    assert.ok(after.status === 404 || after.body.deleted === true, `the task is still there: ${after.status}`);
    await document.save();
  });

  it('cleans up finished TODOs through the refactor preview: nothing changes until it is confirmed', async () => {
    const document = await vscode.workspace.openTextDocument(uriOf('todo-ws/c.md'));
    const finishedId = markerOf(document.lineAt(3).text);
    await emulatorRequest('PATCH', `/tasks/v1/lists/${encodeURIComponent(target.id)}/tasks/${encodeURIComponent(finishedId)}`, { status: 'completed' });
    await view().refresh();
    stubs.stub('showQuickPick', async (items) => ((await items) as Array<{ mode?: string }>).find((choice) => choice.mode === 'remove'));
    // The refactor preview, stubbed as the dialogs are: it sees the edit, then discards it, then applies it.
    const workspace = vscode.workspace as unknown as { applyEdit: typeof vscode.workspace.applyEdit };
    const original = workspace.applyEdit;
    const previewed: Array<{ confirm: boolean[]; files: string[] }> = [];
    let confirm = false;
    workspace.applyEdit = async (edit: vscode.WorkspaceEdit, metadata?: vscode.WorkspaceEditMetadata) => {
      // Each entry's metadata is what Desk recorded as it built the edit (a WorkspaceEdit does not give it back).
      previewed.push({ confirm: api.todo.commands.lastCleanUp.map((entry) => entry.needsConfirmation), files: edit.entries().map(([uri]) => vscode.workspace.asRelativePath(uri)) });
      if (!confirm) return false; // the user discards the preview
      const plain = new vscode.WorkspaceEdit();
      for (const [uri, edits] of edit.entries()) plain.set(uri, edits);
      return original(plain, metadata);
    };
    try {
      assert.equal(await vscode.commands.executeCommand('desk.todo.cleanUp'), 0);
      assert.equal(document.lineAt(3).text, `<!-- TODO(task:${finishedId}): finished elsewhere -->`, 'changed before confirmation');
      confirm = true;
      // At least this one (the first suite's completed TODO may still be open in an editor too).
      assert.ok(((await vscode.commands.executeCommand<number | undefined>('desk.todo.cleanUp')) ?? 0) >= 1);
    } finally {
      workspace.applyEdit = original;
    }
    assert.ok(previewed.length === 2 && previewed.every((preview) => preview.confirm.length > 0 && preview.confirm.every(Boolean)), JSON.stringify(previewed));
    assert.ok(previewed[0]?.files.includes('todo-ws/c.md'), JSON.stringify(previewed));
    assert.deepEqual(document.getText().split('\n'), ['# Notes', '<!-- TODO: unlink keep -->', '<!-- TODO: unlink delete -->', '']);
    await document.save();
  });

  it('marks an overdue linked TODO in the warning colour', async () => {
    const made = await emulatorRequest<ApiTask>('POST', `/tasks/v1/lists/${encodeURIComponent(target.id)}/tasks`, { title: 'Late', due: '2020-01-06T00:00:00.000Z' });
    write('todo-ws/late.ts', `const x = 1;\n// TODO(task:${made.body.id}): late work\n`);
    const document = await vscode.workspace.openTextDocument(uriOf('todo-ws/late.ts'));
    await vscode.window.showTextDocument(document);
    assert.deepEqual(await api.todo.overdueLines(document), [1]);
    assert.deepEqual(await api.todo.decoratedLines(document), []);
  });
});
