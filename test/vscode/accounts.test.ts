// One account never touches another's data, inside a real extension host against the harness's emulator: a
// document of alice's (a Drive file, a task's notes) stays open while alice signs out and bob signs in; bob's save of
// it is refused in Desk's words, the text stays in the editor, nothing is new in bob's Drive or Tasks (checked over
// HTTP as bob) and alice's file is as it was; alice's Drive workspace folder reopened as bob is refused too.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import { driveUri } from '../../src/features/drive/fs/driveFileSystem';
import { notesUri } from '../../src/features/tasks/notes/openNotes';
import { activateAndSignIn, emulatorRequest, eventually, replaceText, WindowStubs } from './support';

const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';
const FOLDER_MIME = 'application/vnd.google-apps.folder';

interface ApiFile { id: string; title: string; parents?: Array<{ id: string }> }
interface ApiList { id: string; title: string }
interface ApiTask { id: string; title: string; notes?: string }

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('Accounts: a document names its account, and no other account reads or writes it', function () {
  this.timeout(90000);
  let api: DeskApi;
  const stubs = new WindowStubs();
  const stamp = Date.now();

  /** Every session removed, then `account` signed in through the real provider. */
  async function switchTo(account: string): Promise<void> {
    for (const session of await api.desk.auth.listSessions()) await api.desk.auth.removeSession(session.id);
    await api.desk.session.check();
    assert.equal(api.desk.session.signedIn, false);
    api = await activateAndSignIn(account);
    assert.equal(api.desk.session.currentAccount, account);
  }

  /** Every file of `account`'s Drive (titles and ids), trashed ones too. */
  async function driveOf(account: string): Promise<string[]> {
    const listed = await emulatorRequest<{ items: ApiFile[] }>('GET', '/drive/v2/files?maxResults=1000', undefined, account);
    assert.equal(listed.status, 200);
    return listed.body.items.map((file) => `${file.id} ${file.title}`).sort();
  }

  /** Every list and task of `account`'s Tasks (with their notes). */
  async function tasksOf(account: string): Promise<string[]> {
    const lists = (await emulatorRequest<{ items?: ApiList[] }>('GET', '/tasks/v1/users/@me/lists', undefined, account)).body.items ?? [];
    const rows: string[] = [];
    for (const list of lists) {
      rows.push(`list ${list.id} ${list.title}`);
      const tasks = (await emulatorRequest<{ items?: ApiTask[] }>('GET', `/tasks/v1/lists/${list.id}/tasks?showCompleted=true&showHidden=true`, undefined, account)).body.items ?? [];
      for (const task of tasks) rows.push(`task ${task.id} ${task.title} ${task.notes ?? ''}`);
    }
    return rows.sort();
  }

  /** A save of the open document ends refused: still dirty, its text as typed. */
  async function saveIsRefused(document: vscode.TextDocument, typed: string): Promise<void> {
    await document.save();
    await eventually('the document still dirty with the typed text', () => (document.isDirty && document.getText() === typed ? true : undefined));
  }

  before(async () => {
    api = await activateAndSignIn();
    // VS Code for the Web auto-saves after a delay by default: the test saves itself.
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    stubs.stub('showWarningMessage', async () => undefined);
    stubs.stub('showInformationMessage', async () => undefined);
  });

  // Each test starts as alice (a test that failed half-way may have left bob signed in).
  beforeEach(async () => {
    if (api.desk.session.currentAccount !== ALICE) await switchTo(ALICE);
  });

  after(async () => {
    // A test that failed half-way may leave a refused document dirty: reverted, so closing asks nothing.
    for (const document of vscode.workspace.textDocuments.filter((candidate) => candidate.isDirty)) {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    stubs.restore();
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    // The suites after this one expect alice.
    if (api.desk.session.currentAccount !== ALICE) await switchTo(ALICE);
  });

  it('desk-drive: alice\'s open file saved while bob is signed in is refused with Desk\'s message; the text stays, bob\'s Drive and alice\'s file are untouched; her workspace folder is refused as bob', async () => {
    const notesTitle = `Notes ${stamp}`;
    const folder = (await emulatorRequest<ApiFile>('POST', '/drive/v2/files', { title: notesTitle, mimeType: FOLDER_MIME }, ALICE)).body;
    const file = (await emulatorRequest<ApiFile>('POST', '/drive/v2/files', { title: 'groceries.txt', mimeType: 'text/plain', parents: [{ id: folder.id }] }, ALICE)).body;
    const uri = driveUri(vscode, ALICE, file, ['My Drive', notesTitle]);
    assert.equal(uri.authority, ALICE, 'the URI names the account');
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    assert.equal(document.getText(), '');
    // Alice's Drive folder as the Explorer holds it once added to the workspace.
    const workspaceFolder = vscode.Uri.from({ scheme: 'desk-drive', authority: ALICE, path: `/My Drive/${notesTitle}` });
    assert.deepEqual(await vscode.workspace.fs.readDirectory(workspaceFolder), [['groceries.txt', vscode.FileType.File]]);

    const bobBefore = await driveOf(BOB);
    await switchTo(BOB);
    // Bob has a folder of the same name: a path that resolved in "whoever is signed in" would land there.
    const bobsFolder = (await emulatorRequest<ApiFile>('POST', '/drive/v2/files', { title: notesTitle, mimeType: FOLDER_MIME }, BOB)).body;
    const bobWithFolder = await driveOf(BOB);
    assert.deepEqual(bobWithFolder.filter((row) => !bobBefore.includes(row)), [`${bobsFolder.id} ${notesTitle}`]);

    const typed = 'milk\neggs\n';
    await replaceText(document, typed);
    await saveIsRefused(document, typed);
    // Each operation of the file system, in Desk's words (as the provider answers VS Code).
    const fileSystem = api.drive.fileSystem;
    const refused = async (operation: () => unknown, message: string): Promise<void> => {
      await assert.rejects(Promise.resolve().then(operation), (error: Error) => {
        assert.equal(error.message, message);
        assert.match(error.name, /Unavailable \(FileSystemError\)/);
        return true;
      });
    };
    await refused(() => fileSystem.writeFile(uri, bytes(typed), { create: true, overwrite: true }), 'Sign in as alice@example.com to save groceries.txt.');
    await refused(() => fileSystem.stat(uri), 'Sign in as alice@example.com to open groceries.txt.');
    await refused(() => fileSystem.readFile(uri), 'Sign in as alice@example.com to open groceries.txt.');
    await refused(() => fileSystem.writeFile(vscode.Uri.joinPath(workspaceFolder, 'new.txt'), bytes(typed), { create: true, overwrite: false }), 'Sign in as alice@example.com to save new.txt.');
    await refused(() => fileSystem.createDirectory(vscode.Uri.joinPath(workspaceFolder, 'sub')), 'Sign in as alice@example.com to create sub.');
    await refused(() => fileSystem.delete(uri), 'Sign in as alice@example.com to delete groceries.txt.');
    await refused(() => fileSystem.rename(uri, vscode.Uri.joinPath(workspaceFolder, 'renamed.txt'), { overwrite: false }), 'Sign in as alice@example.com to rename or move groceries.txt.');
    // And through VS Code's own file service (what the Explorer and extensions use).
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(uri, bytes(typed))), /Sign in as alice@example\.com to open Notes/);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.delete(uri)), /Sign in as alice@example\.com to delete groceries\.txt\./);
    // Alice's workspace folder reopened as bob: the Explorer's listing and stat are refused, not bob's folder shown.
    await assert.rejects(Promise.resolve(vscode.workspace.fs.readDirectory(workspaceFolder)), new RegExp(`Sign in as alice@example\\.com to open ${notesTitle}\\.`));
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(workspaceFolder)), /Sign in as alice@example\.com/);
    assert.equal(document.getText(), typed, 'the text stays in the editor');
    assert.equal(document.isDirty, true);

    assert.deepEqual(await driveOf(BOB), bobWithFolder, 'nothing new in bob\'s Drive');
    const bobsChildren = await emulatorRequest<{ items: ApiFile[] }>('GET', `/drive/v2/files?q=${encodeURIComponent(`'${bobsFolder.id}' in parents`)}`, undefined, BOB);
    assert.deepEqual(bobsChildren.body.items, [], 'bob\'s folder of the same name stays empty');
    const aliceFile = await emulatorRequest<{ fileSize?: string; title: string }>('GET', `/drive/v2/files/${file.id}`, undefined, ALICE);
    assert.equal(aliceFile.body.title, 'groceries.txt');
    assert.equal(Number(aliceFile.body.fileSize ?? 0), 0, 'alice\'s file is as it was');

    // Back as alice, the same editor saves into alice's file.
    await switchTo(ALICE);
    assert.equal(await document.save(), true);
    const saved = await emulatorRequest<{ fileSize?: string }>('GET', `/drive/v2/files/${file.id}`, undefined, ALICE);
    assert.equal(Number(saved.body.fileSize), Buffer.byteLength(typed));
    await emulatorRequest('DELETE', `/drive/v2/files/${folder.id}`, undefined, ALICE);
    await emulatorRequest('DELETE', `/drive/v2/files/${bobsFolder.id}`, undefined, BOB);
  });

  it('desk-drive: a path-only URI (saved before Desk named accounts) is refused clearly unless Desk recorded the account that added its folder', async () => {
    const title = `Legacy ${stamp}`;
    const folder = (await emulatorRequest<ApiFile>('POST', '/drive/v2/files', { title, mimeType: FOLDER_MIME }, ALICE)).body;
    const pathOnly = vscode.Uri.from({ scheme: 'desk-drive', path: `/My Drive/${title}` });
    await assert.rejects(Promise.resolve(vscode.workspace.fs.readDirectory(pathOnly)), new RegExp(`“${title}” does not say which Google account it belongs to`));

    // "Add to Workspace" as alice records the folder's account (the call to VS Code is recorded, not made).
    await vscode.commands.executeCommand('desk.drive.revealFile', folder.id);
    const row = api.drive.treeView.selection.at(0);
    assert.ok(row && 'item' in row && row.item.id === folder.id);
    const workspace = vscode.workspace as unknown as Record<string, unknown>;
    const original = workspace.updateWorkspaceFolders;
    const added: Array<{ uri: vscode.Uri }> = [];
    workspace.updateWorkspaceFolders = (_start: number, _count: number, ...folders: Array<{ uri: vscode.Uri }>) => {
      added.push(...folders);
      return true;
    };
    try {
      assert.equal(await vscode.commands.executeCommand('desk.drive.addToWorkspace', row), true);
    } finally {
      workspace.updateWorkspaceFolders = original;
    }
    assert.equal(added[0]?.uri.authority, ALICE);
    assert.deepEqual(await vscode.workspace.fs.readDirectory(pathOnly), [], 'read as the account that added it');

    await switchTo(BOB);
    await emulatorRequest<ApiFile>('POST', '/drive/v2/files', { title, mimeType: FOLDER_MIME }, BOB);
    const bobBefore = await driveOf(BOB);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.readDirectory(pathOnly)), new RegExp(`Sign in as alice@example\\.com to open ${title}\\.`));
    await assert.rejects(Promise.resolve(api.drive.fileSystem.writeFile(vscode.Uri.joinPath(pathOnly, 'x.txt'), bytes('x'), { create: true, overwrite: false })), (error: Error) => error.message === 'Sign in as alice@example.com to save x.txt.');
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(vscode.Uri.joinPath(pathOnly, 'x.txt'), bytes('x'))), /Sign in as alice@example\.com to open Legacy/);
    assert.deepEqual(await driveOf(BOB), bobBefore, 'nothing new in bob\'s Drive');
    await switchTo(ALICE);
    await emulatorRequest('DELETE', `/drive/v2/files/${folder.id}`, undefined, ALICE);
  });

  it('the read-only documents of every other Desk scheme name their account, and read as Desk\'s refusal while another account is signed in', async () => {
    const documents: Array<{ scheme: string; path: string }> = [
      { scheme: 'desk-task', path: '/list/task.md' },
      { scheme: 'desk-calendar-event', path: '/primary/event.md' },
      { scheme: 'desk-calendar-info', path: '/Calendar Settings.md' },
      { scheme: 'desk-drive-properties', path: '/file/groceries.txt.md' },
      { scheme: 'desk-drive-app', path: '/app/Some app.json' },
      { scheme: 'desk-drive-revision', path: '/file/groceries (v1).txt' },
      { scheme: 'desk-book', path: '/shelves/me/1001/Gift ideas.md' },
    ];
    await switchTo(BOB);
    for (const { scheme, path } of documents) {
      const name = path.split('/').pop() ?? '';
      const text = (await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme, authority: ALICE, path, query: `n=${stamp}` }))).getText();
      // As the document's text: plain, a markdown heading (escaped) or a JSON comment.
      assert.equal(text.replace(/^(#|\/\/) /, '').replace(/\\(.)/g, '$1').trim(), `Sign in as alice@example.com to open ${name}.`, scheme);
      const legacy = (await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme, path, query: `n=${stamp}` }))).getText();
      assert.match(legacy, /does not say which Google account it belongs to/, `${scheme} without an account`);
    }
  });

  it('keeps views and memory per account: nothing of alice\'s shows while bob is the only one signed in (Tasks and Drive rows, the last text searched)', async () => {
    const list = (await emulatorRequest<ApiList>('POST', '/tasks/v1/users/@me/lists', { title: `Alice only ${stamp}` }, ALICE)).body;
    const file = (await emulatorRequest<ApiFile>('POST', '/drive/v2/files', { title: `alice-only-${stamp}.txt`, mimeType: 'text/plain' }, ALICE)).body;
    const listShown = async (): Promise<boolean> => (await api.tasks.tree.getChildren()).some((node) => node.kind === 'list' && node.listId === list.id);
    const fileShown = async (): Promise<boolean> => {
      const myDrive = (await api.drive.provider.getChildren()).find((node) => node.kind === 'section' && node.section === 'myDrive');
      return myDrive !== undefined && (await api.drive.provider.getChildren(myDrive)).some((node) => node.kind === 'file' && node.item.id === file.id);
    };
    /** The search box as the command opens it (pre-filled with the last text searched), then closed. */
    const searchBox = async (type?: string): Promise<string> => {
      const chosen = api.search.run({ debounceMs: 0 });
      const picker = await eventually('the search pick', () => api.search.picker);
      const value = picker.quickPick.value;
      if (type !== undefined) {
        picker.type(type);
        await eventually('the text searched remembered', () => (JSON.stringify(api.desk.extensionContext.globalState.get('desk.search.lastQuery') ?? {}).includes(type) ? true : undefined));
      }
      picker.quickPick.hide();
      await chosen;
      return value;
    };

    api.tasks.tree.refreshAll();
    api.drive.provider.refresh();
    await eventually('alice\'s list in the Tasks view', async () => ((await listShown()) ? true : undefined));
    await eventually('alice\'s file in My Drive', async () => ((await fileShown()) ? true : undefined));
    await searchBox(`groceries ${stamp}`);

    await switchTo(BOB);
    await eventually('the Tasks view without alice\'s list', async () => ((await listShown()) ? undefined : true));
    await eventually('My Drive without alice\'s file', async () => ((await fileShown()) ? undefined : true));
    assert.equal(await searchBox(), '', 'bob\'s search box does not show alice\'s last search');

    await switchTo(ALICE);
    assert.equal(await searchBox(), `groceries ${stamp}`, 'alice\'s is hers again');
    await emulatorRequest('DELETE', `/tasks/v1/users/@me/lists/${list.id}`, undefined, ALICE);
    await emulatorRequest('DELETE', `/drive/v2/files/${file.id}`, undefined, ALICE);
  });

  it('desk-tasks: alice\'s task notes saved while bob is signed in are refused with Desk\'s message; the text stays, bob\'s Tasks and alice\'s notes are untouched', async () => {
    const list = (await emulatorRequest<ApiList>('POST', '/tasks/v1/users/@me/lists', { title: `Errands ${stamp}` }, ALICE)).body;
    const task = (await emulatorRequest<ApiTask>('POST', `/tasks/v1/lists/${list.id}/tasks`, { title: 'Buy stamps', notes: 'First class' }, ALICE)).body;
    const uri = notesUri(vscode, ALICE, list.id, list.title, task);
    assert.equal(uri.authority, ALICE);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    assert.equal(document.getText(), 'First class');

    const bobBefore = await tasksOf(BOB);
    await switchTo(BOB);
    const typed = 'Second class will do';
    await replaceText(document, typed);
    await saveIsRefused(document, typed);
    await assert.rejects(Promise.resolve(api.tasks.notes.writeFile(uri, bytes(typed), { create: false, overwrite: true })), (error: Error) => error.message === 'Sign in as alice@example.com to save Buy stamps.md.');
    await assert.rejects(Promise.resolve(api.tasks.notes.stat(uri)), (error: Error) => error.message === 'Sign in as alice@example.com to open Buy stamps.md.');
    await assert.rejects(Promise.resolve(vscode.workspace.fs.readFile(uri)), /Sign in as alice@example\.com to open Buy stamps\.md\./);
    assert.equal(document.getText(), typed, 'the text stays in the editor');
    assert.deepEqual(await tasksOf(BOB), bobBefore, 'nothing new in bob\'s Tasks');
    assert.equal((await emulatorRequest<ApiTask>('GET', `/tasks/v1/lists/${list.id}/tasks/${task.id}`, undefined, ALICE)).body.notes, 'First class', 'alice\'s notes are as they were');

    await switchTo(ALICE);
    assert.equal(await document.save(), true);
    assert.equal((await emulatorRequest<ApiTask>('GET', `/tasks/v1/lists/${list.id}/tasks/${task.id}`, undefined, ALICE)).body.notes, typed);
    await emulatorRequest('DELETE', `/tasks/v1/users/@me/lists/${list.id}`, undefined, ALICE);
  });
});
