import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import nodeFetch from 'node-fetch';
import { BooksClient, Volume } from '../../../src/api/books';
import { GoogleApiError } from '../../../src/api/errors';
import { FetchFunction, HttpClient, RetryPolicy } from '../../../src/api/http';
import { findUser } from '../../../src/emulator/identity/users';
import { startEmulator, RunningEmulator } from '../../../src/emulator/emulator';
import { writeFixtureCatalogue } from '../../support/booksCatalogue';

const FAST_RETRY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 };

async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterator) items.push(item);
  return items;
}

describe('BooksClient against the emulator', () => {
  let emulator: RunningEmulator;
  let client: BooksClient;
  let requests: string[];
  let fixtureDir: string;

  before(async () => {
    const fixture = writeFixtureCatalogue();
    fixtureDir = fixture.dir;
    emulator = await startEmulator({ port: 0, booksCatalogue: fixture.file });
    const token = emulator.tokenFor('alice@example.com').accessToken;
    requests = [];
    const fetch: FetchFunction = (url, init) => {
      const { pathname, search } = new URL(url);
      requests.push(`${init?.method ?? 'GET'} ${pathname}${search}`);
      return nodeFetch(url, init);
    };
    client = new BooksClient(new HttpClient({ rootUrl: () => emulator.url, token: async () => token, retry: FAST_RETRY, fetch }));
  });
  after(async () => {
    await emulator.close();
    fs.rmSync(fixtureDir, { recursive: true, force: true });
  });

  const titles = (volumes: readonly Volume[] | undefined): string[] => (volumes ?? []).map((volume) => volume.volumeInfo.title ?? '');

  it('runs all 12 operations', async () => {
    // volumes.list, volumes.get
    const found = await client.searchVolumes('intitle:dune', { orderBy: 'newest', maxResults: 5 });
    assert.deepEqual(titles(found.items), ['Dune Messiah', 'Dune']);
    const dune = found.items?.[1] as Volume;
    const got = await client.getVolume(dune.id, { projection: 'lite' });
    assert.equal(got.volumeInfo.title, 'Dune');
    assert.equal(got.volumeInfo.industryIdentifiers, undefined, 'lite');

    // mylibrary.bookshelves: list, get, addVolume, volumes.list, moveVolume, removeVolume, clearVolumes
    const mine = await client.listMyBookshelves();
    assert.equal(mine.items?.length, 10);
    const emma = (await client.searchVolumes('inauthor:austen intitle:emma')).items?.[0] as Volume;
    await client.addVolume(0, dune.id);
    await client.addVolume('0', emma.id);
    assert.equal((await client.getMyBookshelf(0)).volumeCount, 2);
    assert.deepEqual(titles((await client.listMyShelfVolumes(0)).items), ['Emma', 'Dune']);
    await client.moveVolume(0, dune.id, 0);
    assert.deepEqual(titles((await client.listMyShelfVolumes(0, { q: 'austen' })).items), ['Emma']);
    assert.deepEqual(titles((await client.listMyShelfVolumes(0)).items), ['Dune', 'Emma']);
    await client.removeVolume(0, dune.id);
    assert.deepEqual(titles((await client.listMyShelfVolumes(0)).items), ['Emma']);

    // bookshelves (alice's public view): list, get, volumes.list
    const aliceId = findUser('alice@example.com')?.id as string;
    assert.deepEqual((await client.listUserBookshelves(aliceId)).items?.map((shelf) => shelf.id), [0, 2, 3, 4, 5]);
    assert.equal((await client.getUserBookshelf(aliceId, 0)).title, 'Favorites');
    assert.deepEqual(titles((await client.listUserShelfVolumes(aliceId, 0)).items), ['Emma']);

    await client.clearVolumes(0);
    assert.equal((await client.getMyBookshelf(0)).volumeCount, 0);
  });

  it('walks a whole search by startIndex up to totalItems', async () => {
    const total = (await client.searchVolumes('fiction', { maxResults: 0 })).totalItems;
    assert.ok(total > 5);
    requests.length = 0;
    const all = await collect(client.searchAll('fiction', { maxResults: 4 }));
    assert.equal(all.length, total);
    assert.equal(new Set(all.map((volume) => volume.id)).size, total, 'no volume twice');
    assert.equal(requests.length, Math.ceil(total / 4), 'one request per page, none past the end');
    assert.ok(requests.every((request) => /startIndex=\d+/.test(request)));
    assert.equal((await collect(client.searchAll('fiction', { maxResults: 4, limit: 5 }))).length, 5);
  });

  it('walks a shelf by startIndex', async () => {
    const ids = (await client.searchVolumes('fiction', { maxResults: 7 })).items?.map((volume) => volume.id) ?? [];
    for (const id of ids) await client.addVolume(4, id);
    const walked = await collect(client.allMyShelfVolumes(4, { maxResults: 3 }));
    assert.deepEqual(walked.map((volume) => volume.id), [...ids].reverse());
  });

  it('surfaces Google errors as GoogleApiError', async () => {
    await assert.rejects(client.getVolume('nosuchvolume'), (error: unknown) => error instanceof GoogleApiError && error.isNotFound);
    await assert.rejects(client.searchVolumes(''), (error: unknown) => error instanceof GoogleApiError && error.status === 400 && error.reason === 'queryRequired');
    await assert.rejects(client.addVolume(0, 'anything'), (error: unknown) => error instanceof GoogleApiError && error.status === 404);
    const dune = (await client.searchVolumes('intitle:dune')).items?.[0] as Volume;
    await assert.rejects(client.addVolume(1, dune.id), (error: unknown) => error instanceof GoogleApiError && error.status === 403);
    await assert.rejects(client.removeVolume(2, dune.id), (error: unknown) => error instanceof GoogleApiError && error.isNotFound);
  });

  it('checks search parameters before sending anything', async () => {
    requests.length = 0;
    await assert.rejects(client.searchVolumes('dune', { maxResults: 41 }), /books\.volumes\.list: maxResults must be at most 40/);
    // A caller bypassing the types still cannot send an unknown filter.
    await assert.rejects(client.searchVolumes('dune', { filter: 'cheap' } as unknown as { filter: 'ebooks' }));
    assert.deepEqual(requests, []);
  });
});
