import * as assert from 'node:assert/strict';
import type { drive_v2 } from '@googleapis/drive';
import { officialDriveUsers } from '../support/driveUsers';
import { rejectsWith } from '../support/officialClient';

const FOLDER = 'application/vnd.google-apps.folder';

describe('official @googleapis/drive v2 client: shared drives against the emulator', function () {
  this.timeout(20000);
  const users = officialDriveUsers();
  let alice: drive_v2.Drive;
  let bob: drive_v2.Drive;
  let carol: drive_v2.Drive;
  before(() => ({ alice, bob, carol } = users));

  it('drives.insert, get, list, update, hide, unhide and delete', async () => {
    const created = (await alice.drives.insert({ requestId: 'conformance-1', requestBody: { name: 'Conformance', themeId: 'lemon' } })).data;
    assert.equal(created.kind, 'drive#drive');
    assert.equal(created.name, 'Conformance');
    assert.equal(created.themeId, 'lemon');
    assert.equal(created.capabilities?.canRenameDrive, true);
    const driveId = created.id as string;
    await rejectsWith(alice.drives.insert({ requestId: 'conformance-1', requestBody: { name: 'Conformance' } }), 409);

    const got = (await alice.drives.get({ driveId })).data;
    assert.equal(got.id, driveId);
    assert.equal(typeof got.createdDate, 'string');
    const listed = (await alice.drives.list({ q: "name = 'Conformance'", maxResults: 5 })).data;
    assert.equal(listed.kind, 'drive#driveList');
    assert.deepEqual(listed.items?.map((item) => item.id), [driveId]);

    const updated = (await alice.drives.update({ driveId, requestBody: { name: 'Conformance 2', colorRgb: '#336699', restrictions: { driveMembersOnly: true } } })).data;
    assert.equal(updated.name, 'Conformance 2');
    assert.equal(updated.colorRgb, '#336699');
    assert.equal(updated.restrictions?.driveMembersOnly, true);

    assert.equal((await alice.drives.hide({ driveId })).data.hidden, true);
    assert.equal((await alice.drives.list({ q: 'hidden = true' })).data.items?.some((item) => item.id === driveId), true);
    assert.equal((await alice.drives.unhide({ driveId })).data.hidden, false);

    await rejectsWith(carol.drives.get({ driveId }), 404);
    const deleted = await alice.drives.delete({ driveId });
    assert.equal(deleted.status, 204);
    await rejectsWith(alice.drives.get({ driveId }), 404);
  });

  it('members through permissions, files listed with corpora, driveId and includeItemsFromAllDrives, and the drive\'s changes', async () => {
    const driveId = (await alice.drives.insert({ requestId: 'conformance-2', requestBody: { name: 'Team' } })).data.id as string;
    const bobsStart = (await bob.changes.getStartPageToken({})).data.startPageToken as string;
    await rejectsWith(bob.changes.getStartPageToken({ driveId, supportsAllDrives: true }), 404);
    const member = (await alice.permissions.insert({ fileId: driveId, supportsAllDrives: true, sendNotificationEmails: false, requestBody: { type: 'user', role: 'writer', value: 'bob@example.com' } })).data;
    assert.equal(member.role, 'writer');
    assert.equal(member.teamDrivePermissionDetails?.[0]?.teamDrivePermissionType, 'member');
    const members = (await bob.permissions.list({ fileId: driveId, supportsAllDrives: true })).data.items ?? [];
    assert.deepEqual(members.map((permission) => [permission.emailAddress, permission.role]).sort(), [['alice@example.com', 'organizer'], ['bob@example.com', 'writer']]);

    const start = (await bob.changes.getStartPageToken({ driveId, supportsAllDrives: true })).data.startPageToken as string;
    const folder = (await alice.files.insert({ supportsAllDrives: true, requestBody: { title: 'Docs', mimeType: FOLDER, parents: [{ id: driveId }] } })).data;
    assert.equal(folder.driveId, driveId);
    const note = (await bob.files.insert({ supportsAllDrives: true, requestBody: { title: 'note.txt', mimeType: 'text/plain', parents: [{ id: folder.id }] } })).data;
    assert.deepEqual(note.owners, []);
    assert.equal(note.teamDriveId, driveId);

    const inDrive = (await bob.files.list({ corpora: 'drive', driveId, includeItemsFromAllDrives: true, supportsAllDrives: true })).data.items ?? [];
    assert.deepEqual(inDrive.map((file) => file.id).sort(), [folder.id, note.id].sort());
    const inFolder = (await bob.files.list({ q: `'${String(folder.id)}' in parents`, includeItemsFromAllDrives: true, supportsAllDrives: true })).data.items ?? [];
    assert.deepEqual(inFolder.map((file) => file.title), ['note.txt']);
    const allDrives = (await bob.files.list({ corpora: 'allDrives', includeItemsFromAllDrives: true, supportsAllDrives: true, q: "title = 'note.txt'" })).data.items ?? [];
    assert.deepEqual(allDrives.map((file) => file.id), [note.id]);
    await rejectsWith(bob.files.get({ fileId: note.id as string }), 404);
    assert.equal((await bob.files.get({ fileId: note.id as string, supportsAllDrives: true })).data.title, 'note.txt');
    const copy = (await bob.files.copy({ fileId: note.id as string, supportsAllDrives: true, requestBody: { title: 'note copy.txt' } })).data;
    assert.equal(copy.driveId, driveId);
    const renamed = (await bob.files.patch({ fileId: copy.id as string, supportsAllDrives: true, requestBody: { title: 'renamed.txt' } })).data;
    assert.equal(renamed.title, 'renamed.txt');
    await rejectsWith(carol.files.list({ corpora: 'drive', driveId, includeItemsFromAllDrives: true, supportsAllDrives: true }), 404);

    const changes = (await bob.changes.list({ driveId, pageToken: start, includeItemsFromAllDrives: true, supportsAllDrives: true })).data.items ?? [];
    assert.ok(changes.some((change) => change.fileId === note.id && change.file?.driveId === driveId));
    const userFeed = (await bob.changes.list({ pageToken: bobsStart, includeItemsFromAllDrives: true, supportsAllDrives: true })).data.items ?? [];
    assert.ok(userFeed.some((change) => change.changeType === 'drive' && change.driveId === driveId && change.drive?.name === 'Team'));

    await rejectsWith(alice.drives.delete({ driveId }), 403);
    await alice.permissions.delete({ fileId: driveId, permissionId: member.id as string, supportsAllDrives: true });
    await rejectsWith(bob.drives.get({ driveId }), 404);
  });
  it('permissions with useDomainAdminAccess: the domain\'s administrator manages a drive she is no member of', async () => {
    const driveId = (await bob.drives.insert({ requestId: 'conformance-3', requestBody: { name: 'Bob only' } })).data.id as string;
    await rejectsWith(alice.permissions.list({ fileId: driveId, supportsAllDrives: true }), 404);
    const members = (await alice.permissions.list({ fileId: driveId, supportsAllDrives: true, useDomainAdminAccess: true })).data.items ?? [];
    assert.deepEqual(members.map((permission) => [permission.emailAddress, permission.role]), [['bob@example.com', 'organizer']]);
    const added = (await alice.permissions.insert({ fileId: driveId, supportsAllDrives: true, useDomainAdminAccess: true, sendNotificationEmails: false, requestBody: { type: 'user', role: 'organizer', value: 'carol@example.com' } })).data;
    assert.equal(added.role, 'organizer');
    assert.equal((await carol.drives.get({ driveId })).data.capabilities?.canManageMembers, true);
    await rejectsWith(carol.permissions.list({ fileId: driveId, supportsAllDrives: true, useDomainAdminAccess: true }), 403);
  });
  it('the deprecated teamdrives resource: the same drives under their old names', async () => {
    const created = (await alice.teamdrives.insert({ requestId: 'conformance-td-1', requestBody: { name: 'Old style', restrictions: { teamMembersOnly: true } } })).data;
    assert.equal(created.kind, 'drive#teamDrive');
    assert.equal(created.name, 'Old style');
    assert.equal(created.capabilities?.canRenameTeamDrive, true);
    assert.equal(created.capabilities.canDeleteTeamDrive, true);
    assert.equal(created.restrictions?.teamMembersOnly, true);
    const teamDriveId = created.id as string;
    // The same drive through drives, with the new names.
    const modern = (await alice.drives.get({ driveId: teamDriveId })).data;
    assert.equal(modern.restrictions?.driveMembersOnly, true);
    await rejectsWith(alice.teamdrives.insert({ requestId: 'conformance-td-1', requestBody: { name: 'Old style' } }), 409);

    assert.equal((await alice.teamdrives.get({ teamDriveId })).data.name, 'Old style');
    const listed = (await alice.teamdrives.list({ q: "name = 'Old style'" })).data;
    assert.equal(listed.kind, 'drive#teamDriveList');
    assert.deepEqual(listed.items?.map((item) => item.id), [teamDriveId]);
    const renamed = (await alice.teamdrives.update({ teamDriveId, requestBody: { name: 'Old style 2', restrictions: { teamMembersOnly: false } } })).data;
    assert.equal(renamed.name, 'Old style 2');
    assert.equal(renamed.restrictions?.teamMembersOnly, false);

    // A reader member sees it with a reader's capabilities; others get 404; only organizers delete.
    await alice.permissions.insert({ fileId: teamDriveId, supportsAllDrives: true, sendNotificationEmails: false, requestBody: { type: 'user', role: 'reader', value: 'bob@example.com' } });
    const asBob = (await bob.teamdrives.get({ teamDriveId })).data;
    assert.equal(asBob.capabilities?.canRenameTeamDrive, false);
    assert.equal(asBob.capabilities.canListChildren, true);
    await rejectsWith(carol.teamdrives.get({ teamDriveId }), 404);
    await rejectsWith(carol.teamdrives.list({ useDomainAdminAccess: true }), 403);
    assert.ok((await alice.teamdrives.list({ useDomainAdminAccess: true, maxResults: 100 })).data.items?.some((item) => item.id === teamDriveId));
    await rejectsWith(bob.teamdrives.delete({ teamDriveId }), 403);
    assert.equal((await alice.teamdrives.delete({ teamDriveId })).status, 204);
    await rejectsWith(alice.teamdrives.get({ teamDriveId }), 404);
  });
});
