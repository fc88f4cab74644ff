// The Channels view inside a real extension host against the harness's emulator: start the built-in receiver (its
// certificate from the emulator's CA), watch all Drive changes, make a change over HTTP, see the notification arrive in
// the view, then renew (a new channel before the old one is stopped) and stop.
import * as assert from 'node:assert/strict';
import type { DeskApi } from '../../src/extension';
import { ChannelBook, ChannelRecord } from '../../src/features/channels/model';
import type { ChannelsNode } from '../../src/features/channels/tree/treeProvider';
import * as vscode from 'vscode';
import { activateAndSignIn, emulatorRequest, labelText, WindowStubs, eventually, scriptDialogs } from './support';

describe('Channels view in VS Code', function () {
  this.timeout(30000);
  let api: DeskApi;
  const stubs = new WindowStubs();
  let errors: string[] = [];

  before(async () => {
    api = await activateAndSignIn();
    errors = stubs.collect('showErrorMessage');
  });

  after(async () => {
    await vscode.commands.executeCommand('desk.channels.stopReceiver');
    stubs.restore();
  });

  const rows = (): ChannelsNode[] => api.channels.tree.getChildren();
  const row = (id: string): ChannelsNode | undefined => rows().find((node) => node.kind === 'channel' && node.record.id === id);

  it('receives a Drive change at the built-in receiver, then renews and stops the channel', async () => {
    const address = await vscode.commands.executeCommand<string | undefined>('desk.channels.startReceiver');
    assert.ok(address?.startsWith('https://127.0.0.1:'), `receiver address: ${String(address)} (${errors.join('; ')})`);

    // Asked for the address (the receiver's is offered) and a token, as from the palette.
    const offered: string[] = [];
    const answers = [address, 'desk-test-token'];
    stubs.stub('showInputBox', async (options) => {
      offered.push((options as vscode.InputBoxOptions).value ?? '');
      return answers.shift();
    });
    const channel = await vscode.commands.executeCommand<ChannelRecord | undefined>('desk.channels.watchDriveChanges');
    assert.ok(channel, `no channel (${errors.join('; ')})`);
    assert.equal(offered[0], address);
    assert.equal(channel.token, 'desk-test-token');
    assert.ok(channel.expiration > Date.now());
    const node = row(channel.id);
    assert.ok(node, 'the channel is not in the view');
    assert.match(String(api.channels.tree.getTreeItem(node).description), /expires in/);
    assert.equal(labelText(api.channels.tree.getTreeItem(node)), 'All Drive changes');

    // A change made elsewhere reaches the receiver and shows up in the view.
    const created = await emulatorRequest<{ id: string }>('POST', '/drive/v2/files', { title: 'channels-test.txt', mimeType: 'text/plain' });
    assert.equal(created.status, 200);
    const changed = await eventually('a change notification', () => api.channels.tree.notificationsOf(channel.id).find((notification) => notification.resourceState === 'change'), 10000);
    assert.ok(changed.messageNumber > 1);
    const updated = await eventually('the message count in the view', () => {
      const current = row(channel.id);
      return current && current.kind === 'channel' && current.record.messages >= 2 ? current : undefined;
    }, 10000);
    assert.match(String(api.channels.tree.getTreeItem(updated).description), /messages/);
    assert.ok(api.channels.tree.getChildren(updated).some((child) => child.kind === 'notification'));
    assert.ok(api.channels.receivedCount() >= 2);

    // Renew: a new channel, the old one stopped (so the emulator no longer knows it).
    const renewed = await vscode.commands.executeCommand<ChannelRecord | undefined>('desk.channels.renew', updated);
    assert.ok(renewed, `not renewed (${errors.join('; ')})`);
    assert.notEqual(renewed.id, channel.id);
    assert.equal(renewed.token, 'desk-test-token');
    assert.equal(row(channel.id), undefined);
    assert.ok(row(renewed.id));
    const oldStop = await emulatorRequest('POST', '/drive/v2/channels/stop', { id: channel.id, resourceId: channel.resourceId });
    assert.equal(oldStop.status, 404, 'the old channel was not stopped at the emulator');

    // The renewed channel delivers too.
    await emulatorRequest('POST', '/drive/v2/files', { title: 'channels-test-2.txt', mimeType: 'text/plain' });
    await eventually('a change on the renewed channel', () => api.channels.tree.notificationsOf(renewed.id).find((notification) => notification.resourceState === 'change'), 10000);

    // Stop: gone from the view and from the emulator.
    const stopped = await vscode.commands.executeCommand<ChannelRecord | undefined>('desk.channels.stop', row(renewed.id));
    assert.equal(stopped?.id, renewed.id);
    assert.equal(row(renewed.id), undefined);
    const again = await emulatorRequest('POST', '/drive/v2/channels/stop', { id: renewed.id, resourceId: renewed.resourceId });
    assert.equal(again.status, 404);
    assert.deepEqual(errors, []);
  });

  it('watches Calendar\'s other resources: a calendar\'s sharing from its row, the calendar list and the settings from the palette', async () => {
    const address = await vscode.commands.executeCommand<string | undefined>('desk.channels.startReceiver');
    assert.ok(address);
    const problems: string[] = [];
    const asked: string[] = [];
    errors.length = 0;
    const roots = await api.calendar.tree.getChildren();
    const primary = roots.find((root) => root.kind === 'calendar' && root.entry.primary === true);
    assert.ok(primary && primary.kind === 'calendar', 'no primary calendar row');

    // From the calendar's row: only that calendar's events or sharing are offered; sharing is picked.
    scriptDialogs(stubs, [{ pick: /sharing/ }, { type: address }, { type: '' }], problems, asked);
    const sharing = await vscode.commands.executeCommand<ChannelRecord | undefined>('desk.channels.watchCalendar', primary);
    assert.deepEqual([...problems, ...errors], []);
    assert.deepEqual(sharing?.target, { kind: 'calendarAcl', calendarId: primary.entry.id });
    assert.match(sharing.resourceUri ?? '', /\/acl/);
    // From the palette: the calendar list, then the settings.
    scriptDialogs(stubs, [{ pick: /Your calendar list/ }, { type: address }, { type: 'list-token' }], problems);
    const list = await vscode.commands.executeCommand<ChannelRecord | undefined>('desk.channels.watchCalendar');
    scriptDialogs(stubs, [{ pick: /Your Calendar settings/ }, { type: address }, { type: '' }], problems);
    const settings = await vscode.commands.executeCommand<ChannelRecord | undefined>('desk.channels.watchCalendar');
    assert.deepEqual([...problems, ...errors], []);
    assert.ok(list && settings);
    assert.deepEqual([list.target, settings.target], [{ kind: 'calendarList' }, { kind: 'calendarSettings' }]);
    const labels = [sharing, list, settings].map((record) => { const node = row(record.id); return node ? labelText(api.channels.tree.getTreeItem(node)) : '(missing)'; });
    assert.deepEqual(labels, [`Sharing of calendar ${primary.entry.id}`, 'Your calendar list', 'Your Calendar settings']);

    // A change to each arrives on its channel: share the calendar, add a calendar to the list, change a setting.
    await emulatorRequest('POST', `/calendar/v3/calendars/${encodeURIComponent(primary.entry.id)}/acl`, { role: 'reader', scope: { type: 'user', value: 'carol@example.com' } });
    await emulatorRequest('POST', '/calendar/v3/calendars', { summary: `Watched ${Date.now()}` });
    for (const record of [sharing, list]) {
      await eventually(`an exists on ${labelText(api.channels.tree.getTreeItem(row(record.id) as ChannelsNode))}`, () => api.channels.tree.notificationsOf(record.id).find((notification) => notification.resourceState === 'exists'), 10000);
    }
    assert.ok(api.channels.tree.notificationsOf(settings.id).some((notification) => notification.resourceState === 'sync'));
    for (const record of [sharing, list, settings]) await vscode.commands.executeCommand('desk.channels.stop', row(record.id));
    assert.deepEqual([sharing, list, settings].map((record) => row(record.id)), [undefined, undefined, undefined]);
    stubs.restore();
    errors = stubs.collect('showErrorMessage');
  });

  it('counts every message while other Desk state is written meanwhile (the Drive poller\'s page token after a push)', async function () {
    this.timeout(90000);
    // globalState in the extension host takes the echo of an earlier write of any key as its whole new copy:
    // a count written in between was lost (in CI, Desk's own Drive channel showed "1 message" after 2).
    const state = api.desk.extensionContext.globalState;
    const book = new ChannelBook(state);
    book.use('count-test', 'nobody');
    const record: ChannelRecord = { id: 'count-test-channel', resourceId: 'r', target: { kind: 'driveChanges' }, address: 'https://127.0.0.1:1/x', expiration: Date.now() + 3_600_000, created: Date.now(), messages: 0 };
    await book.add(record);
    let writing = true;
    // Named, then called: TypeScript reads an immediately invoked function as done at once, before `writing` changes.
    const writeMeanwhile = async (): Promise<void> => {
      // A bounded number of interleaved writes: an endless writer can keep every durable write waiting for its echo.
      for (let round = 0; writing && round < 400; round++) {
        void state.update('desk.test.otherState', round);
        await new Promise((resolve) => setTimeout(resolve, round % 3));
      }
    };
    const otherWriter = writeMeanwhile();
    const messages = 100;
    try {
      for (let message = 0; message < messages; message++) await book.noteMessage(record.id, 'change', Date.now());
    } finally {
      writing = false;
      await otherWriter;
    }
    assert.equal(book.get(record.id)?.messages, messages);
    await book.remove(record.id);
    await state.update('desk.test.otherState', undefined);
  });

  it('refuses an http address before sending anything', async () => {
    const before = rows().length;
    errors.length = 0;
    const made = await vscode.commands.executeCommand('desk.channels.watchDriveChanges', { address: 'http://127.0.0.1/x' });
    assert.equal(made, undefined);
    assert.equal(rows().length, before);
    assert.equal(errors.length, 1);
    assert.match(errors[0] ?? '', /https/);
  });
});
