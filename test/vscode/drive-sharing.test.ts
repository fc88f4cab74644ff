// Sharing and custom properties of Drive files inside a real extension host, against the harness's emulator: the
// Share… flow and its palette commands driven through stubbed quick picks and input boxes (as alice), checked through
// the API as bob (Shared with me, his role, removal, link sharing, a transfer of ownership), refusals shown as clear
// messages, the lazy "who has access" tooltip, Shared with me from the demo data, and the properties editor.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import type { DriveNode, FileNode } from '../../src/features/drive/tree/model';
import { activateAndSignIn, emulatorRequest, eventually, labelText, WindowStubs, DialogStep, scriptDialogs } from './support';

const BOB = 'bob@example.com';

interface ApiFile { id: string; title: string; ownedByMe?: boolean; userPermission?: { role?: string; additionalRoles?: string[] } }
interface ApiPermission { id: string; role?: string; additionalRoles?: string[]; type?: string; withLink?: boolean; emailAddress?: string }

const stubs = new WindowStubs();

describe('Drive sharing and properties in VS Code', function () {
  this.timeout(60000);
  let api: DeskApi;
  /** What went wrong inside a stub (an assertion there would only become an error message). */
  let problems: string[];
  let errors: string[];
  let asked: string[];

  const label = (node: DriveNode): string => labelText(api.drive.provider.getTreeItem(node));

  /** Answers the dialogs in order; once the script is done, every further question is dismissed (Escape). */
  function script(steps: readonly DialogStep[]): void {
    scriptDialogs(stubs, steps, problems, asked);
  }

  async function section(name: 'myDrive' | 'shared'): Promise<DriveNode> {
    const roots = await api.drive.provider.getChildren();
    const node = roots.find((root) => root.kind === 'section' && root.section === name);
    assert.ok(node, `no ${name} section`);
    api.drive.provider.refresh(node as Exclude<DriveNode, { kind: 'loadMore' | 'message' }>);
    return node;
  }

  async function child(parent: DriveNode, title: string): Promise<FileNode> {
    const rows = await api.drive.provider.getChildren(parent);
    const node = rows.find((row): row is FileNode => row.kind === 'file' && label(row) === title);
    assert.ok(node, `no "${title}" among ${rows.map(label).join(', ')}`);
    return node;
  }

  /** A new text file in alice's My Drive, and its row. */
  async function newFile(prefix: string): Promise<FileNode> {
    const title = `${prefix}-${randomBytes(3).toString('hex')}.txt`;
    const made = await emulatorRequest<ApiFile>('POST', '/drive/v2/files', { title, mimeType: 'text/plain', parents: [{ id: 'root' }] });
    assert.equal(made.status, 200);
    return child(await section('myDrive'), title);
  }

  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the type of the JSON body it reads
  const asBob = <T>(method: string, path: string, body?: unknown) => emulatorRequest<T>(method, path, body, BOB);
  const sharedWithBob = async (): Promise<string[]> => (await asBob<{ items: ApiFile[] }>('GET', `/drive/v2/files?q=${encodeURIComponent('sharedWithMe and trashed = false')}&maxResults=1000`)).body.items.map((file) => file.id);
  const permissions = async (fileId: string): Promise<ApiPermission[]> => (await emulatorRequest<{ items: ApiPermission[] }>('GET', `/drive/v2/files/${fileId}/permissions`)).body.items;

  async function tooltipOf(node: FileNode): Promise<string> {
    // Commands update the row's node in place (rename, share): its item is the file as it is now.
    const item = await api.drive.provider.resolveTreeItem(api.drive.provider.getTreeItem(node), node);
    assert.ok(item.tooltip instanceof vscode.MarkdownString);
    // Markdown escapes (\( \.) are not what the user reads.
    return item.tooltip.value.replace(/\\(.)/g, '$1');
  }

  before(async () => {
    api = await activateAndSignIn();
  });

  beforeEach(() => {
    problems = [];
    asked = [];
    errors = [];
    stubs.stub('showErrorMessage', async (message: unknown) => {
      errors.push(String(message));
      return undefined;
    });
  });

  afterEach(async () => {
    stubs.restore();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Share… adds, changes, opens by link and removes access; bob sees each step', async () => {
    const file = await newFile('share-me');
    const id = file.item.id;

    // Add bob as a commenter without an e-mail; a bad address is refused in the box.
    script([{ pick: /Add people/ }, { type: BOB, rejects: ['bob@', 'bob@example.com, nope', ''] }, { pick: /^Commenter$/ }, { pick: /Do not notify/ }]);
    await vscode.commands.executeCommand('desk.drive.share', file);
    assert.deepEqual([...problems, ...errors], []);
    assert.ok(asked.some((question) => /Share “share-me-.*” \| Choose a person/.test(question)), asked.join('\n'));
    assert.ok((await sharedWithBob()).includes(id), 'bob finds it under Shared with me');
    const seen = await asBob<ApiFile>('GET', `/drive/v2/files/${id}`);
    assert.equal(seen.status, 200);
    assert.deepEqual([seen.body.userPermission?.role, seen.body.userPermission?.additionalRoles], ['reader', ['commenter']]);

    // Bob's row → Change role… → Editor.
    script([{ pick: /Bob Demo/ }, { pick: /Change role/ }, { pick: /^Editor$/ }]);
    await vscode.commands.executeCommand('desk.drive.share', file);
    assert.deepEqual([...problems, ...errors], []);
    assert.equal((await asBob<ApiFile>('GET', `/drive/v2/files/${id}`)).body.userPermission?.role, 'writer');

    // Link sharing on, as viewers; the tooltip (fetched on hover) says so.
    script([{ pick: /Link sharing: turn on/ }, { pick: /Anyone with the link can view/ }]);
    await vscode.commands.executeCommand('desk.drive.share', file);
    assert.deepEqual([...problems, ...errors], []);
    const link = (await permissions(id)).find((permission) => permission.type === 'anyone');
    assert.deepEqual([link?.role, link?.withLink], ['reader', true]);
    const tooltip = await tooltipOf(file);
    assert.match(tooltip, /Who has access: Alice Demo \(Owner\), Bob Demo \(Editor\)/);
    assert.match(tooltip, /Anyone with the link can view/);

    // From the palette: link sharing off, then bob removed.
    script([{ pick: /^\$\(lock\) Off/ }]);
    await vscode.commands.executeCommand('desk.drive.linkSharing', file);
    assert.equal((await permissions(id)).some((permission) => permission.type === 'anyone'), false, 'link sharing is off');
    script([{ pick: /Bob Demo/ }]);
    await vscode.commands.executeCommand('desk.drive.removeAccess', file);
    assert.deepEqual([...problems, ...errors], []);
    assert.equal((await asBob('GET', `/drive/v2/files/${id}`)).status, 404, 'bob lost access');
    assert.ok(!(await sharedWithBob()).includes(id));
    assert.match(await tooltipOf(file), /Who has access: Alice Demo \(Owner\)\s+Not shared/);
  });

  it('a file shared from Desk is not announced as "changed on Drive by another app or person"', async () => {
    const file = await newFile('shared-by-me');
    const id = file.item.id;
    // Its creation by another client is news; seen, then forgotten.
    await eventually('the creation to arrive', () => {
      api.drive.pollChangesNow();
      return api.drive.changesState().entries.some((entry) => entry.fileId === id) ? true : undefined;
    });
    api.drive.changeLog.markSeen();

    script([{ pick: /Add people/ }, { type: BOB }, { pick: /^Viewer$/ }, { pick: /Do not notify/ }]);
    await vscode.commands.executeCommand('desk.drive.share', file);
    assert.deepEqual([...problems, ...errors], []);
    assert.ok((await sharedWithBob()).includes(id));

    // A change by another client after the share: once it has arrived, so has the share's.
    const marker = await newFile('after-the-share');
    const state = await eventually('the later change to arrive', () => {
      api.drive.pollChangesNow();
      const current = api.drive.changesState();
      return current.entries.some((entry) => entry.fileId === marker.item.id) ? current : undefined;
    });
    assert.deepEqual(state.entries.filter((entry) => entry.fileId === id), [], 'Desk\'s own share is not news');
  });

  it('transfers ownership only after the modal confirmation', async () => {
    const file = await newFile('give-away');
    const id = file.item.id;
    // Shared first from the palette, with a notification and its message.
    script([{ type: BOB }, { pick: /^Viewer$/ }, { pick: /Notify people/ }, { type: 'Please take this over' }]);
    await vscode.commands.executeCommand('desk.drive.addPeople', file);
    assert.deepEqual([...problems, ...errors], []);
    assert.ok((await sharedWithBob()).includes(id));

    const confirmations: unknown[][] = [];
    let answer: string | undefined;
    stubs.stub('showWarningMessage', async (...args: unknown[]) => {
      confirmations.push(args);
      return answer;
    });
    script([{ pick: /Transfer ownership/ }, { pick: /Bob Demo/ }]);
    await vscode.commands.executeCommand('desk.drive.share', file);
    assert.equal(confirmations.length, 1);
    assert.match(String(confirmations[0]?.[0]), /Make bob@example.com the owner of “give-away-/);
    assert.equal((confirmations[0]?.[1] as { modal?: boolean }).modal, true);
    assert.equal((await asBob<ApiFile>('GET', `/drive/v2/files/${id}`)).body.ownedByMe, false, 'Cancel leaves alice the owner');

    answer = 'Transfer Ownership';
    script([{ pick: /Transfer ownership/ }, { pick: /Bob Demo/ }]);
    await vscode.commands.executeCommand('desk.drive.share', file);
    assert.deepEqual([...problems, ...errors], []);
    assert.equal((await asBob<ApiFile>('GET', `/drive/v2/files/${id}`)).body.ownedByMe, true, 'bob owns it');
    const mine = await emulatorRequest<ApiFile>('GET', `/drive/v2/files/${id}`);
    assert.deepEqual([mine.body.ownedByMe, mine.body.userPermission?.role], [false, 'writer'], 'alice stays an editor');

    // "Someone else…" by address: carol already reads it, so her own grant (found by her permission id) becomes the ownership.
    const other = await newFile('hand-over');
    script([{ type: 'carol@example.com' }, { pick: /^Viewer$/ }, { pick: /Do not notify/ }]);
    await vscode.commands.executeCommand('desk.drive.addPeople', other);
    assert.deepEqual([...problems, ...errors], []);
    script([{ pick: /Transfer ownership/ }, { pick: /Someone else/ }, { type: 'carol@example.com', rejects: ['carol@', ''] }]);
    await vscode.commands.executeCommand('desk.drive.share', other);
    assert.deepEqual([...problems, ...errors], []);
    const asCarol = await emulatorRequest<ApiFile>('GET', `/drive/v2/files/${other.item.id}`, undefined, 'carol@example.com');
    assert.equal(asCarol.body.ownedByMe, true, 'carol owns it');
    const grants = await emulatorRequest<{ items: { emailAddress?: string; role?: string }[] }>('GET', `/drive/v2/files/${other.item.id}/permissions`, undefined, 'carol@example.com');
    assert.deepEqual(grants.body.items.filter((grant) => grant.emailAddress === 'carol@example.com').map((grant) => grant.role), ['owner']);
  });

  it('lists what bob shared under Shared with me, with its owner, opens it, and explains a refused share', async () => {
    // The demo data: bob's q3-report.txt (viewer) and Team notes (editor).
    const shared = await section('shared');
    const report = await child(shared, 'q3-report.txt');
    await child(shared, 'Team notes');
    assert.match(String(api.drive.provider.getTreeItem(report).description), /Bob Demo/);
    const tooltip = await tooltipOf(report);
    assert.match(tooltip, /Who has access: Bob Demo \(Owner\), Alice Demo \(Viewer\)/);
    assert.match(tooltip, /Shared with you by Bob Demo/);
    await vscode.commands.executeCommand('desk.drive.open', report);
    const editor = await eventually('the editor', () => vscode.window.activeTextEditor?.document.uri.scheme === 'desk-drive' ? vscode.window.activeTextEditor : undefined);
    assert.equal(editor.document.getText(), 'Q3 revenue grew 12%.\n');

    // A viewer sees who has access but is offered no changes.
    script([]);
    await vscode.commands.executeCommand('desk.drive.share', report);
    assert.ok(asked.some((question) => /You can see who has access, but not change it/.test(question)), asked.join('\n'));

    // Bob lets alice edit a file but not share it (writersCanShare = false).
    const title = `bob-locked-${randomBytes(3).toString('hex')}.txt`;
    const made = await asBob<ApiFile>('POST', '/drive/v2/files', { title, mimeType: 'text/plain' });
    assert.equal(made.status, 200);
    assert.equal((await asBob('PATCH', `/drive/v2/files/${made.body.id}`, { writersCanShare: false })).status, 200);
    assert.equal((await asBob('POST', `/drive/v2/files/${made.body.id}/permissions?sendNotificationEmails=false`, { type: 'user', role: 'writer', emailAddress: 'alice@example.com' })).status, 200);
    const locked = await child(await section('shared'), title);
    script([{ type: 'carol@example.com' }, { pick: /^Viewer$/ }, { pick: /Do not notify/ }]);
    await vscode.commands.executeCommand('desk.drive.addPeople', locked);
    assert.deepEqual(problems, []);
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0] ?? '', /Only the owner can change who has access to “bob-locked-.*”: the owner does not let editors share it/);
    assert.equal((await asBob<{ items: ApiPermission[] }>('GET', `/drive/v2/files/${made.body.id}/permissions`)).body.items.some((permission) => permission.emailAddress === 'carol@example.com'), false);
  });

  it('edits custom properties: add, change, make private, remove, within Drive\'s limits', async () => {
    const file = await newFile('props');
    const id = file.item.id;
    const property = async (visibility: string) => emulatorRequest<{ value?: string }>('GET', `/drive/v2/files/${id}/properties/project?visibility=${visibility}`);

    script([{ pick: /Add property/ }, { type: 'project', rejects: ['', ' padded', 'k'.repeat(125)] }, { type: 'desk', rejects: ['v'.repeat(118)] }, { pick: /^Public/ }]);
    await vscode.commands.executeCommand('desk.drive.editProperties', file);
    assert.deepEqual([...problems, ...errors], []);
    assert.equal((await property('PUBLIC')).body.value, 'desk');

    script([{ pick: /^project = desk$/ }, { type: 'desk-2' }]);
    await vscode.commands.executeCommand('desk.drive.changeProperty', file);
    assert.deepEqual([...problems, ...errors], []);
    assert.equal((await property('PUBLIC')).body.value, 'desk-2');

    script([{ pick: /^project = desk-2$/ }, { pick: /Make private/ }]);
    await vscode.commands.executeCommand('desk.drive.editProperties', file);
    assert.deepEqual([...problems, ...errors], []);
    assert.equal((await property('PUBLIC')).status, 404);
    // PRIVATE properties belong to the app that wrote them: Desk's own client sees it.
    const privately = (await api.drive.driveClient().listProperties(id)).items;
    assert.deepEqual(privately.map((entry) => [entry.key, entry.value, entry.visibility]), [['project', 'desk-2', 'PRIVATE']]);

    script([{ pick: /^project = desk-2$/ }]);
    await vscode.commands.executeCommand('desk.drive.removeProperty', file);
    assert.deepEqual([...problems, ...errors], []);
    assert.deepEqual((await api.drive.driveClient().listProperties(id)).items, []);
  });
});
