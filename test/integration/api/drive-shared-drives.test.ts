import * as assert from 'node:assert/strict';
import nodeFetch from 'node-fetch';
import { DriveClient } from '../../../src/api/drive';
import { GoogleApiError } from '../../../src/api/errors';
import { FetchFunction, HttpClient, RetryPolicy } from '../../../src/api/http';
import { startEmulator, RunningEmulator } from '../../../src/emulator/emulator';
import { FOLDER_MIME_TYPE } from '../../../src/shared/schemas/drive';

const FAST_RETRY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 };

describe('DriveClient: shared drives against the emulator', function () {
  this.timeout(20000);
  let emulator: RunningEmulator;
  let alice: DriveClient;
  let bob: DriveClient;

  const clientFor = (email: string, fetch?: FetchFunction): DriveClient => {
    const token = emulator.tokenFor(email).accessToken;
    return new DriveClient(new HttpClient({ rootUrl: () => emulator.url, token: async () => token, retry: FAST_RETRY, ...(fetch ? { fetch } : {}) }));
  };

  before(async () => {
    emulator = await startEmulator({ port: 0, seed: 'demo' });
    alice = clientFor('alice@example.com');
    bob = clientFor('bob@example.com');
  });
  after(() => emulator.close());

  it('finds the seeded "Team Desk" with alice as organizer and bob as writer, and its files through every client method', async () => {
    const drives = [];
    for await (const drive of bob.allDrives()) drives.push(drive);
    const team = drives.find((drive) => drive.name === 'Team Desk');
    assert.ok(team, drives.map((drive) => drive.name).join());
    assert.equal(team.capabilities?.canAddChildren, true);
    assert.equal(team.capabilities.canManageMembers, false);
    const members = (await alice.listPermissions(team.id)).items.map((member) => [member.emailAddress, member.role]);
    assert.deepEqual(members.sort(), [['alice@example.com', 'organizer'], ['bob@example.com', 'writer']]);

    // The client says supportsAllDrives on every call that takes it: getFile, listFiles, uploads, downloads, moves.
    const top = await bob.listFiles({ q: `'${team.id}' in parents and trashed = false`, includeItemsFromAllDrives: true, orderBy: 'folder,title' });
    assert.deepEqual(top.items.map((item) => item.title), ['Planning', 'team-handbook.md']);
    const handbook = top.items[1];
    assert.ok(handbook);
    assert.match((await bob.getFile(handbook.id)).title ?? '', /handbook/);
    const uploaded = await bob.uploadFile({ title: 'notes.txt', parents: [{ id: team.id }] }, Buffer.from('shared notes'), { contentType: 'text/plain' });
    assert.equal(uploaded.driveId, team.id);
    const download = await bob.download(uploaded.id);
    const chunks: Buffer[] = [];
    for await (const chunk of download.stream) chunks.push(Buffer.from(chunk as Buffer));
    assert.equal(Buffer.concat(chunks).toString('utf8'), 'shared notes');
    const updated = await bob.updateFile(uploaded.id, {}, { content: Buffer.from('shared notes, v2'), ifMatch: uploaded.etag, contentType: 'text/plain' });
    assert.equal(updated.fileSize, String('shared notes, v2'.length));
    const inDrive = await bob.listFiles({ corpora: 'drive', driveId: team.id, includeItemsFromAllDrives: true });
    assert.ok(inDrive.items.some((item) => item.id === uploaded.id));
  });

  it('creates, renames, hides and unhides, manages members and deletes a drive only when it is empty', async () => {
    const drive = await alice.insertDrive({ name: 'Client drive' });
    assert.equal(drive.capabilities?.canDeleteDrive, true);
    assert.equal((await alice.updateDrive(drive.id, { name: 'Client drive 2' })).name, 'Client drive 2');
    assert.equal((await alice.getDrive(drive.id)).name, 'Client drive 2');
    assert.equal((await alice.hideDrive(drive.id)).hidden, true);
    assert.equal((await alice.listDrives({ q: 'hidden = true' })).items.some((item) => item.id === drive.id), true);
    assert.equal((await alice.unhideDrive(drive.id)).hidden, false);

    const bobId = (await alice.getIdForEmail('bob@example.com')).id;
    await alice.insertPermission(drive.id, { type: 'user', role: 'reader', emailAddress: 'bob@example.com' }, { sendNotificationEmails: false });
    assert.equal((await bob.getDrive(drive.id)).capabilities?.canEdit, false);
    await alice.patchPermission(drive.id, bobId, { role: 'fileOrganizer' });
    assert.equal((await bob.getDrive(drive.id)).capabilities?.canTrashChildren, true);

    const folder = await alice.insertFile({ title: 'Stuff', mimeType: FOLDER_MIME_TYPE, parents: [{ id: drive.id }] });
    await assert.rejects(alice.deleteDrive(drive.id), (error: unknown) => error instanceof GoogleApiError && error.status === 403 && error.reason === 'cannotDeleteResourceWithChildren');
    await bob.trashFile(folder.id);
    await alice.emptyDriveTrash(drive.id);
    await assert.rejects(alice.getFile(folder.id), (error: unknown) => error instanceof GoogleApiError && error.isNotFound);
    await alice.deletePermission(drive.id, bobId);
    await assert.rejects(bob.getDrive(drive.id), (error: unknown) => error instanceof GoogleApiError && error.isNotFound);
    await alice.deleteDrive(drive.id);
    await assert.rejects(alice.getDrive(drive.id), (error: unknown) => error instanceof GoogleApiError && error.isNotFound);
  });

  it('insertDrive survives a lost answer: the repeat meets 409 teamDriveAlreadyExists and answers with the drive it made', async () => {
    let lost = 0;
    const losesFirstAnswer: FetchFunction = async (url, init) => {
      const response = await nodeFetch(url, init);
      if (init?.method === 'POST' && new URL(url).pathname === '/drive/v2/drives' && lost === 0) {
        lost++;
        await response.arrayBuffer();
        throw new Error('socket hang up');
      }
      return response;
    };
    const flaky = clientFor('alice@example.com', losesFirstAnswer);
    const made = await flaky.insertDrive({ name: 'Exactly once' });
    assert.equal(lost, 1);
    const named = await alice.listDrives({ q: "name = 'Exactly once'" });
    assert.deepEqual(named.items.map((item) => item.id), [made.id]);
  });

  it('follows a shared drive\'s feed and drive changes in the user\'s feed', async () => {
    const start = await bob.getStartPageToken();
    const drive = await alice.insertDrive({ name: 'Feed for bob' });
    await alice.insertPermission(drive.id, { type: 'user', role: 'writer', emailAddress: 'bob@example.com' }, { sendNotificationEmails: false });
    const driveStart = await bob.getStartPageToken(undefined, drive.id);
    const made = await bob.insertFile({ title: 'hello.txt', mimeType: 'text/plain', parents: [{ id: drive.id }] });
    const mine = await bob.listChanges({ pageToken: start, includeItemsFromAllDrives: true });
    assert.ok(mine.items.some((change) => change.changeType === 'drive' && change.drive?.name === 'Feed for bob'));
    assert.ok(mine.items.some((change) => change.fileId === made.id));
    const withoutDrives = await bob.listChanges({ pageToken: start });
    assert.ok(!withoutDrives.items.some((change) => change.fileId === made.id || change.changeType === 'drive'));
    const driveFeed = await bob.listChanges({ pageToken: driveStart, driveId: drive.id, includeItemsFromAllDrives: true });
    assert.deepEqual(driveFeed.items.map((change) => change.fileId), [made.id]);
  });
});
