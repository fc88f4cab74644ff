import * as assert from 'node:assert/strict';
import { BooksNode, BooksTreeModel, MY_LIBRARY, ShelfNode, VolumeNode } from '../../../../../src/features/books/tree/model';
import { FakeBooks, fakeVolume } from '../../../../support/fakes/books';

function labelOf(node: BooksNode): string {
  switch (node.kind) {
    case 'library': return node.owner;
    case 'shelf': return node.shelf.title;
    case 'volume': return node.volume.volumeInfo.title ?? '';
    case 'loadMore': return '…more';
    case 'message': return `(${node.key})`;
  }
}

describe('Books tree model', () => {
  function setUp(publicLibraries: string[] = []) {
    const books = new FakeBooks();
    books.addVolumes(...['a', 'b', 'c', 'd', 'e'].map((id) => fakeVolume(id, `Book ${id.toUpperCase()}`)));
    books.shelf(books.me, 2).volumeIds = ['a', 'b', 'c', 'd', 'e'];
    books.shelf(books.me, 1).volumeIds = ['c'];
    books.libraries.set('42', [
      { id: 0, title: 'Favorites', access: 'PUBLIC', volumeIds: ['e'] },
      { id: 6, title: 'Recently viewed', access: 'PRIVATE', volumeIds: ['a'] },
    ]);
    const model = new BooksTreeModel(() => books, { publicLibraries: () => publicLibraries, pageSize: 2 });
    return { books, model };
  }

  async function shelf(model: BooksTreeModel, owner: string, title: string): Promise<ShelfNode> {
    const rows = await model.children(model.library(owner));
    const found = rows.find((row): row is ShelfNode => row.kind === 'shelf' && row.shelf.title === title);
    assert.ok(found, `no shelf ${title} among ${rows.map(labelOf).join(', ')}`);
    return found;
  }

  it('lists My Library first, then the public libraries added, each once', () => {
    const { model } = setUp(['42', '42', MY_LIBRARY, '7']);
    assert.deepEqual(model.roots().map((node) => node.id), ['library/me', 'library/42', 'library/7']);
    assert.equal(model.roots()[0]?.mine, true);
    assert.equal(model.roots()[1]?.mine, false);
  });

  it('gives shelves stable ids and parents, and marks Google-filled shelves read-only', async () => {
    const { model } = setUp();
    const rows = await model.children(model.library(MY_LIBRARY));
    assert.deepEqual(rows.map((row) => row.id), ['shelf/me/0', 'shelf/me/1', 'shelf/me/2', 'shelf/me/7']);
    const byTitle = new Map(rows.map((row) => [labelOf(row), row as ShelfNode]));
    assert.equal(byTitle.get('Purchased')?.writable, false);
    assert.equal(byTitle.get('To read')?.writable, true);
    assert.equal(byTitle.get('My eBooks')?.writable, true);
    assert.equal(byTitle.get('To read')?.parent, model.library(MY_LIBRARY));
    // The same node object after a reload, so VS Code keeps the row.
    model.invalidateLibrary(MY_LIBRARY);
    const again = await model.children(model.library(MY_LIBRARY));
    assert.equal(again[2], rows[2]);
  });

  it('pages a shelf with startIndex and maxResults behind a Load more row', async () => {
    const { books, model } = setUp();
    const toRead = await shelf(model, MY_LIBRARY, 'To read');
    let rows = await model.children(toRead);
    assert.deepEqual(rows.map(labelOf), ['Book A', 'Book B', '…more']);
    assert.equal(rows[2]?.id, 'loadMore/me/2');
    assert.equal(await model.loadMore(toRead), true);
    assert.equal(await model.loadMore(toRead), true);
    rows = await model.children(toRead);
    assert.deepEqual(rows.map(labelOf), ['Book A', 'Book B', 'Book C', 'Book D', 'Book E']);
    assert.equal(await model.loadMore(toRead), false);
    assert.deepEqual(books.calls.filter((call) => call.startsWith('listMyShelfVolumes')), ['listMyShelfVolumes 2 0', 'listMyShelfVolumes 2 2', 'listMyShelfVolumes 2 4']);
    const volume = rows[3] as VolumeNode;
    assert.equal(volume.id, 'volume/me/2/d');
    assert.equal(volume.position, 3);
    assert.equal(model.parentOf(volume), toRead);
    assert.deepEqual(model.loadedOrder(toRead), ['a', 'b', 'c', 'd', 'e']);
  });

  it('stops offering more when a page comes back empty before totalItems', async () => {
    const { books, model } = setUp();
    const toRead = await shelf(model, MY_LIBRARY, 'To read');
    const original = books.listMyShelfVolumes.bind(books);
    books.listMyShelfVolumes = async (id, options?) => {
      const page = await original(id, options);
      return (options?.startIndex ?? 0) >= 2 ? { kind: 'books#volumes', totalItems: 5 } : page;
    };
    await model.children(toRead);
    assert.equal(await model.loadMore(toRead), true);
    assert.deepEqual((await model.children(toRead)).map(labelOf), ['Book A', 'Book B']);
    assert.equal(model.hasMore(toRead), false);
  });

  it('shows another user\'s public shelves only, read-only, and reads them through the users/ operations', async () => {
    const { books, model } = setUp(['42']);
    const favorites = await shelf(model, '42', 'Favorites');
    assert.equal(favorites.id, 'shelf/42/0');
    assert.equal(favorites.writable, false);
    assert.deepEqual((await model.children(favorites)).map(labelOf), ['Book E']);
    assert.deepEqual(books.calls, ['listUserBookshelves 42', 'listUserShelfVolumes 42 0 0']);
  });

  it('throws a library\'s error and does not cache it: the next expansion asks again', async () => {
    const { books, model } = setUp(['999']);
    await assert.rejects(model.children(model.library('999')), /user ID could not be found/);
    books.libraries.set('999', []);
    assert.deepEqual((await model.children(model.library('999'))).map(labelOf), ['(noPublicShelves)']);
  });

  it('reloads only the invalidated shelf, and empty shelves say so', async () => {
    const { books, model } = setUp();
    const favorites = await shelf(model, MY_LIBRARY, 'Favorites');
    assert.deepEqual((await model.children(favorites)).map(labelOf), ['(noVolumes)']);
    books.shelf(books.me, 0).volumeIds = ['b'];
    assert.deepEqual((await model.children(favorites)).map(labelOf), ['(noVolumes)'], 'cached until invalidated');
    model.invalidateShelf(MY_LIBRARY, 0);
    assert.deepEqual((await model.children(favorites)).map(labelOf), ['Book B']);
  });

  it('finds a volume deep in a shelf for reveal, loading pages as needed; lists only writable shelves for adding', async () => {
    const { model } = setUp();
    const found = await model.findVolumeNode(MY_LIBRARY, 2, 'e');
    assert.equal(found?.id, 'volume/me/2/e');
    assert.equal(await model.findVolumeNode(MY_LIBRARY, 2, 'zzz'), undefined);
    assert.deepEqual((await model.writableShelves()).map((item) => item.title), ['Favorites', 'To read', 'My eBooks']);
  });

  it('forgets a removed public library', async () => {
    const { model } = setUp(['42']);
    await shelf(model, '42', 'Favorites');
    assert.equal(model.loadedShelves('42').length, 1);
    model.forgetLibrary('42');
    assert.equal(model.loadedShelves('42').length, 0);
    assert.equal(model.shelfNode('42', 0), undefined);
  });
});
