import * as assert from 'node:assert/strict';
import { ServiceUnreachableError } from '../../../../../src/api/errors';
import { BooksNode, BooksTreeModel, MY_LIBRARY, ShelfNode } from '../../../../../src/features/books/tree/model';
import { FakeBooks, fakeVolume } from '../../../../support/fakes/books';

/** Books whose every listing can be made to fail as if the service were gone. */
class SwitchableBooks extends FakeBooks {
  offline = false;
  private check(): void {
    if (this.offline) throw new ServiceUnreachableError('books.mylibrary.bookshelves.list', Object.assign(new Error('request to http://127.0.0.1:8089/books/v1/mylibrary/bookshelves?fields=items(id) failed, reason: connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
  }
  override async listMyBookshelves(): ReturnType<FakeBooks['listMyBookshelves']> {
    this.check();
    return super.listMyBookshelves();
  }
  override async listMyShelfVolumes(...args: Parameters<FakeBooks['listMyShelfVolumes']>): ReturnType<FakeBooks['listMyShelfVolumes']> {
    this.check();
    return super.listMyShelfVolumes(...args);
  }
}

const labels = (nodes: readonly BooksNode[]): string[] => nodes.map((node) => (node.kind === 'shelf' ? node.shelf.title : node.kind === 'volume' ? node.volume.volumeInfo.title ?? '' : node.kind === 'message' ? `(${node.key})` : node.kind));

describe('Books tree offline: the view keeps what it shows', () => {
  it('keeps the shelves and the volumes loaded this session through a Refresh; a shelf never loaded says "Not available offline" in one row', async () => {
    const books = new SwitchableBooks();
    books.addVolumes(fakeVolume('a', 'Dune'), fakeVolume('b', 'Emma'), fakeVolume('c', 'Ulysses'));
    books.shelf(books.me, 0).volumeIds = ['a', 'b'];
    books.shelf(books.me, 1).volumeIds = ['c'];
    const model = new BooksTreeModel(() => books, { publicLibraries: () => [] });
    const shelves = await model.children(model.library(MY_LIBRARY));
    const favorites = shelves.find((row): row is ShelfNode => row.kind === 'shelf' && row.shelf.id === 0) as ShelfNode;
    assert.deepEqual(labels(await model.children(favorites)), ['Dune', 'Emma']);
    books.offline = true;
    model.reset();
    const offlineShelves = await model.children(model.library(MY_LIBRARY));
    assert.deepEqual(labels(offlineShelves), labels(shelves));
    const again = offlineShelves.find((row): row is ShelfNode => row.kind === 'shelf' && row.shelf.id === 0) as ShelfNode;
    assert.deepEqual(labels(await model.children(again)), ['Dune', 'Emma']);
    const never = offlineShelves.find((row): row is ShelfNode => row.kind === 'shelf' && row.shelf.id === 1) as ShelfNode;
    assert.deepEqual(labels(await model.children(never)), ['(offline)']);
  });

  it('with nothing ever loaded, My Library says "Not available offline" once, not an error with the request in it', async () => {
    const books = new SwitchableBooks();
    books.offline = true;
    const model = new BooksTreeModel(() => books, { publicLibraries: () => [] });
    assert.deepEqual(labels(await model.children(model.library(MY_LIBRARY))), ['(offline)']);
  });

  it('a move kept offline shows at once, in the shelf loaded and in what shows of it after a Refresh offline', async () => {
    const books = new SwitchableBooks();
    books.addVolumes(fakeVolume('a', 'Dune'), fakeVolume('b', 'Emma'), fakeVolume('c', 'Ulysses'));
    books.shelf(books.me, 0).volumeIds = ['a', 'b', 'c'];
    const model = new BooksTreeModel(() => books, { publicLibraries: () => [] });
    const favorites = (await model.children(model.library(MY_LIBRARY))).find((row): row is ShelfNode => row.kind === 'shelf' && row.shelf.id === 0) as ShelfNode;
    await model.children(favorites);
    books.offline = true;
    assert.equal(model.moveLocally(favorites, 'c', 0), true);
    assert.deepEqual(labels(await model.children(favorites)), ['Ulysses', 'Dune', 'Emma']);
    model.invalidateShelf(MY_LIBRARY, 0);
    assert.deepEqual(labels(await model.children(favorites)), ['Ulysses', 'Dune', 'Emma'], 'offline after a reload of the shelf');
    assert.equal(model.moveLocally(favorites, 'not-here', 0), false, 'a volume not loaded changes nothing');
  });

  it('an add and a remove kept offline show at once, in the shelf loaded and after a Refresh offline', async () => {
    const books = new SwitchableBooks();
    const ulysses = fakeVolume('c', 'Ulysses');
    books.addVolumes(fakeVolume('a', 'Dune'), fakeVolume('b', 'Emma'), ulysses);
    books.shelf(books.me, 0).volumeIds = ['a', 'b'];
    const model = new BooksTreeModel(() => books, { publicLibraries: () => [] });
    const favorites = (await model.children(model.library(MY_LIBRARY))).find((row): row is ShelfNode => row.kind === 'shelf' && row.shelf.id === 0) as ShelfNode;
    await model.children(favorites);
    books.offline = true;
    assert.equal(model.addLocally(favorites, ulysses), true);
    assert.equal(model.removeLocally(favorites, 'a'), true);
    assert.deepEqual(labels(await model.children(favorites)), ['Ulysses', 'Emma'], 'the latest added first, the removed one gone');
    model.invalidateShelf(MY_LIBRARY, 0);
    assert.deepEqual(labels(await model.children(favorites)), ['Ulysses', 'Emma'], 'offline after a reload of the shelf');
    assert.equal(model.addLocally(favorites, ulysses), false, 'a volume already shown is not shown twice');
    assert.equal(model.removeLocally(favorites, 'not-here'), false, 'a volume not loaded changes nothing');
  });
});
