import * as assert from 'node:assert/strict';
import { GoogleApiError, isUnreachable, ServiceUnreachableError } from '../../../../src/api/errors';
import type { DeskContext } from '../../../../src/core/deskContext';
import { WriteQueue } from '../../../../src/core/offline/writeQueue';
import { DriveOfflineChanges, LOCAL_FILE_PREFIX, LOCAL_FOLDER_PREFIX } from '../../../../src/features/drive/offlineChanges';
import type { DriveItem } from '../../../../src/features/drive/port';
import { fakeVscode } from '../../../support/fakeVscode';
import { MapMemento } from '../../../support/memento';

function file(id: string, title: string, parent = 'root', extra: Partial<DriveItem> = {}): DriveItem {
  return { kind: 'drive#file', id, title, parents: [{ id: parent }], labels: { trashed: false }, ...extra };
}

/** Drive in memory that can be unplugged: every call then fails as a refused connection would. */
class FakeDrive {
  offline = true;
  readonly files = new Map<string, DriveItem>();
  readonly sent: string[] = [];
  private seq = 0;
  private check(): void {
    if (this.offline) throw new ServiceUnreachableError('drive', Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
  }
  private found(id: string): DriveItem {
    const item = this.files.get(id);
    if (!item) throw new GoogleApiError(404, 'File not found', 'notFound', [], undefined);
    return item;
  }
  async getFile(id: string): Promise<DriveItem> {
    this.check();
    return this.found(id);
  }
  async patchFile(id: string, metadata: { title?: string }, options: { addParents?: string[]; removeParents?: string[] } = {}): Promise<DriveItem> {
    this.check();
    const item = this.found(id);
    const parents = [...(item.parents ?? []).filter((parent) => !(options.removeParents ?? []).includes(parent.id)), ...(options.addParents ?? []).filter((add) => !(item.parents ?? []).some((parent) => parent.id === add)).map((add) => ({ id: add }))];
    const next = { ...item, ...metadata, parents };
    this.files.set(id, next);
    this.sent.push(`patch ${id} ${JSON.stringify(metadata)} ${JSON.stringify(options)}`);
    return next;
  }
  async trashFile(id: string): Promise<DriveItem> {
    this.check();
    const next = { ...this.found(id), labels: { trashed: true } };
    this.files.set(id, next);
    this.sent.push(`trash ${id}`);
    return next;
  }
  async insertFolder(title: string, parentId: string): Promise<DriveItem> {
    this.check();
    const folder = file(`f${++this.seq}`, title, parentId, { mimeType: 'application/vnd.google-apps.folder', createdDate: new Date().toISOString() });
    this.files.set(folder.id, folder);
    this.sent.push(`insert ${title} in ${parentId}`);
    return folder;
  }
  /** Fails after making the file once when `loseAnswer` is set: the answer of a send that landed is lost. */
  loseAnswer = false;
  readonly reserved: string[] = [];
  async generateIds(count: number): Promise<string[]> {
    this.check();
    const ids = Array.from({ length: count }, () => `gen${++this.seq}`);
    this.reserved.push(...ids);
    return ids;
  }
  async insertEmptyFile(title: string, parentId: string, options: { id?: string } = {}): Promise<DriveItem> {
    this.check();
    const id = options.id ?? `f${++this.seq}`;
    if (this.files.has(id)) throw new GoogleApiError(409, 'A file already exists with the provided ID.', 'duplicate', [], undefined);
    const made = file(id, title, parentId, { mimeType: 'text/plain' });
    this.files.set(id, made);
    this.sent.push(`new file ${title} in ${parentId} as ${id}`);
    if (this.loseAnswer) {
      this.loseAnswer = false;
      throw new ServiceUnreachableError('drive', Object.assign(new Error('reset'), { code: 'ECONNRESET' }));
    }
    return made;
  }
  async listFiles(request: { q: string }): Promise<{ items: DriveItem[] }> {
    this.check();
    const title = /title = '([^']*)'/.exec(request.q)?.[1];
    return { items: [...this.files.values()].filter((item) => item.title === title) };
  }
}

function setUp(answer?: string) {
  const drive = new FakeDrive();
  const vs = fakeVscode() as unknown as Record<string, unknown>;
  const warnings: string[] = [];
  (vs.window as Record<string, unknown>).showWarningMessage = async (message: string, ...rest: unknown[]) => (warnings.push(message), rest.length > 1 ? answer : undefined);
  const queue = new WriteQueue({ memento: new MapMemento(), account: () => 'emulator alice', now: () => Date.now(), isOffline: isUnreachable });
  const shown: string[] = [];
  const desk = { vs, offlineQueue: queue, log: { info: () => undefined } } as unknown as Pick<DeskContext, 'vs' | 'offlineQueue' | 'log'>;
  const changes = new DriveOfflineChanges({
    desk,
    api: () => drive,
    show: async (list) => void shown.push(...list.map((change) => (change.removed ? `remove ${change.fileId}` : `${String(change.item?.title)} ${change.item?.labels?.trashed ? 'trashed' : `in ${String(change.item?.parents?.map((parent) => parent.id).join(','))}`}`))),
  });
  changes.register();
  return { drive, queue, changes, shown, warnings };
}

describe('Drive changes offline: rename, move, trash, new folder', () => {
  it('are shown at once and sent once, in order, when Drive is back; a file moved into a folder made offline goes to its Drive id', async () => {
    const { drive, queue, changes, shown } = setUp();
    drive.files.set('a', file('a', 'Notes.md'));
    drive.files.set('b', file('b', 'Old.txt'));
    await changes.rename(file('a', 'Notes.md'), 'Plan.md');
    const folder = await changes.newFolder('Archive', 'root', 'My Drive', false);
    assert.ok(folder.id.startsWith(LOCAL_FOLDER_PREFIX));
    await changes.move(file('a', 'Plan.md'), [folder.id], ['root'], 'Archive');
    await changes.trash(file('b', 'Old.txt'));
    assert.deepEqual(shown, ['Plan.md in root', 'Archive in root', `Plan.md in ${folder.id}`, 'Old.txt trashed']);
    await queue.settled();
    assert.equal(queue.size, 4);
    drive.offline = false;
    await queue.replay();
    const archive = [...drive.files.values()].find((item) => item.title === 'Archive');
    assert.deepEqual(drive.sent, ['patch a {"title":"Plan.md"} {}', 'insert Archive in root', `patch a {} {"addParents":["${String(archive?.id)}"],"removeParents":["root"]}`, 'trash b']);
    assert.deepEqual(drive.files.get('a')?.parents, [{ id: archive?.id }]);
    assert.equal(queue.size, 0);
    await queue.replay();
    assert.equal(drive.sent.length, 4, 'each once');
  });

  it('a new folder whose insert may have landed is looked for before it is made again', async () => {
    const { drive, queue, changes } = setUp();
    await changes.newFolder('Landed', 'root', 'My Drive', true);
    drive.files.set('x', file('x', 'Landed', 'root', { mimeType: 'application/vnd.google-apps.folder', createdDate: new Date().toISOString() }));
    drive.offline = false;
    await queue.replay();
    assert.deepEqual(drive.sent, []);
    assert.equal(queue.size, 0);
  });

  it('a rename sent already (its answer lost) is not sent again; one renamed elsewhere asks, and Cancel keeps Drive\'s name', async () => {
    const { drive, queue, changes, warnings } = setUp(undefined);
    drive.files.set('a', file('a', 'Plan.md'));
    drive.files.set('b', file('b', 'Theirs.md'));
    await changes.rename(file('a', 'Notes.md'), 'Plan.md');
    await changes.rename(file('b', 'Mine-before.md'), 'Mine.md');
    drive.offline = false;
    await queue.replay();
    assert.deepEqual(drive.sent, []);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /renamed on Drive/);
    assert.equal(drive.files.get('b')?.title, 'Theirs.md');
    assert.equal(queue.size, 0);
  });

  it('a change to a file deleted on Drive says so and is not kept; a trash of it is done', async () => {
    const { drive, queue, changes, warnings } = setUp();
    await changes.rename(file('gone', 'Gone.md'), 'Still gone.md');
    await changes.trash(file('gone', 'Gone.md'));
    drive.offline = false;
    await queue.replay();
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /deleted on Drive/);
    assert.equal(queue.size, 0);
  });

  it('a new file shows at once, is made once under an id reserved before its send, and a send whose answer was lost is not repeated', async () => {
    const { drive, queue, changes, shown } = setUp();
    const made = await changes.newFile('Ideas.md', 'root', 'My Drive');
    assert.ok(made.id.startsWith(LOCAL_FILE_PREFIX));
    assert.deepEqual(shown, ['Ideas.md in root']);
    drive.offline = false;
    drive.loseAnswer = true;
    await queue.replay();
    assert.equal(queue.size, 1, 'the answer was lost: it waits');
    assert.equal(queue.list()[0]?.intent.fileId, drive.reserved[0], 'the reserved id is kept in the queue');
    await queue.replay();
    assert.deepEqual(drive.sent, [`new file Ideas.md in root as ${drive.reserved[0]}`], 'made once');
    assert.equal(drive.reserved.length, 1, 'no second id');
    assert.equal(queue.size, 0);
    assert.deepEqual(shown.slice(1), [`remove ${made.id}`, `Ideas.md in root`]);
  });
});
