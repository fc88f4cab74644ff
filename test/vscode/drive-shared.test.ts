// Shared drives in the Drive tree inside a real extension host, against the harness's emulator: the seeded "Team Desk"
// beside My Drive, browsing it and opening (and saving) a file through desk-drive:, then create, rename, hide, show
// the hidden ones, unhide, members (add with a role, change it, remove) and delete (refused while not empty,
// confirmed once empty), each driven from the tree's rows or the palette through stubbed dialogs and checked through
// the API, as alice and as bob.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import type { DriveNode, FileNode } from '../../src/features/drive/tree/model';
import { activateAndSignIn, emulatorRequest, eventually, labelText, replaceText, WindowStubs, EXTENSION_ID, DialogStep, scriptDialogs } from './support';

const BOB = 'bob@example.com';
const ALL = 'supportsAllDrives=true';

interface ApiDrive { id: string; name?: string; hidden?: boolean }
interface ApiPermission { id: string; role?: string; emailAddress?: string }

const stubs = new WindowStubs();

describe('Shared drives in the Drive view', function () {
  this.timeout(60000);
  let api: DeskApi;
  let problems: string[];
  let errors: string[];
  let infos: string[];
  let confirmations: string[];
  let confirmAnswer: string | undefined;

  const label = (node: DriveNode): string => labelText(api.drive.provider.getTreeItem(node));

  /** Answers the dialogs in order; once the script is done, every further question is dismissed (Escape). */
  function script(steps: readonly DialogStep[]): void {
    scriptDialogs(stubs, steps, problems);
  }

  async function sharedDrivesSection(): Promise<DriveNode> {
    const roots = await api.drive.provider.getChildren();
    const node = roots.find((root) => root.kind === 'section' && root.section === 'sharedDrives');
    assert.ok(node, `no Shared drives section among ${roots.map(label).join(', ')}`);
    return node;
  }

  async function rows(parent: DriveNode): Promise<FileNode[]> {
    return (await api.drive.provider.getChildren(parent)).filter((row): row is FileNode => row.kind === 'file');
  }

  async function child(parent: DriveNode, title: string): Promise<FileNode> {
    const found = (await rows(parent)).find((row) => label(row) === title);
    assert.ok(found, `no "${title}" among ${(await rows(parent)).map(label).join(', ')}`);
    return found;
  }

  /** The drive's row, once the section (reloaded by the command) lists it. */
  async function driveRow(name: string): Promise<FileNode> {
    return eventually(`the row of “${name}”`, async () => (await rows(await sharedDrivesSection())).find((row) => label(row) === name));
  }

  const driveNamed = async (name: string, as?: string): Promise<ApiDrive | undefined> =>
    (await emulatorRequest<{ items: ApiDrive[] }>('GET', `/drive/v2/drives?maxResults=100&q=${encodeURIComponent(`name = '${name}'`)}`, undefined, as)).body.items[0];

  before(async () => {
    api = await activateAndSignIn();
  });

  beforeEach(() => {
    problems = [];
    errors = [];
    infos = [];
    confirmations = [];
    confirmAnswer = undefined;
    stubs.stub('showErrorMessage', async (message: unknown) => void errors.push(String(message)));
    stubs.stub('showInformationMessage', async (message: unknown) => void infos.push(String(message)));
    stubs.stub('showWarningMessage', async (message: unknown, options: unknown) => {
      confirmations.push(`${String(message)}${(options as { modal?: boolean } | undefined)?.modal ? ' (modal)' : ''}`);
      return confirmAnswer;
    });
  });

  afterEach(async () => {
    stubs.restore();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('shows the seeded "Team Desk" beside My Drive, browses it and opens and saves a file of it through desk-drive:', async () => {
    const roots = await api.drive.provider.getChildren();
    assert.deepEqual(roots.map(label).slice(0, 2), ['My Drive', 'Shared drives']);
    const team = await driveRow('Team Desk');
    const item = api.drive.provider.getTreeItem(team);
    assert.match(String(item.contextValue), /\bsharedDrive\b.*\bcanManageMembers\b/);
    const tooltip = (await api.drive.provider.resolveTreeItem(item, team)).tooltip;
    assert.match(tooltip instanceof vscode.MarkdownString ? tooltip.value : String(tooltip), /Your role: Manager/);
    assert.deepEqual((await rows(team)).map(label), ['Planning', 'team-handbook.md']);
    const sprint = await child(await child(team, 'Planning'), 'sprint-12.md');

    await vscode.commands.executeCommand('desk.drive.open', sprint);
    const editor = await eventually('the editor', () => (vscode.window.activeTextEditor?.document.uri.scheme === 'desk-drive' ? vscode.window.activeTextEditor : undefined));
    assert.equal(editor.document.uri.path, '/Shared drives/Team Desk/Planning/sprint-12.md');
    assert.match(editor.document.getText(), /# Sprint 12/);
    await replaceText(editor.document, '# Sprint 12\n\n- [x] Shared drives in the tree\n');
    assert.equal(await editor.document.save(), true);
    const saved = await emulatorRequest<{ fileSize?: string }>('GET', `/drive/v2/files/${sprint.item.id}?${ALL}`, undefined, BOB);
    assert.equal(saved.body.fileSize, String('# Sprint 12\n\n- [x] Shared drives in the tree\n'.length), 'bob, a member, sees alice\'s save');
    // The breadcrumb's folder resolves by its path too.
    const folder = await vscode.workspace.fs.readDirectory(editor.document.uri.with({ path: '/Shared drives/Team Desk/Planning', query: '' }));
    assert.ok(folder.some(([name]) => name === 'sprint-12.md'));
    assert.deepEqual([...problems, ...errors], []);
  });

  it('creates, renames, hides, shows hidden drives, unhides and deletes only once empty, with a confirmation', async () => {
    const name = `Drive ${randomBytes(3).toString('hex')}`;
    script([{ type: name, rejects: ['', '   '] }]);
    await vscode.commands.executeCommand('desk.drive.createSharedDrive');
    assert.deepEqual([...problems, ...errors], []);
    const created = await driveNamed(name);
    assert.ok(created, 'the drive exists');
    let row = await driveRow(name);

    script([{ type: `${name} renamed` }]);
    await vscode.commands.executeCommand('desk.drive.renameSharedDrive', row);
    assert.deepEqual([...problems, ...errors], []);
    assert.equal((await emulatorRequest<ApiDrive>('GET', `/drive/v2/drives/${created.id}`)).body.name, `${name} renamed`);
    row = await driveRow(`${name} renamed`);

    await vscode.commands.executeCommand('desk.drive.hideSharedDrive', row);
    assert.equal((await emulatorRequest<ApiDrive>('GET', `/drive/v2/drives/${created.id}`)).body.hidden, true);
    await eventually('the hidden drive to leave the list', async () => ((await rows(await sharedDrivesSection())).some((candidate) => candidate.item.id === created.id) ? undefined : true));
    assert.ok(infos.some((info) => /is hidden/.test(info)), infos.join('\n'));
    await vscode.commands.executeCommand('desk.drive.showHiddenSharedDrives');
    row = await driveRow(`${name} renamed`);
    assert.equal(api.drive.provider.getTreeItem(row).description, 'hidden');
    assert.match(String(api.drive.provider.getTreeItem(row).contextValue), /\bhidden\b/);
    // From the palette: the hidden drives to pick from.
    script([{ pick: new RegExp(`${name} renamed`) }]);
    await vscode.commands.executeCommand('desk.drive.unhideSharedDrive');
    assert.deepEqual([...problems, ...errors], []);
    assert.equal((await emulatorRequest<ApiDrive>('GET', `/drive/v2/drives/${created.id}`)).body.hidden, false);
    await vscode.commands.executeCommand('desk.drive.hideHiddenSharedDrives');

    // Not empty: a clear refusal, nothing asked, nothing deleted.
    const file = await emulatorRequest<{ id: string }>('POST', `/drive/v2/files?${ALL}`, { title: 'keep.txt', mimeType: 'text/plain', parents: [{ id: created.id }] });
    row = await driveRow(`${name} renamed`);
    await vscode.commands.executeCommand('desk.drive.deleteSharedDrive', row);
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0] ?? '', /still holds files or folders.*only an empty shared drive can be deleted/);
    // Typed, or the assertion narrows the list to never[] (the stub adds to it as the commands below run).
    assert.deepEqual<string[]>(confirmations, []);
    assert.equal((await emulatorRequest('GET', `/drive/v2/drives/${created.id}`)).status, 200);

    // Empty (its file in the drive's trash): confirmed in a modal; Cancel keeps it, Delete deletes it.
    await emulatorRequest('POST', `/drive/v2/files/${file.body.id}/trash?${ALL}`);
    errors = [];
    await vscode.commands.executeCommand('desk.drive.deleteSharedDrive', row);
    assert.match(confirmations.at(0) ?? '', /Delete the shared drive “.* renamed”\? \(modal\)/);
    assert.equal((await emulatorRequest('GET', `/drive/v2/drives/${created.id}`)).status, 200, 'Cancel keeps it');
    confirmAnswer = 'Delete';
    await vscode.commands.executeCommand('desk.drive.deleteSharedDrive', row);
    assert.deepEqual([...problems, ...errors], []);
    assert.equal((await emulatorRequest('GET', `/drive/v2/drives/${created.id}`)).status, 404);
    await eventually('the deleted drive to leave the tree', async () => ((await rows(await sharedDrivesSection())).some((candidate) => candidate.item.id === created.id) ? undefined : true));
  });

  it('manages members: add bob with a role, change it, remove him; each step shows in bob\'s access', async () => {
    const name = `Members ${randomBytes(3).toString('hex')}`;
    const made = await emulatorRequest<ApiDrive>('POST', `/drive/v2/drives?requestId=${randomBytes(6).toString('hex')}`, { name });
    api.drive.provider.refresh(await sharedDrivesSection() as Exclude<DriveNode, { kind: 'loadMore' | 'message' }>);
    const row = await driveRow(name);
    const members = async (): Promise<ApiPermission[]> => (await emulatorRequest<{ items: ApiPermission[] }>('GET', `/drive/v2/files/${made.body.id}/permissions?${ALL}`)).body.items;

    script([{ pick: /Add members/ }, { type: BOB, rejects: ['bob@', ''] }, { pick: /^Contributor$/ }]);
    await vscode.commands.executeCommand('desk.drive.sharedDriveMembers', row);
    assert.deepEqual([...problems, ...errors], []);
    assert.deepEqual((await members()).map((member) => [member.emailAddress, member.role]).sort(), [['alice@example.com', 'organizer'], [BOB, 'writer']]);
    assert.equal((await emulatorRequest('GET', `/drive/v2/drives/${made.body.id}`, undefined, BOB)).status, 200, 'bob is a member');

    script([{ pick: /Bob Demo/ }, { pick: /^Content manager$/ }]);
    await vscode.commands.executeCommand('desk.drive.changeSharedDriveMemberRole', row);
    assert.deepEqual([...problems, ...errors], []);
    assert.equal((await members()).find((member) => member.emailAddress === BOB)?.role, 'fileOrganizer');

    // The last manager stays, in words.
    script([{ pick: /Alice Demo/ }, { pick: /^Viewer$/ }]);
    await vscode.commands.executeCommand('desk.drive.changeSharedDriveMemberRole', row);
    assert.match(errors[0] ?? '', /must keep at least one manager/);
    errors = [];

    // From the palette: the drive is picked, then bob, then confirmed.
    confirmAnswer = 'Remove';
    script([{ pick: new RegExp(name) }, { pick: /Bob Demo/ }]);
    await vscode.commands.executeCommand('desk.drive.removeSharedDriveMember');
    assert.deepEqual([...problems, ...errors], []);
    assert.match(confirmations[0] ?? '', /Remove Bob Demo from “Members .*”\? \(modal\)/);
    assert.equal((await emulatorRequest('GET', `/drive/v2/drives/${made.body.id}`, undefined, BOB)).status, 404, 'bob left');
  });

  it('keeps a Trash per drive: trash a file from the tree, restore it, delete it forever, and empty the drive\'s trash from the palette', async () => {
    const name = `Bin ${randomBytes(3).toString('hex')}`;
    const made = await emulatorRequest<ApiDrive>('POST', `/drive/v2/drives?requestId=${randomBytes(6).toString('hex')}`, { name });
    const newFile = async (title: string): Promise<string> => (await emulatorRequest<{ id: string }>('POST', `/drive/v2/files?${ALL}`, { title, mimeType: 'text/plain', parents: [{ id: made.body.id }] })).body.id;
    const draftId = await newFile('draft.txt');
    const notesId = await newFile('notes.txt');
    api.drive.provider.refresh(await sharedDrivesSection() as Exclude<DriveNode, { kind: 'loadMore' | 'message' }>);
    const row = await driveRow(name);
    const trashNode = async (): Promise<DriveNode> => {
      const last = (await api.drive.provider.getChildren(row)).at(-1);
      assert.ok(last?.kind === 'section' && last.section === 'trash', 'the drive\'s last row is its Trash');
      return last;
    };
    const titles = async (parent: DriveNode): Promise<string[]> => (await rows(parent)).map(label).sort();
    const statusOf = async (id: string): Promise<{ status: number; trashed?: boolean }> => {
      const answer = await emulatorRequest<{ labels?: { trashed?: boolean } }>('GET', `/drive/v2/files/${id}?${ALL}`);
      return { status: answer.status, ...(answer.status === 200 ? { trashed: answer.body.labels?.trashed } : {}) };
    };
    const trash = await trashNode();
    assert.equal(label(trash), 'Trash');
    assert.match(String(api.drive.provider.getTreeItem(trash).contextValue), /\bcanEmptyTrash\b/);
    assert.deepEqual(await titles(trash), []);

    // Trash from the drive's row: the file leaves the drive's folder for the drive's Trash, not the user's.
    await vscode.commands.executeCommand('desk.drive.trash', await child(row, 'draft.txt'));
    assert.deepEqual(await statusOf(draftId), { status: 200, trashed: true });
    await eventually('draft.txt in the drive\'s Trash', async () => ((await titles(await trashNode())).includes('draft.txt') ? true : undefined));
    assert.deepEqual((await titles(row)), ['notes.txt']);
    const userTrash = (await api.drive.provider.getChildren()).find((root) => root.kind === 'section' && root.section === 'trash' && root.driveId === undefined);
    assert.ok(userTrash);
    assert.ok(!(await titles(userTrash)).includes('draft.txt'), 'the user\'s Trash is not the drive\'s');

    // Restore it from the drive's Trash: back in the drive.
    await vscode.commands.executeCommand('desk.drive.untrash', await child(await trashNode(), 'draft.txt'));
    assert.deepEqual(await statusOf(draftId), { status: 200, trashed: false });
    await eventually('draft.txt back in the drive', async () => ((await titles(row)).includes('draft.txt') ? true : undefined));
    assert.deepEqual(await titles(await trashNode()), []);

    // Trash it again and delete it forever from the drive's Trash (confirmed).
    await vscode.commands.executeCommand('desk.drive.trash', await child(row, 'draft.txt'));
    await eventually('draft.txt in the drive\'s Trash again', async () => ((await titles(await trashNode())).includes('draft.txt') ? true : undefined));
    confirmAnswer = 'Delete Forever';
    await vscode.commands.executeCommand('desk.drive.delete', await child(await trashNode(), 'draft.txt'));
    assert.equal((await statusOf(draftId)).status, 404);
    assert.match(confirmations.at(-1) ?? '', /Delete “draft.txt” forever\? \(modal\)/);

    // Empty the drive's trash from the palette: the user's trash or a drive they organize is picked.
    await emulatorRequest('POST', `/drive/v2/files/${notesId}/trash?${ALL}`);
    confirmAnswer = 'Empty Trash';
    script([{ pick: new RegExp(`Trash of “${name}”`) }]);
    await vscode.commands.executeCommand('desk.drive.emptyTrash');
    assert.deepEqual([...problems, ...errors], []);
    assert.match(confirmations.at(-1) ?? '', new RegExp(`Delete everything in the trash of “${name}” forever\\? \\(modal\\)`));
    assert.equal((await statusOf(notesId)).status, 404);
  });

  it('offers every shared drive command in the palette and on the tree\'s rows', () => {
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { contributes: { menus: Partial<Record<string, { command?: string; when?: string }[]>> } };
    const ids = ['createSharedDrive', 'renameSharedDrive', 'hideSharedDrive', 'unhideSharedDrive', 'deleteSharedDrive', 'sharedDriveMembers', 'addSharedDriveMember', 'changeSharedDriveMemberRole', 'removeSharedDriveMember', 'showHiddenSharedDrives', 'hideHiddenSharedDrives'].map((id) => `desk.drive.${id}`);
    for (const id of ids) {
      assert.ok(manifest.contributes.menus.commandPalette?.some((entry) => entry.command === id && entry.when === 'desk:signedIn'), `${id} in the palette`);
      assert.ok(manifest.contributes.menus['view/item/context']?.some((entry) => entry.command === id && /sharedDrive/.test(entry.when ?? '')), `${id} on a tree row`);
    }
  });
});
