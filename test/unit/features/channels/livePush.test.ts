// Desk's own channel for Drive's live changes: made when the poller wants push and the receiver runs, stopped when
// either goes away, push "live" only once the channel delivered, and every change notification passed to the feed.
import * as assert from 'node:assert/strict';
import { PushEvent, PushHub } from '../../../../src/core/sync/push';
import type { ChannelInput } from '../../../../src/api/channels';
import { LivePush } from '../../../../src/features/channels/livePush';
import { ChannelBook } from '../../../../src/features/channels/model';
import { ChannelOperations } from '../../../../src/features/channels/operations';
import type { ChannelsApi } from '../../../../src/features/channels/port';
import { DRIVE_CHANGES_FEED } from '../../../../src/features/drive/changes/push';
import { MapMemento } from '../../../support/memento';
import { english as t } from '../../../../src/shared/l10n';

function setup() {
  let now = 1_000_000;
  const calls: string[] = [];
  const watched: ChannelInput[] = [];
  let counter = 0;
  const api: ChannelsApi = {
    watchDriveChanges: async (input) => {
      watched.push(input);
      calls.push(`watch ${input.id} ${input.address}`);
      return { id: input.id, resourceId: 'changes', expiration: now + 3_600_000 };
    },
    watchDriveFile: async () => { throw new Error('unexpected'); },
    watchCalendarEvents: async () => { throw new Error('unexpected'); },
    watchCalendarAcl: async () => { throw new Error('unexpected'); },
    watchCalendarList: async () => { throw new Error('unexpected'); },
    watchCalendarSettings: async () => { throw new Error('unexpected'); },
    watchDirectoryUsers: async () => { throw new Error('unexpected'); },
    stopDriveChannel: async (channel) => void calls.push(`stop ${channel.id}`),
    stopCalendarChannel: async () => undefined,
    stopDirectoryChannel: async () => undefined,
  };
  const hub = new PushHub();
  const events: PushEvent[] = [];
  hub.onEvent(DRIVE_CHANGES_FEED, (event) => events.push(event));
  const book = new ChannelBook(new MapMemento());
  book.use('emulator', 'alice');
  const operations = new ChannelOperations({ api: () => api, book, t, now: () => now, newId: () => `id${++counter}` });
  const state = { address: undefined as string | undefined, available: true };
  const live = new LivePush({
    hub,
    book,
    operations,
    receiverAddress: () => state.address,
    available: () => state.available,
    log: () => undefined,
    now: () => now,
    newToken: () => 'secret',
  });
  return { hub, events, book, operations, live, calls, watched, state, advance: (ms: number) => { now += ms; } };
}

describe('Channels: Desk\'s own channel for Drive\'s live changes', () => {
  it('is made when the poller wants push and the receiver runs, with a token, and marked with its feed', async () => {
    const { hub, book, live, calls, watched, state } = setup();
    hub.setWanted(DRIVE_CHANGES_FEED, true);
    await live.reconcile();
    assert.deepEqual(calls, [], 'no receiver: no channel');
    state.address = 'https://127.0.0.1:9/desk/notifications';
    await live.changed();
    assert.deepEqual(calls, ['watch id1 https://127.0.0.1:9/desk/notifications']);
    assert.equal(watched[0]?.token, 'secret');
    assert.equal(book.get('id1')?.feed, DRIVE_CHANGES_FEED);
    // Looked at again (an account reload, a second receiver start): the live channel is kept, not doubled.
    await live.changed();
    await live.reconcile();
    assert.deepEqual(book.list().map((record) => record.id), ['id1']);
    assert.equal(calls.length, 1);
    live.dispose();
  });

  it('says push works only once the channel delivered, passes changes on, and stops with the receiver', async () => {
    const { hub, events, book, live, calls, state } = setup();
    state.address = 'https://127.0.0.1:9/desk/notifications';
    hub.setWanted(DRIVE_CHANGES_FEED, true);
    await live.reconcile();
    assert.equal(hub.isLive(DRIVE_CHANGES_FEED), false, 'not before its first message');
    live.noteNotification('id1', 'sync');
    assert.equal(hub.isLive(DRIVE_CHANGES_FEED), true);
    assert.equal(events.filter((event) => event.kind === 'notified').length, 0, 'a sync is no change');
    live.noteNotification('id1', 'change');
    live.noteNotification('someone-elses', 'change');
    assert.equal(events.filter((event) => event.kind === 'notified').length, 1);
    // The receiver stops: push is over at once, and the channel is stopped at the service.
    state.address = undefined;
    await live.changed();
    assert.equal(hub.isLive(DRIVE_CHANGES_FEED), false);
    assert.deepEqual(calls, ['watch id1 https://127.0.0.1:9/desk/notifications', 'stop id1']);
    assert.deepEqual(book.list(), []);
    live.dispose();
  });

  it('ends push when the poller no longer wants it, and when the user stops the channel from the view', async () => {
    const { hub, book, live, operations, calls, state } = setup();
    state.address = 'https://127.0.0.1:9/desk/notifications';
    hub.setWanted(DRIVE_CHANGES_FEED, true);
    await live.reconcile();
    live.noteNotification('id1', 'sync');
    hub.setWanted(DRIVE_CHANGES_FEED, false);
    await live.reconcile();
    assert.equal(hub.isLive(DRIVE_CHANGES_FEED), false);
    assert.deepEqual(calls.at(-1), 'stop id1');

    hub.setWanted(DRIVE_CHANGES_FEED, true);
    await live.reconcile();
    const made = book.list()[0];
    assert.ok(made);
    live.noteNotification(made.id, 'sync');
    assert.equal(hub.isLive(DRIVE_CHANGES_FEED), true);
    await operations.stop(made);
    assert.equal(hub.isLive(DRIVE_CHANGES_FEED), false, 'stopped from the view: the poller goes back to its pace');
    live.dispose();
  });

  it('counts a sync that arrived before the watch answered, and a renewal keeps push working', async () => {
    const { hub, book, live, operations, state, advance } = setup();
    state.address = 'https://127.0.0.1:9/desk/notifications';
    hub.setWanted(DRIVE_CHANGES_FEED, true);
    const making = live.reconcile();
    // The watch is in flight; its sync comes first.
    await Promise.resolve();
    live.noteNotification('id1', 'sync');
    await making;
    assert.equal(hub.isLive(DRIVE_CHANGES_FEED), true);
    const old = book.get('id1');
    assert.ok(old);
    advance(50 * 60_000);
    const flips: boolean[] = [];
    hub.onEvent(DRIVE_CHANGES_FEED, (event) => {
      if (event.kind === 'live') flips.push(event.live);
    });
    const renewed = await operations.renew(old);
    assert.equal(renewed.feed, DRIVE_CHANGES_FEED, 'the renewal is Desk\'s channel too');
    assert.deepEqual(book.list().map((record) => record.id), [renewed.id]);
    assert.equal(hub.isLive(DRIVE_CHANGES_FEED), true);
    assert.deepEqual(flips, [], 'push kept working through the renewal');
    // Without a renewal, the expiry ends push.
    advance(renewed.expiration);
    live.updateLive();
    assert.equal(hub.isLive(DRIVE_CHANGES_FEED), false);
    live.dispose();
    assert.equal(hub.isLive(DRIVE_CHANGES_FEED), false);
  });

  it('leaves channels alone while no backend can be reached', async () => {
    const { hub, live, calls, state } = setup();
    state.address = 'https://127.0.0.1:9/desk/notifications';
    state.available = false;
    hub.setWanted(DRIVE_CHANGES_FEED, true);
    await live.reconcile();
    assert.deepEqual(calls, []);
    live.dispose();
  });
});
