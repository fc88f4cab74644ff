// The Drive view, the desk-drive: file system and the change poller inside a real extension host, against the
// harness's emulator (demo data): sign in through the real provider, read the tree, open and save files, meet a
// save conflict, drag and drop, and see a change made by another client arrive.
import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fetch from 'node-fetch';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import { driveUri } from '../../src/features/drive/fs/driveFileSystem';
import { DRIVE_TREE_MIME } from '../../src/features/drive/tree/treeProvider';
import type { DriveNode, FileNode } from '../../src/features/drive/tree/model';
import { activateAndSignIn, emulatorRequest, emulatorToken, emulatorUrl, labelText, WindowStubs, eventually, replaceText, detailsTab } from './support';

interface ApiFile { id: string; title: string; etag?: string; parents?: { id: string }[]; mimeType?: string }

async function http(method: string, path: string, body?: { json?: unknown; text?: string }): Promise<{ status: number; text: string }> {
  // A token of alice's own, not Desk's: "another client" of the same account.
  const headers: Record<string, string> = { Authorization: `Bearer ${await emulatorToken()}` };
  let payload: string | undefined;
  if (body?.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body.json);
  } else if (body?.text !== undefined) {
    headers['Content-Type'] = 'text/plain';
    payload = body.text;
  }
  const response = await fetch(`${emulatorUrl()}${path}`, { method, headers, body: payload });
  return { status: response.status, text: await response.text() };
}

async function findFile(title: string): Promise<ApiFile> {
  const q = encodeURIComponent(`title = '${title}' and trashed = false`);
  const { text } = await http('GET', `/drive/v2/files?q=${q}`);
  const file = ((JSON.parse(text) as { items?: ApiFile[] }).items ?? [])[0];
  assert.ok(file, `no file "${title}" on the emulator`);
  return file;
}

async function contentOf(fileId: string): Promise<string> {
  return (await http('GET', `/drive/v2/files/${encodeURIComponent(fileId)}?alt=media`)).text;
}

/** Stubbed vscode.window functions, put back after every test. */
const stubs = new WindowStubs();

/** showWarningMessage answering `answer` (undefined: the modal's Cancel); returns the questions as they are asked. */
function answerWarnings(answer: string | undefined): unknown[][] {
  const asked: unknown[][] = [];
  stubs.stub('showWarningMessage', async (...args: unknown[]) => {
    asked.push(args);
    return answer;
  });
  return asked;
}

describe('Drive view in VS Code', function () {
  this.timeout(40000);
  let api: DeskApi;

  const label = (node: DriveNode): string => labelText(api.drive.provider.getTreeItem(node));

  async function child(parent: DriveNode | undefined, title: string): Promise<FileNode> {
    const rows = await api.drive.provider.getChildren(parent);
    const node = rows.find((row): row is FileNode => row.kind === 'file' && label(row) === title);
    assert.ok(node, `no "${title}" among ${rows.map(label).join(', ')}`);
    return node;
  }

  async function myDrive(): Promise<DriveNode> {
    const roots = await api.drive.provider.getChildren();
    const node = roots.find((root) => root.kind === 'section' && root.section === 'myDrive');
    assert.ok(node, 'no My Drive section');
    return node;
  }

  before(async () => {
    api = await activateAndSignIn();
  });

  afterEach(async () => {
    stubs.restore();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('lists the seeded My Drive with folders first, plus Shared drives, Shared with me and Trash', async () => {
    api.drive.provider.refresh();
    const roots = await api.drive.provider.getChildren();
    assert.deepEqual(roots.map(label), ['My Drive', 'Shared drives', 'Shared with me', 'Trash']);
    const top = (await api.drive.provider.getChildren(await myDrive())).map(label);
    assert.deepEqual(top.slice(0, 3), ['Notes', 'Photos', 'Projects']);
    assert.ok(top.includes('ideas.txt'));
    const projects = await child(await myDrive(), 'Projects');
    const desk = await child(projects, 'Desk');
    const roadmap = await child(desk, 'roadmap.txt');
    assert.equal(api.drive.provider.getParent(roadmap), desk, 'getParent leads back up for reveal');
    const item = api.drive.provider.getTreeItem(roadmap);
    assert.ok(item.iconPath instanceof vscode.ThemeIcon);
    assert.match(String(item.description), /★/, 'roadmap.txt is starred in the demo data');
    const tooltip = (await api.drive.provider.resolveTreeItem(item, roadmap)).tooltip;
    assert.ok(tooltip instanceof vscode.MarkdownString);
    assert.match(tooltip.value, /Owner: Alice/);
    const trash = (await api.drive.provider.getChildren(roots[3])).map(label);
    assert.deepEqual(trash, ['old-draft.txt']);
  });

  it('opens a file from the tree through the desk-drive file system', async () => {
    const notes = await child(await myDrive(), 'Notes');
    const groceries = await child(notes, 'groceries.txt');
    await vscode.commands.executeCommand('desk.drive.open', groceries);
    const editor = await eventually('the editor', () => vscode.window.activeTextEditor?.document.uri.scheme === 'desk-drive' ? vscode.window.activeTextEditor : undefined);
    assert.equal(editor.document.getText(), await contentOf(groceries.item.id));
    assert.match(editor.document.uri.path, /\/groceries\.txt$/);
  });

  it('saves an edit back to Drive', async () => {
    const file = await findFile('meeting-notes.md');
    const document = await vscode.workspace.openTextDocument(driveUri(vscode, 'alice@example.com', file));
    await replaceText(document, '# Weekly sync\n\nSaved from VS Code.\n');
    const notesRow = await child(await child(await myDrive(), 'Notes'), 'meeting-notes.md');
    assert.match(String(api.drive.provider.getTreeItem(notesRow).description), /\b86 B\b/, 'the seeded size');
    assert.equal(await document.save(), true);
    assert.equal(await contentOf(file.id), '# Weekly sync\n\nSaved from VS Code.\n');
    // The tree's row follows: its size is the saved content's, not the size it had when listed.
    api.drive.pollChangesNow();
    await eventually('the new size on the row', async () => {
      const row = await child(await child(await myDrive(), 'Notes'), 'meeting-notes.md');
      return /\b35 B\b/.test(String(api.drive.provider.getTreeItem(row).description)) ? true : undefined;
    });
  });

  it('a conflicting save asks Compare / Overwrite / Cancel; Cancel keeps both texts, Overwrite wins', async () => {
    const file = await findFile('design.md');
    // Installed first: whichever save reaches the conflict (ours, or one VS Code starts), the user answers here.
    const asked = answerWarnings(undefined); // the modal's Cancel
    const document = await vscode.workspace.openTextDocument(driveUri(vscode, 'alice@example.com', file));
    await vscode.window.showTextDocument(document);
    await replaceText(document, 'My version\n');
    // Someone else saves first.
    const upload = await http('PUT', `/upload/drive/v2/files/${encodeURIComponent(file.id)}?uploadType=media`, { text: 'Their version\n' });
    assert.equal(upload.status, 200);

    assert.equal(await document.save(), false, 'a cancelled conflict must not count as saved');
    await eventually('the conflict question', () => (asked.length > 0 ? true : undefined));
    assert.equal(asked.length, 1);
    assert.match(String(asked[0]?.[0]), /changed on Drive/);
    assert.equal((asked[0]?.[1] as { modal?: boolean } | undefined)?.modal, true, 'the choice is modal');
    assert.deepEqual(asked[0]?.slice(2), ['Compare', 'Overwrite']);
    assert.equal(await contentOf(file.id), 'Their version\n', 'Cancel leaves Drive as the other client left it');
    // The declined save ends with the document dirty and the text as typed, once that reached this host.
    await eventually('the user\'s text, unsaved, in the editor', () => (document.isDirty && document.getText() === 'My version\n' ? true : undefined));

    stubs.restore();
    stubs.stub('showWarningMessage', async () => 'Overwrite');
    assert.equal(await document.save(), true);
    assert.equal(await contentOf(file.id), 'My version\n');
  });

  describe('auto save', () => {
    before(async () => {
      await vscode.workspace.getConfiguration('files').update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
      await vscode.workspace.getConfiguration('files').update('autoSaveDelay', 100, vscode.ConfigurationTarget.Global);
    });
    after(async () => {
      await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
      await vscode.workspace.getConfiguration('files').update('autoSaveDelay', undefined, vscode.ConfigurationTarget.Global);
    });

    it('auto-saves an edit; a change made on Drive meanwhile is asked about once, nothing of theirs overwritten, the typed text kept unsaved', async () => {
      const created = await http('POST', '/drive/v2/files', { json: { title: 'auto-save.txt', mimeType: 'text/plain' } });
      const file = JSON.parse(created.text) as ApiFile;
      assert.equal((await http('PUT', `/upload/drive/v2/files/${encodeURIComponent(file.id)}?uploadType=media`, { text: 'First\n' })).status, 200);
      const asked = answerWarnings(undefined); // the modal's Cancel
      const document = await vscode.workspace.openTextDocument(driveUri(vscode, 'alice@example.com', file));
      await vscode.window.showTextDocument(document);
      await replaceText(document, 'Auto-saved\n');
      await eventually('the auto save on Drive', async () => (!document.isDirty && (await contentOf(file.id)) === 'Auto-saved\n' ? true : undefined));

      // The user types and, before VS Code auto-saves, someone else saves: the auto save meets the change and asks.
      // (Typed after their save reached the editor, the text would be theirs reloaded: no conflict to meet.)
      await vscode.workspace.getConfiguration('files').update('autoSaveDelay', 3000, vscode.ConfigurationTarget.Global);
      await replaceText(document, 'My version\n');
      const upload = await http('PUT', `/upload/drive/v2/files/${encodeURIComponent(file.id)}?uploadType=media`, { text: 'Their version\n' });
      assert.equal(upload.status, 200);
      await eventually('the conflict question', () => (asked.length > 0 ? true : undefined));
      assert.match(String(asked[0]?.[0]), /changed on Drive/);
      await eventually('the user\'s text, unsaved, in the editor', () => (document.isDirty && document.getText() === 'My version\n' ? true : undefined));
      assert.equal(await contentOf(file.id), 'Their version\n', 'Cancel leaves Drive as the other client left it');
      assert.equal(asked.length, 1, 'asked once: the declined auto save is refused, and VS Code stops auto-saving the document');

      // The user saves: asked again, and Overwrite saves the typed text.
      stubs.restore();
      const askedAgain = answerWarnings('Overwrite');
      assert.equal(await document.save(), true);
      assert.equal(askedAgain.length, 1);
      assert.equal(await contentOf(file.id), 'My version\n');
    });
  });

  it('Compare opens a diff of the Drive version against the user\'s', async () => {
    const file = await findFile('groceries.txt');
    const document = await vscode.workspace.openTextDocument(driveUri(vscode, 'alice@example.com', file));
    await vscode.window.showTextDocument(document);
    await replaceText(document, 'tea\n');
    // As long as the user's text: VS Code's own "newer file" check compares sizes, Desk's stat must still refuse.
    await http('PUT', `/upload/drive/v2/files/${encodeURIComponent(file.id)}?uploadType=media`, { text: 'jam\n' });
    stubs.stub('showWarningMessage', async () => 'Compare');
    assert.equal(await document.save(), false);
    const remote = await eventually('the remote side of the diff', () => vscode.workspace.textDocuments.find((doc) => doc.uri.scheme === 'desk-drive' && doc.uri.query === 'remote'));
    assert.equal(remote.getText(), 'jam\n');
    await eventually('the typed text, still unsaved, nothing to revert', () => (document.isDirty && document.getText() === 'tea\n' ? true : undefined));
    assert.equal(await contentOf(file.id), 'jam\n');

    // The user merges in the diff and saves again: asked again, and Overwrite saves the merged text.
    await replaceText(document, 'jam\ntea\n');
    stubs.restore();
    const asked = answerWarnings('Overwrite');
    assert.equal(await document.save(), true);
    assert.equal(asked.length, 1);
    assert.equal(await contentOf(file.id), 'jam\ntea\n');
    assert.equal(document.isDirty, false);
  });

  it('opens a native document as a read-only text export', async () => {
    const plan = await findFile('Project plan');
    const uri = driveUri(vscode, 'alice@example.com', plan);
    const document = await vscode.workspace.openTextDocument(uri);
    assert.match(document.getText(), /Goal: ship Desk/);
    const stat = await vscode.workspace.fs.stat(uri);
    assert.equal(stat.permissions, vscode.FilePermission.Readonly);
  });

  it('moves a file by drag and drop between folders (files.patch addParents/removeParents)', async () => {
    const root = await myDrive();
    const notes = await child(root, 'Notes');
    const photos = await child(root, 'Photos');
    const groceries = await child(notes, 'groceries.txt');
    const transfer = new vscode.DataTransfer();
    transfer.set(DRIVE_TREE_MIME, new vscode.DataTransferItem([groceries]));
    await api.drive.provider.handleDrop(photos, transfer, new vscode.CancellationTokenSource().token);
    const moved = await findFile('groceries.txt');
    assert.deepEqual(moved.parents?.map((parent) => parent.id), [photos.item.id]);
    assert.ok((await api.drive.provider.getChildren(photos)).some((node) => label(node) === 'groceries.txt'), 'the target folder shows it');
    assert.ok(!(await api.drive.provider.getChildren(notes)).some((node) => label(node) === 'groceries.txt'), 'the source folder no longer does');
  });

  it('creates a folder, uploads a large file into it (resumable) and downloads it again, byte for byte', async () => {
    const errors = stubs.collect('showErrorMessage');
    const root = await myDrive();
    stubs.stub('showInputBox', async () => 'Uploads from VS Code');
    await vscode.commands.executeCommand('desk.drive.newFolder', root);
    const folder = await child(root, 'Uploads from VS Code');

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-drive-'));
    const source = path.join(dir, 'big.bin');
    const bytes = randomBytes(6 * 1024 * 1024 + 123);
    fs.writeFileSync(source, bytes);
    stubs.stub('showOpenDialog', async () => [vscode.Uri.file(source)]);
    await vscode.commands.executeCommand('desk.drive.uploadFiles', folder);
    const uploaded = await child(folder, 'big.bin');
    assert.equal(uploaded.item.fileSize, String(bytes.length));
    assert.equal(uploaded.item.md5Checksum, createHash('md5').update(bytes).digest('hex'));

    const target = path.join(dir, 'downloaded.bin');
    stubs.stub('showSaveDialog', async () => vscode.Uri.file(target));
    await vscode.commands.executeCommand('desk.drive.download', uploaded);
    assert.ok(fs.readFileSync(target).equals(bytes), 'the download differs from the upload');
    assert.equal(fs.existsSync(`${target}.desk-partial`), false);
    assert.deepEqual(errors, []);
  });

  it('exports a native document in a format the service offers', async () => {
    const errors = stubs.collect('showErrorMessage');
    const projects = await child(await myDrive(), 'Projects');
    const budget = await child(projects, 'Budget');
    const offered: string[] = [];
    stubs.stub('showQuickPick', async (items: unknown) => {
      const list = (await items) as { label: string }[];
      offered.push(...list.map((item) => item.label));
      return list.find((item) => item.label === 'text/csv');
    });
    const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'desk-export-')), 'budget.csv');
    stubs.stub('showSaveDialog', async () => vscode.Uri.file(target));
    await vscode.commands.executeCommand('desk.drive.export', budget);
    assert.ok(offered.includes('text/csv'), `offered: ${offered.join(', ')}`);
    assert.match(fs.readFileSync(target, 'utf8'), /Laptop,1200/);
    assert.deepEqual(errors, []);
  });

  it('renames, stars, trashes and restores; deleting forever needs a modal confirmation', async () => {
    const errors = stubs.collect('showErrorMessage');
    const root = await myDrive();
    const ideas = await child(root, 'ideas.txt');
    stubs.stub('showInputBox', async () => 'ideas-renamed.txt');
    await vscode.commands.executeCommand('desk.drive.rename', ideas);
    assert.equal((await findFile('ideas-renamed.txt')).id, ideas.item.id);
    assert.equal(label(ideas), 'ideas-renamed.txt', 'the row shows the new name');

    await vscode.commands.executeCommand('desk.drive.unstar', ideas);
    const unstarred = JSON.parse((await http('GET', `/drive/v2/files/${ideas.item.id}`)).text) as { labels: { starred: boolean } };
    assert.equal(unstarred.labels.starred, false);

    const told = stubs.collect('showInformationMessage');
    await vscode.commands.executeCommand('desk.drive.trash', ideas);
    const trashSection = (await api.drive.provider.getChildren()).find((node) => node.kind === 'section' && node.section === 'trash');
    const inTrash = await child(trashSection, 'ideas-renamed.txt');
    assert.ok(!(await api.drive.provider.getChildren(root)).some((node) => label(node) === 'ideas-renamed.txt'));
    await vscode.commands.executeCommand('desk.drive.untrash', inTrash);
    await child(root, 'ideas-renamed.txt');
    assert.equal(told.at(-1), 'Restored “ideas-renamed.txt” to the folder it was in.', 'a restore says where the file went');

    const questions = answerWarnings(undefined);
    const again = await child(root, 'ideas-renamed.txt');
    await vscode.commands.executeCommand('desk.drive.delete', again);
    assert.equal(questions.length, 1);
    assert.equal((questions[0]?.[1] as { modal?: boolean }).modal, true);
    assert.equal((await http('GET', `/drive/v2/files/${ideas.item.id}`)).status, 200, 'declining keeps the file');
    stubs.restore();
    stubs.stub('showWarningMessage', async () => 'Delete Forever');
    await vscode.commands.executeCommand('desk.drive.delete', again);
    assert.equal((await http('GET', `/drive/v2/files/${ideas.item.id}`)).status, 404);
    assert.deepEqual(errors, []);
  });

  it('uploads a folder tree, copies a file, and adds/removes a second parent', async () => {
    const errors = stubs.collect('showErrorMessage');
    const root = await myDrive();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-tree-'));
    const project = path.join(dir, 'site');
    fs.mkdirSync(path.join(project, 'css'), { recursive: true });
    fs.writeFileSync(path.join(project, 'index.html'), '<h1>hi</h1>\n');
    fs.writeFileSync(path.join(project, 'css', 'main.css'), 'h1 { color: teal }\n');
    stubs.stub('showOpenDialog', async () => [vscode.Uri.file(project)]);
    await vscode.commands.executeCommand('desk.drive.uploadFolder', root);
    const site = await child(root, 'site');
    assert.deepEqual((await api.drive.provider.getChildren(site)).map(label), ['css', 'index.html']);
    const css = await child(await child(site, 'css'), 'main.css');
    assert.equal(await contentOf(css.item.id), 'h1 { color: teal }\n');
    assert.equal(css.item.mimeType, 'text/css');

    const index = await child(site, 'index.html');
    await vscode.commands.executeCommand('desk.drive.copy', index);
    const copy = await child(site, 'Copy of index.html');
    assert.equal(await contentOf(copy.item.id), '<h1>hi</h1>\n');

    stubs.stub('showQuickPick', async (items: unknown) => ((await items) as { label: string }[]).find((item) => item.label.endsWith(' Photos')));
    await vscode.commands.executeCommand('desk.drive.addParent', index);
    const photos = await child(root, 'Photos');
    assert.ok((await api.drive.provider.getChildren(photos)).some((node) => label(node) === 'index.html'), 'Photos lists it too');
    const withTwo = JSON.parse((await http('GET', `/drive/v2/files/${index.item.id}`)).text) as ApiFile;
    assert.deepEqual(withTwo.parents?.map((parent) => parent.id).sort(), [site.item.id, photos.item.id].sort());

    stubs.restore();
    const errorsAfter = stubs.collect('showErrorMessage');
    stubs.stub('showQuickPick', async (items: unknown) => ((await items) as { label: string; id: string }[]).find((item) => item.id === photos.item.id));
    await vscode.commands.executeCommand('desk.drive.removeParent', index);
    const withOne = JSON.parse((await http('GET', `/drive/v2/files/${index.item.id}`)).text) as ApiFile;
    assert.deepEqual(withOne.parents?.map((parent) => parent.id), [site.item.id]);

    // Back into Photos, then "remove from this folder" on its row under site: the folder lets go of it (children.delete).
    stubs.stub('showQuickPick', async (items: unknown) => ((await items) as { label: string }[]).find((item) => item.label.endsWith(' Photos')));
    await vscode.commands.executeCommand('desk.drive.addParent', index);
    stubs.stub('showQuickPick', async (items: unknown) => ((await items) as { label: string; id: string }[])[0]);
    await vscode.commands.executeCommand('desk.drive.removeParent', index);
    const onlyPhotos = JSON.parse((await http('GET', `/drive/v2/files/${index.item.id}`)).text) as ApiFile;
    assert.deepEqual(onlyPhotos.parents?.map((parent) => parent.id), [photos.item.id], 'the folder it was clicked under is offered first, and let go of it');
    await eventually('index.html to leave site', async () => ((await api.drive.provider.getChildren(site)).some((node) => label(node) === 'index.html') ? undefined : true));
    assert.deepEqual([...errors, ...errorsAfter], []);
  });

  it('shows a file\'s details in words as one read-only tab named after it, and the account in "about"', async () => {
    const errors = stubs.collect('showErrorMessage');
    const photos = await child(await myDrive(), 'Photos');
    const pixel = await child(photos, 'pixel.png');
    await vscode.commands.executeCommand('desk.drive.properties', pixel);
    const tabs = await detailsTab('pixel.png');
    assert.deepEqual(tabs.filter((tab) => tab.label === 'pixel.png').map((tab) => tab.input instanceof vscode.TabInputWebview), [true], `one tab named after the file: ${tabs.map((tab) => tab.label).join(', ')}`);
    assert.ok(!tabs.some((tab) => /\.json$/.test(tab.label)), 'a raw JSON tab');
    const page = vscode.workspace.textDocuments.find((document) => document.uri.scheme === 'desk-drive-properties' && document.uri.path.startsWith(`/${pixel.item.id}/`));
    assert.ok(page, 'the details document is not open');
    const text = page.getText();
    assert.doesNotMatch(text, /"kind"|drive#file|selfLink|\d{4}-\d\d-\d\dT/, 'raw API values on the page');
    assert.match(text, /\| Kind \| PNG image \|/);
    assert.match(text, /\| In \| Photos \|/, 'parents.list, titled');
    assert.match(text, /\| Owner \| Alice Demo \|/);

    await vscode.commands.executeCommand('desk.drive.properties', photos);
    await detailsTab('Photos');
    const folderPage = vscode.workspace.textDocuments.find((document) => document.uri.scheme === 'desk-drive-properties' && document.uri.path.startsWith(`/${photos.item.id}/`));
    const children = await emulatorRequest<{ items: { id: string }[] }>('GET', `/drive/v2/files/${photos.item.id}/children`);
    assert.ok(children.body.items.length > 0);
    const count = children.body.items.length;
    assert.match(folderPage?.getText() ?? '', new RegExp(`\\| Contains \\| ${count === 1 ? '1 item' : `${count} items`} \\|`));

    const messages: string[] = [];
    stubs.stub('showInformationMessage', async (message: unknown) => {
      messages.push(String(message));
      return undefined;
    });
    await vscode.commands.executeCommand('desk.drive.about');
    assert.match(messages[0] ?? '', /alice@example\.com/);
    assert.match(messages[0] ?? '', /used/);
    assert.deepEqual(errors, []);
  });

  it('adds an existing file to a folder from a title search (children.insert), and lists installed Drive apps', async () => {
    const errors = stubs.collect('showErrorMessage');
    const root = await myDrive();
    const notes = await child(root, 'Notes');
    const made = await emulatorRequest<{ id: string }>('POST', '/drive/v2/files', { title: "Bob's addable.txt", mimeType: 'text/plain' });
    assert.equal(made.status, 200);
    const addable = { item: { id: made.body.id } };
    const typed: string[] = [];
    stubs.stub('showInputBox', async () => {
      typed.push("bob's");
      return "bob's";
    });
    let offered: string[] = [];
    stubs.stub('showQuickPick', async (items: unknown) => {
      const choices = (await items) as { label: string; item: { id: string } }[];
      offered = choices.map((choice) => choice.item.id);
      return choices.find((choice) => choice.item.id === addable.item.id);
    });
    await vscode.commands.executeCommand('desk.drive.addExistingFile', notes);
    assert.deepEqual(typed, ["bob's"]);
    assert.ok(offered.includes(addable.item.id), 'the search, quote and all, found the file');
    const reference = await emulatorRequest<{ id: string }>('GET', `/drive/v2/files/${notes.item.id}/children/${addable.item.id}`);
    assert.equal(reference.status, 200, 'Notes now holds the file');
    assert.ok((await api.drive.provider.getChildren(notes)).some((node) => label(node) === "Bob's addable.txt"), 'the Notes row shows it');
    const parents = await emulatorRequest<{ items: { id: string }[] }>('GET', `/drive/v2/files/${addable.item.id}/parents`);
    assert.equal(parents.body.items.length, 2, 'and it stays in My Drive too');

    // Searching again leaves out what the folder already holds.
    offered = [];
    await vscode.commands.executeCommand('desk.drive.addExistingFile', notes);
    assert.ok(!offered.includes(addable.item.id));
    assert.equal((await emulatorRequest('DELETE', `/drive/v2/files/${notes.item.id}/children/${addable.item.id}`)).status, 204);
    api.drive.provider.refresh(notes);

    stubs.restore();
    const appErrors = stubs.collect('showErrorMessage');
    let appNames: string[] = [];
    stubs.stub('showQuickPick', async (items: unknown) => {
      const choices = (await items) as { label: string; app: { id: string } }[];
      appNames = choices.map((choice) => choice.label);
      return choices.find((choice) => choice.app.id === 'desk-notes');
    });
    await vscode.commands.executeCommand('desk.drive.apps');
    const listed = await emulatorRequest<{ items: { name: string }[] }>('GET', '/drive/v2/apps');
    assert.deepEqual(appNames, listed.body.items.map((app) => app.name));
    const editor = await eventually('the app document', () => vscode.window.activeTextEditor?.document.uri.scheme === 'desk-drive-app' ? vscode.window.activeTextEditor : undefined);
    const expected = await emulatorRequest<Record<string, unknown>>('GET', '/drive/v2/apps/desk-notes');
    assert.deepEqual(JSON.parse(editor.document.getText()), expected.body);
    assert.deepEqual([...errors, ...appErrors], []);
  });

  it('notices a file created by another client and shows it in the status bar', async () => {
    await eventually('the change poller', () => (api.drive.changesState().polling ? true : undefined));
    const created = await http('POST', '/drive/v2/files', { json: { title: 'from-another-client.txt', mimeType: 'text/plain', parents: [{ id: 'root' }] } });
    assert.equal(created.status, 200);
    const state = await eventually('the change to arrive', () => {
      api.drive.pollChangesNow();
      const current = api.drive.changesState();
      return current.entries.some((entry) => entry.title === 'from-another-client.txt') ? current : undefined;
    });
    assert.ok(state.unseen >= 1);
    assert.match(state.statusText, /\$\(cloud\)/);
    const own = state.entries.find((entry) => entry.title === 'meeting-notes.md');
    assert.equal(own, undefined, 'Desk\'s own save is not announced as news');
    // The My Drive listing was refreshed for the new file, without a full reload.
    await eventually('My Drive to list the new file', async () =>
      (await api.drive.provider.getChildren(await myDrive())).some((node) => label(node) === 'from-another-client.txt') ? true : undefined);
  });

  describe('folder paths in editors', () => {
    // VS Code for the Web auto-saves after a delay by default: that save would race the one a test makes.
    before(async () => {
      await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    });
    after(async () => {
      await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    });

    it('opens a file from the tree at its folder path (breadcrumb), titled by its name (tab), resolved by its id', async () => {
      const desk = await child(await child(await myDrive(), 'Projects'), 'Desk');
      const roadmap = await child(desk, 'roadmap.txt');
      await vscode.commands.executeCommand('desk.drive.open', roadmap);
      const editor = await eventually('the editor', () => (vscode.window.activeTextEditor?.document.uri.scheme === 'desk-drive' ? vscode.window.activeTextEditor : undefined));
      const uri = editor.document.uri;
      assert.equal(uri.path, '/My Drive/Projects/Desk/roadmap.txt', 'the path is the folders, not the file id');
      assert.equal(new URLSearchParams(uri.query).get('id'), roadmap.item.id, 'the id travels in the query');
      assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.label, 'roadmap.txt');
      assert.equal(editor.document.getText(), await contentOf(roadmap.item.id));
      // The breadcrumb's folders are the URI's dirnames (query and all): they resolve by path, as folders.
      const folder = uri.with({ path: '/My Drive/Projects/Desk' });
      assert.equal((await vscode.workspace.fs.stat(folder)).type, vscode.FileType.Directory);
      const entries = await vscode.workspace.fs.readDirectory(folder);
      assert.ok(entries.some(([name, type]) => name === 'roadmap.txt' && type === vscode.FileType.File), `listed: ${entries.map(([name]) => name).join(', ')}`);
    });

    it('still saves a file renamed and moved elsewhere while it is open, and reopening from the tree shows the new path', async () => {
      const root = await myDrive();
      const projects = await child(root, 'Projects');
      const desk = await child(projects, 'Desk');
      const roadmap = await child(desk, 'roadmap.txt');
      await vscode.commands.executeCommand('desk.drive.open', roadmap);
      const editor = await eventually('the editor', () => (vscode.window.activeTextEditor?.document.uri.scheme === 'desk-drive' ? vscode.window.activeTextEditor : undefined));
      const opened = editor.document.uri.toString();
      // Another client renames it and moves it from Desk to Projects.
      const moved = await http('PATCH', `/drive/v2/files/${roadmap.item.id}?addParents=${projects.item.id}&removeParents=${desk.item.id}`, { json: { title: 'roadmap-2026.txt' } });
      assert.equal(moved.status, 200, moved.text);

      await replaceText(editor.document, 'Q3: breadcrumbs show folders\n');
      assert.equal(await editor.document.save(), true);
      assert.equal(await contentOf(roadmap.item.id), 'Q3: breadcrumbs show folders\n');
      assert.equal(editor.document.uri.toString(), opened, 'the open editor keeps its URI');

      api.drive.provider.refresh();
      const renamed = await child(await child(await myDrive(), 'Projects'), 'roadmap-2026.txt');
      await vscode.commands.executeCommand('desk.drive.open', renamed);
      await eventually('the reopened editor', () => (vscode.window.activeTextEditor?.document.uri.path === '/My Drive/Projects/roadmap-2026.txt' ? true : undefined));
      assert.equal(vscode.window.activeTextEditor?.document.getText(), 'Q3: breadcrumbs show folders\n');

      // Put it back for whatever runs later in this host.
      const back = await http('PATCH', `/drive/v2/files/${roadmap.item.id}?addParents=${desk.item.id}&removeParents=${projects.item.id}`, { json: { title: 'roadmap.txt' } });
      assert.equal(back.status, 200);
      api.drive.provider.refresh();
    });
  });
});
