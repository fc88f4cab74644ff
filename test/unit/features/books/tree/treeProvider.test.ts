import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { NotSignedInError } from '../../../../../src/core/accounts/session';
import type { Bookshelf } from '../../../../../src/shared/schemas/books';
import { BooksNode, BooksTreeModel, MY_LIBRARY } from '../../../../../src/features/books/tree/model';
import { BooksTreeProvider } from '../../../../../src/features/books/tree/treeProvider';
import { FakeBooks, fakeVolume } from '../../../../support/fakes/books';
import { fakeVscode } from '../../../../support/fakeVscode';
import { labelText, tooltipText } from '../../../../support/treeItemText';

describe('Books tree provider', () => {
  function setUp(options: { signedIn?: boolean; publicLibraries?: string[] } = {}) {
    const books = new FakeBooks();
    books.addVolumes(fakeVolume('v1', 'Dune', { authors: ['Frank Herbert'], publishedDate: '1965', pageCount: 412, description: '<b>Spice</b>' }));
    books.shelf(books.me, 2).volumeIds = ['v1'];
    const model = new BooksTreeModel(() => books, { publicLibraries: () => options.publicLibraries ?? [] });
    const logs: string[] = [];
    const provider = new BooksTreeProvider(fakeVscode(), { model: () => model, isSignedIn: async () => options.signedIn ?? true, log: (line) => logs.push(line), myUserId: () => 'me-id' });
    return { books, model, provider, logs };
  }

  const item = (provider: BooksTreeProvider, node: BooksNode): vscode.TreeItem => provider.getTreeItem(node);

  it('shows nothing while signed out (the welcome view takes over) and My Library expanded when signed in', async () => {
    assert.deepEqual(await setUp({ signedIn: false }).provider.getChildren(), []);
    const { provider } = setUp({ publicLibraries: ['42'] });
    const roots = await provider.getChildren();
    assert.deepEqual(roots.map((root) => item(provider, root).label), ['My Library', 'User 42']);
    assert.equal(item(provider, roots[0]).collapsibleState, 2);
    assert.equal(item(provider, roots[1]).description, 'public shelves');
    assert.match(tooltipText(provider.resolveTreeItem(item(provider, roots[0]), roots[0]).tooltip), /me-id/);
  });

  it('renders shelves and volumes with ids, icons, context values, a click command and a lazy hover', async () => {
    const { model, provider } = setUp();
    const shelves = await provider.getChildren(model.library(MY_LIBRARY));
    const purchased = shelves.find((node) => node.id === 'shelf/me/1') as BooksNode;
    assert.equal((item(provider, purchased).iconPath as { id: string }).id, 'lock');
    const toRead = shelves.find((node) => node.id === 'shelf/me/2') as BooksNode;
    assert.equal(item(provider, toRead).description, '1 volume · public');
    const [dune] = await provider.getChildren(toRead);
    assert.ok(dune);
    const rendered = item(provider, dune);
    assert.equal(rendered.id, 'volume/me/2/v1');
    assert.equal(rendered.description, 'Frank Herbert · 1965 · 412 pages');
    assert.equal(rendered.contextValue, 'volume mine writable');
    assert.equal(rendered.command?.command, 'desk.books.openVolume');
    assert.equal(rendered.tooltip, undefined, 'the hover is built before it is needed');
    assert.match((provider.resolveTreeItem(rendered, dune).tooltip as { value: string }).value, /Spice/);
    assert.equal(provider.getParent(dune), toRead);
  });

  it('redraws My Library\'s row once its shelves came from the cache, so it says "refreshing…" (it was drawn before the cache was read)', async () => {
    const books = new FakeBooks();
    let saved: Bookshelf[] | undefined;
    const store = { read: async () => saved, write: async (value: Bookshelf[]) => { saved = value; } };
    // The network of a reload that has not answered yet: every call waits for the gate.
    let openGate: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => { openGate = resolve; });
    const held = new Proxy(books, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? async (...args: unknown[]) => { await gate; return (value as (...a: unknown[]) => unknown).apply(target, args); } : value;
      },
    });
    const start = (api: FakeBooks = books) => {
      const model = new BooksTreeModel(() => api, { publicLibraries: () => [], cache: store });
      const provider = new BooksTreeProvider(fakeVscode(), { model: () => model, isSignedIn: async () => true, log: () => undefined, myUserId: () => 'me-id' });
      const redrawn: (BooksNode | undefined)[] = [];
      provider.onDidChangeTreeData((node) => redrawn.push(node));
      return { model, provider, redrawn };
    };
    const first = start();
    await first.provider.getChildren(first.model.library(MY_LIBRARY));
    assert.ok(saved, 'the first start keeps its shelves');
    assert.deepEqual(first.redrawn, [], 'nothing came from the cache');
    // The next start (a window reload): My Library's row is drawn, then its shelves come from the cache.
    const reloaded = start(held);
    const library = reloaded.model.library(MY_LIBRARY);
    assert.equal(item(reloaded.provider, library).description, undefined);
    await reloaded.provider.getChildren(library);
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.deepEqual(reloaded.redrawn, [library]);
    assert.equal(item(reloaded.provider, library).description, 'refreshing…');
    openGate();
  });

  it('turns a failed load into an error row that retries, and a sign-out into no rows', async () => {
    const { books, model, provider, logs } = setUp({ publicLibraries: ['404'] });
    const rows = await provider.getChildren(model.library('404'));
    assert.equal(rows.length, 1);
    const error = item(provider, rows[0]);
    assert.match(labelText(error.label), /^Could not load: .*user ID could not be found/);
    assert.equal(error.command?.command, 'desk.books.refresh');
    assert.equal(logs.length, 1);
    books.listMyBookshelves = async () => { throw new NotSignedInError(); };
    assert.deepEqual(await provider.getChildren(model.library(MY_LIBRARY)), []);
  });
});
