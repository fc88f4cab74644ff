/** Drive and Calendar channels on the one registry, over HTTPS: Drive's file states (sync, update, trash, untrash, remove) and change-feed state, Calendar's sync, exists, not_exists. */
import * as assert from 'node:assert/strict';
import { channelRegistryFor } from '../../../../src/emulator/core/channels';
import { startEmulator, RunningEmulator } from '../../../../src/emulator/emulator';
import { emulatorHttp, EmulatorCall, expectGoogleError } from '../../../support/emulatorHttp';
import { Receiver } from './receiver';

const HOUR = 60 * 60 * 1000;

describe('Drive and Calendar watches over HTTPS', function () {
  this.timeout(20_000);
  let emulator: RunningEmulator;
  let receiver: Receiver;
  let alice: EmulatorCall;
  let bob: EmulatorCall;
  const channel = (id: string, extra: Record<string, unknown> = {}): { json: Record<string, unknown> } => ({ json: { id, type: 'web_hook', address: receiver.url, ...extra } });

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    receiver = await Receiver.forEmulator(emulator);
    alice = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken);
    bob = emulatorHttp(emulator, () => emulator.tokenFor('bob@example.com').accessToken);
  });
  after(async () => {
    await emulator.close();
    await receiver.close();
  });

  it('files.watch: sync, then update, trash, untrash and remove as the file changes; only a caller who sees the file may watch it', async () => {
    const file = (await alice('POST', '/drive/v2/files', { json: { title: 'watched.txt' } })).json as Record<string, string>;
    const answer = await alice('POST', `/drive/v2/files/${file.id}/watch`, channel('drive-file'));
    assert.equal(answer.status, 200, answer.text);
    const watched = answer.json as Record<string, unknown>;
    assert.equal(watched.resourceUri, `${emulator.url}/drive/v2/files/${file.id}?alt=json`);
    assert.ok(Number(watched.expiration) <= Date.now() + HOUR, 'Drive default: an hour');
    const longer = (await alice('POST', `/drive/v2/files/${file.id}/watch`, channel('drive-file-long', { expiration: Date.now() + 10 * 24 * HOUR }))).json as Partial<Record<string, string>>;
    const longerExpiration = Number(longer.expiration ?? 0);
    assert.ok(longerExpiration <= Date.now() + 24 * HOUR && longerExpiration > Date.now() + 23 * HOUR, 'files: at most a day');
    assert.equal(longer.resourceId, watched.resourceId);

    await alice('PATCH', `/drive/v2/files/${file.id}`, { json: { title: 'renamed.txt' } });
    await alice('POST', `/drive/v2/files/${file.id}/trash`);
    await alice('POST', `/drive/v2/files/${file.id}/untrash`);
    await alice('DELETE', `/drive/v2/files/${file.id}`);
    const messages = await receiver.waitForChannel('drive-file', 5);
    assert.deepEqual(messages.map((message) => message.state), ['sync', 'update', 'trash', 'untrash', 'remove']);
    assert.equal(messages[0]?.number, 1);
    assert.equal(messages[1]?.headers['x-svc-resource-id'], watched.resourceId);
    await receiver.waitForChannel('drive-file-long', 5);

    await expectGoogleError(bob('POST', '/drive/v2/files/no-such-file/watch', channel('drive-missing')), 404, 'notFound');
    const private_ = (await alice('POST', '/drive/v2/files', { json: { title: 'private.txt' } })).json as Record<string, string>;
    await expectGoogleError(bob('POST', `/drive/v2/files/${private_.id}/watch`, channel('drive-not-mine')), 404, 'notFound');
  });

  it('changes.watch (a literal path, never changes/{changeId}): sync, then change; channels.stop under /drive/v2', async () => {
    const answer = await alice('POST', '/drive/v2/changes/watch', channel('drive-changes'));
    assert.equal(answer.status, 200, answer.text);
    const watched = answer.json as Record<string, string>;
    await receiver.waitForChannel('drive-changes', 1);
    await alice('POST', '/drive/v2/files', { json: { title: 'new.txt' } });
    const messages = await receiver.waitForChannel('drive-changes', 2);
    assert.deepEqual(messages.slice(0, 2).map((message) => message.state), ['sync', 'change']);
    assert.equal((await alice('POST', '/drive/v2/channels/stop', { json: { id: 'drive-changes', resourceId: watched.resourceId } })).status, 204);
    assert.equal(channelRegistryFor(emulator.deps).get('drive-changes'), undefined);
  });

  it('changes.watch with driveId: a shared drive\'s feed, for its members only; a file in it is watched like any other', async () => {
    const drive = (await alice('POST', '/drive/v2/drives?requestId=watch-team', { json: { name: 'Watched team' } })).json as Record<string, string>;
    const all = 'supportsAllDrives=true';
    const carol = emulatorHttp(emulator, () => emulator.tokenFor('carol@example.com').accessToken);
    await expectGoogleError(carol('POST', `/drive/v2/changes/watch?${all}&driveId=${drive.id}`, channel('drive-feed-stranger')), 404, 'notFound');
    const answer = await alice('POST', `/drive/v2/changes/watch?${all}&driveId=${drive.id}`, channel('drive-feed'));
    assert.equal(answer.status, 200, answer.text);
    assert.equal((answer.json as Record<string, string>).resourceUri, `${emulator.url}/drive/v2/changes?alt=json&driveId=${drive.id}`);
    await receiver.waitForChannel('drive-feed', 1);
    const file = (await alice('POST', `/drive/v2/files?${all}`, { json: { title: 'plan.md', parents: [{ id: drive.id }] } })).json as Record<string, string>;
    assert.equal(file.driveId, drive.id);
    const feed = await receiver.waitForChannel('drive-feed', 2);
    assert.equal(feed[1]?.state, 'change');

    const watched = await alice('POST', `/drive/v2/files/${file.id}/watch?${all}`, channel('drive-item'));
    assert.equal(watched.status, 200, watched.text);
    await receiver.waitForChannel('drive-item', 1);
    await alice('PATCH', `/drive/v2/files/${file.id}?${all}`, { json: { title: 'plan-v2.md' } });
    const messages = await receiver.waitForChannel('drive-item', 2);
    // One update, not a "remove" from the drive's own feed record.
    assert.deepEqual(messages.map((message) => message.state), ['sync', 'update']);
  });

  it('Calendar events.watch: sync, exists on each change, not_exists when the calendar is deleted; /calendar/v3/channels/stop', async () => {
    const calendar = (await alice('POST', '/calendar/v3/calendars', { json: { summary: 'Watched' } })).json as Record<string, string>;
    const calendarId = encodeURIComponent(calendar.id);
    const answer = await alice('POST', `/calendar/v3/calendars/${calendarId}/events/watch`, channel('calendar-events'));
    assert.equal(answer.status, 200, answer.text);
    const listAnswer = await alice('POST', '/calendar/v3/users/me/calendarList/watch', channel('calendar-list'));
    assert.equal(listAnswer.status, 200, listAnswer.text);
    await receiver.waitForChannel('calendar-events', 1);
    const inserted = await alice('POST', `/calendar/v3/calendars/${calendarId}/events`, { json: { summary: 'Meeting', start: { dateTime: '2026-03-02T09:00:00Z' }, end: { dateTime: '2026-03-02T10:00:00Z' } } });
    assert.equal(inserted.status, 200, inserted.text);
    await receiver.waitForChannel('calendar-events', 2);
    assert.equal((await alice('DELETE', `/calendar/v3/calendars/${calendarId}`)).status, 204);
    const messages = await receiver.waitForChannel('calendar-events', 3);
    assert.deepEqual(messages.map((message) => message.state), ['sync', 'exists', 'not_exists']);
    const list = await receiver.waitForChannel('calendar-list', 2);
    assert.equal(list[1]?.state, 'exists');
    const stop = await alice('POST', '/calendar/v3/channels/stop', { json: { id: 'calendar-list', resourceId: (listAnswer.json as Record<string, string>).resourceId } });
    assert.equal(stop.status, 204);
    await expectGoogleError(bob('POST', `/calendar/v3/calendars/${calendarId}/events/watch`, channel('calendar-gone')), 404);
  });
});
