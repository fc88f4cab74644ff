import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { clearOnAccountChange, FirstRowsFromCache, ViewCache } from '../../../../src/core/storage/viewCache';

/** Several accounts signed in at once: each account's views keep their own first rows, and only while it is signed in. */
describe('view cache per account (core/storage/viewCache.ts)', () => {
  let directory: string;
  let signedIn: string[];
  let memory: readonly string[];
  const isRows = (data: unknown): data is string[] => Array.isArray(data) && data.every((row) => typeof row === 'string');
  /** A window's cache: the accounts signed in now, and those the last check remembered (a reload keeps them). */
  const cache = (): ViewCache => new ViewCache({ directory, accounts: async () => [...signedIn], remembered: () => memory, remember: (accounts) => { memory = accounts; } });
  const ALICE = 'alice@example.com';
  const BOB = 'bob@example.com';

  beforeEach(async () => {
    directory = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'desk-view-cache-accounts-')), 'view-cache');
    signedIn = [ALICE, BOB];
    memory = [];
  });

  it('keeps each signed-in account\'s rows apart, and shows both after a reload before the account check answers', async () => {
    const window = cache();
    await window.view('tasks', isRows, ALICE).write(['alice row']);
    await window.view('tasks', isRows, BOB).write(['bob row']);
    assert.deepEqual(await window.currentAccounts(), [ALICE, BOB]);
    assert.deepEqual(memory, [ALICE, BOB], 'the check remembers every account signed in, in order');

    // The reload: the check never answers, yet each account's tree gets its own rows at once.
    const reloaded = new ViewCache({ directory, accounts: () => new Promise(() => undefined), remembered: () => memory });
    reloaded.warm();
    assert.deepEqual((await reloaded.view('tasks', isRows, ALICE).readEarly?.())?.data, ['alice row']);
    assert.deepEqual((await reloaded.view('tasks', isRows, BOB).readEarly?.())?.data, ['bob row']);
    // The view shown alone (no account roots) is the first account's.
    assert.deepEqual((await reloaded.view('tasks', isRows).readEarly?.())?.data, ['alice row']);
  });

  it('shows nothing of an account while another is the only one signed in, and removes its files', async () => {
    await cache().view('tasks', isRows, ALICE).write(['alice row']);
    await cache().view('tasks', isRows, BOB).write(['bob row']);
    memory = [ALICE, BOB];
    signedIn = [BOB];
    const window = cache();
    const alice = await window.view('tasks', isRows, ALICE).readEarly?.();
    assert.equal(await alice?.confirmed, false, 'alice\'s rows, shown early as remembered, are dropped by the check');
    assert.equal(await window.view('tasks', isRows, ALICE).read(), undefined);
    assert.deepEqual(await window.view('tasks', isRows).read(), ['bob row'], 'the view shown alone is bob\'s now');
    await window.view('tasks', isRows, ALICE).write(['written while signed out']);
    assert.deepEqual(await fs.readdir(path.join(directory, encodeURIComponent(ALICE))).catch(() => []), [], 'alice\'s file is gone, nothing written for her');
  });

  it('removes only the files of the account that signed out; all at the last sign-out', async () => {
    const window = cache();
    const watch = clearOnAccountChange(window, async () => [...signedIn]);
    await window.view('drive', isRows, ALICE).write(['alice row']);
    await window.view('drive', isRows, BOB).write(['bob row']);
    await watch.check();
    signedIn = [ALICE];
    await watch.check();
    assert.deepEqual(await window.view('drive', isRows, ALICE).read(), ['alice row']);
    assert.deepEqual(await fs.readdir(directory), [encodeURIComponent(ALICE)]);
    signedIn = [];
    await watch.check();
    assert.deepEqual(await fs.readdir(directory).catch(() => []), []);
  });

  it('stands each account\'s rows in at the first start of its own tree', async () => {
    await cache().view('agenda', isRows, BOB).write(['bob event']);
    memory = [ALICE, BOB];
    let redraws = 0;
    const bobsTree = new FirstRowsFromCache(cache().view('agenda', isRows, BOB), () => redraws++);
    assert.equal(await bobsTree.startsFromCache(), true);
    assert.deepEqual(await bobsTree.firstStart(async () => undefined), ['bob event']);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(redraws, 1);
    const alicesTree = new FirstRowsFromCache(cache().view('agenda', isRows, ALICE), () => undefined);
    assert.equal(await alicesTree.firstStart(async () => undefined), undefined, 'bob\'s rows never stand in for alice\'s');
  });
});
