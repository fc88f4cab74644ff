import * as assert from 'node:assert/strict';
import { changeListSchema, DriveFile, fileListSchema, FOLDER_MIME_TYPE } from '../../../../src/shared/schemas/drive';
import { SharedDrive, sharedDriveListSchema, sharedDriveSchema } from '../../../../src/shared/schemas/drive/drives';
import { permissionListSchema, permissionSchema } from '../../../../src/shared/schemas/drive/permissions';
import { ALICE, BOB, CAROL, driveUsers } from '../../../support/driveUsers';
import { expectGoogleError } from '../../../support/emulatorHttp';

const ALL = 'supportsAllDrives=true';

describe('Drive v2 emulator: shared drives', function () {
  this.timeout(20000);
  const { call, ok, fileOf } = driveUsers();
  let requests = 0;
  const driveOf = (answer: { json: unknown }): SharedDrive => sharedDriveSchema.parse(answer.json);
  const q = encodeURIComponent;
  const newDrive = async (as: string, name: string): Promise<SharedDrive> => driveOf(await ok(as, 'POST', `/drive/v2/drives?requestId=req-${++requests}`, { json: { name } }));
  const addMember = (as: string, driveId: string, email: string, role: string) => call(as, 'POST', `/drive/v2/files/${driveId}/permissions?${ALL}`, { json: { type: 'user', role, emailAddress: email } });
  const newItem = async (as: string, title: string, parentId: string, mimeType = 'text/plain'): Promise<DriveFile> =>
    fileOf(await ok(as, 'POST', `/drive/v2/files?${ALL}`, { json: { title, mimeType, parents: [{ id: parentId }] } }));
  const listIds = async (as: string, query: string): Promise<string[]> => fileListSchema.parse((await ok(as, 'GET', `/drive/v2/files?${query}`)).json).items.map((item) => item.id);
  const permissionIdOf = async (email: string): Promise<string> => ((await ok(ALICE, 'GET', `/drive/v2/permissionIds/${q(email)}`)).json as { id: string }).id;
  const startToken = async (as: string): Promise<string> => ((await ok(as, 'GET', '/drive/v2/changes/startPageToken')).json as { startPageToken: string }).startPageToken;

  it('insert is idempotent per user and requestId; the creator is its organizer and its top folder carries its name', async () => {
    const first = await ok(ALICE, 'POST', '/drive/v2/drives?requestId=same-request', { json: { name: 'Idempotent' } });
    const drive = driveOf(first);
    assert.equal(drive.kind, 'drive#drive');
    assert.match(drive.id, /^0A[\w-]{11}Uk9PVA$/);
    assert.equal(drive.capabilities?.canManageMembers, true);
    assert.equal(drive.capabilities.canDeleteDrive, true);
    assert.equal(drive.hidden, false);
    await expectGoogleError(call(ALICE, 'POST', '/drive/v2/drives?requestId=same-request', { json: { name: 'Idempotent' } }), 409, 'teamDriveAlreadyExists');
    const drives = sharedDriveListSchema.parse((await ok(ALICE, 'GET', `/drive/v2/drives?q=${q("name = 'Idempotent'")}`)).json);
    assert.deepEqual(drives.items.map((item) => item.id), [drive.id]);
    // Another user's request id is their own.
    const bobs = driveOf(await ok(BOB, 'POST', '/drive/v2/drives?requestId=same-request', { json: { name: 'Idempotent' } }));
    assert.notEqual(bobs.id, drive.id);
    await expectGoogleError(call(ALICE, 'POST', '/drive/v2/drives', { json: { name: 'No request id' } }), 400, 'required');
    await expectGoogleError(call(ALICE, 'POST', '/drive/v2/drives?requestId=x-1', { json: {} }), 400, 'required');

    const top = fileOf(await ok(ALICE, 'GET', `/drive/v2/files/${drive.id}?${ALL}`));
    assert.equal(top.title, 'Idempotent');
    assert.equal(top.mimeType, FOLDER_MIME_TYPE);
    assert.equal(top.driveId, drive.id);
    assert.deepEqual(top.owners, []);
    const about = (await ok(ALICE, 'GET', '/drive/v2/about')).json as { canCreateDrives?: boolean; driveThemes?: { id?: string }[] };
    assert.equal(about.canCreateDrives, true);
    assert.ok(about.driveThemes?.some((theme) => theme.id === 'clover'), 'the themes a drive can take');
    const members = permissionListSchema.parse((await ok(ALICE, 'GET', `/drive/v2/files/${drive.id}/permissions?${ALL}`)).json);
    assert.deepEqual(members.items.map((member) => [member.emailAddress, member.role, member.permissionDetails?.[0]?.permissionType]), [[ALICE, 'organizer', 'member']]);
  });

  it('a non-member gets 404 for the drive, its top folder and its items; members see it by their role', async () => {
    const drive = await newDrive(ALICE, 'Members only');
    const item = await newItem(ALICE, 'inside.txt', drive.id);
    for (const path of [`/drive/v2/drives/${drive.id}`, `/drive/v2/files/${drive.id}?${ALL}`, `/drive/v2/files/${item.id}?${ALL}`]) await expectGoogleError(call(CAROL, 'GET', path), 404, 'notFound');
    await expectGoogleError(call(CAROL, 'GET', `/drive/v2/files?corpora=drive&driveId=${drive.id}&includeItemsFromAllDrives=true&${ALL}`), 404, 'notFound');

    for (const [email, role] of [[BOB, 'writer'], [CAROL, 'commenter']] as const) permissionSchema.parse((await addMember(ALICE, drive.id, email, role)).json);
    const asBob = driveOf(await ok(BOB, 'GET', `/drive/v2/drives/${drive.id}`));
    assert.equal(asBob.capabilities?.canAddChildren, true);
    assert.equal(asBob.capabilities.canManageMembers, false);
    assert.equal(asBob.capabilities.canTrashChildren, false);
    const asCarol = driveOf(await ok(CAROL, 'GET', `/drive/v2/drives/${drive.id}`));
    assert.equal(asCarol.capabilities?.canComment, true);
    assert.equal(asCarol.capabilities.canEdit, false);

    const bobsView = fileOf(await ok(BOB, 'GET', `/drive/v2/files/${item.id}?${ALL}`));
    assert.equal(bobsView.userPermission?.role, 'writer');
    assert.equal(bobsView.editable, true);
    assert.equal(bobsView.capabilities?.canTrash, false, 'writers (contributors) do not trash in a shared drive');
    const carolsView = fileOf(await ok(CAROL, 'GET', `/drive/v2/files/${item.id}?${ALL}`));
    assert.deepEqual([carolsView.userPermission?.role, carolsView.userPermission?.additionalRoles], ['reader', ['commenter']]);
    await expectGoogleError(call(CAROL, 'PATCH', `/drive/v2/files/${item.id}?${ALL}`, { json: { title: 'nope' } }), 403, 'insufficientFilePermissions');
    await expectGoogleError(call(CAROL, 'POST', `/drive/v2/files?${ALL}`, { json: { title: 'x', parents: [{ id: drive.id }] } }), 403, 'insufficientFilePermissions');

    // An item shows every member as inherited from the drive.
    const itemPermissions = permissionListSchema.parse((await ok(ALICE, 'GET', `/drive/v2/files/${item.id}/permissions?${ALL}`)).json);
    const bobOnItem = itemPermissions.items.find((permission) => permission.emailAddress === BOB);
    assert.deepEqual(bobOnItem?.permissionDetails?.[0], { permissionType: 'member', role: 'writer', inherited: true, inheritedFrom: drive.id });
    assert.equal(bobOnItem.teamDrivePermissionDetails?.[0]?.inheritedFrom, drive.id);
  });

  it('files in a shared drive: owned by the drive, listed by corpora and includeItemsFromAllDrives, 404 without supportsAllDrives', async () => {
    const drive = await newDrive(ALICE, 'Listing');
    await addMember(ALICE, drive.id, BOB, 'writer');
    const folder = await newItem(ALICE, 'Specs', drive.id, FOLDER_MIME_TYPE);
    const spec = await newItem(BOB, 'spec.txt', folder.id);
    assert.equal(spec.driveId, drive.id);
    assert.equal(spec.teamDriveId, drive.id);
    assert.deepEqual(spec.owners, []);
    assert.equal(spec.ownedByMe, false);
    assert.equal(spec.lastModifyingUser?.emailAddress, BOB);

    await expectGoogleError(call(BOB, 'GET', `/drive/v2/files/${spec.id}`), 404, 'notFound');
    await expectGoogleError(call(BOB, 'POST', '/drive/v2/files', { json: { title: 'x', parents: [{ id: folder.id }] } }), 404, 'notFound');
    await expectGoogleError(call(BOB, 'GET', `/drive/v2/files/${spec.id}/permissions`), 404, 'notFound');
    const inFolder = `q=${q(`'${folder.id}' in parents`)}`;
    assert.deepEqual(await listIds(BOB, inFolder), [], 'shared-drive items need includeItemsFromAllDrives');
    assert.deepEqual(await listIds(BOB, `${inFolder}&includeItemsFromAllDrives=true&${ALL}`), [spec.id]);
    assert.deepEqual((await listIds(BOB, `corpora=drive&driveId=${drive.id}&includeItemsFromAllDrives=true&${ALL}`)).sort(), [folder.id, spec.id].sort());
    const allDrives = await listIds(BOB, `corpora=allDrives&includeItemsFromAllDrives=true&${ALL}&q=${q("title = 'spec.txt'")}`);
    assert.deepEqual(allDrives, [spec.id]);
    assert.ok(!(await listIds(BOB, `q=${q("title = 'spec.txt'")}`)).includes(spec.id), 'the user corpus alone holds My Drive');
    await expectGoogleError(call(BOB, 'GET', `/drive/v2/files?corpora=drive&driveId=${drive.id}&${ALL}`), 403);
    await expectGoogleError(call(BOB, 'GET', `/drive/v2/files?corpora=drive&includeItemsFromAllDrives=true&${ALL}`), 400, 'teamDriveIdRequiresTeamDriveCorpora');
    await expectGoogleError(call(BOB, 'GET', `/drive/v2/files?corpora=user&driveId=${drive.id}&includeItemsFromAllDrives=true&${ALL}`), 400, 'teamDriveIdRequiresTeamDriveCorpora');
    // children.list of a drive folder lists its items.
    const children = (await ok(BOB, 'GET', `/drive/v2/files/${folder.id}/children`)).json as { items: { id: string }[] };
    assert.deepEqual(children.items.map((child) => child.id), [spec.id]);
  });

  it('copy, move within a drive (content managers), into a drive (owners) and out of it (organizers); one parent only', async () => {
    const drive = await newDrive(ALICE, 'Moves');
    await addMember(ALICE, drive.id, BOB, 'writer');
    const a = await newItem(ALICE, 'A', drive.id, FOLDER_MIME_TYPE);
    const b = await newItem(ALICE, 'B', drive.id, FOLDER_MIME_TYPE);
    const doc = await newItem(BOB, 'doc.txt', a.id);
    await expectGoogleError(call(BOB, 'PATCH', `/drive/v2/files/${doc.id}?addParents=${b.id}&removeParents=${a.id}&${ALL}`, { json: {} }), 403, 'insufficientFilePermissions');
    await ok(ALICE, 'PATCH', `/drive/v2/files/${drive.id}/permissions/${await permissionIdOf(BOB)}?${ALL}`, { json: { role: 'fileOrganizer' } });
    const moved = fileOf(await ok(BOB, 'PATCH', `/drive/v2/files/${doc.id}?addParents=${b.id}&removeParents=${a.id}&${ALL}`, { json: {} }));
    assert.deepEqual(moved.parents?.map((parent) => parent.id), [b.id]);
    await expectGoogleError(call(BOB, 'POST', `/drive/v2/files/${doc.id}/parents?${ALL}`, { json: { id: a.id } }), 403, 'teamDrivesParentLimit');

    // A copy into My Drive belongs to the user; a copy inside stays in the drive.
    const mine = fileOf(await ok(BOB, 'POST', `/drive/v2/files/${doc.id}/copy?${ALL}`, { json: { title: 'my copy', parents: [{ id: 'root' }] } }));
    assert.equal(mine.driveId, undefined);
    assert.equal(mine.owners?.[0]?.emailAddress, BOB);
    const inside = fileOf(await ok(BOB, 'POST', `/drive/v2/files/${doc.id}/copy?${ALL}`, { json: { title: 'copy inside' } }));
    assert.equal(inside.driveId, drive.id);

    // Into the drive: the owner may; the file then belongs to the drive. Folders do not cross.
    const own = fileOf(await ok(BOB, 'POST', '/drive/v2/files', { json: { title: 'mine.txt', mimeType: 'text/plain' } }));
    const movedIn = fileOf(await ok(BOB, 'PATCH', `/drive/v2/files/${own.id}?addParents=${a.id}&removeParents=root&${ALL}`, { json: {} }));
    assert.equal(movedIn.driveId, drive.id);
    assert.deepEqual(movedIn.owners, []);
    const myFolder = fileOf(await ok(BOB, 'POST', '/drive/v2/files', { json: { title: 'folder', mimeType: FOLDER_MIME_TYPE } }));
    await expectGoogleError(call(BOB, 'PATCH', `/drive/v2/files/${myFolder.id}?addParents=${a.id}&removeParents=root&${ALL}`, { json: {} }), 403, 'teamDrivesFolderMoveInNotSupported');
    // Out of the drive: organizers only.
    await expectGoogleError(call(BOB, 'PATCH', `/drive/v2/files/${movedIn.id}?addParents=root&removeParents=${a.id}&${ALL}`, { json: {} }), 403, 'insufficientFilePermissions');
    const movedOut = fileOf(await ok(ALICE, 'PATCH', `/drive/v2/files/${movedIn.id}?addParents=root&removeParents=${a.id}&${ALL}`, { json: {} }));
    assert.equal(movedOut.driveId, undefined);
    assert.equal(movedOut.owners?.[0]?.emailAddress, ALICE);
    await expectGoogleError(call(BOB, 'GET', `/drive/v2/files/${movedOut.id}?${ALL}`), 404);
  });

  it('organizer-only operations: rename, restrictions, members, delete; hide and unhide are each member\'s own', async () => {
    const drive = await newDrive(ALICE, 'Organized');
    await addMember(ALICE, drive.id, BOB, 'fileOrganizer');
    await expectGoogleError(call(BOB, 'PUT', `/drive/v2/drives/${drive.id}`, { json: { name: 'Taken over' } }), 403, 'insufficientFilePermissions');
    await expectGoogleError(addMember(BOB, drive.id, CAROL, 'reader'), 403, 'insufficientFilePermissions');
    await expectGoogleError(call(BOB, 'DELETE', `/drive/v2/drives/${drive.id}`), 403, 'insufficientFilePermissions');
    const renamed = driveOf(await ok(ALICE, 'PUT', `/drive/v2/drives/${drive.id}`, { json: { name: 'Organized 2', restrictions: { copyRequiresWriterPermission: true } } }));
    assert.equal(renamed.name, 'Organized 2');
    assert.equal(renamed.restrictions?.copyRequiresWriterPermission, true);
    assert.equal(fileOf(await ok(BOB, 'GET', `/drive/v2/files/${drive.id}?${ALL}`)).title, 'Organized 2');
    await expectGoogleError(call(ALICE, 'PUT', `/drive/v2/drives/${drive.id}`, { json: { themeId: 'clover', colorRgb: '#000000' } }), 400, 'invalid');
    await expectGoogleError(addMember(ALICE, drive.id, CAROL, 'owner'), 403, 'ownerOnTeamDriveItemNotSupported');
    await expectGoogleError(call(ALICE, 'POST', `/drive/v2/files/${drive.id}/permissions?${ALL}`, { json: { type: 'anyone', role: 'reader' } }), 403, 'cannotShareTeamDriveTopFolderWithAnyoneOrDomains');

    // Hiding is per user.
    const hidden = driveOf(await ok(BOB, 'POST', `/drive/v2/drives/${drive.id}/hide`));
    assert.equal(hidden.hidden, true);
    assert.equal(driveOf(await ok(ALICE, 'GET', `/drive/v2/drives/${drive.id}`)).hidden, false);
    const bobsHidden = sharedDriveListSchema.parse((await ok(BOB, 'GET', `/drive/v2/drives?q=${q('hidden = true')}`)).json);
    assert.ok(bobsHidden.items.some((item) => item.id === drive.id));
    const alicesHidden = sharedDriveListSchema.parse((await ok(ALICE, 'GET', `/drive/v2/drives?q=${q('hidden = true')}`)).json);
    assert.ok(!alicesHidden.items.some((item) => item.id === drive.id));
    assert.equal(driveOf(await ok(BOB, 'POST', `/drive/v2/drives/${drive.id}/unhide`)).hidden, false);
    await expectGoogleError(call(CAROL, 'POST', `/drive/v2/drives/${drive.id}/hide`), 404, 'notFound');

    // The last organizer stays.
    await expectGoogleError(call(ALICE, 'PUT', `/drive/v2/files/${drive.id}/permissions/${await permissionIdOf(ALICE)}?${ALL}`, { json: { role: 'writer' } }), 403, 'cannotUpdatePermission');
  });

  it('delete only when nothing is outside the trash; trash works per drive; allowItemDeletion is for administrators', async () => {
    const drive = await newDrive(ALICE, 'To delete');
    await addMember(ALICE, drive.id, BOB, 'fileOrganizer');
    const folder = await newItem(ALICE, 'Old', drive.id, FOLDER_MIME_TYPE);
    const file = await newItem(BOB, 'old.txt', folder.id);
    await expectGoogleError(call(ALICE, 'DELETE', `/drive/v2/drives/${drive.id}`), 403, 'cannotDeleteResourceWithChildren');
    await expectGoogleError(call(ALICE, 'DELETE', `/drive/v2/drives/${drive.id}?allowItemDeletion=true`), 400, 'invalid');
    await expectGoogleError(call(BOB, 'DELETE', `/drive/v2/drives/${drive.id}?allowItemDeletion=true&useDomainAdminAccess=true`), 403, 'noManageTeamDriveAdministratorPrivilege');

    // A content manager trashes the folder: the file goes with it, and members still see both in the drive's trash.
    const trashed = fileOf(await ok(BOB, 'POST', `/drive/v2/files/${folder.id}/trash?${ALL}`));
    assert.equal(trashed.labels?.trashed, true);
    assert.equal(fileOf(await ok(ALICE, 'GET', `/drive/v2/files/${file.id}?${ALL}`)).labels?.trashed, true);
    const inTrash = await listIds(ALICE, `corpora=drive&driveId=${drive.id}&includeItemsFromAllDrives=true&${ALL}&q=${q('trashed = true')}`);
    assert.deepEqual(inTrash.sort(), [folder.id, file.id].sort());
    await expectGoogleError(call(BOB, 'DELETE', `/drive/v2/files/${file.id}?${ALL}`), 403, 'insufficientFilePermissions');
    // Alice's own trash is not the drive's.
    assert.ok(!(await listIds(ALICE, `q=${q('trashed = true')}`)).includes(file.id));
    await expectGoogleError(call(BOB, 'DELETE', `/drive/v2/files/trash?driveId=${drive.id}`), 403, 'insufficientFilePermissions');

    // Everything left is trashed: the drive may go, and takes its trash along.
    const before = await startToken(BOB);
    await ok(ALICE, 'DELETE', `/drive/v2/drives/${drive.id}`);
    await expectGoogleError(call(ALICE, 'GET', `/drive/v2/drives/${drive.id}`), 404, 'notFound');
    await expectGoogleError(call(ALICE, 'GET', `/drive/v2/files/${file.id}?${ALL}`), 404, 'notFound');
    const bobsChanges = changeListSchema.parse((await ok(BOB, 'GET', `/drive/v2/changes?pageToken=${before}&includeItemsFromAllDrives=true&${ALL}`)).json);
    assert.ok(bobsChanges.items.some((change) => change.changeType === 'drive' && change.driveId === drive.id && change.deleted === true && change.drive === undefined));
    assert.ok(bobsChanges.items.some((change) => change.fileId === file.id && change.deleted === true));

    // An administrator (alice administers the domain) may delete a full drive with its items.
    const full = await newDrive(BOB, 'Full');
    await newItem(BOB, 'kept.txt', full.id);
    await ok(ALICE, 'DELETE', `/drive/v2/drives/${full.id}?allowItemDeletion=true&useDomainAdminAccess=true`);
    await expectGoogleError(call(BOB, 'GET', `/drive/v2/drives/${full.id}`), 404);
  });

  it('useDomainAdminAccess on permissions: an administrator manages a drive\'s members without being one; it grants nothing else', async () => {
    // Bob's drive, and alice (the domain's administrator) is no member of it.
    const drive = await newDrive(BOB, 'Orphaned team');
    const admin = `${ALL}&useDomainAdminAccess=true`;
    const aliceStart = await startToken(ALICE);
    await expectGoogleError(call(ALICE, 'GET', `/drive/v2/files/${drive.id}/permissions?${ALL}`), 404, 'notFound');
    const members = permissionListSchema.parse((await ok(ALICE, 'GET', `/drive/v2/files/${drive.id}/permissions?${admin}`)).json);
    assert.deepEqual(members.items.map((member) => [member.emailAddress, member.role]), [[BOB, 'organizer']]);

    // She adds carol as an organizer, changes her role, reads the grant, and removes bob, who is no longer the last organizer.
    const carol = permissionSchema.parse((await ok(ALICE, 'POST', `/drive/v2/files/${drive.id}/permissions?${admin}`, { json: { type: 'user', role: 'organizer', emailAddress: CAROL } })).json);
    assert.equal(carol.role, 'organizer');
    assert.equal(driveOf(await ok(CAROL, 'GET', `/drive/v2/drives/${drive.id}`)).capabilities?.canManageMembers, true);
    const bobId = await permissionIdOf(BOB);
    const demoted = permissionSchema.parse((await ok(ALICE, 'PATCH', `/drive/v2/files/${drive.id}/permissions/${bobId}?${admin}`, { json: { role: 'writer' } })).json);
    assert.equal(demoted.role, 'writer');
    assert.equal(permissionSchema.parse((await ok(ALICE, 'GET', `/drive/v2/files/${drive.id}/permissions/${bobId}?${admin}`)).json).role, 'writer');
    await ok(ALICE, 'DELETE', `/drive/v2/files/${drive.id}/permissions/${bobId}?${admin}`);
    await expectGoogleError(call(BOB, 'GET', `/drive/v2/drives/${drive.id}`), 404, 'notFound');
    // The last-organizer rule holds for an administrator too.
    await expectGoogleError(call(ALICE, 'DELETE', `/drive/v2/files/${drive.id}/permissions/${String(carol.id)}?${admin}`), 403, 'cannotDeletePermission');
    // She did not become a member by managing it, and her own change feed does not carry the drive.
    await expectGoogleError(call(ALICE, 'GET', `/drive/v2/files/${drive.id}/permissions?${ALL}`), 404, 'notFound');
    const alices = changeListSchema.parse((await ok(ALICE, 'GET', `/drive/v2/changes?pageToken=${aliceStart}&includeItemsFromAllDrives=true&${ALL}`)).json);
    assert.deepEqual(alices.items.filter((change) => change.driveId === drive.id), []);

    // Anyone else asking as an administrator is refused, member or not.
    await expectGoogleError(call(CAROL, 'GET', `/drive/v2/files/${drive.id}/permissions?${admin}`), 403, 'noManageTeamDriveAdministratorPrivilege');
    await expectGoogleError(call(BOB, 'POST', `/drive/v2/files/${drive.id}/permissions?${admin}`, { json: { type: 'user', role: 'reader', emailAddress: BOB } }), 403, 'noManageTeamDriveAdministratorPrivilege');

    // On anything but a shared drive itself the flag gives an administrator nothing: bob's unshared file and a drive item stay hidden.
    const item = await newItem(CAROL, 'inside.txt', drive.id);
    await expectGoogleError(call(ALICE, 'GET', `/drive/v2/files/${item.id}/permissions?${admin}`), 404, 'notFound');
    const bobsFile = fileOf(await ok(BOB, 'POST', '/drive/v2/files', { json: { title: 'private.txt', mimeType: 'text/plain' } }));
    await expectGoogleError(call(ALICE, 'GET', `/drive/v2/files/${bobsFile.id}/permissions?useDomainAdminAccess=true`), 404, 'notFound');
    await expectGoogleError(call(ALICE, 'POST', `/drive/v2/files/${bobsFile.id}/permissions?useDomainAdminAccess=true`, { json: { type: 'user', role: 'reader', emailAddress: ALICE } }), 404, 'notFound');
  });

  it('emptyTrash with driveId empties that drive\'s trash (organizers)', async () => {
    const drive = await newDrive(ALICE, 'Trash bin');
    const file = await newItem(ALICE, 'gone.txt', drive.id);
    const kept = await newItem(ALICE, 'kept.txt', drive.id);
    await ok(ALICE, 'POST', `/drive/v2/files/${file.id}/trash?${ALL}`);
    await ok(ALICE, 'DELETE', `/drive/v2/files/trash?driveId=${drive.id}`);
    await expectGoogleError(call(ALICE, 'GET', `/drive/v2/files/${file.id}?${ALL}`), 404);
    assert.equal(fileOf(await ok(ALICE, 'GET', `/drive/v2/files/${kept.id}?${ALL}`)).labels?.trashed, false);
    await expectGoogleError(call(ALICE, 'POST', `/drive/v2/files/${drive.id}/trash?${ALL}`), 403, 'cannotModifyRoot');
  });

  it('changes: drive changes for members (created, renamed, joined, left), a drive\'s own feed, items only with includeItemsFromAllDrives', async () => {
    const aliceStart = await startToken(ALICE);
    const bobStart = await startToken(BOB);
    const drive = await newDrive(ALICE, 'Feed');
    await addMember(ALICE, drive.id, BOB, 'writer');
    await ok(ALICE, 'PUT', `/drive/v2/drives/${drive.id}`, { json: { name: 'Feed renamed' } });
    const item = await newItem(BOB, 'news.txt', drive.id);

    const alices = changeListSchema.parse((await ok(ALICE, 'GET', `/drive/v2/changes?pageToken=${aliceStart}&includeItemsFromAllDrives=true&${ALL}`)).json);
    const driveChange = alices.items.find((change) => change.changeType === 'drive' && change.driveId === drive.id);
    assert.equal(driveChange?.drive?.name, 'Feed renamed');
    assert.equal(driveChange.fileId, undefined);
    assert.ok(alices.items.some((change) => change.fileId === item.id && change.file?.driveId === drive.id));
    const withoutDrives = changeListSchema.parse((await ok(ALICE, 'GET', `/drive/v2/changes?pageToken=${aliceStart}`)).json);
    assert.ok(!withoutDrives.items.some((change) => change.changeType === 'drive' || change.fileId === item.id));

    const bobs = changeListSchema.parse((await ok(BOB, 'GET', `/drive/v2/changes?pageToken=${bobStart}&includeItemsFromAllDrives=true&${ALL}`)).json);
    assert.ok(bobs.items.some((change) => change.changeType === 'drive' && change.drive?.id === drive.id && change.deleted === false));

    // The drive's own feed: its items' changes, for members only.
    const driveFeed = changeListSchema.parse((await ok(BOB, 'GET', `/drive/v2/changes?driveId=${drive.id}&pageToken=${aliceStart}&includeItemsFromAllDrives=true&${ALL}`)).json);
    assert.ok(driveFeed.items.some((change) => change.fileId === item.id));
    assert.ok(!driveFeed.items.some((change) => change.changeType === 'drive'));
    await expectGoogleError(call(CAROL, 'GET', `/drive/v2/changes?driveId=${drive.id}&pageToken=${aliceStart}&${ALL}`), 404, 'notFound');

    // Bob leaves: his feed says the drive is gone for him.
    const beforeLeaving = await startToken(BOB);
    await ok(ALICE, 'DELETE', `/drive/v2/files/${drive.id}/permissions/${await permissionIdOf(BOB)}?${ALL}`);
    const left = changeListSchema.parse((await ok(BOB, 'GET', `/drive/v2/changes?pageToken=${beforeLeaving}&includeItemsFromAllDrives=true&${ALL}`)).json);
    assert.ok(left.items.some((change) => change.changeType === 'drive' && change.driveId === drive.id && change.deleted === true));
    await expectGoogleError(call(BOB, 'GET', `/drive/v2/files/${item.id}?${ALL}`), 404);
  });

  it('drives.list pages (default 10, max 100) and searches by name, memberCount and createdTime', async () => {
    for (let index = 0; index < 12; index++) await newDrive(CAROL, `Carol ${index}`);
    const first = sharedDriveListSchema.parse((await ok(CAROL, 'GET', '/drive/v2/drives')).json);
    assert.equal(first.items.length, 10);
    assert.ok(first.nextPageToken);
    const second = sharedDriveListSchema.parse((await ok(CAROL, 'GET', `/drive/v2/drives?pageToken=${q(first.nextPageToken ?? '')}`)).json);
    assert.ok(second.items.length >= 2);
    assert.equal(second.items.some((item) => first.items.some((earlier) => earlier.id === item.id)), false);
    await expectGoogleError(call(CAROL, 'GET', '/drive/v2/drives?maxResults=101'), 400);
    const named = sharedDriveListSchema.parse((await ok(CAROL, 'GET', `/drive/v2/drives?maxResults=100&q=${q("name contains 'carol 1' and memberCount = 1 and createdTime > '2000-01-01T00:00:00Z'")}`)).json);
    assert.deepEqual(named.items.map((item) => item.name).sort(), ['Carol 1', 'Carol 10', 'Carol 11']);
    await expectGoogleError(call(CAROL, 'GET', `/drive/v2/drives?q=${q('colour = 1')}`), 400, 'invalid');
    await expectGoogleError(call(CAROL, 'GET', '/drive/v2/drives?useDomainAdminAccess=true'), 403, 'noListTeamDrivesAdministratorPrivilege');
    const everything = sharedDriveListSchema.parse((await ok(ALICE, 'GET', '/drive/v2/drives?useDomainAdminAccess=true&maxResults=100')).json);
    assert.ok(everything.items.some((item) => item.name === 'Carol 0'), 'an administrator lists the domain\'s drives');
  });

  it('role × operation matrix in a shared drive (organizer, fileOrganizer, writer, commenter, reader, non-member)', async () => {
    type Outcome = 'ok' | number;
    const roles = ['organizer', 'fileOrganizer', 'writer', 'commenter', 'reader', 'none'] as const;
    const operations = ['read', 'write', 'comment', 'share', 'trash', 'delete'] as const;
    const actual: Partial<Record<string, Record<string, Outcome>>> = {};
    for (const role of roles) {
      const row: Record<string, Outcome> = {};
      actual[role] = row;
      // Bob holds `role` on the drive (alice is its organizer); a fresh item per cell so trash/delete touch nothing else.
      const memberDrive = await newDrive(ALICE, `Matrix ${role}`);
      if (role !== 'none') assert.equal((await addMember(ALICE, memberDrive.id, BOB, role)).status, 200);
      for (const operation of operations) {
        const item = await newItem(ALICE, `cell-${role}-${operation}.txt`, memberDrive.id);
        const answer = await (async () => {
          switch (operation) {
            case 'read': return call(BOB, 'GET', `/drive/v2/files/${item.id}?${ALL}`);
            case 'write': return call(BOB, 'PATCH', `/drive/v2/files/${item.id}?${ALL}`, { json: { title: 'changed' } });
            case 'comment': return call(BOB, 'POST', `/drive/v2/files/${item.id}/comments`, { json: { content: 'hi' } });
            case 'share': return call(BOB, 'POST', `/drive/v2/files/${item.id}/permissions?${ALL}`, { json: { type: 'user', role: 'reader', emailAddress: CAROL } });
            case 'trash': return call(BOB, 'POST', `/drive/v2/files/${item.id}/trash?${ALL}`);
            case 'delete': return call(BOB, 'DELETE', `/drive/v2/files/${item.id}?${ALL}`);
          }
        })();
        if (answer.status >= 400) await expectGoogleError(answer, answer.status);
        row[operation] = answer.status < 300 ? 'ok' : answer.status;
      }
    }
    const table = [`role          | ${operations.map((operation) => operation.padEnd(7)).join(' | ')}`, ...roles.map((role) => `${role.padEnd(13)} | ${operations.map((operation) => String(actual[role]?.[operation]).padEnd(7)).join(' | ')}`)];
    console.log(`      Shared drive role × operation (bob's drive role; alice organizes):\n      ${table.join('\n      ')}`);
    // Google's roles (developers.google.com/drive/api/guides/ref-roles): readers only read, commenters also comment,
    // writers (contributors) edit and share, content managers (fileOrganizer) also trash; non-members see nothing.
    // The emulator keeps permanent deletion to organizers and trashing from contributors; those cells are printed, not pinned.
    const at = (role: string) => actual[role];
    assert.deepEqual(at('organizer'), { read: 'ok', write: 'ok', comment: 'ok', share: 'ok', trash: 'ok', delete: 'ok' });
    assert.deepEqual(at('reader'), { read: 'ok', write: 403, comment: 403, share: 403, trash: 403, delete: 403 });
    assert.deepEqual(at('commenter'), { read: 'ok', write: 403, comment: 'ok', share: 403, trash: 403, delete: 403 });
    assert.deepEqual({ ...at('writer'), trash: 'x', delete: 'x' }, { read: 'ok', write: 'ok', comment: 'ok', share: 'ok', trash: 'x', delete: 'x' });
    assert.deepEqual({ ...at('fileOrganizer'), delete: 'x' }, { read: 'ok', write: 'ok', comment: 'ok', share: 'ok', trash: 'ok', delete: 'x' });
    assert.deepEqual(at('none'), { read: 404, write: 404, comment: 404, share: 404, trash: 404, delete: 404 });
  });
});
