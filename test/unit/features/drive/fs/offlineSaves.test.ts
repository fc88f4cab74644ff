import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { GoogleApiError, isUnreachable, ServiceUnreachableError } from '../../../../../src/api/errors';
import type { DeskContext } from '../../../../../src/core/deskContext';
import { WriteQueue } from '../../../../../src/core/offline/writeQueue';
import { DriveOfflineSaves, md5 } from '../../../../../src/features/drive/fs/offlineSaves';
import type { DriveItem } from '../../../../../src/features/drive/port';
import { fakeVscode } from '../../../../support/fakeVscode';
import { MapMemento } from '../../../../support/memento';

/** One Drive file whose content and etag change with each upload; it can be unplugged. */
class FakeDrive {
  offline = false;
  uploads = 0;
  version = 1;
  content = Buffer.from('opened');
  item(): DriveItem {
    return { id: 'f', title: 'notes.txt', etag: `"v${this.version}"`, md5Checksum: md5(this.content), mimeType: 'text/plain' } as DriveItem;
  }
  async getFile(): Promise<DriveItem> {
    if (this.offline) throw new ServiceUnreachableError('drive.files.get', Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
    return this.item();
  }
  async updateContent(_id: string, bytes: Buffer, options: { ifMatch?: string | undefined }): Promise<DriveItem> {
    if (this.offline) throw new ServiceUnreachableError('drive.files.update', Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
    if (options.ifMatch !== undefined && options.ifMatch !== this.item().etag) throw new GoogleApiError(412, 'Precondition Failed', 'conditionNotMet', [], undefined);
    this.uploads++;
    this.version++;
    this.content = Buffer.from(bytes);
    return this.item();
  }
}

function setUp(answer?: string) {
  const drive = new FakeDrive();
  const vs = fakeVscode() as unknown as Record<string, unknown>;
  const opened: string[] = [];
  (vs.window as Record<string, unknown>).showWarningMessage = async () => answer;
  (vs.window as Record<string, unknown>).showTextDocument = async () => undefined;
  vs.workspace = { openTextDocument: async (options: { content: string }) => (opened.push(options.content), { uri: options.content }) };
  vs.commands = { executeCommand: async () => undefined };
  (vs.Uri as Record<string, unknown>).from = (parts: unknown) => parts;
  const queue = new WriteQueue({ memento: new MapMemento(), account: () => 'a', now: () => Date.now(), isOffline: isUnreachable });
  const uploaded: string[] = [];
  const desk = { vs: vs as unknown as typeof vscode, offlineQueue: queue, log: { info: () => undefined }, session: { viewAccount: () => 'alice@example.com' } } as unknown as Pick<DeskContext, 'vs' | 'offlineQueue' | 'log' | 'session'>;
  const saves = new DriveOfflineSaves({ desk, api: () => drive, onUploaded: (item) => uploaded.push(String(item.etag)) });
  return { drive, queue, saves, opened, uploaded };
}

describe('Drive saves offline: kept with their version, uploaded once', () => {
  it('keeps the last save of a file, and uploads it once against the version it was edited from', async () => {
    const { drive, queue, saves, uploaded } = setUp();
    const opened = drive.item();
    assert.equal(await saves.keep(opened, Buffer.from('first edit'), opened.etag, opened.md5Checksum), true);
    assert.equal(await saves.keep(opened, Buffer.from('second edit'), opened.etag, opened.md5Checksum), true);
    assert.equal(queue.size, 1, 'only the last content of a file waits');
    saves.register();
    await queue.settled();
    assert.equal(drive.content.toString(), 'second edit');
    assert.equal(drive.uploads, 1);
    assert.deepEqual(uploaded, ['"v2"']);
    await queue.replay();
    assert.equal(drive.uploads, 1);
  });

  it('an upload that landed before its answer was lost is not sent again (412 over the user\'s own content)', async () => {
    const { drive, queue, saves } = setUp();
    const opened = drive.item();
    await saves.keep(opened, Buffer.from('mine'), opened.etag, opened.md5Checksum);
    await drive.updateContent('f', Buffer.from('mine'), {});
    saves.register();
    await queue.settled();
    assert.equal(drive.uploads, 1);
    assert.equal(queue.size, 0);
  });

  it('content changed on Drive meanwhile: Cancel keeps the text in an editor, Overwrite uploads it', async () => {
    for (const [answer, expected] of [[undefined, 'theirs'], ['Overwrite', 'mine']] as const) {
      const { drive, queue, saves, opened } = setUp(answer);
      const base = drive.item();
      await saves.keep(base, Buffer.from('mine'), base.etag, base.md5Checksum);
      await drive.updateContent('f', Buffer.from('theirs'), {});
      saves.register();
      await queue.settled();
      assert.equal(drive.content.toString(), expected);
      if (answer === undefined) assert.deepEqual(opened, ['mine']);
      assert.equal(queue.size, 0);
    }
  });

  it('a file too large to keep is not kept (the save fails as before)', async () => {
    const { drive, saves, queue } = setUp();
    assert.equal(await saves.keep(drive.item(), Buffer.alloc(6 * 1024 * 1024), undefined, undefined), false);
    assert.equal(queue.size, 0);
  });
});
