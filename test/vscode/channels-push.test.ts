// Channels in a real extension host against the harness's emulator, with the built-in receiver: watching directory
// users (domain form, chosen events) from the command and seeing an added user counted in the view; automatic renewal
// of a short-lived channel (a new channel before expiry, the old one stopped); and Drive's live changes driven by push
// (a change made over the API reaches the status bar through a notification while the poller keeps a slow pace).
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { DeskApi } from '../../src/extension';
import { DEFAULT_SCHEDULE } from '../../src/core/sync/poller';
import type { ChannelRecord } from '../../src/features/channels/model';
import type { ChannelsNode } from '../../src/features/channels/tree/treeProvider';
import type { DriveChangesState } from '../../src/features/drive';
import * as vscode from 'vscode';
import { consentBrowser } from '../support/consentBrowser';
import fetch from 'node-fetch';
import { activateAndSignIn, emulatorRequest, emulatorToken, emulatorUrl, eventually, labelText, messageText, WindowStubs } from './support';

/** Polls every millisecond or so (eventually's 50 ms would blur a latency figure). */
async function soon<T>(what: string, probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

describe('Channels with the built-in receiver in VS Code', function () {
  this.timeout(60000);
  let api: DeskApi;
  let address: string;
  const stubs = new WindowStubs();
  let errors: string[] = [];

  before(async () => {
    api = await activateAndSignIn();
    errors = stubs.collect('showErrorMessage');
    const started = await vscode.commands.executeCommand<string | undefined>('desk.channels.startReceiver');
    assert.ok(started?.startsWith('https://127.0.0.1:'), `receiver: ${String(started)} (${errors.join('; ')})`);
    address = String(started);
  });

  after(async () => {
    await vscode.workspace.getConfiguration().update('desk.channels.autoRenew', undefined, vscode.ConfigurationTarget.Global);
    for (const record of api.channels.book.list().filter((entry) => entry.feed === undefined)) await vscode.commands.executeCommand('desk.channels.stop', { kind: 'channel', id: `channel/${record.id}`, record });
    await vscode.commands.executeCommand('desk.channels.stopReceiver');
    stubs.restore();
  });

  const channelRow = (id: string): Extract<ChannelsNode, { kind: 'channel' }> | undefined => {
    const found = api.channels.tree.getChildren().find((node) => node.kind === 'channel' && node.record.id === id);
    return found?.kind === 'channel' ? found : undefined;
  };
  const driveState = (): Promise<DriveChangesState> => Promise.resolve(vscode.commands.executeCommand<DriveChangesState>('desk.drive.changesState'));

  it('watches a domain\'s users for chosen events from the command, and counts an added user in the view', async () => {
    const picks: string[] = [];
    const eventLabels: string[] = [];
    stubs.stub('showQuickPick', async (items, options) => {
      const list = (await items) as Array<vscode.QuickPickItem & { value?: string }>;
      picks.push(String((options as vscode.QuickPickOptions).placeHolder));
      // The form first (domain), then the events (add and makeAdmin of the five), in words with the API's name beside.
      if ((options as vscode.QuickPickOptions).canPickMany) {
        eventLabels.push(...list.map((item) => item.label));
        return list.filter((item) => item.description === 'add' || item.description === 'makeAdmin');
      }
      return list.find((item) => item.value === 'domain');
    });
    const answers = ['example.com', address, 'directory-token'];
    const asked: vscode.InputBoxOptions[] = [];
    stubs.stub('showInputBox', async (options) => {
      asked.push(options as vscode.InputBoxOptions);
      return answers.shift();
    });
    // Watching users needs the administrator's scope, asked for (with consent) only now.
    let grantAsked = false;
    stubs.stub('showWarningMessage', async (_message, _options, ...actions) => {
      grantAsked = true;
      return actions[0];
    });
    api.setAuthUrlOpener(consentBrowser('alice@example.com', (result) => {
      if (result instanceof Error) console.error(`consent failed: ${result.message}`);
    }));
    let made: ChannelRecord[] | undefined;
    try {
      made = await vscode.commands.executeCommand<ChannelRecord[] | undefined>('desk.channels.watchDirectoryUsers');
    } finally {
      api.setAuthUrlOpener(undefined);
    }
    assert.ok(made, `no channels (${errors.join('; ')}; picks: ${picks.join(' | ')})`);
    // A web address where the domain goes is refused in the box, saying what to type.
    assert.match(messageText(await asked.at(0)?.validateInput?.('https://example.com')), /the domain alone, e\.g\. example\.com/);
    assert.equal(await asked.at(0)?.validateInput?.('example.com'), undefined);
    assert.ok(eventLabels.includes('A user becomes or stops being an administrator') && !eventLabels.includes('makeAdmin'), `event choices: ${eventLabels.join(', ')}`);
    const hasAdminScope = (await api.desk.auth.listSessions()).some((session) => session.scopes.includes('https://www.googleapis.com/auth/admin.directory.user'));
    assert.ok(hasAdminScope, `a session with the admin scope (asked: ${String(grantAsked)})`);
    assert.deepEqual(made.map((record) => record.target), [
      { kind: 'directoryUsers', domain: 'example.com', event: 'add' },
      { kind: 'directoryUsers', domain: 'example.com', event: 'makeAdmin' },
    ]);
    const [adds, makeAdmins] = made as [ChannelRecord, ChannelRecord];
    assert.equal(adds.token, 'directory-token');
    assert.equal(labelText(api.channels.tree.getTreeItem(channelRow(adds.id) as ChannelsNode)), 'Directory users of example.com (add)');

    // The admin adds a user elsewhere (over the API): the add channel's count rises; the makeAdmin one only has its sync.
    const email = `dana-${randomUUID().slice(0, 8)}@example.com`;
    const inserted = await emulatorRequest<{ id: string }>('POST', '/admin/directory/v1/users', { primaryEmail: email, name: { givenName: 'Dana', familyName: 'Push' }, password: 'correct-horse-battery' });
    assert.equal(inserted.status, 200, JSON.stringify(inserted.body));
    const counted = await eventually('the add notification counted in the view', () => {
      const row = channelRow(adds.id);
      return row && row.record.messages >= 2 ? row : undefined;
    }, 15000);
    assert.match(String(api.channels.tree.getTreeItem(counted).description), /expires in .* · 2 messages/);
    const added = api.channels.tree.notificationsOf(adds.id).find((notification) => notification.resourceState === 'add');
    assert.ok(added, 'the add notification is listed under its channel');
    assert.ok(added.body?.includes(email), `body: ${String(added.body)}`);
    assert.equal((JSON.parse(added.body ?? '{}') as { kind?: unknown }).kind, 'admin#directory#user');
    await eventually('the makeAdmin channel\'s sync', () => (channelRow(makeAdmins.id)?.record.messages === 1 ? true : undefined), 10000);
    assert.equal(api.channels.tree.notificationsOf(makeAdmins.id).some((notification) => notification.resourceState === 'add'), false, 'an add is not a makeAdmin');

    // Making the new user an admin reaches the other channel.
    const promoted = await emulatorRequest('POST', `/admin/directory/v1/users/${encodeURIComponent(email)}/makeAdmin`, { status: true });
    assert.equal(promoted.status, 204);
    await eventually('the makeAdmin notification', () => (channelRow(makeAdmins.id)?.record.messages === 2 ? true : undefined), 15000);
    for (const record of made) await vscode.commands.executeCommand('desk.channels.stop', channelRow(record.id));
    assert.equal(channelRow(adds.id), undefined);
    assert.deepEqual(errors, []);
  });

  it('renews a short-lived channel before it expires when auto-renew is on: a new channel, then the old one stopped', async () => {
    await vscode.workspace.getConfiguration().update('desk.channels.autoRenew', true, vscode.ConfigurationTarget.Global);
    const original = await vscode.commands.executeCommand<ChannelRecord | undefined>('desk.channels.watchDriveChanges', { address, token: 'renew-token', lifeSeconds: 20 });
    assert.ok(original, `no channel (${errors.join('; ')})`);
    assert.ok(original.expiration - Date.now() <= 20_000, 'the short life was asked for and answered');
    // Every change of the book, as ids: the renewal must show both channels at once before the old one goes.
    const snapshots: string[][] = [];
    const watching = api.channels.book.onDidChange(() => snapshots.push(api.channels.book.list().filter((record) => record.token === 'renew-token').map((record) => record.id)));
    const renewed = await eventually('the renewal', () => {
      const list = api.channels.book.list();
      return list.some((record) => record.id === original.id) ? undefined : list.find((record) => record.token === 'renew-token');
    }, 25000);
    const checkedAt = Date.now();
    watching.dispose();
    assert.ok(snapshots.some((ids) => ids.includes(original.id) && ids.includes(renewed.id)), `overlap: ${JSON.stringify(snapshots)}`);
    // The old channel was stopped before its expiry, not left to expire: the emulator no longer knows it.
    assert.equal(channelRow(original.id), undefined);
    const stopAgain = await emulatorRequest('POST', '/drive/v2/channels/stop', { id: original.id, resourceId: original.resourceId });
    assert.ok(checkedAt < original.expiration, `checked ${original.expiration - checkedAt} ms before the old one's expiry`);
    assert.equal(stopAgain.status, 404);
    // The two overlapped: the new one existed (and had its sync) while the old one still lived.
    assert.ok(renewed.created < original.expiration);
    assert.equal(renewed.target.kind, 'driveChanges');
    assert.equal(renewed.requestedLifeMs, 20_000, 'the renewal asks for the same life');
    await eventually('the renewed channel\'s sync', () => (api.channels.book.get(renewed.id)?.messages ?? 0) >= 1 || api.channels.book.list().some((record) => record.token === 'renew-token' && record.id !== renewed.id && record.id !== original.id) ? true : undefined, 10000);
    await vscode.workspace.getConfiguration().update('desk.channels.autoRenew', undefined, vscode.ConfigurationTarget.Global);
    for (const record of api.channels.book.list().filter((entry) => entry.token === 'renew-token')) await vscode.commands.executeCommand('desk.channels.stop', channelRow(record.id));
    assert.deepEqual(errors, []);
  });

  it('makes Drive\'s live changes push-driven: a change reaches the status bar through a notification, the poller keeps a slow pace', async function () {
    this.timeout(120000);
    // Loading Drive starts its poller, which asks for push; the receiver runs, so Desk makes its channel.
    assert.equal(api.drive.changesState().polling, true);
    const own = await eventually('Desk\'s own Drive changes channel', () => api.channels.book.list().find((record) => record.feed === 'drive.changes'), 15000);
    assert.equal(own.address, address);
    assert.equal(labelText(api.channels.tree.getTreeItem(channelRow(own.id) as ChannelsNode)), 'Desk\'s live Drive changes');
    const pushed = await eventually('push working', async () => {
      const state = await driveState();
      return state.push && state.pollerState === 'idle' ? state : undefined;
    }, 15000);
    // Slow pace: the next timer-driven poll is further away than any polling pace, and no request is held open.
    assert.ok((pushed.nextPollInMs ?? 0) > DEFAULT_SCHEDULE.maxIdleMs, `next poll in ${String(pushed.nextPollInMs)} ms`);

    const title = `pushed-${randomUUID().slice(0, 8)}.txt`;
    const token = await emulatorToken();
    let notifiedAt = 0;
    const listening = api.channels.onDidReceive((notification) => {
      if (notification.channelId === own.id && notification.resourceState === 'change' && notifiedAt === 0) notifiedAt = Date.now();
    });
    const started = Date.now();
    const created = await fetch(`${emulatorUrl()}/drive/v2/files`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ title, mimeType: 'text/plain' }) });
    const answeredAt = Date.now();
    assert.equal(created.status, 200);
    await soon('the status bar to show the pushed change', () => (api.drive.changesState().entries.some((entry) => entry.title === title) ? true : undefined), 10000);
    const pushLatency = Date.now() - started;
    listening.dispose();
    console.log(`      push: insert answered after ${answeredAt - started} ms, notification at ${notifiedAt - started} ms, status bar at ${pushLatency} ms`);
    const after = api.drive.changesState();
    assert.ok(after.pushPolls > pushed.pushPolls, 'the fetch was triggered by a notification');
    assert.match(after.statusText, new RegExp(`${title.replace('.', '\\.')}|Drive changes`));
    assert.ok((after.nextPollInMs ?? DEFAULT_SCHEDULE.pushMs) > DEFAULT_SCHEDULE.maxIdleMs, 'still the slow pace after the change');

    // The receiver stops: Desk stops its channel, and the poller goes back to its own pace.
    await vscode.commands.executeCommand('desk.channels.stopReceiver');
    const polling = await eventually('polling again', async () => {
      const state = await driveState();
      return !state.push && (state.pollerState === 'polling' || (state.nextPollInMs ?? Infinity) <= DEFAULT_SCHEDULE.maxIdleMs) ? state : undefined;
    }, 10000);
    assert.equal(polling.push, false);
    assert.equal(api.channels.book.list().some((record) => record.feed === 'drive.changes'), false);
    const ownStopped = await emulatorRequest('POST', '/drive/v2/channels/stop', { id: own.id, resourceId: own.resourceId });
    assert.equal(ownStopped.status, 404, 'Desk stopped its channel at the emulator');

    // For comparison: the same change noticed by polling (the long poll when this window counts as active).
    const polledTitle = `polled-${randomUUID().slice(0, 8)}.txt`;
    const pollStarted = Date.now();
    await emulatorRequest('POST', '/drive/v2/files', { title: polledTitle, mimeType: 'text/plain' });
    // An unfocused window polls every 30 s and more: the figure is printed, not waited for beyond 45 s.
    const seen = await soon('the polled change', () => (api.drive.changesState().entries.some((entry) => entry.title === polledTitle) ? true : undefined), 45000).catch(() => false);
    const pollLatency = seen ? `${Date.now() - pollStarted} ms` : '> 45 s';
    const state = api.drive.changesState();
    console.log(`      change → Drive status bar: push ${pushLatency} ms; without push ${pollLatency} (${state.usesLongPoll ? 'long poll announced' : 'poll'}, window focused: ${String(vscode.window.state.focused)})`);

    // Started again, the receiver brings push back.
    address = String(await vscode.commands.executeCommand<string | undefined>('desk.channels.startReceiver'));
    await eventually('push working again', async () => ((await driveState()).push ? true : undefined), 15000);
    assert.deepEqual(errors, []);
  });
});
