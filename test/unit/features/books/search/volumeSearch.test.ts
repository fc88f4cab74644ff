import * as assert from 'node:assert/strict';
import { SearchState, VolumeSearch } from '../../../../../src/features/books/search/volumeSearch';
import { ManualTimers } from '../../../../support/manualTimers';
import { FakeBooks, fakeVolume } from '../../../../support/fakes/books';

describe('Books live search', () => {
  function setUp(pageSize = 2) {
    const books = new FakeBooks();
    books.addVolumes(
      fakeVolume('d1', 'Dune', { authors: ['Frank Herbert'] }),
      fakeVolume('d2', 'Dune Messiah', { authors: ['Frank Herbert'] }),
      fakeVolume('d3', 'Children of Dune', { authors: ['Frank Herbert'] }),
      fakeVolume('h', 'The Hobbit', { authors: ['J. R. R. Tolkien'] }),
    );
    const timers = new ManualTimers();
    const states: SearchState[] = [];
    const search = new VolumeSearch({ api: books, timers, pageSize, onDidChange: (state) => states.push(state) });
    return { books, timers, states, search };
  }

  it('waits for typing to pause (250 ms), then searches only the last text', async () => {
    const { books, timers, search } = setUp();
    search.setQuery('d');
    search.setQuery('du');
    search.setQuery('dune ');
    assert.deepEqual(timers.pending, [250], 'one timer, restarted by each keystroke');
    assert.equal(search.current.loading, true);
    assert.deepEqual(books.calls, []);
    timers.fire();
    await search.idle();
    assert.deepEqual(books.calls, ['searchVolumes dune 0']);
    assert.deepEqual(search.current.volumes.map((volume) => volume.id), ['d1', 'd2']);
    assert.equal(search.current.totalItems, 3);
    assert.equal(search.current.hasMore, true);
    assert.equal(search.current.loading, false);
  });

  it('aborts the request for older text and ignores its answer', async () => {
    const { books, timers, search } = setUp();
    let release: () => void = () => undefined;
    books.searchGate = new Promise((resolve) => { release = resolve; });
    search.setQuery('dune');
    timers.fire();
    const first = search.requests.at(0);
    assert.ok(first && !first.signal.aborted);
    search.setQuery('hobbit');
    assert.equal(first.signal.aborted, true, 'the old request was not cancelled');
    books.searchGate = undefined;
    timers.fire();
    release();
    await search.idle();
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.equal(search.current.query, 'hobbit');
    assert.deepEqual(search.current.volumes.map((volume) => volume.id), ['h']);
  });

  it('pages with startIndex ("More results…") and stops at totalItems', async () => {
    const { books, timers, search } = setUp();
    search.setQuery('inauthor:herbert');
    timers.fire();
    await search.idle();
    await search.loadMore();
    assert.deepEqual(search.current.volumes.map((volume) => volume.id), ['d1', 'd2', 'd3']);
    assert.equal(search.current.hasMore, false);
    await search.loadMore();
    assert.deepEqual(books.calls, ['searchVolumes inauthor:herbert 0', 'searchVolumes inauthor:herbert 2']);
  });

  it('empties at once for empty text, reports a failure, and retries with searchNow', async () => {
    const { books, timers, search } = setUp();
    search.setQuery('   ');
    assert.deepEqual(timers.pending, []);
    assert.equal(search.current.loading, false);
    const original = books.searchVolumes.bind(books);
    books.searchVolumes = async () => { throw new Error('offline'); };
    search.setQuery('dune');
    timers.fire();
    await search.idle();
    assert.match(String(search.current.error), /offline/);
    books.searchVolumes = original;
    await search.searchNow();
    assert.equal(search.current.error, undefined);
    assert.equal(search.current.volumes.length, 2);
  });
});
