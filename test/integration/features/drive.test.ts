// The Drive extension's data layer (tree model, change poller, adapter) against the real emulator over HTTP:
// the queries it sends are ones the service understands, and the change feed reaches the poller.
import * as assert from 'node:assert/strict';
import { DriveClient } from '../../../src/api/drive';
import { HttpClient } from '../../../src/api/http';
import type { TokenStore } from '../../../src/core/sync/poller';
import { ChangePoller, PollOutcome } from '../../../src/features/drive/changes/poller';
import { startEmulator, RunningEmulator } from '../../../src/emulator/emulator';
import { textExportType } from '../../../src/features/drive/fs/drivePath';
import { adaptDriveClient, changeSourceFor, isInvalidPageToken } from '../../../src/features/drive/driveAdapter';
import { DriveNode, DriveTreeModel, FileNode } from '../../../src/features/drive/tree/model';

function clientFor(emulator: RunningEmulator, email: string): DriveClient {
  const token = emulator.tokenFor(email).accessToken;
  return new DriveClient(new HttpClient({ rootUrl: () => emulator.url, token: async () => token }));
}

function titles(nodes: DriveNode[]): string[] {
  return nodes.map((node) => (node.kind === 'file' ? node.item.title ?? '?' : node.kind));
}

function child(nodes: DriveNode[], title: string): FileNode {
  const found = nodes.find((node): node is FileNode => node.kind === 'file' && node.item.title === title);
  assert.ok(found, `no ${title} among ${titles(nodes).join(', ')}`);
  return found;
}

describe('Drive extension data layer against the emulator', function () {
  this.timeout(20000);
  let emulator: RunningEmulator;

  beforeEach(async () => {
    emulator = await startEmulator({ port: 0, seed: 'demo' });
  });
  afterEach(async () => {
    await emulator.close();
  });

  it('builds the seeded tree: folders first, Trash and Shared with me', async () => {
    const model = new DriveTreeModel(adaptDriveClient(clientFor(emulator, 'alice@example.com')));
    const root = await model.children(model.section('myDrive'));
    assert.deepEqual(titles(root), ['Notes', 'Photos', 'Projects', 'ideas.txt']);
    const projects = await model.children(child(root, 'Projects'));
    assert.deepEqual(titles(projects), ['Desk', 'Budget', 'Project plan']);
    assert.deepEqual(titles(await model.children(model.section('trash'))), ['old-draft.txt']);
    await model.children(model.section('shared'));
  });

  it('pages a large folder behind "Load more"', async () => {
    const client = clientFor(emulator, 'alice@example.com');
    const folder = await client.insertFolder('Many', 'root');
    for (let i = 0; i < 25; i++) await client.insertFile({ title: `f${String(i).padStart(2, '0')}.txt`, mimeType: 'text/plain', parents: [{ id: folder.id }] });
    const model = new DriveTreeModel(adaptDriveClient(client), { pageSize: 10 });
    const node = child(await model.children(model.section('myDrive')), 'Many');
    let children = await model.children(node);
    assert.equal(children.at(-1)?.kind, 'loadMore');
    while (await model.loadMore(node)) children = await model.children(node);
    assert.equal(children.filter((entry) => entry.kind === 'file').length, 25);
    assert.notEqual(children.at(-1)?.kind, 'loadMore');
  });

  it('exports native documents as text through the formats the service announces', async () => {
    const client = clientFor(emulator, 'alice@example.com');
    const api = adaptDriveClient(client);
    const about = await api.about();
    const plan = (await client.listFiles({ q: "title = 'Project plan'" })).items[0];
    assert.ok(plan);
    const type = textExportType(plan.mimeType, about.exportFormats);
    assert.equal(type, 'text/plain');
    assert.match((await api.exportFile(plan.id, type)).toString('utf8'), /Goal: ship Desk/);
  });

  it('a conditional content update fails with 412 after another client changed the file', async () => {
    const alice = adaptDriveClient(clientFor(emulator, 'alice@example.com'));
    const other = clientFor(emulator, 'alice@example.com');
    const file = (await other.listFiles({ q: "title = 'groceries.txt'" })).items.at(0);
    assert.ok(file?.etag);
    await other.updateFile(file.id, {}, { content: Buffer.from('changed elsewhere\n'), contentType: 'text/plain' });
    await assert.rejects(alice.updateContent(file.id, Buffer.from('mine\n'), { ifMatch: file.etag }), (error: unknown) => (error as { status?: number }).status === 412);
    const forced = await alice.updateContent(file.id, Buffer.from('mine\n'), { ifMatch: undefined });
    assert.equal(forced.fileSize, '5');
  });

  it('the poller sees a change made by another client, with long polling when the emulator offers it', async () => {
    const values = new Map<string, string>();
    const tokens: TokenStore = { get: (key) => values.get(key), set: (key, value) => { if (value === undefined) values.delete(key); else values.set(key, value); } };
    const client = clientFor(emulator, 'alice@example.com');
    const outcomes: PollOutcome[] = [];
    let notify: (() => void) | undefined;
    const poller = new ChangePoller({
      source: changeSourceFor(client),
      tokens,
      tokenKey: 'alice',
      schedule: { activeMs: 50, longPollSeconds: 5 },
      onChanges: (outcome) => {
        outcomes.push(outcome);
        notify?.();
      },
      isInvalidToken: isInvalidPageToken,
    });
    poller.setSignedIn(true);
    poller.start();
    try {
      while (!tokens.get('alice')) await new Promise((resolve) => setTimeout(resolve, 20));
      // Let a first short poll learn whether long polling is offered.
      while (poller.polls < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      const arrived = new Promise<void>((resolve) => { notify = resolve; });
      const other = clientFor(emulator, 'alice@example.com');
      const created = await other.insertFile({ title: 'from-elsewhere.txt', mimeType: 'text/plain', parents: [{ id: 'root' }] });
      await arrived;
      const seen = outcomes.flatMap((outcome) => outcome.changes.map((change) => change.fileId));
      assert.ok(seen.includes(created.id));
      assert.equal(poller.usesLongPoll, true, 'the emulator announces long polling and the poller uses it');
    } finally {
      poller.stop();
    }
  });

  it('recovers from a page token the service does not know', async () => {
    const values = new Map<string, string>([['alice', '999999999']]);
    const tokens: TokenStore = { get: (key) => values.get(key), set: (key, value) => { if (value === undefined) values.delete(key); else values.set(key, value); } };
    const outcomes: PollOutcome[] = [];
    let done: (() => void) | undefined;
    const finished = new Promise<void>((resolve) => { done = resolve; });
    const poller = new ChangePoller({
      source: changeSourceFor(clientFor(emulator, 'alice@example.com')),
      tokens,
      tokenKey: 'alice',
      onChanges: (outcome) => {
        outcomes.push(outcome);
        done?.();
      },
      onError: () => {
        outcomes.push({ changes: [], tokenReset: false });
        done?.();
      },
      isInvalidToken: isInvalidPageToken,
    });
    poller.setSignedIn(true);
    poller.start();
    await finished;
    poller.stop();
    assert.equal(outcomes[0]?.tokenReset, true, 'a fresh start token replaced the unknown one');
    assert.notEqual(values.get('alice'), '999999999');
  });
});
