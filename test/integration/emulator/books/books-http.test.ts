import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { startEmulator, RunningEmulator } from '../../../../src/emulator/emulator';
import { findUser } from '../../../../src/emulator/identity/users';
import { googleErrorBodySchema } from '../../../../src/shared/schemas/errors';
import { bookshelfSchema, bookshelvesSchema, volumeSchema, volumesSchema } from '../../../../src/shared/schemas/books';
import { FIXTURE_RECORDS, writeFixtureCatalogue } from '../../../support/booksCatalogue';

interface Answer {
  status: number;
  json: unknown;
}

const ALICE_ID = findUser('alice@example.com')?.id as string;

describe('books emulator over HTTP', () => {
  let emulator: RunningEmulator;
  let alice: string;
  let bob: string;
  let fixtureDir: string;

  before(async () => {
    const fixture = writeFixtureCatalogue();
    fixtureDir = fixture.dir;
    emulator = await startEmulator({ port: 0, booksCatalogue: fixture.file });
    alice = emulator.tokenFor('alice@example.com').accessToken;
    bob = emulator.tokenFor('bob@example.com').accessToken;
  });
  after(async () => {
    await emulator.close();
    fs.rmSync(fixtureDir, { recursive: true, force: true });
  });

  /** `token: null` sends no Authorization header. */
  async function call(method: 'GET' | 'POST', path: string, token: string | null = alice): Promise<Answer> {
    const response = await fetch(`${emulator.url}${path}`, { method, headers: token === null ? {} : { Authorization: `Bearer ${token}` } });
    const text = await response.text();
    return { status: response.status, json: text ? (JSON.parse(text) as unknown) : undefined };
  }

  async function expectError(answer: Promise<Answer>, status: number, reason: string): Promise<string> {
    const { status: actual, json } = await answer;
    assert.equal(actual, status, JSON.stringify(json));
    const body = googleErrorBodySchema.parse(json);
    assert.equal(body.error.code, status);
    assert.equal(body.error.errors?.[0]?.reason, reason, JSON.stringify(json));
    return body.error.message;
  }

  async function search(query: string): Promise<ReturnType<typeof volumesSchema.parse>> {
    const answer = await call('GET', `/books/v1/volumes?${query}`, null);
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    return volumesSchema.parse(answer.json);
  }

  async function volumeIdOf(title: string): Promise<string> {
    const found = await search(`q=${encodeURIComponent(`intitle:"${title}"`)}`);
    const volume = found.items?.find((item) => item.volumeInfo.title === title);
    assert.ok(volume, `no volume titled ${title}`);
    return volume.id;
  }

  async function shelf(shelfId: number, token = alice): Promise<ReturnType<typeof bookshelfSchema.parse>> {
    const answer = await call('GET', `/books/v1/mylibrary/bookshelves/${shelfId}`, token);
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    return bookshelfSchema.parse(answer.json);
  }

  async function shelfTitles(shelfId: number, token = alice): Promise<string[]> {
    const answer = await call('GET', `/books/v1/mylibrary/bookshelves/${shelfId}/volumes?maxResults=40`, token);
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    return (volumesSchema.parse(answer.json).items ?? []).map((volume) => volume.volumeInfo.title ?? '');
  }

  describe('volumes', () => {
    it('searches without a token and answers Google\'s shape', async () => {
      const found = await search('q=dune&maxResults=2');
      assert.equal(found.kind, 'books#volumes');
      assert.equal(found.totalItems, 3);
      assert.equal(found.items?.length, 2);
      const first = found.items.at(0);
      assert.equal(first?.volumeInfo.title, 'Dune');
      assert.equal(first.selfLink, `${emulator.url}/books/v1/volumes/${first.id}`);
      const mention = (await search('q=dune')).items?.find((volume) => volume.volumeInfo.title === 'Desert Worlds');
      assert.equal(mention?.searchInfo?.textSnippet, 'A survey of science fiction deserts, from the sands of <b>Dune</b> to the salt flats of Tatooine.');
    });

    it('gets one volume, lite or full', async () => {
      const id = await volumeIdOf('Emma');
      const full = volumeSchema.parse((await call('GET', `/books/v1/volumes/${id}`, null)).json);
      assert.equal(full.volumeInfo.title, 'Emma');
      assert.equal(full.accessInfo?.publicDomain, true);
      assert.equal(full.saleInfo?.saleability, 'FREE');
      assert.equal(full.searchInfo, undefined, 'searchInfo belongs to search results only');
      const lite = volumeSchema.parse((await call('GET', `/books/v1/volumes/${id}?projection=lite`, null)).json);
      assert.equal(lite.volumeInfo.categories, undefined);
      assert.equal(lite.volumeInfo.title, 'Emma');
    });

    it('answers an unknown volume with a 404 in Google\'s format', async () => {
      assert.equal(await expectError(call('GET', '/books/v1/volumes/zzzzzzzzzzzz', null), 404, 'notFound'), 'The volume ID could not be found.');
    });

    it('refuses a search without q, or with an empty one, as Google does', async () => {
      for (const query of ['', 'q=', 'q=%20%20', 'maxResults=5']) {
        assert.equal(await expectError(call('GET', `/books/v1/volumes?${query}`, null), 400, 'queryRequired'), 'Missing query.');
      }
    });

    it('refuses out-of-range paging and unknown enum values with 400 invalid', async () => {
      assert.match(await expectError(call('GET', '/books/v1/volumes?q=dune&maxResults=41', null), 400, 'invalid'), /\[0, 40\]/);
      await expectError(call('GET', '/books/v1/volumes?q=dune&maxResults=ten', null), 400, 'invalid');
      await expectError(call('GET', '/books/v1/volumes?q=dune&startIndex=-1', null), 400, 'invalid');
      await expectError(call('GET', '/books/v1/volumes?q=dune&orderBy=oldest', null), 400, 'invalid');
      await expectError(call('GET', '/books/v1/volumes?q=dune&filter=cheap', null), 400, 'invalid');
      await expectError(call('GET', '/books/v1/volumes?q=dune&projection=tiny', null), 400, 'invalid');
      await expectError(call('GET', '/books/v1/volumes?q=dune&printType=comics', null), 400, 'invalid');
    });

    it('pages by startIndex to totalItems with no overlap, and leaves items out of an empty page', async () => {
      const everything = await search('q=fiction&maxResults=40');
      const ids: string[] = [];
      for (let startIndex = 0; startIndex < everything.totalItems; startIndex += 4) {
        const page = await search(`q=fiction&maxResults=4&startIndex=${startIndex}`);
        assert.equal(page.totalItems, everything.totalItems);
        ids.push(...(page.items ?? []).map((volume) => volume.id));
      }
      assert.deepEqual(ids, everything.items?.map((volume) => volume.id));
      const past = await call('GET', `/books/v1/volumes?q=fiction&startIndex=${everything.totalItems}`, null);
      assert.deepEqual(past.json, { kind: 'books#volumes', totalItems: everything.totalItems });
      const none = await call('GET', '/books/v1/volumes?q=xyzzyplugh', null);
      assert.deepEqual(none.json, { kind: 'books#volumes', totalItems: 0 });
    });

    it('applies filter, printType, langRestrict and orderBy', async () => {
      const free = await search('q=fiction&filter=free-ebooks&maxResults=40');
      assert.ok(free.totalItems > 0);
      assert.ok(free.items?.every((volume) => volume.saleInfo?.saleability === 'FREE' && volume.accessInfo?.viewability === 'ALL_PAGES'));
      assert.equal((await search('q=dune&printType=magazines')).totalItems, 0);
      assert.deepEqual((await search('q=classics&langRestrict=fr')).items?.map((volume) => volume.volumeInfo.language), ['fr']);
      const newest = await search('q=inauthor:austen&orderBy=newest');
      assert.deepEqual(newest.items?.map((volume) => volume.volumeInfo.title), ['Emma', 'Pride and Prejudice']);
    });
  });

  describe('my bookshelves', () => {
    it('lists Google\'s predefined shelves with their ids, titles and access', async () => {
      const answer = await call('GET', '/books/v1/mylibrary/bookshelves');
      const shelves = bookshelvesSchema.parse(answer.json);
      assert.equal(shelves.kind, 'books#bookshelves');
      assert.deepEqual(shelves.items?.map((item) => `${item.id} ${item.title} ${String(item.access)}`), [
        '0 Favorites PUBLIC',
        '1 Purchased PRIVATE',
        '2 To read PUBLIC',
        '3 Reading now PUBLIC',
        '4 Have read PUBLIC',
        '5 Reviewed PUBLIC',
        '6 Recently viewed PRIVATE',
        '7 My eBooks PRIVATE',
        '8 Books for you PRIVATE',
        '9 Browsing history PRIVATE',
      ]);
      const favorites = shelves.items.at(0);
      assert.equal(favorites?.kind, 'books#bookshelf');
      assert.equal(favorites.selfLink, `${emulator.url}/books/v1/mylibrary/bookshelves/0`);
      assert.ok(favorites.created && favorites.updated && favorites.volumesLastUpdated);
    });

    it('needs a token', async () => {
      await expectError(call('GET', '/books/v1/mylibrary/bookshelves', null), 401, 'required');
      await expectError(call('POST', '/books/v1/mylibrary/bookshelves/0/clearVolumes', 'not-a-token'), 401, 'authError');
    });

    it('adds volumes to the front, never twice, and keeps volumeCount and the timestamps right', async () => {
      const dune = await volumeIdOf('Dune');
      const emma = await volumeIdOf('Emma');
      const before = await shelf(2);
      assert.equal(before.volumeCount, 0);
      await new Promise((resolve) => setTimeout(resolve, 5));
      assert.equal((await call('POST', `/books/v1/mylibrary/bookshelves/2/addVolume?volumeId=${dune}`)).status, 204);
      assert.equal((await call('POST', `/books/v1/mylibrary/bookshelves/2/addVolume?volumeId=${emma}`)).status, 204);
      const after = await shelf(2);
      assert.equal(after.volumeCount, 2);
      assert.ok((after.volumesLastUpdated ?? '') > (before.volumesLastUpdated ?? ''));
      assert.ok((after.updated ?? '') > (before.updated ?? ''));
      assert.deepEqual(await shelfTitles(2), ['Emma', 'Dune']);

      assert.equal((await call('POST', `/books/v1/mylibrary/bookshelves/2/addVolume?volumeId=${dune}`)).status, 204);
      const again = await shelf(2);
      assert.equal(again.volumeCount, 2, 'adding a volume already there does not duplicate it');
      assert.equal(again.volumesLastUpdated, after.volumesLastUpdated, 'nor counts as a change');
      assert.deepEqual(await shelfTitles(2), ['Emma', 'Dune']);
    });

    it('moves a volume to volumePosition (0 = first), clamping past the end', async () => {
      const ids = await Promise.all(['Dune Messiah', 'The Hobbit', 'It'].map(volumeIdOf));
      for (const id of ids) await call('POST', `/books/v1/mylibrary/bookshelves/3/addVolume?volumeId=${id}`);
      assert.deepEqual(await shelfTitles(3), ['It', 'The Hobbit', 'Dune Messiah']);
      const messiah = ids[0];
      assert.equal((await call('POST', `/books/v1/mylibrary/bookshelves/3/moveVolume?volumeId=${messiah}&volumePosition=0`)).status, 204);
      assert.deepEqual(await shelfTitles(3), ['Dune Messiah', 'It', 'The Hobbit']);
      await call('POST', `/books/v1/mylibrary/bookshelves/3/moveVolume?volumeId=${messiah}&volumePosition=1`);
      assert.deepEqual(await shelfTitles(3), ['It', 'Dune Messiah', 'The Hobbit']);
      await call('POST', `/books/v1/mylibrary/bookshelves/3/moveVolume?volumeId=${messiah}&volumePosition=99`);
      assert.deepEqual(await shelfTitles(3), ['It', 'The Hobbit', 'Dune Messiah']);
      assert.equal((await shelf(3)).volumeCount, 3);
    });

    it('pages a shelf by startIndex and searches within it with q', async () => {
      const page = volumesSchema.parse((await call('GET', '/books/v1/mylibrary/bookshelves/3/volumes?startIndex=1&maxResults=1')).json);
      assert.equal(page.totalItems, 3);
      assert.deepEqual(page.items?.map((volume) => volume.volumeInfo.title), ['The Hobbit']);
      const within = volumesSchema.parse((await call('GET', '/books/v1/mylibrary/bookshelves/3/volumes?q=herbert')).json);
      assert.deepEqual(within.items?.map((volume) => volume.volumeInfo.title), ['Dune Messiah']);
      assert.equal(within.totalItems, 1);
      const lite = volumesSchema.parse((await call('GET', '/books/v1/mylibrary/bookshelves/3/volumes?projection=lite')).json);
      assert.equal(lite.items?.[0]?.volumeInfo.language, undefined);
    });

    it('removes a volume; removing or moving one that is not there is a 404', async () => {
      const hobbit = await volumeIdOf('The Hobbit');
      assert.equal((await call('POST', `/books/v1/mylibrary/bookshelves/3/removeVolume?volumeId=${hobbit}`)).status, 204);
      assert.deepEqual(await shelfTitles(3), ['It', 'Dune Messiah']);
      await expectError(call('POST', `/books/v1/mylibrary/bookshelves/3/removeVolume?volumeId=${hobbit}`), 404, 'notFound');
      await expectError(call('POST', `/books/v1/mylibrary/bookshelves/3/moveVolume?volumeId=${hobbit}&volumePosition=0`), 404, 'notFound');
    });

    it('clears a shelf', async () => {
      assert.equal((await call('POST', '/books/v1/mylibrary/bookshelves/3/clearVolumes')).status, 204);
      assert.equal((await shelf(3)).volumeCount, 0);
      assert.deepEqual((await call('GET', '/books/v1/mylibrary/bookshelves/3/volumes')).json, { kind: 'books#volumes', totalItems: 0 });
      assert.equal((await call('POST', '/books/v1/mylibrary/bookshelves/3/clearVolumes')).status, 204, 'clearing an empty shelf is fine');
    });

    it('refuses changes to the shelves Google fills itself with 403, and non-eBooks on My eBooks with 400', async () => {
      const dune = await volumeIdOf('Dune');
      for (const shelfId of [1, 5, 6, 8, 9]) {
        await expectError(call('POST', `/books/v1/mylibrary/bookshelves/${shelfId}/addVolume?volumeId=${dune}`), 403, 'forbidden');
        await expectError(call('POST', `/books/v1/mylibrary/bookshelves/${shelfId}/clearVolumes`), 403, 'forbidden');
      }
      const emma = await volumeIdOf('Emma');
      assert.equal((await call('POST', `/books/v1/mylibrary/bookshelves/7/addVolume?volumeId=${emma}`)).status, 204, 'a public-domain eBook');
      const printOnly = (await search('q=fiction&maxResults=40')).items?.find((volume) => volume.saleInfo?.isEbook === false);
      assert.ok(printOnly, 'the fixture has a print-only book');
      await expectError(call('POST', `/books/v1/mylibrary/bookshelves/7/addVolume?volumeId=${printOnly.id}`), 400, 'invalid');
    });

    it('answers bad shelves, volumes and parameters with Google-format 400/404', async () => {
      await expectError(call('GET', '/books/v1/mylibrary/bookshelves/42'), 404, 'notFound');
      await expectError(call('GET', '/books/v1/mylibrary/bookshelves/favorites'), 404, 'notFound');
      await expectError(call('GET', '/books/v1/mylibrary/bookshelves/-1/volumes'), 404, 'notFound');
      await expectError(call('POST', '/books/v1/mylibrary/bookshelves/0/addVolume?volumeId=nosuchvolume'), 404, 'notFound');
      await expectError(call('POST', '/books/v1/mylibrary/bookshelves/0/addVolume'), 400, 'required');
      await expectError(call('POST', '/books/v1/mylibrary/bookshelves/0/removeVolume?volumeId='), 400, 'required');
      const dune = await volumeIdOf('Dune');
      await expectError(call('POST', `/books/v1/mylibrary/bookshelves/2/moveVolume?volumeId=${dune}`), 400, 'required');
      await expectError(call('POST', `/books/v1/mylibrary/bookshelves/2/moveVolume?volumeId=${dune}&volumePosition=-2`), 400, 'invalid');
      await expectError(call('POST', `/books/v1/mylibrary/bookshelves/2/moveVolume?volumeId=${dune}&volumePosition=first`), 400, 'invalid');
      await expectError(call('GET', '/books/v1/mylibrary/bookshelves/2/volumes?maxResults=-1'), 400, 'invalid');
      await expectError(call('POST', '/books/v1/mylibrary/bookshelves/0/addVolume?volumeId=x&reason=BECAUSE'), 400, 'invalid');
    });
  });

  describe('another user\'s bookshelves', () => {
    it('shows the public shelves only, to anyone', async () => {
      for (const token of [bob, null]) {
        const answer = await call('GET', `/books/v1/users/${ALICE_ID}/bookshelves`, token);
        const shelves = bookshelvesSchema.parse(answer.json);
        assert.deepEqual(shelves.items?.map((item) => item.id), [0, 2, 3, 4, 5]);
        assert.ok(shelves.items.every((item) => item.access === 'PUBLIC'));
        assert.equal(shelves.items.at(0)?.selfLink, `${emulator.url}/books/v1/users/${ALICE_ID}/bookshelves/0`);
      }
    });

    it('shows a public shelf and its volumes, in alice\'s order', async () => {
      const toRead = bookshelfSchema.parse((await call('GET', `/books/v1/users/${ALICE_ID}/bookshelves/2`, bob)).json);
      assert.equal(toRead.title, 'To read');
      assert.equal(toRead.volumeCount, 2);
      const volumes = volumesSchema.parse((await call('GET', `/books/v1/users/${ALICE_ID}/bookshelves/2/volumes`, bob)).json);
      assert.deepEqual(volumes.items?.map((volume) => volume.volumeInfo.title), ['Emma', 'Dune']);
      assert.equal(volumes.totalItems, 2);
    });

    it('hides a private shelf as a 404, the same answer as a shelf that does not exist', async () => {
      const privateShelf = await expectError(call('GET', `/books/v1/users/${ALICE_ID}/bookshelves/7`, bob), 404, 'notFound');
      const missingShelf = await expectError(call('GET', `/books/v1/users/${ALICE_ID}/bookshelves/77`, bob), 404, 'notFound');
      assert.equal(privateShelf, missingShelf);
      await expectError(call('GET', `/books/v1/users/${ALICE_ID}/bookshelves/7/volumes`, bob), 404, 'notFound');
      // Even alice sees only her public shelves through the users/ path: it is the public view.
      await expectError(call('GET', `/books/v1/users/${ALICE_ID}/bookshelves/1`, alice), 404, 'notFound');
    });

    it('answers an unknown user with a 404', async () => {
      await expectError(call('GET', '/books/v1/users/123/bookshelves', bob), 404, 'notFound');
      await expectError(call('GET', '/books/v1/users/alice@example.com/bookshelves', bob), 404, 'notFound');
    });

    it('names each demo user\'s Books user id on a dev route', async () => {
      const answer = await call('GET', '/emulator/v1/books/users', null);
      assert.deepEqual(answer.json, {
        users: ['alice', 'bob', 'carol'].map((name) => {
          const user = findUser(`${name}@example.com`);
          return { email: user?.email, name: user?.name, booksUserId: user?.id };
        }),
      });
    });
  });

  describe('catalogue and demo data', () => {
    it('stops the emulator at start on a bad --books file, naming the line', async () => {
      const lines = FIXTURE_RECORDS.slice(0, 2).map((record) => JSON.stringify(record));
      const broken = writeFixtureCatalogue(`${lines.join('\n')}\n{"title":"No authors","publishedDate":"1999","language":"en","categories":["X"],"description":"d","publicDomain":false}\n`);
      try {
        await assert.rejects(startEmulator({ port: 0, booksCatalogue: broken.file }), /catalogue\.jsonl line 3: field 'authors'/);
      } finally {
        fs.rmSync(broken.dir, { recursive: true, force: true });
      }
    });

    it('seeds demo shelves for alice, bob and carol, with a private shelf hidden from others', async () => {
      const fixture = writeFixtureCatalogue();
      const seeded = await startEmulator({ port: 0, seed: 'demo', booksCatalogue: fixture.file });
      try {
        for (const email of ['alice@example.com', 'bob@example.com', 'carol@example.com']) {
          const token = seeded.tokenFor(email).accessToken;
          const response = await fetch(`${seeded.url}/books/v1/mylibrary/bookshelves`, { headers: { Authorization: `Bearer ${token}` } });
          const shelves = bookshelvesSchema.parse(await response.json());
          const volumes = (shelves.items ?? []).reduce((total, item) => total + (item.volumeCount ?? 0), 0);
          assert.ok(volumes >= 2, `${email} has books on shelves`);
        }
        const bobId = findUser('bob@example.com')?.id as string;
        const bobsPublic = bookshelvesSchema.parse(await (await fetch(`${seeded.url}/books/v1/users/${bobId}/bookshelves`)).json());
        assert.ok(!bobsPublic.items?.some((item) => item.title === 'Gift ideas'), 'bob\'s private custom shelf is not listed');
        const alicePublic = bookshelvesSchema.parse(await (await fetch(`${seeded.url}/books/v1/users/${ALICE_ID}/bookshelves`)).json());
        assert.ok(alicePublic.items?.some((item) => item.id === 1001 && item.title === 'Book club'), 'alice\'s public custom shelf is listed');
      } finally {
        await seeded.close();
        fs.rmSync(fixture.dir, { recursive: true, force: true });
      }
    });
  });
});
