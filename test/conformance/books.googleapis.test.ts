import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { books, books_v1 } from '@googleapis/books';
import { findUser } from '../../src/emulator/identity/users';
import { startEmulator, RunningEmulator } from '../../src/emulator/emulator';
import { officialClientOptions, rejectsWith } from '../support/officialClient';
import { writeFixtureCatalogue } from '../support/booksCatalogue';

describe('official @googleapis/books client against the emulator', () => {
  let emulator: RunningEmulator;
  let api: books_v1.Books;
  let anonymous: books_v1.Books;
  let fixtureDir: string;
  const aliceId = findUser('alice@example.com')?.id as string;

  before(async () => {
    const fixture = writeFixtureCatalogue();
    fixtureDir = fixture.dir;
    emulator = await startEmulator({ port: 0, booksCatalogue: fixture.file });
    api = books({ version: 'v1', ...officialClientOptions(emulator, 'alice@example.com') });
    anonymous = books({ version: 'v1', ...officialClientOptions(emulator) });
  });
  after(async () => {
    await emulator.close();
    fs.rmSync(fixtureDir, { recursive: true, force: true });
  });

  it('runs volumes.list and volumes.get', async () => {
    const found = await anonymous.volumes.list({ q: 'dune', maxResults: 2, startIndex: 0, orderBy: 'relevance', printType: 'books', projection: 'full' });
    assert.equal(found.status, 200);
    assert.equal(found.data.kind, 'books#volumes');
    assert.equal(found.data.totalItems, 3);
    assert.equal(found.data.items?.[0]?.volumeInfo?.title, 'Dune');
    const id = found.data.items.at(0)?.id as string;
    const next = await anonymous.volumes.list({ q: 'dune', maxResults: 2, startIndex: 2 });
    assert.equal(next.data.items?.length, 1);
    assert.ok(!found.data.items.some((volume) => volume.id === next.data.items?.[0]?.id));

    const got = await anonymous.volumes.get({ volumeId: id, projection: 'lite' });
    assert.equal(got.data.kind, 'books#volume');
    assert.equal(got.data.id, id);
    assert.equal(got.data.volumeInfo?.title, 'Dune');
    await rejectsWith(anonymous.volumes.get({ volumeId: 'nosuchvolume' }), 404);
    await rejectsWith(anonymous.volumes.list({ q: '' }), 400);
    await rejectsWith(anonymous.volumes.list({ q: 'dune', maxResults: 41 }), 400);
  });

  it('runs the 7 mylibrary.bookshelves operations', async () => {
    const list = await api.mylibrary.bookshelves.list();
    assert.equal(list.data.kind, 'books#bookshelves');
    assert.equal(list.data.items?.length, 10);

    const dune = (await api.volumes.list({ q: 'intitle:dune inauthor:herbert', orderBy: 'newest' })).data.items ?? [];
    const [messiah, original] = dune.map((volume) => volume.id as string);
    assert.ok(messiah && original);

    const added = await api.mylibrary.bookshelves.addVolume({ shelf: '2', volumeId: original, reason: 'ONBOARDING' });
    assert.equal(added.status, 204);
    await api.mylibrary.bookshelves.addVolume({ shelf: '2', volumeId: messiah });
    const shelf = await api.mylibrary.bookshelves.get({ shelf: '2' });
    assert.equal(shelf.data.kind, 'books#bookshelf');
    assert.equal(shelf.data.id, 2);
    assert.equal(shelf.data.title, 'To read');
    assert.equal(shelf.data.volumeCount, 2);

    const volumes = await api.mylibrary.bookshelves.volumes.list({ shelf: '2', startIndex: 0, maxResults: 10, projection: 'full' });
    assert.equal(volumes.data.kind, 'books#volumes');
    assert.deepEqual(volumes.data.items?.map((volume) => volume.id), [messiah, original]);

    const moved = await api.mylibrary.bookshelves.moveVolume({ shelf: '2', volumeId: original, volumePosition: 0 });
    assert.equal(moved.status, 204);
    assert.deepEqual((await api.mylibrary.bookshelves.volumes.list({ shelf: '2' })).data.items?.map((volume) => volume.id), [original, messiah]);

    const removed = await api.mylibrary.bookshelves.removeVolume({ shelf: '2', volumeId: messiah });
    assert.equal(removed.status, 204);
    assert.equal((await api.mylibrary.bookshelves.get({ shelf: '2' })).data.volumeCount, 1);
    await rejectsWith(api.mylibrary.bookshelves.removeVolume({ shelf: '2', volumeId: messiah }), 404);
    await rejectsWith(api.mylibrary.bookshelves.addVolume({ shelf: '1', volumeId: original }), 403);
    await rejectsWith(api.mylibrary.bookshelves.get({ shelf: '99' }), 404);
    await rejectsWith(anonymous.mylibrary.bookshelves.list(), 401);

    // Read through bookshelves.* before clearing, so the public view has something to show.
    const publicVolumes = await anonymous.bookshelves.volumes.list({ userId: aliceId, shelf: '2', maxResults: 5, startIndex: 0 });
    assert.deepEqual(publicVolumes.data.items?.map((volume) => volume.id), [original]);

    const cleared = await api.mylibrary.bookshelves.clearVolumes({ shelf: '2' });
    assert.equal(cleared.status, 204);
    assert.equal((await api.mylibrary.bookshelves.get({ shelf: '2' })).data.volumeCount, 0);
  });

  it('runs the 3 bookshelves operations on another user\'s public shelves', async () => {
    const bob = books({ version: 'v1', ...officialClientOptions(emulator, 'bob@example.com') });
    const list = await bob.bookshelves.list({ userId: aliceId });
    assert.equal(list.data.kind, 'books#bookshelves');
    assert.deepEqual(list.data.items?.map((shelf) => shelf.id), [0, 2, 3, 4, 5]);
    const shelf = await bob.bookshelves.get({ userId: aliceId, shelf: '0' });
    assert.equal(shelf.data.title, 'Favorites');
    assert.equal(shelf.data.access, 'PUBLIC');
    const volumes = await bob.bookshelves.volumes.list({ userId: aliceId, shelf: '0', showPreorders: false });
    assert.equal(volumes.data.kind, 'books#volumes');
    assert.equal(volumes.data.totalItems, 0);
    await rejectsWith(bob.bookshelves.get({ userId: aliceId, shelf: '1' }), 404);
    await rejectsWith(bob.bookshelves.volumes.list({ userId: aliceId, shelf: '7' }), 404);
    await rejectsWith(bob.bookshelves.list({ userId: '42' }), 404);
  });
});
