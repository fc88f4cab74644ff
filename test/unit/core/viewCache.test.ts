import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { clearOnAccountChange, FirstRowsFromCache, ViewCache } from '../../../src/core/viewCache';

/** The view cache's contract: per account, bounded, and anything it cannot trust is dropped, not shown. */
describe('view cache (core/viewCache.ts)', () => {
  let directory: string;
  let account: string | undefined;
  const isRows = (data: unknown): data is string[] => Array.isArray(data) && data.every((row) => typeof row === 'string');
  const cache = (maxBytes?: number): ViewCache => new ViewCache({ directory, account: async () => account, maxBytes });

  beforeEach(async () => {
    directory = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'desk-view-cache-')), 'view-cache');
    account = 'alice@example.com';
  });

  it('gives back what a view wrote last, across instances (a window reload)', async () => {
    await cache().view('tasks', isRows).write(['a', 'b']);
    await cache().view('tasks', isRows).write(['c']);
    assert.deepEqual(await cache().view('tasks', isRows).read(), ['c']);
    assert.equal(await cache().view('drive', isRows).read(), undefined);
  });

  it('never shows one account the rows of another, and removes them', async () => {
    await cache().write('tasks', ['alice row']);
    account = 'bob@example.com';
    assert.equal(await cache().read('tasks', isRows), undefined);
    account = 'alice@example.com';
    assert.equal(await cache().read('tasks', isRows), undefined, 'the foreign file was removed');
  });

  it('reads and writes nothing when signed out, and clear() removes every file', async () => {
    const views = cache();
    await views.write('tasks', ['x']);
    await views.write('calendar', ['y']);
    await views.clear();
    assert.deepEqual(await fs.readdir(directory).catch(() => []), []);
    account = undefined;
    await views.write('tasks', ['z']);
    assert.deepEqual(await fs.readdir(directory).catch(() => []), []);
  });

  it('ignores and removes a corrupted file or one of the wrong shape, without throwing', async () => {
    await fs.mkdir(directory, { recursive: true });
    await fs.writeFile(path.join(directory, 'tasks.json'), '{"format":1,"account":"alice@exa');
    assert.equal(await cache().read('tasks', isRows), undefined);
    assert.deepEqual(await fs.readdir(directory), []);
    await fs.writeFile(path.join(directory, 'drive.json'), JSON.stringify({ format: 1, account: 'alice@example.com', data: [1, 2] }));
    assert.equal(await cache().read('drive', isRows), undefined);
    assert.deepEqual(await fs.readdir(directory), []);
  });

  it('keeps each file within its bound: a snapshot too large replaces the old one with nothing', async () => {
    const views = cache(1024);
    await views.write('tasks', ['small']);
    await views.write('tasks', ['x'.repeat(2000)]);
    assert.equal(await views.read('tasks', isRows), undefined);
    assert.deepEqual(await fs.readdir(directory), []);
  });

  it('empties the cache when another account signs in, keeps it across a check with the same account', async () => {
    const views = cache();
    const watch = clearOnAccountChange(views, async () => account);
    await views.write('tasks', ['alice row']);
    await watch.check();
    await watch.check();
    assert.deepEqual(await views.read('tasks', isRows), ['alice row']);
    account = 'bob@example.com';
    await watch.check();
    account = 'alice@example.com';
    assert.deepEqual(await fs.readdir(directory).catch(() => []), []);
  });

  it('stands the cached rows in at the first start only, until the fresh ones come, then asks for a redraw', async () => {
    await cache().write('tasks', ['cached']);
    let redraws = 0;
    const rows = new FirstRowsFromCache(cache().view('tasks', isRows), () => redraws++);
    let arrive: () => void = () => undefined;
    const fresh = new Promise<void>((resolve) => {
      arrive = resolve;
    });
    assert.deepEqual(await rows.firstStart(() => fresh), ['cached']);
    assert.equal(rows.refreshing, true);
    assert.deepEqual(rows.snapshot, ['cached']);
    assert.equal(await rows.firstStart(() => fresh), undefined, 'read once per session');
    arrive();
    await fresh;
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(rows.refreshing, false);
    assert.equal(redraws, 1);
  });

  it('shows nothing from the cache after a reset that came before the first start, and no snapshot without rows', async () => {
    await cache().write('tasks', ['cached']);
    const reset = new FirstRowsFromCache(cache().view('tasks', isRows), () => undefined);
    reset.reset();
    assert.equal(await reset.firstStart(async () => undefined), undefined);
    assert.equal(reset.refreshing, false);

    await cache().write('tasks', []);
    const empty = new FirstRowsFromCache(cache().view('tasks', isRows), () => undefined, { showsRows: (rows) => rows.length > 0 });
    assert.equal(await empty.firstStart(async () => undefined), undefined);
    assert.equal(empty.refreshing, false);
  });
});
