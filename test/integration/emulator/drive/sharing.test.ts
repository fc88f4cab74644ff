import * as assert from 'node:assert/strict';
import { changeListSchema, DriveFile, fileListSchema, FOLDER_MIME_TYPE } from '../../../../src/shared/schemas/drive';
import { commentListSchema, commentSchema, commentReplySchema } from '../../../../src/shared/schemas/drive/comments';
import { permissionListSchema, permissionSchema } from '../../../../src/shared/schemas/drive/permissions';
import { ALICE, BOB, CAROL, driveUsers } from '../../../support/driveUsers';
import { expectGoogleError } from '../../../support/emulatorHttp';


describe('Drive v2 emulator: sharing (permissions) and comments across demo users', function () {
  this.timeout(20000);
  const { call, ok, fileOf } = driveUsers();
  const newFile = async (as: string, title: string, parentId?: string, mimeType = 'text/plain'): Promise<DriveFile> =>
    fileOf(await ok(as, 'POST', '/drive/v2/files', { json: { title, mimeType, ...(parentId ? { parents: [{ id: parentId }] } : {}) } }));
  const share = (as: string, fileId: string, body: Record<string, unknown>, query = '') => call(as, 'POST', `/drive/v2/files/${fileId}/permissions${query}`, { json: body });
  const q = encodeURIComponent;

  it('a user file stays a 404 to others until shared; sharing shows it to the grantee with role, owners, shared and sharedWithMe', async () => {
    const file = await newFile(ALICE, 'plan-shared.txt');
    await expectGoogleError(call(BOB, 'GET', `/drive/v2/files/${file.id}`), 404, 'notFound');
    const bobStart = (await ok(BOB, 'GET', '/drive/v2/changes/startPageToken')).json as { startPageToken: string };

    const granted = permissionSchema.parse((await ok(ALICE, 'POST', `/drive/v2/files/${file.id}/permissions?sendNotificationEmails=false`, { json: { type: 'user', role: 'reader', value: BOB } })).json);
    const bobId = ((await ok(ALICE, 'GET', `/drive/v2/permissionIds/${q(BOB)}`)).json as { id: string }).id;
    assert.equal(granted.id, bobId);
    assert.equal(granted.role, 'reader');
    assert.equal(granted.emailAddress, BOB);

    const seen = fileOf(await ok(BOB, 'GET', `/drive/v2/files/${file.id}`));
    assert.equal(seen.shared, true);
    assert.equal(seen.userPermission?.role, 'reader');
    assert.equal(seen.owners?.[0]?.emailAddress, ALICE);
    assert.equal(seen.ownedByMe, false);
    assert.equal(seen.editable, false);
    assert.ok(seen.sharedWithMeDate);
    assert.equal(seen.sharingUser?.emailAddress, ALICE);
    assert.equal(fileOf(await ok(ALICE, 'GET', `/drive/v2/files/${file.id}`)).shared, true);

    const sharedWithBob = fileListSchema.parse((await ok(BOB, 'GET', `/drive/v2/files?q=${q('sharedWithMe')}`)).json);
    assert.ok(sharedWithBob.items.some((item) => item.id === file.id));
    const notShared = fileListSchema.parse((await ok(BOB, 'GET', `/drive/v2/files?q=${q('not sharedWithMe')}`)).json);
    assert.ok(!notShared.items.some((item) => item.id === file.id));
    const changes = changeListSchema.parse((await ok(BOB, 'GET', `/drive/v2/changes?pageToken=${bobStart.startPageToken}`)).json);
    assert.ok(changes.items.some((change) => change.fileId === file.id && change.deleted === false && change.file?.userPermission?.role === 'reader'));
    // Carol is not part of it.
    await expectGoogleError(call(CAROL, 'GET', `/drive/v2/files/${file.id}`), 404);

    // Unsharing: bob's feed reports the file gone, and it is a 404 again.
    const beforeRemoval = (await ok(BOB, 'GET', '/drive/v2/changes/startPageToken')).json as { startPageToken: string };
    await ok(ALICE, 'DELETE', `/drive/v2/files/${file.id}/permissions/${bobId}`);
    await expectGoogleError(call(BOB, 'GET', `/drive/v2/files/${file.id}`), 404);
    const removal = changeListSchema.parse((await ok(BOB, 'GET', `/drive/v2/changes?pageToken=${beforeRemoval.startPageToken}`)).json);
    assert.ok(removal.items.some((change) => change.fileId === file.id && change.deleted === true));
  });

  it('folder permissions are inherited by everything inside (inherited, inheritedFrom), and writers add files to the folder', async () => {
    const folder = fileOf(await ok(ALICE, 'POST', '/drive/v2/files', { json: { title: 'Team folder', mimeType: FOLDER_MIME_TYPE } }));
    const inner = await newFile(ALICE, 'inner.txt', folder.id);
    await ok(ALICE, 'POST', `/drive/v2/files/${folder.id}/permissions`, { json: { type: 'user', role: 'writer', emailAddress: BOB } });
    const list = permissionListSchema.parse((await ok(ALICE, 'GET', `/drive/v2/files/${inner.id}/permissions`)).json);
    const bobs = list.items.find((permission) => permission.emailAddress === BOB);
    assert.equal(bobs?.role, 'writer');
    assert.deepEqual(bobs.permissionDetails, [{ permissionType: 'file', role: 'writer', inherited: true, inheritedFrom: folder.id }]);
    assert.equal(list.items[0]?.role, 'owner');
    assert.equal(list.items[0]?.emailAddress, ALICE);

    const patched = fileOf(await ok(BOB, 'PATCH', `/drive/v2/files/${inner.id}`, { json: { title: 'inner (bob).txt' } }));
    assert.equal(patched.title, 'inner (bob).txt');
    assert.equal(patched.lastModifyingUser?.emailAddress, BOB);
    const bobsOwn = await newFile(BOB, 'from-bob.txt', folder.id);
    const children = fileListSchema.parse((await ok(ALICE, 'GET', `/drive/v2/files?q=${q(`'${folder.id}' in parents`)}`)).json);
    assert.deepEqual(children.items.map((item) => item.title).sort(), ['from-bob.txt', 'inner (bob).txt']);
    assert.equal(fileOf(await ok(ALICE, 'GET', `/drive/v2/files/${bobsOwn.id}`)).userPermission?.role, 'writer');
    // The inherited grant cannot be removed on the child, only on the folder.
    const bobId = bobs.id as string;
    await expectGoogleError(call(ALICE, 'DELETE', `/drive/v2/files/${inner.id}/permissions/${bobId}`), 403);
    // Listing the shared folder as bob: everything in it, nothing else of alice's.
    const bobView = fileListSchema.parse((await ok(BOB, 'GET', `/drive/v2/files?q=${q(`'${folder.id}' in parents`)}`)).json);
    assert.equal(bobView.items.length, 2);
    assert.ok(fileListSchema.parse((await ok(BOB, 'GET', '/drive/v2/files?maxResults=1000')).json).items.some((item) => item.id === inner.id));
    assert.ok(fileListSchema.parse((await ok(BOB, 'GET', `/drive/v2/files?q=${q(`'${BOB}' in writers and title = 'inner (bob).txt'`)}`)).json).items.length === 1);
  });

  it('writersCanShare false stops writers from sharing; the owner cannot be removed or demoted; ownership moves only with transferOwnership', async () => {
    const file = await newFile(ALICE, 'locked.txt');
    await ok(ALICE, 'POST', `/drive/v2/files/${file.id}/permissions`, { json: { type: 'user', role: 'writer', emailAddress: BOB } });
    await ok(BOB, 'POST', `/drive/v2/files/${file.id}/permissions`, { json: { type: 'user', role: 'reader', emailAddress: CAROL } });
    await expectGoogleError(call(BOB, 'PATCH', `/drive/v2/files/${file.id}`, { json: { writersCanShare: false } }), 403);
    assert.equal(fileOf(await ok(ALICE, 'PATCH', `/drive/v2/files/${file.id}`, { json: { writersCanShare: false } })).writersCanShare, false);
    await expectGoogleError(share(BOB, file.id, { type: 'user', role: 'reader', emailAddress: 'dave@example.org' }), 403, 'insufficientFilePermissions');
    const aliceId = ((await ok(ALICE, 'GET', '/drive/v2/about')).json as { permissionId: string }).permissionId;
    await expectGoogleError(call(ALICE, 'DELETE', `/drive/v2/files/${file.id}/permissions/${aliceId}`), 403, 'cannotRemoveOwner');
    await expectGoogleError(call(ALICE, 'PATCH', `/drive/v2/files/${file.id}/permissions/${aliceId}`, { json: { role: 'reader' } }), 403);

    const bobId = ((await ok(ALICE, 'GET', `/drive/v2/permissionIds/${q(BOB)}`)).json as { id: string }).id;
    await expectGoogleError(call(ALICE, 'PATCH', `/drive/v2/files/${file.id}/permissions/${bobId}`, { json: { role: 'owner' } }), 403);
    const owner = permissionSchema.parse((await ok(ALICE, 'PATCH', `/drive/v2/files/${file.id}/permissions/${bobId}?transferOwnership=true`, { json: { role: 'owner' } })).json);
    assert.equal(owner.role, 'owner');
    const after = fileOf(await ok(BOB, 'GET', `/drive/v2/files/${file.id}`));
    assert.equal(after.owners?.[0]?.emailAddress, BOB);
    assert.equal(after.ownedByMe, true);
    assert.equal(fileOf(await ok(ALICE, 'GET', `/drive/v2/files/${file.id}`)).userPermission?.role, 'writer');
    // A grantee may leave a file on their own.
    const carolId = ((await ok(CAROL, 'GET', '/drive/v2/about')).json as { permissionId: string }).permissionId;
    await ok(CAROL, 'DELETE', `/drive/v2/files/${file.id}/permissions/${carolId}`);
    await expectGoogleError(call(CAROL, 'GET', `/drive/v2/files/${file.id}`), 404);
  });

  it('anyone with the link, the domain and the demo group grant access; link-only files stay out of listings', async () => {
    const linked = await newFile(ALICE, 'linked.txt');
    const anyone = permissionSchema.parse((await share(ALICE, linked.id, { type: 'anyone', role: 'reader', withLink: true })).json);
    assert.equal(anyone.id, 'anyoneWithLink');
    assert.equal(fileOf(await ok(CAROL, 'GET', `/drive/v2/files/${linked.id}`)).userPermission?.role, 'reader');
    assert.ok(!fileListSchema.parse((await ok(CAROL, 'GET', '/drive/v2/files?maxResults=1000')).json).items.some((item) => item.id === linked.id));

    const domainFile = await newFile(ALICE, 'domain.txt');
    await ok(ALICE, 'POST', `/drive/v2/files/${domainFile.id}/permissions`, { json: { type: 'domain', role: 'writer', value: 'example.com' } });
    assert.equal(fileOf(await ok(CAROL, 'PATCH', `/drive/v2/files/${domainFile.id}`, { json: { description: 'carol was here' } })).description, 'carol was here');

    const groupFile = await newFile(ALICE, 'group.txt');
    await ok(ALICE, 'POST', `/drive/v2/files/${groupFile.id}/permissions`, { json: { type: 'group', role: 'reader', additionalRoles: ['commenter'], emailAddress: 'team@example.com' } });
    const carolView = fileOf(await ok(CAROL, 'GET', `/drive/v2/files/${groupFile.id}`));
    assert.equal(carolView.userPermission?.role, 'reader');
    assert.deepEqual(carolView.userPermission.additionalRoles, ['commenter']);
    assert.ok(fileListSchema.parse((await ok(CAROL, 'GET', `/drive/v2/files?q=${q('sharedWithMe')}`)).json).items.some((item) => item.id === groupFile.id));
  });

  it('bad sharing input is a Google-format 400, never a 500', async () => {
    const file = await newFile(ALICE, 'bad-input.txt');
    await expectGoogleError(share(ALICE, file.id, { role: 'reader' }), 400, 'required');
    await expectGoogleError(share(ALICE, file.id, { type: 'user' }), 400, 'required');
    await expectGoogleError(share(ALICE, file.id, { type: 'user', role: 'reader' }), 400, 'required');
    await expectGoogleError(share(ALICE, file.id, { type: 'user', role: 'emperor', emailAddress: BOB }), 400, 'invalid');
    await expectGoogleError(share(ALICE, file.id, { type: 'user', role: 'reader', emailAddress: 'not-an-email' }), 400, 'invalid');
    await expectGoogleError(share(ALICE, file.id, { type: 'user', role: 'organizer', emailAddress: BOB }), 400, 'invalid');
    await expectGoogleError(share(ALICE, file.id, { type: 'user', role: 'reader', emailAddress: BOB, expirationDate: '2001-01-01T00:00:00Z' }), 400);
    await expectGoogleError(share(ALICE, file.id, { type: 'user', role: 'reader', emailAddress: BOB, withLink: true }), 400, 'invalid');
    await expectGoogleError(share(ALICE, file.id, { type: 'user', role: 'owner', emailAddress: 'stranger@elsewhere.org' }, '?transferOwnership=true'), 400);
    await expectGoogleError(call(ALICE, 'POST', `/drive/v2/files/${file.id}/permissions`, { body: '{"type":', contentType: 'application/json' }), 400);
    await expectGoogleError(call(ALICE, 'GET', `/drive/v2/files/${file.id}/permissions/nope`), 404, 'notFound');
    await expectGoogleError(call(ALICE, 'GET', `/drive/v2/files/${file.id}/permissions?maxResults=500`), 400, 'invalid');
    await expectGoogleError(call(ALICE, 'POST', `/drive/v2/files/${file.id}/permissions?sendNotificationEmails=maybe`, { json: { type: 'anyone', role: 'reader' } }), 400, 'invalid');
    await expectGoogleError(call(ALICE, 'POST', '/drive/v2/files/root/permissions', { json: { type: 'user', role: 'reader', emailAddress: BOB } }), 403);
  });

  it('comments and replies: authors, anchors and quoted context, resolve/reopen, deleted kept for includeDeleted, updatedMin and paging', async () => {
    const file = await newFile(ALICE, 'commented.txt');
    await ok(ALICE, 'POST', `/drive/v2/files/${file.id}/permissions`, { json: { type: 'user', role: 'reader', additionalRoles: ['commenter'], emailAddress: BOB } });
    await ok(ALICE, 'POST', `/drive/v2/files/${file.id}/permissions`, { json: { type: 'user', role: 'reader', emailAddress: CAROL } });
    const comment = commentSchema.parse((await ok(BOB, 'POST', `/drive/v2/files/${file.id}/comments`, { json: { content: 'Is <this> right?\nSee line 2', anchor: '{"r":"head"}', context: { type: 'text/plain', value: 'line 2' } } })).json);
    assert.equal(comment.author?.emailAddress, BOB);
    assert.equal(comment.htmlContent, 'Is &lt;this&gt; right?<br>See line 2');
    assert.deepEqual(comment.context, { type: 'text/plain', value: 'line 2' });
    assert.equal(comment.status, 'open');
    assert.equal(comment.fileTitle, 'commented.txt');
    await expectGoogleError(call(CAROL, 'POST', `/drive/v2/files/${file.id}/comments`, { json: { content: 'reader cannot' } }), 403);
    await expectGoogleError(call(ALICE, 'PATCH', `/drive/v2/files/${file.id}/comments/${comment.commentId}`, { json: { content: 'not mine' } }), 403);
    await expectGoogleError(call(BOB, 'POST', `/drive/v2/files/${file.id}/comments`, { json: {} }), 400, 'required');
    assert.equal(commentSchema.parse((await ok(BOB, 'PATCH', `/drive/v2/files/${file.id}/comments/${comment.commentId}`, { json: { content: 'Is this right?' } })).json).content, 'Is this right?');

    const resolve = commentReplySchema.parse((await ok(ALICE, 'POST', `/drive/v2/files/${file.id}/comments/${comment.commentId}/replies`, { json: { content: 'Yes, fixed.', verb: 'resolve' } })).json);
    assert.equal(resolve.verb, 'resolve');
    assert.equal(commentSchema.parse((await ok(CAROL, 'GET', `/drive/v2/files/${file.id}/comments/${comment.commentId}`)).json).status, 'resolved');
    await ok(BOB, 'POST', `/drive/v2/files/${file.id}/comments/${comment.commentId}/replies`, { json: { verb: 'reopen' } });
    const reopened = commentSchema.parse((await ok(BOB, 'GET', `/drive/v2/files/${file.id}/comments/${comment.commentId}`)).json);
    assert.equal(reopened.status, 'open');
    assert.equal(reopened.replies?.length, 2);
    await expectGoogleError(call(BOB, 'PUT', `/drive/v2/files/${file.id}/comments/${comment.commentId}/replies/${resolve.replyId}`, { json: { content: 'hijack' } }), 403);
    await ok(ALICE, 'DELETE', `/drive/v2/files/${file.id}/comments/${comment.commentId}/replies/${resolve.replyId}`);
    await expectGoogleError(call(ALICE, 'GET', `/drive/v2/files/${file.id}/comments/${comment.commentId}/replies/${resolve.replyId}`), 404);
    const withDeletedReply = commentReplySchema.parse((await ok(ALICE, 'GET', `/drive/v2/files/${file.id}/comments/${comment.commentId}/replies/${resolve.replyId}?includeDeleted=true`)).json);
    assert.equal(withDeletedReply.deleted, true);

    // Paging: 25 comments → 20 + the rest; updatedMin filters by modification time.
    // The checkpoint follows the first comment's last change as the emulator stamped it: its clock never runs
    // backwards, so under load a stamp can be a few milliseconds ahead of this process's clock.
    const lastChange = commentSchema.parse((await ok(ALICE, 'GET', `/drive/v2/files/${file.id}/comments/${comment.commentId}`)).json).modifiedDate;
    const checkpoint = new Date(Math.max(Date.now(), Date.parse(lastChange ?? '') + 1 || 0)).toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (let index = 0; index < 24; index++) await ok(BOB, 'POST', `/drive/v2/files/${file.id}/comments`, { json: { content: `note ${index}` } });
    const first = commentListSchema.parse((await ok(CAROL, 'GET', `/drive/v2/files/${file.id}/comments`)).json);
    assert.equal(first.items.length, 20);
    const second = commentListSchema.parse((await ok(CAROL, 'GET', `/drive/v2/files/${file.id}/comments?pageToken=${q(first.nextPageToken as string)}`)).json);
    assert.equal(second.items.length, 5);
    assert.equal(second.nextPageToken, undefined);
    assert.equal(commentListSchema.parse((await ok(CAROL, 'GET', `/drive/v2/files/${file.id}/comments?maxResults=100&updatedMin=${q(checkpoint)}`)).json).items.length, 24);
    await expectGoogleError(call(CAROL, 'GET', `/drive/v2/files/${file.id}/comments?maxResults=101`), 400, 'invalid');
    await expectGoogleError(call(CAROL, 'GET', `/drive/v2/files/${file.id}/comments?updatedMin=yesterday`), 400, 'invalid');

    await ok(BOB, 'DELETE', `/drive/v2/files/${file.id}/comments/${comment.commentId}`);
    await expectGoogleError(call(BOB, 'GET', `/drive/v2/files/${file.id}/comments/${comment.commentId}`), 404);
    const all = commentListSchema.parse((await ok(BOB, 'GET', `/drive/v2/files/${file.id}/comments?includeDeleted=true&maxResults=100`)).json);
    assert.equal(all.items.find((item) => item.commentId === comment.commentId)?.deleted, true);
    assert.ok(!commentListSchema.parse((await ok(BOB, 'GET', `/drive/v2/files/${file.id}/comments?maxResults=100`)).json).items.some((item) => item.commentId === comment.commentId));
  });

  it('role × operation matrix (read, write, comment, share, trash, delete) for every My Drive role', async () => {
    type Outcome = 'ok' | number;
    const roles = ['owner', 'writer', 'commenter', 'reader', 'none'] as const;
    const operations = ['read', 'write', 'comment', 'share', 'trash', 'delete'] as const;
    const expected: Record<(typeof roles)[number], Record<(typeof operations)[number], Outcome>> = {
      owner: { read: 'ok', write: 'ok', comment: 'ok', share: 'ok', trash: 'ok', delete: 'ok' },
      writer: { read: 'ok', write: 'ok', comment: 'ok', share: 'ok', trash: 403, delete: 403 },
      commenter: { read: 'ok', write: 403, comment: 'ok', share: 403, trash: 403, delete: 403 },
      reader: { read: 'ok', write: 403, comment: 403, share: 403, trash: 403, delete: 403 },
      none: { read: 404, write: 404, comment: 404, share: 404, trash: 404, delete: 404 },
    };
    const actual: Partial<Record<string, Record<string, Outcome>>> = {};
    for (const role of roles) {
      const row: Record<string, Outcome> = {};
      actual[role] = row;
      for (const operation of operations) {
        // A fresh file per cell, so a trash or delete does not change the next cell.
        const file = await newFile(ALICE, `matrix-${role}-${operation}.txt`);
        let as = ALICE;
        if (role !== 'owner') {
          as = BOB;
          if (role !== 'none') {
            const grant = role === 'commenter' ? { role: 'reader', additionalRoles: ['commenter'] } : { role };
            await ok(ALICE, 'POST', `/drive/v2/files/${file.id}/permissions`, { json: { type: 'user', emailAddress: BOB, ...grant } });
          }
        }
        const answer = await (async () => {
          switch (operation) {
            case 'read': return call(as, 'GET', `/drive/v2/files/${file.id}`);
            case 'write': return call(as, 'PATCH', `/drive/v2/files/${file.id}`, { json: { title: 'changed' } });
            case 'comment': return call(as, 'POST', `/drive/v2/files/${file.id}/comments`, { json: { content: 'hi' } });
            case 'share': return call(as, 'POST', `/drive/v2/files/${file.id}/permissions`, { json: { type: 'user', role: 'reader', emailAddress: CAROL } });
            case 'trash': return call(as, 'POST', `/drive/v2/files/${file.id}/trash`);
            case 'delete': return call(as, 'DELETE', `/drive/v2/files/${file.id}`);
          }
        })();
        if (answer.status >= 400) await expectGoogleError(answer, answer.status);
        row[operation] = answer.status < 300 ? 'ok' : answer.status;
      }
    }
    const table = [`role      | ${operations.map((operation) => operation.padEnd(7)).join(' | ')}`, ...roles.map((role) => `${role.padEnd(9)} | ${operations.map((operation) => String(actual[role]?.[operation]).padEnd(7)).join(' | ')}`)];
    console.log(`      My Drive role × operation (bob acting on alice's file; 'none' = not shared):\n      ${table.join('\n      ')}`);
    assert.deepEqual(actual, expected);
  });
});
