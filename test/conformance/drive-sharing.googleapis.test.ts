import * as assert from 'node:assert/strict';
import type { drive_v2 } from '@googleapis/drive';
import { officialDriveUsers } from '../support/driveUsers';
import { rejectsWith } from '../support/officialClient';

const FOLDER = 'application/vnd.google-apps.folder';

describe('official @googleapis/drive v2 client: permissions, comments and replies against the emulator', function () {
  this.timeout(20000);
  const users = officialDriveUsers();
  let alice: drive_v2.Drive;
  let bob: drive_v2.Drive;
  let carol: drive_v2.Drive;
  before(() => ({ alice, bob, carol } = users));

  async function everything(api: drive_v2.Drive, q?: string): Promise<drive_v2.Schema$File[]> {
    const files: drive_v2.Schema$File[] = [];
    let pageToken: string | undefined;
    do {
      const page = await api.files.list({ maxResults: 7, ...(q ? { q } : {}), ...(pageToken ? { pageToken } : {}) });
      files.push(...(page.data.items ?? []));
      pageToken = page.data.nextPageToken ?? undefined;
    } while (pageToken);
    return files;
  }

  it('bob sees exactly what alice shared with him and nothing else', async () => {
    const bobsOwn = (await bob.files.insert({ requestBody: { title: 'bob-own.txt', mimeType: 'text/plain' } })).data.id as string;
    const secret = (await alice.files.insert({ requestBody: { title: 'secret.txt', mimeType: 'text/plain' } })).data.id as string;
    const secretFolder = (await alice.files.insert({ requestBody: { title: 'Private', mimeType: FOLDER } })).data.id as string;
    await alice.files.insert({ requestBody: { title: 'private-inner.txt', mimeType: 'text/plain', parents: [{ id: secretFolder }] } });
    const single = (await alice.files.insert({ requestBody: { title: 'for-bob.txt', mimeType: 'text/plain' } })).data.id as string;
    const folder = (await alice.files.insert({ requestBody: { title: 'Shared folder', mimeType: FOLDER } })).data.id as string;
    const innerA = (await alice.files.insert({ requestBody: { title: 'a.txt', mimeType: 'text/plain', parents: [{ id: folder }] } })).data.id as string;
    const innerB = (await alice.files.insert({ requestBody: { title: 'b.txt', mimeType: 'text/plain', parents: [{ id: folder }] } })).data.id as string;
    const toCarol = (await alice.files.insert({ requestBody: { title: 'for-carol.txt', mimeType: 'text/plain' } })).data.id as string;

    const reader = await alice.permissions.insert({ fileId: single, sendNotificationEmails: false, requestBody: { type: 'user', role: 'reader', value: 'bob@example.com' } });
    assert.equal(reader.data.kind, 'drive#permission');
    assert.equal(reader.data.role, 'reader');
    await alice.permissions.insert({ fileId: folder, emailMessage: 'Have a look', requestBody: { type: 'user', role: 'writer', emailAddress: 'bob@example.com' } });
    await alice.permissions.insert({ fileId: toCarol, requestBody: { type: 'user', role: 'reader', emailAddress: 'carol@example.com' } });

    const seen = (await everything(bob)).map((file) => file.id).sort();
    assert.deepEqual(seen, [bobsOwn, single, folder, innerA, innerB].sort());
    const sharedWithMe = (await everything(bob, 'sharedWithMe')).map((file) => file.id).sort();
    assert.deepEqual(sharedWithMe, [single, folder].sort());
    for (const hidden of [secret, secretFolder, toCarol]) await rejectsWith(bob.files.get({ fileId: hidden }), 404);
    const got = await bob.files.get({ fileId: innerA });
    assert.equal(got.data.userPermission?.role, 'writer');
    assert.equal(got.data.owners?.[0]?.emailAddress, 'alice@example.com');
    assert.equal(got.data.shared, true);
    // Carol sees only hers.
    assert.deepEqual((await everything(carol)).map((file) => file.id), [toCarol]);
  });

  it('permissions: list, get, getIdForEmail, patch, update, delete, inherited details, and transferOwnership', async () => {
    const folder = (await alice.files.insert({ requestBody: { title: 'Perms', mimeType: FOLDER } })).data.id as string;
    const file = (await alice.files.insert({ requestBody: { title: 'perm.txt', mimeType: 'text/plain', parents: [{ id: folder }] } })).data.id as string;
    await alice.permissions.insert({ fileId: folder, requestBody: { type: 'user', role: 'reader', emailAddress: 'carol@example.com' } });
    const bobId = (await alice.permissions.getIdForEmail({ email: 'bob@example.com' })).data.id as string;
    assert.equal(bobId, (await bob.about.get()).data.permissionId);
    await alice.permissions.insert({ fileId: file, requestBody: { type: 'user', role: 'reader', emailAddress: 'bob@example.com' } });

    const list = await alice.permissions.list({ fileId: file });
    assert.equal(list.data.kind, 'drive#permissionList');
    const carols = list.data.items?.find((permission) => permission.emailAddress === 'carol@example.com');
    assert.equal(carols?.permissionDetails?.[0]?.inherited, true);
    assert.equal(carols.permissionDetails[0]?.inheritedFrom, folder);
    assert.equal((await alice.permissions.get({ fileId: file, permissionId: bobId })).data.role, 'reader');

    const patched = await alice.permissions.patch({ fileId: file, permissionId: bobId, requestBody: { role: 'reader', additionalRoles: ['commenter'] } });
    assert.deepEqual(patched.data.additionalRoles, ['commenter']);
    assert.equal((await alice.permissions.update({ fileId: file, permissionId: bobId, requestBody: { role: 'writer' } })).data.role, 'writer');
    await rejectsWith(bob.permissions.delete({ fileId: file, permissionId: (await alice.about.get()).data.permissionId as string }), 403);
    const owned = await alice.permissions.update({ fileId: file, permissionId: bobId, transferOwnership: true, requestBody: { role: 'owner' } });
    assert.equal(owned.data.role, 'owner');
    assert.equal((await bob.files.get({ fileId: file })).data.ownedByMe, true);
    const aliceId = (await alice.about.get()).data.permissionId as string;
    await bob.permissions.delete({ fileId: file, permissionId: aliceId });
    // Alice still edits it: it sits in her folder, whose owner edits what is inside.
    const inherited = (await alice.permissions.list({ fileId: file })).data.items?.find((permission) => permission.id === aliceId);
    assert.equal(inherited?.role, 'writer');
    assert.ok(inherited.permissionDetails?.every((detail) => detail.inherited) && inherited.permissionDetails.some((detail) => detail.inheritedFrom === folder));
    await bob.files.patch({ fileId: file, removeParents: folder, requestBody: {} });
    await rejectsWith(alice.files.get({ fileId: file }), 404);
    await rejectsWith(alice.permissions.insert({ fileId: folder, requestBody: { type: 'user', role: 'reader' } }), 400);
    await rejectsWith(carol.permissions.insert({ fileId: folder, requestBody: { type: 'user', role: 'reader', emailAddress: 'bob@example.com' } }), 403);
  });

  it('comments and replies: insert, get, list, patch, update, delete, resolve with a reply', async () => {
    const file = (await alice.files.insert({ requestBody: { title: 'review.txt', mimeType: 'text/plain' } })).data.id as string;
    await alice.permissions.insert({ fileId: file, requestBody: { type: 'user', role: 'reader', additionalRoles: ['commenter'], emailAddress: 'bob@example.com' } });
    const comment = await bob.comments.insert({ fileId: file, requestBody: { content: 'Typo in line 1', context: { type: 'text/plain', value: 'teh' } } });
    assert.equal(comment.data.kind, 'drive#comment');
    const commentId = comment.data.commentId as string;
    assert.equal((await alice.comments.get({ fileId: file, commentId })).data.author?.emailAddress, 'bob@example.com');
    assert.equal((await bob.comments.patch({ fileId: file, commentId, requestBody: { content: 'Typo in line one' } })).data.content, 'Typo in line one');
    assert.equal((await bob.comments.update({ fileId: file, commentId, requestBody: { content: 'Typo: teh' } })).data.content, 'Typo: teh');
    await rejectsWith(alice.comments.patch({ fileId: file, commentId, requestBody: { content: 'mine now' } }), 403);

    const reply = await alice.replies.insert({ fileId: file, commentId, requestBody: { content: 'Fixed', verb: 'resolve' } });
    assert.equal(reply.data.kind, 'drive#commentReply');
    const replyId = reply.data.replyId as string;
    assert.equal((await bob.comments.get({ fileId: file, commentId })).data.status, 'resolved');
    assert.equal((await alice.replies.patch({ fileId: file, commentId, replyId, requestBody: { content: 'Fixed now' } })).data.content, 'Fixed now');
    assert.equal((await alice.replies.update({ fileId: file, commentId, replyId, requestBody: { content: 'Fixed!' } })).data.content, 'Fixed!');
    assert.equal((await bob.replies.get({ fileId: file, commentId, replyId })).data.verb, 'resolve');
    assert.equal((await bob.replies.list({ fileId: file, commentId })).data.items?.length, 1);
    await alice.replies.delete({ fileId: file, commentId, replyId });
    assert.equal((await bob.replies.list({ fileId: file, commentId })).data.items?.length, 0);
    assert.equal((await bob.replies.list({ fileId: file, commentId, includeDeleted: true })).data.items?.[0]?.deleted, true);

    const listed = await alice.comments.list({ fileId: file });
    assert.equal(listed.data.kind, 'drive#commentList');
    assert.equal(listed.data.items?.length, 1);
    await bob.comments.delete({ fileId: file, commentId });
    assert.equal((await alice.comments.list({ fileId: file })).data.items?.length, 0);
    assert.equal((await alice.comments.get({ fileId: file, commentId, includeDeleted: true })).data.deleted, true);
    await rejectsWith(carol.comments.list({ fileId: file }), 404);
  });
});
