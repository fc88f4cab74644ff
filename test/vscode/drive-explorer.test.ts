// Drive folders in the Explorer, inside a real extension host against the harness's emulator: "Add to Workspace" on a
// folder row asks VS Code for a workspace folder over desk-drive: (the call is recorded: adding a folder to the suite's
// window would restart its extension host), and everything the Explorer does with that folder goes through
// vscode.workspace.fs to the Drive API: list, create a folder and a file, read, rename, move, copy, delete to Drive's
// trash (said so); a file created elsewhere reaches the Explorer through the change feed as a Created event.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import { activateAndSignIn, emulatorRequest, eventually, WindowStubs } from './support';

interface ApiFile { id: string; title: string; labels?: { trashed?: boolean }; parents?: Array<{ id: string }> }

describe('Drive folders in the Explorer', function () {
  this.timeout(60000);
  let api: DeskApi;
  const name = `Explorer ${Date.now()}`;
  let folderId = '';
  let folder: vscode.Uri;
  const stubs = new WindowStubs();
  const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
  const text = (data: Uint8Array): string => new TextDecoder().decode(data);

  async function childrenOnDrive(parentId: string): Promise<ApiFile[]> {
    const q = encodeURIComponent(`'${parentId}' in parents and trashed = false`);
    return (await emulatorRequest<{ items: ApiFile[] }>('GET', `/drive/v2/files?q=${q}`)).body.items;
  }

  before(async () => {
    api = await activateAndSignIn();
    folderId = (await emulatorRequest<ApiFile>('POST', '/drive/v2/files', { title: name, mimeType: 'application/vnd.google-apps.folder' })).body.id;
  });

  afterEach(() => { stubs.restore(); });

  // The folder goes with its contents, so the Drive suites after this one see the seeded My Drive.
  after(async () => {
    if (folderId) await emulatorRequest('DELETE', `/drive/v2/files/${encodeURIComponent(folderId)}`);
  });

  it('"Add to Workspace" on a folder row adds desk-drive://<account>/My Drive/<folder> after the workspace\'s folders', async () => {
    await vscode.commands.executeCommand('desk.drive.revealFile', folderId);
    const row = api.drive.treeView.selection.at(0);
    assert.ok(row && 'item' in row && row.item.id === folderId, 'the folder row is selected');
    const calls: unknown[][] = [];
    const workspace = vscode.workspace as unknown as Record<string, unknown>;
    const original = workspace.updateWorkspaceFolders;
    workspace.updateWorkspaceFolders = (...args: unknown[]) => {
      calls.push(args);
      return true;
    };
    try {
      assert.equal(await vscode.commands.executeCommand('desk.drive.addToWorkspace', row), true);
    } finally {
      workspace.updateWorkspaceFolders = original;
    }
    assert.equal(calls.length, 1);
    const [start, deleteCount, added] = calls[0] as [number, number, { uri: vscode.Uri; name: string }];
    assert.equal(start, vscode.workspace.workspaceFolders?.length ?? 0);
    assert.equal(deleteCount, 0);
    assert.equal(added.uri.toString(true), `desk-drive://alice@example.com/My Drive/${name}`);
    assert.equal(added.name, name);
    folder = added.uri;
  });

  it('lists, creates, reads, renames, moves and copies through the Drive API', async () => {
    const fs = vscode.workspace.fs;
    assert.deepEqual(await fs.readDirectory(folder), []);
    await fs.createDirectory(vscode.Uri.joinPath(folder, 'sub'));
    await fs.writeFile(vscode.Uri.joinPath(folder, 'a.txt'), bytes('hello'));
    assert.equal(text(await fs.readFile(vscode.Uri.joinPath(folder, 'a.txt'))), 'hello');
    assert.deepEqual((await fs.readDirectory(folder)).sort(), [['a.txt', vscode.FileType.File], ['sub', vscode.FileType.Directory]]);

    await fs.rename(vscode.Uri.joinPath(folder, 'a.txt'), vscode.Uri.joinPath(folder, 'b.txt'));
    await fs.rename(vscode.Uri.joinPath(folder, 'b.txt'), vscode.Uri.joinPath(folder, 'sub', 'b.txt'));
    const sub = (await childrenOnDrive(folderId)).find((file) => file.title === 'sub');
    assert.ok(sub);
    assert.deepEqual((await childrenOnDrive(sub.id)).map((file) => file.title), ['b.txt'], 'moved on Drive');

    await fs.copy(vscode.Uri.joinPath(folder, 'sub', 'b.txt'), vscode.Uri.joinPath(folder, 'c.txt'));
    assert.equal(text(await fs.readFile(vscode.Uri.joinPath(folder, 'c.txt'))), 'hello');
    assert.deepEqual((await childrenOnDrive(folderId)).map((file) => file.title).sort(), ['c.txt', 'sub']);
    await assert.rejects(Promise.resolve(fs.copy(vscode.Uri.joinPath(folder, 'sub'), vscode.Uri.joinPath(folder, 'sub2'))), /copies files, not folders/);
  });

  it('deletes to Drive\'s trash and says so', async () => {
    const said: string[] = [];
    stubs.stub('showInformationMessage', async (message: unknown) => {
      said.push(String(message));
      return undefined;
    });
    const copy = (await childrenOnDrive(folderId)).find((file) => file.title === 'c.txt');
    assert.ok(copy);
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder, 'c.txt'), { useTrash: false });
    const onDrive = (await emulatorRequest<ApiFile>('GET', `/drive/v2/files/${copy.id}`)).body;
    assert.equal(onDrive.labels?.trashed, true, 'in the trash, not deleted');
    await eventually('the notice', () => (said.some((message) => /Drive's trash/.test(message)) ? true : undefined));
  });

  it('VS Code\'s Undo of a Delete (the old content written back at the path) brings the same Drive file back from the trash', async () => {
    stubs.stub('showInformationMessage', async () => undefined);
    const fs = vscode.workspace.fs;
    const uri = vscode.Uri.joinPath(folder, 'undo.txt');
    await fs.writeFile(uri, bytes('keep me'));
    const original = (await childrenOnDrive(folderId)).find((file) => file.title === 'undo.txt');
    assert.ok(original);
    await fs.delete(uri, { useTrash: false });
    // What VS Code's bulk edit does on Undo: create the file again with the content it read before deleting.
    await fs.writeFile(uri, bytes('keep me'));
    const back = (await childrenOnDrive(folderId)).filter((file) => file.title === 'undo.txt');
    assert.deepEqual(back.map((file) => file.id), [original.id], 'the same file, out of the trash, not a copy');
    assert.equal(text(await fs.readFile(uri)), 'keep me');
    // Other content at that path after a delete is a new file.
    await fs.delete(uri, { useTrash: false });
    await fs.writeFile(uri, bytes('something else'));
    const fresh = (await childrenOnDrive(folderId)).filter((file) => file.title === 'undo.txt');
    assert.equal(fresh.length, 1);
    assert.notEqual(fresh[0]?.id, original.id);
  });

  it('lists a folder holding more files than one page of Drive\'s listing (1000) completely', async function () {
    this.timeout(180000);
    const big = (await emulatorRequest<ApiFile>('POST', '/drive/v2/files', { title: 'many', mimeType: 'application/vnd.google-apps.folder', parents: [{ id: folderId }] })).body;
    const titles = Array.from({ length: 1003 }, (_, index) => `file-${String(index).padStart(4, '0')}.txt`);
    // Created by another client, a few at a time.
    for (let start = 0; start < titles.length; start += 25) {
      await Promise.all(titles.slice(start, start + 25).map(async (title) => {
        const created = await emulatorRequest<ApiFile>('POST', '/drive/v2/files', { title, mimeType: 'text/plain', parents: [{ id: big.id }] });
        assert.equal(created.status, 200, `created ${title}`);
      }));
    }
    const listed = await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(folder, 'many'));
    assert.equal(listed.length, titles.length, 'every page followed');
    assert.deepEqual(listed.map(([entry]) => entry).sort(), titles);
    assert.ok(listed.every(([, type]) => type === vscode.FileType.File));
  });

  it('a Drive folder asked for while signed out (a workspace reopened so) fails clearly, says so once with Sign In, and signing in refreshes the Explorer', async () => {
    const desk = api.desk;
    const warnings: Array<{ message: string; actions: unknown[] }> = [];
    stubs.stub('showWarningMessage', async (message: unknown, ...actions: unknown[]) => {
      warnings.push({ message: String(message), actions });
      return undefined;
    });
    // The Explorer's refresh, recorded; and this window's folders as a workspace holding the Drive folder would have them.
    const executed: string[] = [];
    const commands = vscode.commands as unknown as Record<string, unknown>;
    const execute = vscode.commands.executeCommand;
    commands.executeCommand = (command: string, ...rest: unknown[]) => {
      executed.push(command);
      return execute(command, ...rest);
    };
    const workspace = vscode.workspace as unknown as Record<string, unknown>;
    const folders = Object.getOwnPropertyDescriptor(workspace, 'workspaceFolders');
    Object.defineProperty(workspace, 'workspaceFolders', { configurable: true, get: () => [{ uri: folder, name, index: 0 }] });
    try {
      for (const session of await desk.auth.listSessions()) await desk.auth.removeSession(session.id);
      await desk.session.check();
      assert.equal(desk.session.signedIn, false);
      // What VS Code asks when it opens the folder: its listing, and the folder's own settings files.
      for (let attempt = 0; attempt < 3; attempt++) await assert.rejects(Promise.resolve(vscode.workspace.fs.readDirectory(folder)), new RegExp(`Sign in as alice@example\\.com to open ${name}\\.`));
      await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(vscode.Uri.joinPath(folder, '.vscode', 'settings.json'))), /Sign in as alice@example\.com to open settings\.json\./);
      // Nobody signed in: the workspace's notice (the errors above name the folder's account).
      const notices = warnings.filter((warning) => /sign in to list the Drive folders of this workspace/.test(warning.message));
      assert.equal(notices.length, 1, `one notice for every failed request: ${JSON.stringify(warnings.map((warning) => warning.message))}`);
      assert.deepEqual(notices[0]?.actions, ['Sign In']);

      api = await activateAndSignIn();
      await eventually('the Explorer asked to list its folders again', () => (executed.includes('workbench.files.action.refreshFilesExplorer') ? true : undefined));
      assert.ok((await vscode.workspace.fs.readDirectory(folder)).some(([entry]) => entry === 'sub'), 'listed once signed in');
    } finally {
      commands.executeCommand = execute;
      if (folders) Object.defineProperty(workspace, 'workspaceFolders', folders);
      else delete workspace.workspaceFolders;
      // The suites after this one expect a session.
      api = await activateAndSignIn();
    }
  });

  it('reports a file created elsewhere to the Explorer through the change feed', async () => {
    await vscode.workspace.fs.readDirectory(folder); // the Explorer has the folder open
    const events: vscode.FileChangeEvent[] = [];
    const subscription = api.drive.fileSystem.onDidChangeFile((batch) => events.push(...batch));
    try {
      await eventually('the change poller', () => (api.drive.changesState().polling ? true : undefined));
      await emulatorRequest('POST', '/drive/v2/files', { title: 'from-elsewhere.txt', mimeType: 'text/plain', parents: [{ id: folderId }] });
      await eventually('a Created event in the folder', () => {
        api.drive.pollChangesNow();
        return events.find((event) => event.type === vscode.FileChangeType.Created && event.uri.path === `/My Drive/${name}/from-elsewhere.txt`) ? true : undefined;
      }, 30000);
    } finally {
      subscription.dispose();
    }
  });
});
