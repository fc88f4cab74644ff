/**
 * Every int64 the emulator answers is a JSON string of digits, as Google's discovery documents declare (`type:
 * string, format: int64`) and generated clients decode (Go's `,string` tag refuses a number): watch answers of all
 * three services, and Drive's sizes, versions, quotas and change ids. Requests may carry an int64 as either form.
 */
import * as assert from 'node:assert/strict';
import { startEmulator, RunningEmulator } from '../../../src/emulator/emulator';
import { answerProblems } from '../../support/discoverySchemas';
import { emulatorHttp, EmulatorCall, expectGoogleError, HttpAnswer } from '../../support/emulatorHttp';
import { Receiver } from './channels/receiver';

const HOUR = 60 * 60 * 1000;

/** The int64/uint64 problems of an answer by its method's discovery schema (other properties are not this test's). */
function int64Problems(methodId: string, answer: HttpAnswer): string[] {
  assert.ok(answer.status === 200, `${methodId}: ${answer.status} ${answer.text}`);
  return answerProblems(methodId, answer.json, new Set()).filter((problem) => /int64/.test(problem));
}

describe('int64 fields on the wire (discovery: type string, format int64)', function () {
  this.timeout(20_000);
  let emulator: RunningEmulator;
  let receiver: Receiver;
  let alice: EmulatorCall;
  const channel = (id: string, extra: Record<string, unknown> = {}): { json: Record<string, unknown> } => ({ json: { id, type: 'web_hook', address: receiver.url, ...extra } });

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    receiver = await Receiver.forEmulator(emulator);
    alice = emulatorHttp(emulator, () => emulator.tokenFor('alice@example.com').accessToken);
  });
  after(async () => {
    await emulator.close();
    await receiver.close();
  });

  it('answers Channel.expiration as a string in every watch: Calendar, Directory and Drive', async () => {
    const file = (await alice('POST', '/drive/v2/files', { json: { title: 'watched.txt' } })).json as { id: string };
    const watches: [string, string, string][] = [
      ['calendar.events.watch', '/calendar/v3/calendars/primary/events/watch', 'events'],
      ['calendar.calendarList.watch', '/calendar/v3/users/me/calendarList/watch', 'calendar-list'],
      ['calendar.settings.watch', '/calendar/v3/users/me/settings/watch', 'settings'],
      ['calendar.acl.watch', '/calendar/v3/calendars/primary/acl/watch', 'acl'],
      ['directory.users.watch', '/admin/directory/v1/users/watch?domain=example.com&event=add', 'users'],
      ['drive.files.watch', `/drive/v2/files/${file.id}/watch`, 'file'],
      ['drive.changes.watch', '/drive/v2/changes/watch', 'changes'],
    ];
    for (const [methodId, path, id] of watches) {
      const answer = await alice('POST', path, channel(`int64-${id}`));
      assert.deepEqual(int64Problems(methodId, answer), [], methodId);
      const expiration = (answer.json as { expiration?: unknown }).expiration;
      assert.equal(typeof expiration, 'string', `${methodId}: ${answer.text}`);
      assert.match(expiration as string, /^\d{13}$/);
    }
  });

  it('takes a requested expiration as Google\'s string or as a number, and refuses one that is not an integer', async () => {
    const wanted = Date.now() + HOUR;
    const asString = await alice('POST', '/calendar/v3/calendars/primary/events/watch', channel('int64-asked-string', { expiration: String(wanted) }));
    assert.equal((asString.json as { expiration: string }).expiration, String(wanted));
    const asNumber = await alice('POST', '/calendar/v3/calendars/primary/events/watch', channel('int64-asked-number', { expiration: wanted }));
    assert.equal((asNumber.json as { expiration: string }).expiration, String(wanted));
    await expectGoogleError(alice('POST', '/calendar/v3/calendars/primary/events/watch', channel('int64-asked-bad', { expiration: `${wanted}.5` })), 400, 'invalid');
    await expectGoogleError(alice('POST', '/calendar/v3/calendars/primary/events/watch', channel('int64-asked-words', { expiration: ' 12e12' })), 400, 'invalid');
  });

  it('answers Drive\'s sizes, versions, quotas and change ids as strings (about, files, changes, revisions)', async () => {
    const uploaded = await alice('POST', '/upload/drive/v2/files?uploadType=media', { body: Buffer.from('twelve bytes'), contentType: 'text/plain' });
    const file = uploaded.json as { id: string };
    assert.deepEqual(int64Problems('drive.files.insert', uploaded), []);
    assert.equal((uploaded.json as { fileSize: unknown }).fileSize, '12');
    assert.deepEqual(int64Problems('drive.about.get', await alice('GET', '/drive/v2/about')), []);
    assert.deepEqual(int64Problems('drive.files.get', await alice('GET', `/drive/v2/files/${file.id}`)), []);
    assert.deepEqual(int64Problems('drive.files.list', await alice('GET', '/drive/v2/files?maxResults=5')), []);
    const changes = await alice('GET', '/drive/v2/changes?maxResults=5');
    assert.deepEqual(int64Problems('drive.changes.list', changes), []);
    const firstChange = (changes.json as { items: { id: string }[] }).items[0];
    assert.ok(firstChange, changes.text);
    assert.deepEqual(int64Problems('drive.changes.get', await alice('GET', `/drive/v2/changes/${firstChange.id}`)), []);
    const revisions = await alice('GET', `/drive/v2/files/${file.id}/revisions`);
    assert.deepEqual(int64Problems('drive.revisions.list', revisions), []);
    const revision = (revisions.json as { items: { id: string }[] }).items[0];
    assert.ok(revision, revisions.text);
    assert.deepEqual(int64Problems('drive.revisions.get', await alice('GET', `/drive/v2/files/${file.id}/revisions/${revision.id}`)), []);
  });
});
