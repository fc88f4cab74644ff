// The Bookshelves view, the live search and every Books command inside a real extension host, against the harness's
// emulator (demo data: alice's shelves, bob's public ones): read the tree, drive the search quick pick, change shelves
// with the commands and drag and drop, and check on the emulator over HTTP that each change happened.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import type { SearchPickItem, VolumeSearchPicker } from '../../src/features/books/search/searchPicker';
import type { BooksNode, LibraryNode, ShelfNode, VolumeNode } from '../../src/features/books/tree/model';
import { activateAndSignIn, emulatorRequest, labelText, WindowStubs, eventually, FIRST_ACTION, detailsTab } from './support';

interface ApiVolume { id: string; volumeInfo: { title?: string } }
interface ApiShelf { id: number; title: string; volumeCount?: number }

const BOB = '100000000000000000002';

async function shelfTitles(shelfId: number): Promise<string[]> {
  const answer = await emulatorRequest<{ items?: ApiVolume[] }>('GET', `/books/v1/mylibrary/bookshelves/${shelfId}/volumes?maxResults=100`);
  assert.equal(answer.status, 200);
  return (answer.body.items ?? []).map((volume) => volume.volumeInfo.title ?? '');
}

const stubs = new WindowStubs();

describe('Bookshelves view in VS Code', function () {
  this.timeout(30000);
  let api: DeskApi;

  const tree = () => api.books.tree;
  const label = (node: BooksNode): string => labelText(tree().getTreeItem(node));

  async function library(owner = 'me'): Promise<LibraryNode> {
    const roots = await tree().getChildren();
    const node = roots.find((root) => root.kind === 'library' && root.owner === owner);
    assert.ok(node && node.kind === 'library', `no library ${owner} among ${roots.map(label).join(', ')}`);
    return node;
  }

  async function shelf(title: string, owner = 'me'): Promise<ShelfNode> {
    const rows = await tree().getChildren(await library(owner));
    const node = rows.find((row) => row.kind === 'shelf' && label(row) === title);
    assert.ok(node && node.kind === 'shelf', `no shelf "${title}" among ${rows.map(label).join(', ')}`);
    return node;
  }

  async function volume(shelfTitle: string, title: string, owner = 'me'): Promise<VolumeNode> {
    const rows = await tree().getChildren(await shelf(shelfTitle, owner));
    const node = rows.find((row) => row.kind === 'volume' && label(row) === title);
    assert.ok(node && node.kind === 'volume', `no volume "${title}" among ${rows.map(label).join(', ')}`);
    return node;
  }

  /** Starts "Find Books…" and answers with its picker once it is open. */
  async function openSearch(node?: BooksNode): Promise<{ picker: VolumeSearchPicker; result: Thenable<unknown> }> {
    api.books.commands.search.current?.dispose();
    const result = vscode.commands.executeCommand('desk.books.search', node);
    const picker = await eventually('the search quick pick', () => api.books.commands.search.current, 10000);
    return { picker, result };
  }

  async function typeAndWait(picker: VolumeSearchPicker, text: string): Promise<SearchPickItem[]> {
    picker.type(text);
    await picker.session.idle();
    return picker.quickPick.items.slice();
  }

  before(async () => {
    api = await activateAndSignIn();
    await api.books.reload();
  });

  afterEach(() => {
    stubs.restore();
  });

  it('contributes the Bookshelves view after Drive, with its commands and welcome content', () => {
    const manifest = vscode.extensions.getExtension('desk-dev.desk')?.packageJSON as { contributes: { views: { desk: Array<{ id: string }> }; viewsWelcome: Array<{ view: string; contents: string }>; commands: Array<{ command: string; category?: string }> } };
    const views = manifest.contributes.views.desk.map((view) => view.id);
    assert.equal(views.indexOf('desk.books'), views.indexOf('desk.drive') + 1);
    const welcome = manifest.contributes.viewsWelcome.find((entry) => entry.view === 'desk.books');
    assert.match(welcome?.contents ?? '', /command:desk\.useEmulator[\s\S]*command:desk\.useGoogle/);
    const books = manifest.contributes.commands.filter((command) => command.command.startsWith('desk.books.'));
    // Each service's commands carry their service as the palette category ("Desk Books: Find Books…").
    assert.ok(books.length >= 12 && books.every((command) => command.category === 'Desk Books'), books.map((command) => command.category).join(', '));
  });

  it('shows My Library\'s shelves with volume count and access, read-only ones marked, and volumes with authors, year and pages', async () => {
    tree().refreshAll();
    const rows = await tree().getChildren(await library());
    const titles = rows.map(label);
    for (const expected of ['Favorites', 'Purchased', 'To read', 'Reading now', 'Have read', 'Recently viewed', 'My eBooks', 'Book club']) assert.ok(titles.includes(expected), `missing ${expected} in ${titles.join(', ')}`);
    const toRead = await shelf('To read');
    assert.equal(tree().getTreeItem(toRead).description, '3 volumes · public');
    assert.equal(tree().getTreeItem(toRead).contextValue, 'bookshelf mine writable nonEmpty');
    const purchased = await shelf('Purchased');
    assert.equal(tree().getTreeItem(purchased).description, '1 volume · private');
    assert.match(String(tree().getTreeItem(purchased).contextValue), /\breadonly\b/);
    assert.match(String(tree().getTreeItem(purchased).accessibilityInformation?.label), /read-only/);
    const purchasedHover = tree().resolveTreeItem(tree().getTreeItem(purchased), purchased).tooltip;
    assert.ok(purchasedHover instanceof vscode.MarkdownString && /Read\\-only/.test(purchasedHover.value));

    assert.deepEqual((await tree().getChildren(toRead)).map(label), ['Dune', 'The Left Hand of Darkness', 'Middlemarch']);
    const dune = await volume('To read', 'Dune');
    assert.match(String(tree().getTreeItem(dune).description), /^Frank Herbert · 1965( · \d+ pages)?$/);
    assert.equal(tree().getParent(dune)?.id, toRead.id);
    const tooltip = tree().resolveTreeItem(tree().getTreeItem(dune), dune).tooltip;
    assert.ok(tooltip instanceof vscode.MarkdownString && /Frank Herbert/.test(tooltip.value) && /Arrakis|desert|spice/i.test(tooltip.value), 'the hover lacks the details');
  });

  it('pages a shelf behind a "Load more…" row', async () => {
    const model = api.books.model();
    const saved = model.pageSize;
    model.pageSize = 2;
    try {
      tree().refreshAll();
      const toRead = await shelf('To read');
      const rows = await tree().getChildren(toRead);
      assert.deepEqual(rows.map(label), ['Dune', 'The Left Hand of Darkness', 'Load more…']);
      assert.equal(await vscode.commands.executeCommand('desk.books.loadMore', rows[2]), true);
      assert.deepEqual((await tree().getChildren(toRead)).map(label), ['Dune', 'The Left Hand of Darkness', 'Middlemarch']);
    } finally {
      model.pageSize = saved;
      tree().refreshAll();
    }
  });

  it('searches as the user types, cancelling the request for older text, and pages with "More results…"', async () => {
    const { picker, result } = await openSearch();
    assert.match(picker.quickPick.placeholder ?? '', /intitle:.*inauthor:.*subject:.*isbn:/);
    picker.type('tolk');
    picker.type('zzzz');
    const items = await typeAndWait(picker, 'inauthor:tolkien');
    const sent = picker.session.requests.map((request) => request.q);
    assert.ok(!sent.includes('tolk') && !sent.includes('zzzz'), `typing that was replaced was searched: ${sent.join(', ')}`);
    assert.ok(items.some((item) => item.label === 'The Hobbit'), `results: ${items.map((item) => item.label).join(', ')}`);
    assert.ok(items.every((item) => item.alwaysShow), 'the quick pick could hide results the service found');

    // A request still under way when the text changes is aborted. Enter sends it at once (searchNow), and the
    // text changes before it can be answered: waiting to see it sent could find it already answered.
    picker.type('dune');
    void picker.session.searchNow();
    assert.ok(picker.session.requests.some((request) => request.q === 'dune'), 'Enter did not send the search');
    picker.type('frankenstein');
    assert.equal(picker.session.requests.find((request) => request.q === 'dune')?.signal.aborted, true);
    await picker.session.idle();

    const many = await typeAndWait(picker, 'the');
    const more = many.find((item) => item.role === 'more');
    assert.ok(more, 'no "More results…" row for a broad search');
    const before = picker.session.current.volumes.length;
    picker.accept(more);
    await picker.session.idle();
    assert.ok(picker.session.current.volumes.length > before, 'More results did not page');
    assert.ok(picker.session.requests.some((request) => request.startIndex === before));
    picker.quickPick.hide();
    assert.equal(await result, undefined);
  });

  it('adds a search result to a shelf through the result\'s "Add to Shelf…" button (only writable shelves offered)', async () => {
    const offered = stubs.pickByLabel(/^Favorites$/);
    const { picker, result } = await openSearch();
    const items = await typeAndWait(picker, 'intitle:dune');
    const dune = items.find((item) => item.label === 'Dune');
    assert.ok(dune?.volume);
    picker.trigger(dune, 'add');
    const outcome = await result as { action: string; added?: { shelfId: number; volumeId: string } };
    assert.equal(outcome.action, 'add');
    assert.deepEqual(outcome.added, { shelfId: 0, volumeId: dune.volume.id });
    assert.ok(offered[0] && !offered[0].includes('Purchased') && !offered[0].includes('Recently viewed'), `offered: ${offered[0]?.join(', ')}`);
    assert.equal((await shelfTitles(0))[0], 'Dune');
    assert.ok((await tree().getChildren(await shelf('Favorites'))).map(label).includes('Dune'));
  });

  it('opens a search result\'s details (volumes.get) as a read-only markdown document', async () => {
    stubs.pickByLabel(/Open Details/);
    const { picker, result } = await openSearch();
    const items = await typeAndWait(picker, 'frankenstein');
    const frankenstein = items.find((item) => item.label === 'Frankenstein');
    assert.ok(frankenstein);
    picker.accept(frankenstein);
    const outcome = await result as { action: string };
    assert.equal(outcome.action, 'details');
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.scheme === 'desk-book' && candidate.uri.path.includes(frankenstein.volume?.id ?? '?'));
    assert.ok(document, 'the details document is not open');
    assert.match(document.getText(), /^# Frankenstein/);
    assert.match(document.getText(), /## Identifiers[\s\S]*## Description/);
  });

  it('opens a volume\'s details from its row, with publisher, date, categories and a link', async () => {
    const dune = await volume('To read', 'Dune');
    const uri = await vscode.commands.executeCommand<vscode.Uri>('desk.books.openVolume', dune);
    assert.equal(uri.scheme, 'desk-book');
    assert.match(uri.path, /\/Dune\.md$/);
    const tabs = await detailsTab('Dune');
    assert.deepEqual(tabs.filter((tab) => tab.label === 'Dune').map((tab) => tab.input instanceof vscode.TabInputWebview), [true], `one tab named after the book: ${tabs.map((tab) => tab.label).join(', ')}`);
    assert.ok(!tabs.some((tab) => tab.label === 'Preview Dune.md' || tab.label === 'Dune.md'));
    const text = (await vscode.workspace.openTextDocument(uri)).getText();
    for (const expected of [/^# Dune/, /\| Publisher \| .+ \|/, /\| Published \| 1965/, /\| Categories \|/, /\[More about this book\]\(http/]) assert.match(text, expected);
  });

  it('moves a volume within a shelf to the position the user types', async () => {
    const dune = await volume('To read', 'Dune');
    const prompts: vscode.InputBoxOptions[] = [];
    stubs.stub('showInputBox', async (options) => {
      prompts.push(options as vscode.InputBoxOptions);
      return '3';
    });
    assert.equal(await vscode.commands.executeCommand('desk.books.moveVolume', dune), 2);
    assert.deepEqual(await shelfTitles(2), ['The Left Hand of Darkness', 'Middlemarch', 'Dune']);
    const box = prompts.at(0);
    assert.ok(typeof box?.validateInput === 'function');
    assert.ok(await box.validateInput('4'), 'a position past the end is accepted');
    assert.ok(await box.validateInput('x'));
    assert.equal(await box.validateInput('1'), undefined);
    assert.deepEqual((await tree().getChildren(await shelf('To read'))).map(label), ['The Left Hand of Darkness', 'Middlemarch', 'Dune']);
  });

  it('reorders by drag and drop within a shelf (moveVolume), and ignores drops on read-only shelves', async () => {
    const dune = await volume('To read', 'Dune');
    const leftHand = await volume('To read', 'The Left Hand of Darkness');
    let transfer = new vscode.DataTransfer();
    api.books.dragAndDrop.handleDrag([dune], transfer);
    await api.books.dragAndDrop.handleDrop(leftHand, transfer);
    assert.deepEqual(await shelfTitles(2), ['Dune', 'The Left Hand of Darkness', 'Middlemarch']);

    const middlemarch = await volume('To read', 'Middlemarch');
    transfer = new vscode.DataTransfer();
    api.books.dragAndDrop.handleDrag([middlemarch], transfer);
    await api.books.dragAndDrop.handleDrop(await shelf('To read'), transfer);
    assert.deepEqual(await shelfTitles(2), ['Middlemarch', 'Dune', 'The Left Hand of Darkness']);

    const purchasedVolume = (await tree().getChildren(await shelf('Purchased'))).at(0);
    assert.ok(purchasedVolume?.kind === 'volume');
    transfer = new vscode.DataTransfer();
    api.books.dragAndDrop.handleDrag([purchasedVolume], transfer);
    assert.equal(transfer.get('application/vnd.code.tree.desk.books'), undefined, 'a read-only shelf\'s volume could be dragged');
  });

  it('adds a volume from one shelf to another with "Add to Shelf…", skipping the shelf it is on', async () => {
    const offered = stubs.pickByLabel(/^Reading now$/);
    const middlemarch = await volume('To read', 'Middlemarch');
    const added = await vscode.commands.executeCommand<{ shelfId: number } | undefined>('desk.books.addToShelf', middlemarch);
    assert.equal(added?.shelfId, 3);
    assert.ok(!offered[0]?.includes('To read'));
    assert.equal((await shelfTitles(3))[0], 'Middlemarch');
  });

  it('says a book is already on the shelf it is added to, and does not report it added', async () => {
    // Google answers addVolume for a book already on the shelf as a success that changes nothing.
    const infos = stubs.collect('showInformationMessage');
    const dune = (await volume('To read', 'Dune')).volume;
    stubs.pickByLabel(/^To read$/);
    const { picker, result } = await openSearch();
    const found = (await typeAndWait(picker, 'intitle:dune')).find((item) => item.volume?.id === dune.id);
    assert.ok(found);
    picker.trigger(found, 'add');
    const outcome = await result as { added?: { shelfId: number; volumeId: string; alreadyOnShelf?: boolean } };
    assert.deepEqual(outcome.added, { shelfId: 2, volumeId: dune.id, alreadyOnShelf: true });
    assert.deepEqual(infos, ['"Dune" is already on "To read".']);
    assert.equal((await shelfTitles(2)).filter((title) => title === 'Dune').length, 1);
  });

  it('removes a volume only after confirmation', async () => {
    const middlemarch = await volume('Reading now', 'Middlemarch');
    stubs.confirmWith(undefined);
    assert.equal(await vscode.commands.executeCommand('desk.books.removeVolume', middlemarch), false);
    assert.ok((await shelfTitles(3)).includes('Middlemarch'));
    stubs.restore();
    const messages = stubs.confirmWith(FIRST_ACTION);
    assert.equal(await vscode.commands.executeCommand('desk.books.removeVolume', middlemarch), true);
    assert.match(messages[0] ?? '', /Remove "Middlemarch" from "Reading now"\?/);
    assert.ok(!(await shelfTitles(3)).includes('Middlemarch'));
    assert.ok(!(await tree().getChildren(await shelf('Reading now'))).map(label).includes('Middlemarch'));
  });

  it('clears a shelf after a modal confirmation; a read-only shelf offers no clearing', async () => {
    const haveRead = await shelf('Have read');
    const messages = stubs.confirmWith(FIRST_ACTION);
    assert.equal(await vscode.commands.executeCommand('desk.books.clearShelf', haveRead), true);
    assert.match(messages[0] ?? '', /Remove all 3 volumes from "Have read"\?/);
    assert.deepEqual(await shelfTitles(4), []);
    assert.equal(tree().getTreeItem(await shelf('Have read')).description, '0 volumes · public');
    assert.equal(await vscode.commands.executeCommand('desk.books.clearShelf', await shelf('Purchased')), false);
    assert.equal((await shelfTitles(1)).length, 1, 'the read-only shelf changed');
  });

  it('reports a refused change clearly through the wrapper (Google\'s shelves cannot be changed)', async () => {
    const errors = stubs.collect('showErrorMessage');
    // From the palette the picker offers writable shelves only; a stale row of a read-only shelf still gets a clear answer.
    const purchased = await shelf('Purchased');
    const forged = { ...purchased, writable: true };
    const dune = (await tree().getChildren(await shelf('To read'))).find((row) => row.kind === 'volume' && label(row) === 'Dune');
    assert.ok(dune?.kind === 'volume');
    stubs.pickByLabel();
    const added = await api.books.commands.volumes.addToShelf(forged, dune.volume);
    assert.equal(added, undefined);
    assert.match(errors[0] ?? '', /Could not add "Dune" to "Purchased".*Not allowed/s);
  });

  it('shows the details of one of my shelves (mylibrary.bookshelves.get)', async () => {
    const uri = await vscode.commands.executeCommand<vscode.Uri>('desk.books.shelfDetails', await shelf('Book club'));
    const text = (await vscode.workspace.openTextDocument(uri)).getText();
    assert.match(text, /^# Book club/);
    assert.match(text, /book club reads next/);
    assert.match(text, /\| Access \| public \|/);
  });

  it('adds another user\'s public library by user id, remembers it for the account, and shows only public shelves', async () => {
    stubs.stub('showInputBox', async () => BOB);
    assert.equal(await vscode.commands.executeCommand('desk.books.addPublicLibrary'), BOB);
    assert.ok(api.books.libraries.list().includes(BOB));
    const key = `desk.books.publicLibraries/emulator|${api.books.libraries.account ?? ''}`;
    assert.ok(api.books.libraries.account, 'no account for the remembered libraries');
    const bobs = await library(BOB);
    assert.equal(tree().getTreeItem(bobs).contextValue, 'booksLibrary public');
    const titles = (await tree().getChildren(bobs)).map(label);
    const onEmulator = await emulatorRequest<{ items?: ApiShelf[] }>('GET', `/books/v1/users/${BOB}/bookshelves`);
    assert.deepEqual(titles, (onEmulator.body.items ?? []).map((item) => item.title));
    assert.ok(!titles.includes('Gift ideas'), 'a private shelf of bob is listed');
    const toRead = await shelf('To read', BOB);
    assert.equal(tree().getTreeItem(toRead).contextValue, 'bookshelf public readonly nonEmpty');
    assert.deepEqual((await tree().getChildren(toRead)).map(label), ['Designing Data-Intensive Applications', 'Structure and Interpretation of Computer Programs']);
    const row = (await tree().getChildren(toRead)).at(0);
    assert.ok(row && row.kind === 'volume');
    assert.equal(tree().getTreeItem(row).contextValue, 'volume public readonly');
    assert.deepEqual(api.desk.extensionContext.globalState.get(key), [BOB], 'not remembered in globalState for the account');

    const uri = await vscode.commands.executeCommand<vscode.Uri>('desk.books.shelfDetails', toRead);
    assert.match((await vscode.workspace.openTextDocument(uri)).getText(), /\| Library \| User 100000000000000000002 \|/);
  });

  it('says clearly when a library or shelf cannot be read (404), and keeps the typed user id for the retry', async () => {
    const errors = stubs.collect('showErrorMessage');
    stubs.stub('showInputBox', async () => '999999');
    assert.equal(await vscode.commands.executeCommand('desk.books.addPublicLibrary'), undefined);
    assert.match(errors[0] ?? '', /Could not open the public library of user 999999.*Not found/s);
    assert.ok(!api.books.libraries.list().includes('999999'));
    stubs.restore();
    const seen: vscode.InputBoxOptions[] = [];
    stubs.stub('showInputBox', async (options) => {
      seen.push(options as vscode.InputBoxOptions);
      return undefined;
    });
    await vscode.commands.executeCommand('desk.books.addPublicLibrary');
    assert.equal(seen[0]?.value, '999999', 'the typed id was not offered again');

    // Bob's private shelf reads as missing from another account.
    const privateShelf = await emulatorRequest('GET', `/books/v1/users/${BOB}/bookshelves/1001`);
    assert.equal(privateShelf.status, 404);
    stubs.restore();
    const detailErrors = stubs.collect('showErrorMessage');
    const text = (await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'desk-book', authority: 'alice@example.com', path: `/shelves/${BOB}/1001/Gift ideas.md` }))).getText();
    assert.match(text, /Could not load the details[\s\S]*Not found/);
    await eventually('the error notification', () => (detailErrors.length > 0 ? true : undefined), 10000);
    assert.match(detailErrors[0] ?? '', /Not found/);
  });

  it('removes a public library from the view', async () => {
    const bobs = await library(BOB);
    assert.equal(await vscode.commands.executeCommand('desk.books.removePublicLibrary', bobs), true);
    assert.ok(!api.books.libraries.list().includes(BOB));
    assert.ok(!(await tree().getChildren()).some((root) => root.id === bobs.id));
  });

  it('refreshes the whole tree and a single shelf', async () => {
    const haveRead = await shelf('Have read');
    assert.deepEqual((await tree().getChildren(haveRead)).map(label), ['No volumes on this shelf']);
    // Another client adds a book: the view shows it after a refresh, not before.
    const added = await emulatorRequest('POST', `/books/v1/mylibrary/bookshelves/4/addVolume?volumeId=${encodeURIComponent((await volume('To read', 'Dune')).volume.id)}`);
    assert.equal(added.status, 204);
    assert.deepEqual((await tree().getChildren(haveRead)).map(label), ['No volumes on this shelf']);
    await vscode.commands.executeCommand('desk.books.refresh', haveRead);
    assert.deepEqual((await tree().getChildren(await shelf('Have read'))).map(label), ['Dune']);
    await vscode.commands.executeCommand('desk.books.refresh');
    assert.equal(tree().getTreeItem(await shelf('Have read')).description, '1 volume · public');
  });
});
