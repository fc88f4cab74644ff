// The vscode-free parts of the Channels feature: input checks, renewal planning, the receiver's request checks, and
// the operations (watch, stop, renew with overlap) against a fake port.
import * as assert from 'node:assert/strict';
import { GoogleApiError } from '../../../../src/api/errors';
import { ChannelBook, ChannelRecord } from '../../../../src/features/channels/model';
import { ChannelOperations } from '../../../../src/features/channels/operations';
import type { ChannelsApi } from '../../../../src/features/channels/port';
import { checkNotification, sameToken } from '../../../../src/features/channels/receiver/check';
import { countdownIntervalMs, formatDuration, planRenewals, renewalLeadMs } from '../../../../src/features/channels/renewal';
import { channelDescription, receiverTooltip } from '../../../../src/features/channels/tree/presentation';
import { addressProblem, channelIdProblem, checkedWatchInput, directoryDomainProblem, driveFileIdOf, driveFileIdProblem, newChannelId, tokenProblem } from '../../../../src/features/channels/validation';
import { MapMemento } from '../../../support/memento';
import { english as t } from '../../../../src/shared/l10n';

function record(overrides: Partial<ChannelRecord> = {}): ChannelRecord {
  return { id: 'c1', resourceId: 'r1', target: { kind: 'driveChanges' }, address: 'https://127.0.0.1/x', expiration: 1_000_000 + 3_600_000, created: 1_000_000, messages: 0, ...overrides };
}

describe('Channels: validation', () => {
  it('accepts https addresses only, without credentials', () => {
    assert.equal(addressProblem('https://hooks.example.com/desk', t), undefined);
    assert.match(addressProblem('http://hooks.example.com', t) ?? '', /https/);
    assert.match(addressProblem('https://user:pw@hooks.example.com', t) ?? '', /user name/);
    assert.match(addressProblem('not a url', t) ?? '', /not an address/);
    assert.match(addressProblem('  ', t) ?? '', /Enter/);
  });

  it('counts the receiver\'s notifications in words that agree with the number', () => {
    assert.equal(receiverTooltip(1, 'https://127.0.0.1:4000/desk/notifications', t), 'Desk channels: 1 notification received at https://127.0.0.1:4000/desk/notifications');
    assert.equal(receiverTooltip(0, 'https://h/x', t), 'Desk channels: 0 notifications received at https://h/x');
    assert.equal(receiverTooltip(3, 'https://h/x', t), 'Desk channels: 3 notifications received at https://h/x');
  });

  it('takes a domain name for a directory watch, refusing an address or an emoji with what to type', () => {
    for (const domain of ['example.com', 'mail.example.co.uk', 'xn--bcher-kva.example']) assert.equal(directoryDomainProblem(domain, t), undefined, domain);
    assert.match(directoryDomainProblem('https://example.com', t) ?? '', /domain alone/);
    assert.match(directoryDomainProblem('bob@example.com', t) ?? '', /domain alone/);
    assert.match(directoryDomainProblem('😀', t) ?? '', /not a domain name/);
    assert.match(directoryDomainProblem('  ', t) ?? '', /Enter a domain/);
  });

  it('limits tokens to 256 and ids to 64 allowed characters', () => {
    assert.equal(tokenProblem('x'.repeat(256), t), undefined);
    assert.match(tokenProblem('x'.repeat(257), t) ?? '', /256/);
    assert.equal(tokenProblem('', t), undefined, 'no token');
    assert.equal(tokenProblem('team=desk&env=dev ~!', t), undefined);
    // Sent as an HTTP header: the emulator's delivery (and any HTTP client) cannot send these, so no message would arrive.
    for (const token of ['party 🎉', 'line\nbreak', 'tab\there']) assert.match(tokenProblem(token, t) ?? '', /HTTP header/, JSON.stringify(token));
    assert.equal(channelIdProblem('a'.repeat(64), t), undefined);
    assert.match(channelIdProblem('a'.repeat(65), t) ?? '', /64/);
    assert.match(channelIdProblem('a b', t) ?? '', /only letters/);
    const id = newChannelId();
    assert.equal(channelIdProblem(id, t), undefined);
    assert.ok(id.length <= 64);
  });

  it('checks a whole watch request before anything is sent', () => {
    assert.deepEqual(checkedWatchInput({ id: 'a', address: ' https://h/x ', token: '' }, t), { id: 'a', address: 'https://h/x' });
    assert.throws(() => checkedWatchInput({ id: 'a', address: 'http://h/x' }, t), RangeError);
    assert.throws(() => checkedWatchInput({ id: 'a', address: 'https://h/x', token: 'x'.repeat(300) }, t), RangeError);
    assert.throws(() => checkedWatchInput({ id: 'a'.repeat(65), address: 'https://h/x' }, t), RangeError);
  });
});

describe('Channels: renewal planning', () => {
  it('renews a tenth of the life before expiry, between 5 seconds and 5 minutes', () => {
    assert.equal(renewalLeadMs({ created: 0, expiration: 3_600_000 }), 300_000);
    assert.equal(renewalLeadMs({ created: 0, expiration: 600_000 }), 60_000);
    assert.equal(renewalLeadMs({ created: 0, expiration: 10_000 }), 5_000);
  });

  it('lists due and expired channels and the next time to look', () => {
    const created = 0;
    const soon = record({ id: 'soon', created, expiration: 3_600_000 });
    const later = record({ id: 'later', created, expiration: 7_200_000 });
    const gone = record({ id: 'gone', created, expiration: 1000 });
    const plan = planRenewals([soon, later, gone], 3_400_000);
    assert.deepEqual(plan.due.map((entry) => entry.id), ['soon']);
    assert.deepEqual(plan.expired.map((entry) => entry.id), ['gone']);
    assert.equal(plan.nextAt, 7_200_000 - 300_000);
    assert.equal(planRenewals([later], 0).due.length, 0);
  });

  it('formats the countdown and redraws faster near an expiry', () => {
    assert.equal(formatDuration(5 * 3_600_000 + 59 * 60_000 + 30_000), '5h 59m');
    assert.equal(formatDuration(12 * 60_000 + 5_000), '12m 5s');
    assert.equal(formatDuration(42_400), '42s');
    assert.equal(formatDuration(2 * 86_400_000 + 3 * 3_600_000), '2d 3h');
    assert.equal(countdownIntervalMs([record({ expiration: 60_000 })], 0), 1000);
    assert.equal(countdownIntervalMs([record({ expiration: 600_000 })], 0), 30_000);
    assert.equal(channelDescription(record({ expiration: 60_000, messages: 3 }), 0, t), 'expires in 1m 0s · 3 messages');
    assert.equal(channelDescription(record({ expiration: 60_000 }), 61_000, t), 'expired');
  });
});

describe('Channels: the receiver\'s checks', () => {
  const known = new Map([['with-token', { token: 's3cret' }], ['no-token', {}]]);
  const lookup = (id: string) => known.get(id);
  const headers = (id: string, token?: string) => ({
    'x-svc-channel-id': id,
    'x-svc-message-number': '7',
    'x-svc-resource-id': 'res',
    'x-svc-resource-state': 'change',
    'x-svc-resource-uri': 'https://x/drive/v2/changes',
    ...(token !== undefined ? { 'x-svc-channel-token': token } : {}),
  });

  it('answers 200 for a known channel with its token, with the notification', () => {
    const result = checkNotification('POST', headers('with-token', 's3cret'), '{"a":1}', lookup, 5);
    assert.equal(result.status, 200);
    assert.equal(result.notification.messageNumber, 7);
    assert.equal(result.notification.resourceState, 'change');
    assert.equal(result.notification.body, '{"a":1}');
    assert.equal(checkNotification('POST', headers('no-token'), '', lookup, 5).status, 200);
  });

  it('answers 404 for an unknown channel and 401 for a wrong or missing token', () => {
    assert.equal(checkNotification('POST', headers('other', 's3cret'), '', lookup, 5).status, 404);
    assert.equal(checkNotification('POST', headers('with-token', 'wrong'), '', lookup, 5).status, 401);
    assert.equal(checkNotification('POST', headers('with-token'), '', lookup, 5).status, 401);
    assert.equal(checkNotification('POST', headers('no-token', 'unexpected'), '', lookup, 5).status, 401);
    assert.equal(checkNotification('GET', headers('with-token', 's3cret'), '', lookup, 5).status, 405);
    assert.equal(checkNotification('POST', {}, '', lookup, 5).status, 400);
  });

  it('compares tokens of any length without throwing', () => {
    assert.equal(sameToken('abc', 'abc'), true);
    assert.equal(sameToken('abc', 'abcd'), false);
    assert.equal(sameToken(undefined, undefined), true);
  });
});

describe('Channels: operations', () => {
  function setup(options: { stopFails?: GoogleApiError } = {}) {
    const calls: string[] = [];
    let counter = 0;
    const api: ChannelsApi = {
      watchDriveChanges: async (input) => {
        calls.push(`watch ${input.id} ${input.address} ${input.token ?? '-'}`);
        return { id: input.id, resourceId: 'res', expiration: 5_000_000 };
      },
      watchDriveFile: async (fileId, input) => ({ id: input.id, resourceId: `file-${fileId}` }),
      watchCalendarEvents: async (calendarId, input) => ({ id: input.id, resourceId: `cal-${calendarId}`, expiration: 9 }),
      watchCalendarAcl: async (calendarId, input) => {
        calls.push(`acl ${calendarId}`);
        return { id: input.id, resourceId: `acl-${calendarId}` };
      },
      watchCalendarList: async (input) => {
        calls.push('calendarList');
        return { id: input.id, resourceId: 'calendar-list' };
      },
      watchCalendarSettings: async (input) => {
        calls.push('settings');
        return { id: input.id, resourceId: 'settings' };
      },
      watchDirectoryUsers: async (target, event, input) => {
        calls.push(`directory ${JSON.stringify(target)} ${event ?? '-'}`);
        return { id: input.id, resourceId: 'users' };
      },
      stopDriveChannel: async (channel) => {
        calls.push(`stop ${channel.id} ${channel.resourceId}`);
        if (options.stopFails) throw options.stopFails;
      },
      stopCalendarChannel: async () => undefined,
      stopDirectoryChannel: async (channel) => void calls.push(`stop directory ${channel.id}`),
    };
    const book = new ChannelBook(new MapMemento());
    book.use('emulator', 'alice');
    const operations = new ChannelOperations({ api: () => api, book, t, now: () => 1_000_000, newId: () => `id${++counter}` });
    return { calls, book, operations };
  }

  it('watches, records per account, and stops', async () => {
    const { calls, book, operations } = setup();
    const made = await operations.watch({ kind: 'driveChanges' }, { address: 'https://127.0.0.1:1/x', token: 'tok' });
    assert.equal(made.expiration, 5_000_000);
    assert.deepEqual(book.list().map((entry) => entry.id), ['id1']);
    book.use('emulator', 'bob');
    assert.deepEqual(book.list(), []);
    assert.equal(book.findAnywhere('id1')?.token, 'tok');
    book.use('emulator', 'alice');
    await operations.stop(made);
    assert.deepEqual(calls, ['watch id1 https://127.0.0.1:1/x tok', 'stop id1 res']);
    assert.deepEqual(book.list(), []);
  });

  it('refuses a life that is not a positive number of seconds before anything is sent', async () => {
    const { calls, book, operations } = setup();
    for (const lifeMs of [0, -1000, Number.NaN, Number.POSITIVE_INFINITY]) {
      await assert.rejects(operations.watch({ kind: 'driveChanges' }, { address: 'https://127.0.0.1:1/x', lifeMs }), /life must be a number of seconds longer than zero/, String(lifeMs));
    }
    assert.deepEqual(calls, []);
    assert.deepEqual(book.list(), []);
  });

  it('knows a channel while its watch is in flight, and counts a sync that arrived before the answer', async () => {
    const { operations } = setup();
    const early = setup();
    const api = early.operations;
    // The service delivers `sync` before it answers the watch (the spec allows it): the receiver must know the channel.
    const watching = api.watch({ kind: 'driveChanges' }, { address: 'https://127.0.0.1:1/x', token: 'tok' });
    const seenDuringWatch = api.pendingChannel('id1');
    assert.equal(api.noteEarlyMessage('id1', 'sync', 1_000_001), true);
    const made = await watching;
    assert.deepEqual(seenDuringWatch, { token: 'tok' });
    assert.equal(made.messages, 1);
    assert.equal(early.book.get('id1')?.lastState, 'sync');
    assert.equal(api.pendingChannel('id1'), undefined, 'forgotten once recorded');
    assert.equal(operations.noteEarlyMessage('nobody', 'sync', 1), false);
  });

  it('refuses a bad request before sending it', async () => {
    const { calls, operations } = setup();
    await assert.rejects(operations.watch({ kind: 'driveChanges' }, { address: 'http://insecure/x' }), RangeError);
    assert.deepEqual(calls, []);
  });

  it('renews with an overlap: the new channel first, then the old one stopped', async () => {
    const { calls, book, operations } = setup();
    const old = await operations.watch({ kind: 'driveChanges' }, { address: 'https://h/x' });
    const renewed = await operations.renew(old);
    assert.equal(renewed.id, 'id2');
    assert.deepEqual(calls, ['watch id1 https://h/x -', 'watch id2 https://h/x -', 'stop id1 res']);
    assert.deepEqual(book.list().map((entry) => entry.id), ['id2']);
  });

  it('forgets a channel the service no longer knows (404) and uses the maximum life when none is answered', async () => {
    const { book, operations } = setup({ stopFails: new GoogleApiError(404, 'not found', 'notFound', [], undefined) });
    const file = await operations.watch({ kind: 'driveFile', fileId: 'f1' }, { address: 'https://h/x' });
    assert.equal(file.expiration, 1_000_000 + 24 * 3_600_000);
    await operations.stop(file);
    assert.deepEqual(book.list(), []);
  });

  it('sends directory watches in the form asked, one event per channel', async () => {
    const { calls, operations } = setup();
    const made = await operations.watch({ kind: 'directoryUsers', customer: 'my_customer', event: 'add' }, { address: 'https://h/x' });
    await operations.stop(made);
    assert.deepEqual(calls, ['directory {"customer":"my_customer"} add', 'stop directory id1']);
  });
});

describe('the Drive file to watch, as typed', () => {
  const t = (message: string, ...args: Array<string | number | boolean>): string => message.replace(/\{(\d+)\}/g, (_, index: string) => String(args[Number(index)]));

  it('takes an id as it is, or the id inside a link copied from Drive', () => {
    assert.equal(driveFileIdOf(' 1AbC_d-9 '), '1AbC_d-9');
    assert.equal(driveFileIdOf('https://drive.google.com/file/d/1AbC_d-9/view?usp=sharing'), '1AbC_d-9');
    assert.equal(driveFileIdOf('https://docs.google.com/document/d/1AbC_d-9/edit'), '1AbC_d-9');
    assert.equal(driveFileIdOf('https://drive.google.com/open?id=1AbC_d-9'), '1AbC_d-9');
  });

  it('refuses in the box what names no file (an address of something else, words), instead of a watch the service refuses', () => {
    assert.equal(driveFileIdProblem('', t), 'Enter a file id.');
    for (const text of ['https://example.com/hook', 'my file.txt', '../x', '-5 days']) assert.match(driveFileIdProblem(text, t) ?? '', /Drive file id/, text);
    assert.equal(driveFileIdProblem('1AbC_d-9', t), undefined);
  });
});
