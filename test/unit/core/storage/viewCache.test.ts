import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { clearOnAccountChange, FirstRowsFromCache, ViewCache } from '../../../../src/core/storage/viewCache';

/** The view cache's contract: per account, bounded, and anything it cannot trust is dropped, not shown. */
describe('view cache (core/storage/viewCache.ts)', () => {
  let directory: string;
  let account: string | undefined;
  const isRows = (data: unknown): data is string[] => Array.isArray(data) && data.every((row) => typeof row === 'string');
  const cache = (maxBytes?: number): ViewCache => new ViewCache({ directory, accounts: async () => (account ? [account] : []), maxBytes });
  /** Where a view's file of an account lives: one folder per account. */
  const folderOf = (owner = 'alice@example.com'): string => path.join(directory, encodeURIComponent(owner));

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
    const bobsWindow = cache();
    assert.equal(await bobsWindow.read('tasks', isRows), undefined);
    // The window's first account check removes the files of accounts not signed in.
    await clearOnAccountChange(bobsWindow, async () => (account ? [account] : [])).check();
    account = 'alice@example.com';
    assert.equal(await cache().read('tasks', isRows), undefined, 'the foreign file was removed');
  });

  it('reads and writes nothing when signed out, and clear() removes every file', async () => {
    const views = cache();
    await views.write('tasks', ['x']);
    await views.write('calendar', ['y']);
    await views.clear();
    assert.deepEqual(await fs.readdir(directory).catch(() => []), []);
    await views.write('tasks', ['x']);
    await views.clear('alice@example.com');
    assert.deepEqual(await fs.readdir(directory).catch(() => []), [], 'clear(account) removes that account\'s folder');
    account = undefined;
    await views.write('tasks', ['z']);
    assert.deepEqual(await fs.readdir(directory).catch(() => []), []);
  });

  it('ignores and removes a corrupted file or one of the wrong shape, without throwing', async () => {
    await fs.mkdir(folderOf(), { recursive: true });
    await fs.writeFile(path.join(folderOf(), 'tasks.json'), '{"format":1,"account":"alice@exa');
    assert.equal(await cache().read('tasks', isRows), undefined);
    assert.deepEqual(await fs.readdir(folderOf()), []);
    await fs.writeFile(path.join(folderOf(), 'drive.json'), JSON.stringify({ format: 1, account: 'alice@example.com', data: [1, 2] }));
    assert.equal(await cache().read('drive', isRows), undefined);
    assert.deepEqual(await fs.readdir(folderOf()), []);
  });

  it('keeps each file within its bound: a snapshot too large replaces the old one with nothing', async () => {
    const views = cache(1024);
    await views.write('tasks', ['small']);
    await views.write('tasks', ['x'.repeat(2000)]);
    assert.equal(await views.read('tasks', isRows), undefined);
    assert.deepEqual(await fs.readdir(folderOf()), []);
  });

  it('empties the cache when another account signs in, keeps it across a check with the same account', async () => {
    const views = cache();
    const watch = clearOnAccountChange(views, async () => (account ? [account] : []));
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

  /** A cache whose account check is held until `answer(account)`, with the account remembered from the last check. */
  function heldCheck(remembered: string | undefined): { cache: ViewCache; answer(account: string | undefined): void; remembered(): string | undefined } {
    let answer: (accounts: readonly string[]) => void = () => undefined;
    const check = new Promise<readonly string[]>((resolve) => {
      answer = resolve;
    });
    let memory: readonly string[] = remembered ? [remembered] : [];
    const held = new ViewCache({ directory, accounts: () => check, remembered: () => memory, remember: (value) => { memory = value; } });
    return { cache: held, answer: (value) => { answer(value ? [value] : []); }, remembered: () => memory[0] };
  }

  it('gives the remembered account\'s rows before the account check answers, then confirms them', async () => {
    await cache().write('tasks', ['cached']);
    const held = heldCheck('alice@example.com');
    const early = await held.cache.view('tasks', isRows).readEarly?.();
    assert.deepEqual(early?.data, ['cached'], 'shown while the check is still out');
    held.answer('alice@example.com');
    assert.equal(await early.confirmed, true);
    assert.deepEqual(await fs.readdir(folderOf()), ['tasks.json']);
  });

  it('drops rows shown for the remembered account when the check answers another one, removes the file and remembers the new account', async () => {
    await cache().write('tasks', ['alice row']);
    const held = heldCheck('alice@example.com');
    let redraws = 0;
    const rows = new FirstRowsFromCache(held.cache.view('tasks', isRows), () => redraws++);
    assert.equal(await rows.startsFromCache(), true);
    assert.deepEqual(await rows.firstStart(() => new Promise(() => undefined)), ['alice row']);
    held.answer('bob@example.com');
    await eventually(() => redraws === 1);
    assert.equal(rows.refreshing, false, 'the fresh rows (still loading) replace nothing: the view loads bob\'s');
    assert.equal(rows.snapshot, undefined);
    assert.equal(held.remembered(), 'bob@example.com');
    await eventually(async () => (await fs.readdir(folderOf())).length === 0);
  });

  it('drops rows shown for the remembered account when the check finds no one signed in (and forgets the account)', async () => {
    await cache().write('tasks', ['alice row']);
    const held = heldCheck('alice@example.com');
    let redraws = 0;
    const rows = new FirstRowsFromCache(held.cache.view('tasks', isRows), () => redraws++);
    assert.deepEqual(await rows.firstStart(() => new Promise(() => undefined)), ['alice row']);
    held.answer(undefined);
    await eventually(() => redraws === 1);
    assert.equal(rows.refreshing, false);
    assert.equal(held.remembered(), undefined);
  });

  it('reads the slot ahead when the feature loads (prefetch), once: the first start finds it read; nothing after a reset', async () => {
    let reads = 0;
    const store = { read: async () => { reads++; return ['cached']; }, write: async () => undefined };
    const rows = new FirstRowsFromCache<string[]>(store, () => undefined);
    rows.prefetch();
    assert.equal(reads, 1);
    rows.prefetch();
    assert.deepEqual(await rows.firstStart(() => new Promise(() => undefined)), ['cached']);
    assert.equal(reads, 1, 'the view\'s first ask used the read made ahead');

    const reset = new FirstRowsFromCache<string[]>(store, () => undefined);
    reset.reset();
    reset.prefetch();
    assert.equal(reads, 1);
  });

  it('asks for a redraw of the whole view when the rows shown are dropped (a view whose refresh redraws one node)', async () => {
    await cache().write('drive', ['alice row']);
    const held = heldCheck('alice@example.com');
    let refreshed = 0;
    let dropped = 0;
    const rows = new FirstRowsFromCache(held.cache.view('drive', isRows), () => refreshed++, { onDropped: () => dropped++ });
    assert.deepEqual(await rows.firstStart(() => new Promise(() => undefined)), ['alice row']);
    held.answer(undefined);
    await eventually(() => dropped === 1);
    assert.equal(refreshed, 0);
    assert.equal(rows.refreshing, false);
  });

  it('waits for the account check when no account is remembered: nothing of another account shows', async () => {
    await cache().write('tasks', ['alice row']);
    const held = heldCheck(undefined);
    let settled = false;
    const reading = held.cache.view('tasks', isRows).readEarly?.().then((early) => {
      settled = true;
      return early;
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled, false, 'a file of alice waits for the check while no one is remembered');
    held.answer('alice@example.com');
    const early = await reading;
    assert.deepEqual(early?.data, ['alice row']);
    assert.equal(await early.confirmed, true);
    assert.equal(held.remembered(), 'alice@example.com');
  });

  it('reads the files warmed at activation once, and a clear in between shows nothing', async () => {
    await cache().write('tasks', ['cached']);
    const held = heldCheck('alice@example.com');
    held.cache.warm();
    await held.cache.clear();
    assert.equal(await held.cache.view('tasks', isRows).readEarly?.(), undefined);
    const other = heldCheck('alice@example.com');
    await cache().write('tasks', ['again']);
    other.cache.warm();
    assert.deepEqual((await other.cache.view('tasks', isRows).readEarly?.())?.data, ['again']);
  });
});

/** Waits (on state, polled each turn of the event loop) until `condition` holds. */
/** Waits for a state reached through file I/O (the thread pool), which a loaded machine can hold for long: polled until the test's own timeout. */
async function eventually(condition: () => boolean | Promise<boolean>): Promise<void> {
  for (;;) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
