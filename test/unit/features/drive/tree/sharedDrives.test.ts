import * as assert from 'node:assert/strict';
import { contextValueFor } from '../../../../../src/features/drive/tree/treeProvider';
import { planDrop } from '../../../../../src/features/drive/tree/dragAndDrop';
import { DriveNode, DriveTreeModel, FileNode, folderTitles } from '../../../../../src/features/drive/tree/model';
import { driveAsItem, SharedDriveSource } from '../../../../../src/features/drive/sharedDrives/port';
import { memberRoleInput, memberRoleOf, myDriveRole, sharedDriveNameProblem, sortMembers } from '../../../../../src/features/drive/sharedDrives/nodes';
import { english } from '../../../../../src/shared/l10n';
import { resolveDrivePath } from '../../../../../src/features/drive/fs/drivePath';
import type { SharedDrive } from '../../../../../src/shared/schemas/drive/drives';
import { FakeDrive } from '../../../../support/fakes/drive';

/** A fake Drive that also remembers whether listings asked for shared drives' items. */
class FakeDriveWithDrives extends FakeDrive {
  readonly allDrivesRequests: string[] = [];
  override async listFiles(request: { q: string; orderBy?: string; maxResults?: number; pageToken?: string | undefined; includeItemsFromAllDrives?: boolean }) {
    if (request.includeItemsFromAllDrives) this.allDrivesRequests.push(request.q);
    return super.listFiles(request);
  }
}

const MANAGER = { canManageMembers: true, canRenameDrive: true, canDeleteDrive: true, canTrashChildren: true, canEdit: true, canComment: true, canListChildren: true };
const CONTRIBUTOR = { canManageMembers: false, canRenameDrive: false, canDeleteDrive: false, canTrashChildren: false, canEdit: true, canComment: true, canListChildren: true };

function source(drives: SharedDrive[]): SharedDriveSource & { requests: boolean[] } {
  const requests: boolean[] = [];
  return {
    requests,
    async listDrives(request) {
      requests.push(request.includeHidden);
      return { items: drives.filter((drive) => request.includeHidden || !drive.hidden).map(driveAsItem) };
    },
  };
}

const file = (nodes: DriveNode[], title: string): FileNode => {
  const found = nodes.find((node): node is FileNode => node.kind === 'file' && node.item.title === title);
  assert.ok(found, `no ${title}`);
  return found;
};

describe('Drive tree: shared drives', () => {
  it('lists the drives beside My Drive, hidden ones only when asked, and browses a drive with its items included', async () => {
    const drive = new FakeDriveWithDrives();
    drive.add({ id: 'D1', title: 'Team', mimeType: 'application/vnd.google-apps.folder', driveId: 'D1', parents: [] });
    const planning = drive.folder('Planning', 'D1', { driveId: 'D1' });
    drive.file('sprint.md', planning, { driveId: 'D1' });
    const drives = source([
      { id: 'D1', name: 'Team', capabilities: MANAGER },
      { id: 'D2', name: 'Old', hidden: true, capabilities: CONTRIBUTOR },
    ]);
    const model = new DriveTreeModel(drive, { sharedDrives: drives });
    assert.deepEqual(model.sections.map((section) => section.label), ['My Drive', 'Shared drives', 'Shared with me', 'Trash']);

    const rows = await model.children(model.section('sharedDrives'));
    assert.deepEqual(rows.map((row) => (row.kind === 'file' ? row.item.title : row.kind)), ['Team']);
    const team = file(rows, 'Team');
    assert.equal(contextValueFor(team), 'sharedDrive folder live shown canRenameDrive canDeleteDrive canManageMembers');
    assert.ok(!contextValueFor(team).includes('driveEntry'), 'a drive is not renamed, trashed or shared as a file');

    const inside = await model.children(team);
    const planningNode = file(inside, 'Planning');
    const sprint = file(await model.children(planningNode), 'sprint.md');
    assert.deepEqual(drive.allDrivesRequests, [`'D1' in parents and trashed = false`, `'${planning}' in parents and trashed = false`]);
    assert.deepEqual(folderTitles(sprint), ['Shared drives', 'Team', 'Planning']);
    assert.match(contextValueFor(sprint), /\bdriveEntry\b/);

    model.showHiddenDrives = true;
    model.invalidate(model.section('sharedDrives'));
    const all = await model.children(model.section('sharedDrives'));
    const old = file(all, 'Old');
    assert.equal(contextValueFor(old), 'sharedDrive folder live hidden');
    assert.deepEqual(drives.requests, [false, true]);
  });

  it('gives each shared drive its own Trash row, listing the drive\'s trashed items apart from the user\'s Trash', async () => {
    const drive = new FakeDriveWithDrives();
    drive.add({ id: 'D1', title: 'Team', mimeType: 'application/vnd.google-apps.folder', driveId: 'D1', parents: [] });
    const kept = drive.file('kept.md', 'D1', { driveId: 'D1' });
    const gone = drive.file('gone.md', 'D1', { driveId: 'D1', labels: { trashed: true, starred: false } });
    drive.file('mine.txt', drive.rootId, { labels: { trashed: true, starred: false } });
    const model = new DriveTreeModel(drive, { sharedDrives: source([{ id: 'D1', name: 'Team', capabilities: MANAGER }, { id: 'D2', name: 'Guest', capabilities: CONTRIBUTOR }]) });
    const driveRows = await model.children(model.section('sharedDrives'));
    const team = file(driveRows, 'Team');
    const guest = file(driveRows, 'Guest');

    // The drive's rows, then its Trash, last.
    const inside = await model.children(team);
    assert.deepEqual(inside.map((node) => (node.kind === 'file' ? node.item.title : node.kind === 'section' ? `[${node.label}]` : node.kind)), ['kept.md', '[Trash]']);
    const trash = inside.at(1);
    assert.ok(trash?.kind === 'section' && trash.section === 'trash');
    assert.equal(trash.driveId, 'D1');
    assert.equal(model.parentOf(trash), team, 'reveal walks up from the Trash to its drive');
    assert.equal(contextValueFor(trash), 'driveSection trash ofSharedDrive canEmptyTrash');
    const guestTrash = (await model.children(guest)).at(-1);
    assert.ok(guestTrash?.kind === 'section');
    assert.equal(contextValueFor(guestTrash), 'driveSection trash ofSharedDrive', 'only organizers empty a drive\'s trash');

    // Its listing is the drive's corpus; the user's Trash does not show the drive's items.
    const trashed = await model.children(trash);
    assert.deepEqual(trashed.map((node) => (node.kind === 'file' ? node.item.title : node.kind)), ['gone.md']);
    assert.equal(drive.listRequests.at(-1)?.driveId, 'D1');
    const gonenode = file(trashed, 'gone.md');
    assert.match(contextValueFor(gonenode), /\btrashed\b/);
    assert.equal(model.isContainer(gonenode), false);
    assert.deepEqual((await model.children(model.section('trash'))).map((node) => (node.kind === 'file' ? node.item.title : node.kind)), ['mine.txt']);

    // Trashing kept.md touches the drive's folder and the drive's Trash, not the user's.
    const trashedItem = await drive.trashFile(kept);
    const affected = await model.containersAffectedBy([{ fileId: kept, item: trashedItem, removed: false }]);
    // (the drive's row holds its Trash: refreshing the row reloads both)
    assert.deepEqual(affected.map((node) => node.id), [team.id]);
    model.invalidate(team);
    assert.equal(model.isLoaded(trash.id), false);
    assert.deepEqual((await model.children(trash)).map((node) => (node.kind === 'file' ? node.item.title : node.kind)), ['gone.md', 'kept.md']);
    // With only the Trash loaded (the folder collapsed and dropped), the Trash alone reloads.
    model.invalidate(team);
    await model.children(trash);
    const restored = await drive.untrashFile(kept);
    assert.deepEqual((await model.containersAffectedBy([{ fileId: kept, item: restored, removed: false }])).map((node) => node.id), [trash.id]);

    // Reveal finds a trashed item of a drive in that drive's Trash.
    const found = await model.findNode(gone);
    assert.equal(found?.parent, trash);
  });

  it('offers trash, restore and delete forever only where Drive\'s capabilities allow them (unknown ones allow)', async () => {
    const drive = new FakeDriveWithDrives();
    drive.add({ id: 'D1', title: 'Team', mimeType: 'application/vnd.google-apps.folder', driveId: 'D1', parents: [] });
    const contributor = { canTrash: false, canUntrash: false, canDelete: false, canEdit: true };
    drive.file('theirs.md', 'D1', { driveId: 'D1', capabilities: contributor });
    drive.file('managed.md', 'D1', { driveId: 'D1', capabilities: { canTrash: true, canUntrash: false, canDelete: true } });
    drive.file('unknown.md', 'D1', { driveId: 'D1' });
    const model = new DriveTreeModel(drive, { sharedDrives: source([{ id: 'D1', name: 'Team', capabilities: CONTRIBUTOR }]) });
    const inside = await model.children(file(await model.children(model.section('sharedDrives')), 'Team'));
    const words = (title: string): string[] => contextValueFor(file(inside, title)).split(' ');
    assert.deepEqual(['mayTrash', 'mayUntrash', 'mayDelete'].filter((word) => words('theirs.md').includes(word)), []);
    assert.deepEqual(['mayTrash', 'mayUntrash', 'mayDelete'].filter((word) => words('managed.md').includes(word)), ['mayTrash', 'mayDelete']);
    assert.deepEqual(['mayTrash', 'mayUntrash', 'mayDelete'].filter((word) => words('unknown.md').includes(word)), ['mayTrash', 'mayUntrash', 'mayDelete']);
  });

  it('reveals an item of a shared drive under its drive, and says so when there are no drives', async () => {
    const drive = new FakeDriveWithDrives();
    drive.add({ id: 'D1', title: 'Team', mimeType: 'application/vnd.google-apps.folder', driveId: 'D1', parents: [] });
    const doc = drive.file('doc.txt', 'D1', { driveId: 'D1' });
    const model = new DriveTreeModel(drive, { sharedDrives: source([{ id: 'D1', name: 'Team', capabilities: CONTRIBUTOR }]) });
    const found = await model.findNode(doc);
    assert.equal(found?.id, `drive:sharedDrives/D1/${doc}`);

    const empty = new DriveTreeModel(new FakeDrive(), { sharedDrives: source([]) });
    const message = (await empty.children(empty.section('sharedDrives'))).at(0);
    assert.equal(message?.kind === 'message' ? message.text : undefined, 'No shared drives');
  });

  it('never drags a drive itself, and explains a drop onto the list of drives', async () => {
    const drive = new FakeDriveWithDrives();
    drive.add({ id: 'D1', title: 'Team', mimeType: 'application/vnd.google-apps.folder', driveId: 'D1', parents: [] });
    const mine = drive.file('mine.txt');
    const model = new DriveTreeModel(drive, { sharedDrives: source([{ id: 'D1', name: 'Team', capabilities: MANAGER }]) });
    const team = file(await model.children(model.section('sharedDrives')), 'Team');
    const mineNode = file(await model.children(model.section('myDrive')), 'mine.txt');
    const dragDrive = planDrop([team], model.section('trash'), 'root-id');
    assert.deepEqual(dragDrive.actions, []);
    assert.match(dragDrive.skipped[0]?.reason ?? '', /shared drive itself/);
    const ontoList = planDrop([mineNode], model.section('sharedDrives'), 'root-id');
    assert.match(ontoList.skipped[0]?.reason ?? '', /into a shared drive/);
    const intoDrive = planDrop([mineNode], team, 'root-id');
    assert.deepEqual(intoDrive.actions, [{ kind: 'move', fileId: mine, title: 'mine.txt', addParents: ['D1'], removeParents: ['root-id'] }]);
  });

  it('names members\' roles as Drive does and spells them for the API', () => {
    assert.equal(myDriveRole({ capabilities: MANAGER }), 'organizer');
    assert.equal(myDriveRole({ capabilities: CONTRIBUTOR }), 'writer');
    assert.equal(memberRoleOf({ role: 'reader', additionalRoles: ['commenter'] }), 'commenter');
    assert.deepEqual(memberRoleInput('commenter'), { role: 'reader', additionalRoles: ['commenter'] });
    assert.deepEqual(memberRoleInput('fileOrganizer'), { role: 'fileOrganizer', additionalRoles: [] });
    const sorted = sortMembers([{ role: 'reader', name: 'Zed' }, { role: 'organizer', name: 'Bob' }, { role: 'writer', name: 'Al' }, { role: 'organizer', name: 'Alice' }]);
    assert.deepEqual(sorted.map((member) => member.name), ['Alice', 'Bob', 'Al', 'Zed']);
  });

  it('resolves desk-drive: paths under "Shared drives/<name>" through the drive\'s name', async () => {
    const items = new Map([
      ['D1', driveAsItem({ id: 'D1', name: 'Team' })],
      ['f1', { id: 'f1', title: 'plan.md', mimeType: 'text/markdown', parents: [{ id: 'D1' }] }],
    ]);
    const lookup = {
      getFile: async (id: string) => items.get(id) ?? Promise.reject(new Error('404')),
      findChild: async (folderId: string, title: string) => [...items.values()].find((item) => item.title === title && item.parents?.some((parent) => parent.id === folderId)),
      findDrive: async (name: string) => [...items.values()].find((item) => item.driveId === item.id && item.title === name),
    };
    const found = await resolveDrivePath(['Shared drives', 'Team', 'plan.md'], lookup);
    assert.equal(found.kind === 'item' ? found.item.id : found.kind, 'f1');
    const missing = await resolveDrivePath(['Shared drives', 'Team', 'new.md'], lookup);
    assert.deepEqual(missing, { kind: 'missing', parentId: 'D1', title: 'new.md' });
    await assert.rejects(resolveDrivePath(['Shared drives', 'Nope', 'x'], lookup), /No Drive file/);
  });
});

describe('shared drive names as typed', () => {
  it('are refused in the box when empty or longer than Drive keeps, instead of the service\'s raw refusal', () => {
    assert.equal(sharedDriveNameProblem('   ', english), 'A shared drive needs a name');
    assert.equal(sharedDriveNameProblem('x'.repeat(2000), english), 'At most 128 characters; this has 2000.');
    assert.equal(sharedDriveNameProblem('x'.repeat(128), english), undefined);
    assert.equal(sharedDriveNameProblem('Team files', english), undefined);
  });
});
