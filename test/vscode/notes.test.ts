// Task notes as a real multi-line document (desk-tasks:) inside a real extension host, against the harness's
// emulator: open them from a task row, edit and save (checked on the emulator over HTTP), meet a change made by
// another client (Compare / Overwrite / Cancel), and be refused a save longer than the API allows.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import type { TaskNode } from '../../src/features/tasks/tree/nodes';
import { NOTES_MAX_LENGTH } from '../../src/shared/schemas/tasks';
import { activateAndSignIn, emulatorRequest, WindowStubs, eventually, replaceText } from './support';

interface ApiTask { id: string; title: string; etag: string; notes?: string }

const stubs = new WindowStubs();

describe('Task notes as a document', function () {
  this.timeout(40000);
  let api: DeskApi;
  let listId: string;
  const listTitle = 'Notes from VS Code';

  /** A task of the suite's own list, made by another client (so other suites' demo data stays as it is). */
  async function makeTask(title: string, notes?: string): Promise<ApiTask> {
    const made = await emulatorRequest<ApiTask>('POST', `/tasks/v1/lists/${listId}/tasks`, { title, ...(notes === undefined ? {} : { notes }) });
    assert.equal(made.status, 200);
    return made.body;
  }

  async function onEmulator(taskId: string): Promise<ApiTask> {
    return (await emulatorRequest<ApiTask>('GET', `/tasks/v1/lists/${listId}/tasks/${taskId}`)).body;
  }

  /** A declined save ends with the document dirty and its text as typed, once the save's end reached this host. */
  async function stillUnsaved(document: vscode.TextDocument, text: string): Promise<void> {
    await eventually('the document dirty with the typed text', () => (document.isDirty && document.getText() === text ? true : undefined));
    const tab = vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((candidate) => candidate.input instanceof vscode.TabInputText && candidate.input.uri.toString() === document.uri.toString());
    assert.equal(tab?.isDirty, true, 'the workbench shows it unsaved too');
  }

  async function node(taskId: string): Promise<TaskNode> {
    // The list's row exists once the tree has listed the lists (the suite's list is new to it).
    if (!api.tasks.tree.listNode(listId)) await api.tasks.tree.getChildren();
    api.tasks.tree.refreshList(listId);
    return eventually('the task row', () => api.tasks.tree.findTaskNode(listId, taskId));
  }

  async function openFromRow(task: ApiTask): Promise<vscode.TextDocument> {
    await vscode.commands.executeCommand('desk.tasks.editNotes', await node(task.id));
    const editor = await eventually('the notes editor', () => {
      const active = vscode.window.activeTextEditor;
      return active?.document.uri.scheme === 'desk-tasks' && new URLSearchParams(active.document.uri.query).get('task') === task.id ? active : undefined;
    });
    return editor.document;
  }

  before(async () => {
    api = await activateAndSignIn();
    // VS Code for the Web auto-saves after a delay by default: that save would race the ones each test makes.
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    const list = await emulatorRequest<{ id: string }>('POST', '/tasks/v1/users/@me/lists', { title: listTitle });
    assert.equal(list.status, 200);
    listId = list.body.id;
    api.tasks.tree.refreshLists();
  });

  afterEach(async () => {
    stubs.restore();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    await emulatorRequest('DELETE', `/tasks/v1/users/@me/lists/${listId}`);
    api.tasks.tree.refreshAll();
  });

  it('opens the notes from the task row as a markdown document titled by the task, and saves edits with tasks.patch', async () => {
    const task = await makeTask('Write the plan', 'First line');
    const document = await openFromRow(task);
    assert.equal(document.uri.path, `/${listTitle}/Write the plan.md`, 'the tab and breadcrumb show list and task');
    assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.label, 'Write the plan.md');
    assert.equal(document.languageId, 'markdown');
    assert.equal(document.getText(), 'First line');

    const notes = '# Plan\n\n- one\n- two\n\nA longer paragraph, with *markdown*.\n';
    await replaceText(document, notes);
    assert.equal(await document.save(), true, 'the first save');
    assert.equal((await onEmulator(task.id)).notes, notes, 'the emulator has every line');
    // The tree reloaded the list: its row carries the new notes.
    await eventually('the tree to show the new notes', async () => ((await api.tasks.tree.findTaskNode(listId, task.id))?.task.notes === notes ? true : undefined));

    await replaceText(document, '');
    assert.equal(await document.save(), true, 'the save of an empty document');
    assert.equal((await onEmulator(task.id)).notes, undefined, 'an empty document clears the notes');
  });

  it('a save after another client changed the notes asks Compare / Overwrite / Cancel; Cancel keeps both, Overwrite wins', async () => {
    const task = await makeTask('Pack for the trip', 'Passport');
    const asked: unknown[][] = [];
    stubs.stub('showWarningMessage', async (...args: unknown[]) => {
      asked.push(args);
      return undefined; // the modal's Cancel
    });
    const document = await openFromRow(task);
    await replaceText(document, 'Passport\nTickets\n');
    assert.equal((await emulatorRequest('PATCH', `/tasks/v1/lists/${listId}/tasks/${task.id}`, { notes: 'Passport\nSunscreen' })).status, 200);

    assert.equal(await document.save(), false, 'a cancelled conflict is not saved');
    assert.equal(asked.length, 1);
    assert.match(String(asked[0]?.[0]), /changed elsewhere/);
    assert.equal((asked[0]?.[1] as { modal?: boolean }).modal, true);
    assert.deepEqual(asked[0]?.slice(2), ['Compare', 'Overwrite']);
    assert.equal((await onEmulator(task.id)).notes, 'Passport\nSunscreen', 'Cancel leaves the other client\'s notes');
    await stillUnsaved(document, 'Passport\nTickets\n');

    stubs.restore();
    stubs.stub('showWarningMessage', async () => 'Compare');
    assert.equal(await document.save(), false);
    const remote = await eventually('the other version in a diff', () => vscode.workspace.textDocuments.find((doc) => doc.uri.scheme === 'desk-tasks' && doc.uri.query.includes('remote')));
    assert.equal(remote.getText(), 'Passport\nSunscreen');
    await stillUnsaved(document, 'Passport\nTickets\n');

    stubs.restore();
    stubs.stub('showWarningMessage', async () => 'Overwrite');
    assert.equal(await document.save(), true);
    assert.equal((await onEmulator(task.id)).notes, 'Passport\nTickets\n');
  });

  it('a change elsewhere that leaves the notes alone (a rename) is no conflict, and the open editor keeps working', async () => {
    const task = await makeTask('Call Sam', 'Number is in the phone');
    const document = await openFromRow(task);
    const asked: unknown[] = [];
    stubs.stub('showWarningMessage', async (...args: unknown[]) => {
      asked.push(args);
      return undefined;
    });
    assert.equal((await emulatorRequest('PATCH', `/tasks/v1/lists/${listId}/tasks/${task.id}`, { title: 'Call Sam back' })).status, 200);
    await replaceText(document, 'Number is in the phone\nAsk about Friday');
    assert.equal(await document.save(), true);
    assert.deepEqual(asked, []);
    const after = await onEmulator(task.id);
    assert.equal(after.title, 'Call Sam back', 'the patch sent the notes alone');
    assert.equal(after.notes, 'Number is in the phone\nAsk about Friday');
  });

  it(`refuses a save longer than ${NOTES_MAX_LENGTH} characters in Desk's words, offers ways to keep the text, and loses nothing`, async () => {
    const task = await makeTask('Write the essay', 'Outline');
    const document = await openFromRow(task);
    const long = `${'word '.repeat(Math.ceil(NOTES_MAX_LENGTH / 5))}end`;
    assert.ok(long.length > NOTES_MAX_LENGTH);
    await replaceText(document, long);
    const asked: unknown[][] = [];
    const answers: Array<string | undefined> = [undefined, 'Select the Excess', 'Open a Copy in a New Editor'];
    stubs.stub('showWarningMessage', async (...args: unknown[]) => {
      asked.push(args);
      return answers.shift();
    });
    const logged: string[] = [];
    stubs.stub('showErrorMessage', async (...args: unknown[]) => {
      logged.push(String(args[0]));
      return undefined;
    });

    // Cancel: Desk's own modal question, and the save ends with the document dirty, no error for VS Code to show.
    assert.equal(await document.save(), false);
    assert.equal(asked.length, 1, 'Desk asked');
    assert.match(String(asked[0]?.[0]), new RegExp(`“Write the essay” are too long for Google Tasks: at most ${NOTES_MAX_LENGTH} characters, these have ${long.length}`));
    assert.equal((asked[0]?.[1] as { modal?: boolean }).modal, true);
    assert.deepEqual(asked[0]?.slice(2), ['Select the Excess', 'Open a Copy in a New Editor'], 'no choice throws the text away');
    await stillUnsaved(document, long);
    assert.equal((await onEmulator(task.id)).notes, 'Outline', 'nothing was sent');

    // Select the Excess: what passes the limit is selected, so it can be cut.
    assert.equal(await document.save(), false);
    const editor = await eventually('the notes editor with the excess selected', () => {
      const active = vscode.window.activeTextEditor;
      return active?.document === document && !active.selection.isEmpty ? active : undefined;
    });
    assert.equal(document.getText(new vscode.Range(new vscode.Position(0, 0), editor.selection.start)).length, NOTES_MAX_LENGTH);
    assert.equal(document.getText(editor.selection), long.slice(NOTES_MAX_LENGTH));
    await stillUnsaved(document, long);

    // Open a Copy: an untitled markdown document holds the whole text.
    assert.equal(await document.save(), false);
    const copy = await eventually('the copy', () => vscode.workspace.textDocuments.find((candidate) => candidate.isUntitled && candidate.getText() === long));
    assert.equal(copy.languageId, 'markdown');
    await stillUnsaved(document, long);
    assert.deepEqual(logged, [], 'no error message besides the question');
    await vscode.window.showTextDocument(copy);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');

    // Cut to the limit, the save goes through.
    await replaceText(document, long.slice(0, NOTES_MAX_LENGTH));
    assert.equal(await document.save(), true);
    assert.equal((await onEmulator(task.id)).notes, long.slice(0, NOTES_MAX_LENGTH));

    // A write that is no save of the editor (workspace.fs) is refused with the reason.
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.writeFile(document.uri, Buffer.from(long))),
      (error: Error) => new RegExp(`at most ${NOTES_MAX_LENGTH} characters; these have ${long.length}`).test(error.message),
    );
  });

  it('Edit Task offers the notes editor when the notes have several lines (the one-line box would flatten them)', async () => {
    const task = await makeTask('Plan the party', 'Guests\nFood\nMusic');
    const inputs: string[] = [];
    const answers = ['Plan the birthday party', ''];
    stubs.stub('showInputBox', async (options: unknown) => {
      inputs.push(String((options as vscode.InputBoxOptions).title));
      return answers.shift();
    });
    let offered: string[] = [];
    stubs.stub('showQuickPick', async (items: unknown) => {
      const list = (await items) as { label: string }[];
      offered = list.map((item) => item.label);
      return list.find((item) => item.label.includes('editor'));
    });
    const saved = await vscode.commands.executeCommand<ApiTask | undefined>('desk.tasks.editTask', await node(task.id));
    assert.equal(saved?.title, 'Plan the birthday party');
    assert.equal(inputs.length, 2, 'title and due date in input boxes, the notes step as a choice');
    assert.equal(offered.length, 2);
    const editor = await eventually('the notes editor', () => (vscode.window.activeTextEditor?.document.uri.scheme === 'desk-tasks' ? vscode.window.activeTextEditor : undefined));
    assert.equal(editor.document.uri.path, `/${listTitle}/Plan the birthday party.md`);
    assert.equal(editor.document.getText(), 'Guests\nFood\nMusic');
    assert.equal((await onEmulator(task.id)).notes, 'Guests\nFood\nMusic', 'the notes were kept, not flattened');
  });

  it('runs from the palette too: pick the list, then the task', async () => {
    const task = await makeTask('Return the library books', 'Due Friday');
    // The pickers offer the lists and tasks the Tasks view knows (the Tasks API has no change feed): the task was
    // made behind its back, so the view reloads the list first, as the user's Refresh would.
    api.tasks.tree.refreshLists();
    api.tasks.tree.refreshList(listId);
    await eventually('the task in the Tasks view', async () => ((await api.tasks.tree.allTasks(listId)).some((entry) => entry.task.id === task.id) ? true : undefined));
    const offered: string[] = [];
    stubs.stub('showQuickPick', async (items: unknown) => {
      const list = (await items) as { label: string }[];
      offered.push(list.map((item) => item.label).join(' | '));
      return list.find((item) => item.label === listTitle || item.label.endsWith(' Return the library books'));
    });
    await vscode.commands.executeCommand('desk.tasks.editNotes');
    const editor = await eventually('the notes editor', () => (vscode.window.activeTextEditor?.document.uri.scheme === 'desk-tasks' ? vscode.window.activeTextEditor : undefined))
      .catch((error: unknown) => { throw new Error(`${String(error)}; the pickers offered: ${offered.join(' / ') || 'nothing'}`); });
    assert.equal(new URLSearchParams(editor.document.uri.query).get('task'), task.id);
    assert.equal(editor.document.getText(), 'Due Friday');
  });
});
