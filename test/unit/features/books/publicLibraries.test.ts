import * as assert from 'node:assert/strict';
import { parseDetailsPath, shelfDetailsPath, volumeDetailsPath } from '../../../../src/features/books/details';
import { booksUserIdIn, isBooksUserId, PublicLibraries } from '../../../../src/features/books/publicLibraries';
import { MapMemento } from '../../../support/memento';

describe('Books public libraries and details paths', () => {
  it('remembers public libraries per backend and account', async () => {
    const memento = new MapMemento();
    const libraries = new PublicLibraries(memento);
    libraries.use('emulator', 'alice-id');
    assert.equal(await libraries.add('42'), true);
    assert.equal(await libraries.add('42'), false);
    await libraries.add('7');
    assert.deepEqual(libraries.list(), ['42', '7']);
    assert.equal(libraries.account, 'alice-id');
    libraries.use('emulator', 'bob-id');
    assert.deepEqual(libraries.list(), []);
    libraries.use('google', 'alice-id');
    assert.deepEqual(libraries.list(), []);
    libraries.use('emulator', 'alice-id');
    assert.deepEqual(libraries.list(), ['42', '7']);
    assert.equal(await libraries.remove('42'), true);
    assert.deepEqual(memento.get('desk.books.publicLibraries/emulator|alice-id'), ['7']);
    libraries.use('emulator', undefined);
    assert.deepEqual(libraries.list(), []);
    await assert.rejects(libraries.add('1'), /Sign in/);
  });

  it('accepts only numeric user ids, also from a damaged store', () => {
    assert.equal(isBooksUserId(' 100000000000000000002 '), true);
    assert.equal(isBooksUserId('bob@example.com'), false);
    const memento = new MapMemento();
    memento.values.set('desk.books.publicLibraries/emulator|a', ['1', 2, '../x']);
    const libraries = new PublicLibraries(memento);
    libraries.use('emulator', 'a');
    assert.deepEqual(libraries.list(), ['1']);
  });

  it('takes the user id out of a library\'s web address, as the prompt shows it, and nothing else', () => {
    assert.equal(booksUserIdIn(' 100000000000000000002 '), '100000000000000000002');
    assert.equal(booksUserIdIn('https://books.google.com/books?uid=100000000000000000002'), '100000000000000000002');
    assert.equal(booksUserIdIn('books.google.co.uk/books?uid=42&hl=en'), '42');
    assert.equal(booksUserIdIn('https://example.com/books?uid=42'), undefined, 'another site');
    assert.equal(booksUserIdIn('https://books.google.com/books?id=abc'), undefined, 'a book, not a library');
    assert.equal(booksUserIdIn('😀'), undefined);
    assert.equal(booksUserIdIn(''), undefined);
  });

  it('puts ids in the details path and a readable title at its end', () => {
    const volumePath = volumeDetailsPath('a/b?c', 'Dune: Part One?');
    assert.match(volumePath, /\/Dune Part One\.md$/);
    assert.deepEqual(parseDetailsPath(volumePath), { kind: 'volume', volumeId: 'a/b?c' });
    assert.deepEqual(parseDetailsPath(shelfDetailsPath('42', 1001, 'Book club')), { kind: 'shelf', owner: '42', shelfId: 1001 });
    assert.equal(parseDetailsPath('/shelves/42/x/y.md'), undefined);
  });
});
