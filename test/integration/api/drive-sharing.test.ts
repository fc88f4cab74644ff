import * as assert from 'node:assert/strict';
import { DriveClient } from '../../../src/api/drive';
import { GoogleApiError } from '../../../src/api/errors';
import { HttpClient } from '../../../src/api/http';
import { startEmulator, RunningEmulator } from '../../../src/emulator/emulator';

describe('DriveClient: permissions, comments, replies and properties against the emulator', function () {
  this.timeout(20000);
  let emulator: RunningEmulator;
  let alice: DriveClient;
  let bob: DriveClient;

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    const client = (email: string): DriveClient => {
      const token = emulator.tokenFor(email).accessToken;
      return new DriveClient(new HttpClient({ rootUrl: () => emulator.url, token: async () => token }));
    };
    alice = client('alice@example.com');
    bob = client('bob@example.com');
  });
  after(() => emulator.close());

  it('shares, comments, replies and sets properties through one method per discovery operation', async () => {
    const file = await alice.insertFile({ title: 'client.txt', mimeType: 'text/plain' });
    const bobId = (await alice.getIdForEmail('bob@example.com')).id;
    // Retried inserts with notifications off land once.
    const granted = await alice.insertPermission(file.id, { type: 'user', role: 'commenter', emailAddress: 'bob@example.com' }, { sendNotificationEmails: false });
    assert.equal(granted.id, bobId);
    assert.deepEqual(granted.additionalRoles, ['commenter']);
    assert.equal((await alice.listPermissions(file.id)).items.length, 2);
    assert.equal((await alice.getPermission(file.id, bobId)).role, 'reader');
    assert.equal((await bob.getFile(file.id)).userPermission?.role, 'reader');

    const comment = await bob.insertComment(file.id, { content: 'Looks good' });
    assert.equal((await alice.listComments(file.id)).items[0]?.commentId, comment.commentId);
    await bob.patchComment(file.id, comment.commentId, { content: 'Looks great' });
    assert.equal((await bob.updateComment(file.id, comment.commentId, { content: 'Great' })).content, 'Great');
    const reply = await alice.insertReply(file.id, comment.commentId, { content: 'Thanks', verb: 'resolve' });
    assert.equal((await bob.getComment(file.id, comment.commentId)).status, 'resolved');
    assert.equal((await alice.patchReply(file.id, comment.commentId, reply.replyId, { content: 'Thanks!' })).content, 'Thanks!');
    await alice.updateReply(file.id, comment.commentId, reply.replyId, { content: 'Thank you' });
    assert.equal((await bob.listReplies(file.id, comment.commentId)).items.length, 1);
    assert.equal((await bob.getReply(file.id, comment.commentId, reply.replyId)).content, 'Thank you');
    await alice.deleteReply(file.id, comment.commentId, reply.replyId);
    await bob.deleteComment(file.id, comment.commentId);

    await alice.insertProperty(file.id, { key: 'stage', value: 'draft', visibility: 'PUBLIC' });
    await alice.insertProperty(file.id, { key: 'stage', value: 'review', visibility: 'PUBLIC' });
    assert.equal((await alice.listProperties(file.id)).items.length, 1);
    assert.equal((await alice.getProperty(file.id, 'stage', 'PUBLIC')).value, 'review');
    await alice.patchProperty(file.id, 'stage', { value: 'done' }, 'PUBLIC');
    assert.equal((await alice.updateProperty(file.id, 'stage', { value: 'shipped' }, 'PUBLIC')).value, 'shipped');
    await alice.deleteProperty(file.id, 'stage', 'PUBLIC');
    await assert.rejects(bob.insertProperty(file.id, { key: 'k', value: 'v' }), (error: unknown) => error instanceof GoogleApiError && error.status === 403);

    await alice.patchPermission(file.id, bobId, { role: 'writer' });
    await alice.updatePermission(file.id, bobId, { role: 'reader' });
    await alice.deletePermission(file.id, bobId);
    await assert.rejects(bob.getFile(file.id), (error: unknown) => error instanceof GoogleApiError && error.status === 404);
  });
});
