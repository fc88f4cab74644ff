import * as assert from 'node:assert/strict';
import { DriveNode, DriveTreeModel, FileNode, SECTION_IDS } from '../../../../../src/features/drive/tree/model';
import { FakeDrive } from '../../../../support/fakes/drive';

function titles(nodes: DriveNode[]): string[] {
  return nodes.map((node) => (node.kind === 'file' ? node.item.title ?? '?' : node.kind === 'loadMore' ? '…more' : node.kind === 'message' ? `(${node.text})` : node.label));
}

function fileChild(nodes: DriveNode[], title: string): FileNode {
  const found = nodes.find((node): node is FileNode => node.kind === 'file' && node.item.title === title);
  assert.ok(found, `no child ${title} in ${titles(nodes).join(', ')}`);
  return found;
}

/** A file in "site" with "Photos" beside it, both folders' listings loaded: where the change feed's versions meet. */
async function siteAndPhotosLoaded() {
  const drive = new FakeDrive();
  const site = drive.folder('site');
  const photos = drive.folder('Photos');
  const index = drive.file('index.html', site);
  const model = new DriveTreeModel(drive);
  const myDrive = await model.children(model.section('myDrive'));
  const siteNode = fileChild(myDrive, 'site');
  const photosNode = fileChild(myDrive, 'Photos');
  const row = fileChild(await model.children(siteNode), 'index.html');
  await model.children(photosNode);
  return { model, site, photos, index, siteNode, photosNode, row, base: row.item };
}

describe('Drive tree model', () => {
  it('lists My Drive with folders first, then files by title (whatever order the server uses)', async () => {
    const drive = new FakeDrive();
    drive.file('zeta.txt');
    drive.folder('Projects');
    drive.file('alpha.txt');
    drive.folder('Archive');
    drive.file('file10.txt');
    drive.file('file9.txt');
    const model = new DriveTreeModel(drive);
    const children = await model.children(model.section('myDrive'));
    assert.deepEqual(titles(children), ['Archive', 'Projects', 'alpha.txt', 'file9.txt', 'file10.txt', 'zeta.txt']);
    // Drive's `root` alias: My Drive lists without an about.get first (one round trip, not two).
    assert.equal(drive.listRequests[0]?.q, "'root' in parents and trashed = false");
  });

  it('loads a large folder one page at a time behind a "Load more" node', async () => {
    const drive = new FakeDrive();
    const big = drive.folder('Big');
    for (let i = 0; i < 7; i++) drive.file(`file-${i}.txt`, big);
    drive.folder('sub', big);
    const model = new DriveTreeModel(drive, { pageSize: 3 });
    const bigNode = fileChild(await model.children(model.section('myDrive')), 'Big');
    let children = await model.children(bigNode);
    assert.equal(children.length, 4);
    assert.equal(children.at(-1)?.kind, 'loadMore');
    const bigPages = (): (string | undefined)[] => drive.listRequests.filter((request) => request.q.includes(big)).map((request) => request.pageToken);
    // The second page is asked for while the first is read: "Load more" then needs no request of its own.
    assert.deepEqual(bigPages(), [undefined, '3']);
    assert.equal(await model.loadMore(bigNode), true);
    assert.deepEqual(bigPages(), [undefined, '3', '6'], 'only the page after the one shown was asked for');
    children = await model.children(bigNode);
    assert.equal(children.filter((node) => node.kind === 'file').length, 6);
    assert.equal(await model.loadMore(bigNode), true);
    children = await model.children(bigNode);
    assert.equal(children.filter((node) => node.kind === 'file').length, 8);
    assert.equal(children.at(-1)?.kind, 'file', 'no load-more row after the last page');
    assert.equal(titles(children)[0], 'sub', 'a folder from a later page still sorts first');
    assert.deepEqual(bigPages(), [undefined, '3', '6'], 'each page asked for once');
    assert.equal(await model.loadMore(bigNode), false);
  });

  it('asks again on "Load more" when the page fetched ahead failed, and drops it when the folder reloads', async () => {
    const drive = new FakeDrive();
    const big = drive.folder('Big');
    for (let i = 0; i < 5; i++) drive.file(`file-${i}.txt`, big);
    const model = new DriveTreeModel(drive, { pageSize: 3 });
    const bigNode = fileChild(await model.children(model.section('myDrive')), 'Big');
    const listFiles = drive.listFiles.bind(drive);
    let failing = true;
    drive.listFiles = async (request) => {
      if (failing && request.pageToken !== undefined) throw new Error('offline');
      return listFiles(request);
    };
    await model.children(bigNode);
    failing = false;
    assert.equal(await model.loadMore(bigNode), true);
    assert.equal((await model.children(bigNode)).filter((node) => node.kind === 'file').length, 5);
    const bigPages = (): (string | undefined)[] => drive.listRequests.filter((request) => request.q.includes(big)).map((request) => request.pageToken);
    assert.deepEqual(bigPages(), [undefined, '3'], 'the failed prefetch is not recorded by the fake; the retry is');

    model.invalidate(bigNode);
    drive.file('file-new.txt', big);
    await model.children(bigNode);
    assert.equal(await model.loadMore(bigNode), true);
    assert.equal((await model.children(bigNode)).filter((node) => node.kind === 'file').length, 6, 'the reloaded folder pages from its own first page');
  });

  it('keeps node identity and ids stable across reloads, distinct per parent, with parent links', async () => {
    const drive = new FakeDrive();
    const a = drive.folder('A');
    const b = drive.folder('B');
    const shared = drive.file('both.txt', a);
    const record = drive.files.get(shared);
    if (record) record.parents = [...(record.parents ?? []), { id: b }];
    const model = new DriveTreeModel(drive);
    const root = await model.children(model.section('myDrive'));
    const nodeA = fileChild(root, 'A');
    const nodeB = fileChild(root, 'B');
    const inA = fileChild(await model.children(nodeA), 'both.txt');
    const inB = fileChild(await model.children(nodeB), 'both.txt');
    assert.notEqual(inA.id, inB.id);
    assert.equal(model.parentOf(inA), nodeA);
    assert.equal(model.parentOf(nodeA)?.id, SECTION_IDS.myDrive);
    model.invalidate(nodeA);
    const again = fileChild(await model.children(nodeA), 'both.txt');
    assert.equal(again, inA, 'the same node object after a reload');
    assert.equal(model.nodeById(inA.id), inA);
  });

  it('shows Trash and Shared with me; trashed folders are not expanded', async () => {
    const drive = new FakeDrive();
    drive.folder('Old folder', drive.rootId, { labels: { trashed: true } });
    drive.file('old.txt', drive.rootId, { labels: { trashed: true } });
    drive.file('from-bob.txt', 'bobs-root', { sharedWithMe: true });
    const model = new DriveTreeModel(drive);
    const trash = await model.children(model.section('trash'));
    assert.deepEqual(titles(trash), ['Old folder', 'old.txt']);
    assert.equal(model.isContainer(trash[0]), false);
    assert.deepEqual(titles(await model.children(model.section('shared'))), ['from-bob.txt']);
    assert.deepEqual(titles(await model.children(model.section('myDrive'))), ['(My Drive is empty)']);
  });

  it('names the loaded folders a change affects: old and new parents, not unloaded ones', async () => {
    const drive = new FakeDrive();
    const a = drive.folder('A');
    const b = drive.folder('B');
    const c = drive.folder('C'); // never expanded
    const moved = drive.file('moved.txt', a);
    const model = new DriveTreeModel(drive);
    const root = await model.children(model.section('myDrive'));
    await model.children(fileChild(root, 'A'));
    await model.children(fileChild(root, 'B'));
    const after = await drive.patchFile(moved, {}, { addParents: [b], removeParents: [a] });
    const affected = await model.containersAffectedBy([{ fileId: moved, item: after, removed: false }]);
    assert.deepEqual(affected.map((node) => (node.kind === 'file' ? node.item.title : node.label)).sort(), ['A', 'B']);

    const atRoot = await drive.getFile(drive.file('new-at-root.txt'));
    const rootAffected = await model.containersAffectedBy([{ fileId: atRoot.id, item: atRoot, removed: false }]);
    assert.deepEqual(rootAffected.map((node) => node.id), [SECTION_IDS.myDrive]);

    const elsewhere = await drive.getFile(drive.file('in-c.txt', c));
    assert.deepEqual(await model.containersAffectedBy([{ fileId: elsewhere.id, item: elsewhere, removed: false }]), [], 'C was never expanded');
  });

  it('finds the folders a page of 1,000 changes affects among 20,000 loaded rows, with each listing read once', async () => {
    const drive = new FakeDrive();
    const files: string[][] = [];
    for (let folder = 0; folder < 50; folder++) {
      const id = drive.folder(`F${folder}`);
      files.push(Array.from({ length: 400 }, (_, index) => drive.file(`f${folder}-${index}.txt`, id)));
    }
    const model = new DriveTreeModel(drive, { pageSize: 1000 });
    for (const node of await model.children(model.section('myDrive'))) if (node.kind === 'file') await model.children(node);
    // The changes touch the even folders only.
    const changed = await Promise.all(Array.from({ length: 1000 }, async (_, index) => {
      const fileId = files[(index % 25) * 2]?.[index % 400];
      return { fileId, item: await drive.getFile(fileId), removed: false };
    }));
    const affected = await model.containersAffectedBy(changed);
    assert.deepEqual(affected.map((node) => (node.kind === 'file' ? node.item.title : node.label)).sort(), Array.from({ length: 25 }, (_, index) => `F${index * 2}`).sort());
  });

  it('puts changes from the change feed in place: no listing reloads, expanded subfolders and loaded pages stay', async () => {
    const drive = new FakeDrive();
    const a = drive.folder('A');
    const b = drive.folder('B');
    const sub = drive.folder('Sub', a);
    drive.file('deep.txt', sub);
    const moved = drive.file('moved.txt', a);
    const renamed = drive.file('renamed.txt', a);
    for (let i = 0; i < 4; i++) drive.file(`b-${i}.txt`, b);
    const model = new DriveTreeModel(drive, { pageSize: 3 });
    const root = await model.children(model.section('myDrive'));
    const aNode = fileChild(root, 'A');
    const bNode = fileChild(root, 'B');
    const subNode = fileChild(await model.children(aNode), 'Sub');
    await model.children(subNode);
    await model.children(bNode);
    await model.loadMore(bNode);
    const renamedRow = fileChild(await model.children(aNode), 'renamed.txt');
    await model.children(model.section('trash'));
    drive.listRequests.length = 0;

    const movedItem = await drive.patchFile(moved, {}, { addParents: [b], removeParents: [a] });
    const renamedItem = await drive.patchFile(renamed, { title: 'now called this.txt' });
    const created = await drive.getFile(drive.file('created.txt'));
    const trashed = await drive.patchFile(drive.file('gone.txt', b), { labels: { trashed: true } });
    const { redraw, reload } = await model.applyChanges([
      { fileId: moved, item: movedItem, removed: false },
      { fileId: renamed, item: renamedItem, removed: false },
      { fileId: created.id, item: created, removed: false },
      { fileId: trashed.id, item: trashed, removed: false },
    ]);
    assert.deepEqual(redraw.map((node) => node.id).sort(), [aNode.id, bNode.id, SECTION_IDS.myDrive].sort());
    assert.deepEqual(reload.map((node) => node.id), [SECTION_IDS.trash], 'Trash decides its rows on Drive\'s side');
    assert.deepEqual(titles(await model.children(aNode)), ['Sub', 'now called this.txt']);
    assert.equal(fileChild(await model.children(aNode), 'now called this.txt'), renamedRow, 'the same row (id, selection) with the new title');
    const bRows = await model.children(bNode);
    assert.ok(titles(bRows).includes('moved.txt') && !titles(bRows).includes('gone.txt'), titles(bRows).join(', '));
    assert.equal(bRows.filter((node) => node.kind === 'file').length, 5, 'the two loaded pages stay, plus the moved file');
    assert.ok(titles(await model.children(model.section('myDrive'))).includes('created.txt'));
    assert.equal(model.isLoaded(subNode.id), true, 'an expanded subfolder is not reloaded');
    assert.deepEqual(drive.listRequests, [], 'no listing was requested');

    const { redraw: afterRemoval } = await model.applyChanges([{ fileId: created.id, removed: true }]);
    assert.deepEqual(afterRemoval.map((node) => node.id), [SECTION_IDS.myDrive]);
    assert.ok(!titles(await model.children(model.section('myDrive'))).includes('created.txt'));
  });

  it('finds a deep file for reveal, loading the folders and pages on the way', async () => {
    const drive = new FakeDrive();
    const top = drive.folder('Top');
    const mid = drive.folder('Mid', top);
    for (let i = 0; i < 5; i++) drive.file(`filler-${i}`, mid);
    const target = drive.file('zz-target.txt', mid);
    const model = new DriveTreeModel(drive, { pageSize: 2 });
    const node = await model.findNode(target);
    assert.ok(node);
    assert.equal(node.item.title, 'zz-target.txt');
    const parent = model.parentOf(node);
    assert.ok(parent?.kind === 'file' && parent.item.title === 'Mid');
    assert.equal(model.parentOf(parent)?.kind === 'file' && (model.parentOf(parent) as FileNode).item.title, 'Top');
  });

  it('finds for reveal a file made elsewhere after its folder was listed, placing it without reloading the folder', async () => {
    const drive = new FakeDrive();
    const folder = drive.folder('Projects');
    drive.file('old.txt', folder);
    const model = new DriveTreeModel(drive);
    const folderNode = fileChild(await model.children(model.section('myDrive')), 'Projects');
    assert.ok(folderNode);
    assert.deepEqual(titles(await model.children(folderNode)), ['old.txt']);
    // Another app adds a file; the change feed has not brought it yet.
    const made = drive.file('new.txt', folder);
    const listedBefore = drive.listRequests.length;
    const placed: string[] = [];
    const node = await model.findNode(made, { onPlaced: (container) => placed.push(container.id) });
    assert.equal(node?.item.title, 'new.txt');
    assert.equal(model.parentOf(node), folderNode);
    assert.deepEqual(placed, [folderNode.id], 'the folder is redrawn with the new row');
    assert.deepEqual(titles(await model.children(folderNode)), ['new.txt', 'old.txt']);
    assert.equal(drive.listRequests.length, listedBefore, 'no listing was asked again');
  });

  it('keeps the version Desk wrote when a poll answered before the write brings an older one', async () => {
    const { model, site, photos, index, photosNode, row, base } = await siteAndPhotosLoaded();
    // Desk removed the file from Photos: its own write answered version 8 with one parent.
    model.updateItem({ ...base, version: '8', parents: [{ id: site }] });
    // A poll that left before that write comes back after it, with version 7 still in both folders.
    const { redraw } = await model.applyChanges([{ fileId: index, item: { ...base, version: '7', parents: [{ id: site }, { id: photos }] }, removed: false }]);
    assert.deepEqual(redraw, []);
    assert.deepEqual(row.item.parents, [{ id: site }]);
    assert.ok(!titles(await model.children(photosNode)).includes('index.html'), 'Photos does not take the file back');
    // A later version from the feed is taken as always.
    await model.applyChanges([{ fileId: index, item: { ...base, version: '9', parents: [{ id: site }, { id: photos }] }, removed: false }]);
    assert.ok(titles(await model.children(photosNode)).includes('index.html'));
  });

  it('applies a page holding several changes of one file as if one by one: the last wins, an older version never', async () => {
    const { model, site, photos, index, siteNode, photosNode, row, base } = await siteAndPhotosLoaded();
    const inBoth = { ...base, parents: [{ id: site }, { id: photos }] };
    // Added to Photos (v8), then an older answer (v7) in the same page: Photos keeps it, the row stays at v8.
    await model.applyChanges([{ fileId: index, item: { ...inBoth, version: '8', title: 'v8.html' }, removed: false }, { fileId: index, item: { ...base, version: '7' }, removed: false }]);
    assert.ok(titles(await model.children(photosNode)).includes('v8.html'));
    assert.equal(row.item.version, '8');
    // Left Photos, then came back, in one page: listed once, in Photos and in site.
    const { redraw } = await model.applyChanges([{ fileId: index, item: { ...base, version: '9' }, removed: false }, { fileId: index, item: { ...inBoth, version: '10', title: 'v10.html' }, removed: false }]);
    assert.deepEqual(titles(await model.children(photosNode)).filter((title) => title.endsWith('.html')), ['v10.html']);
    assert.deepEqual(titles(await model.children(siteNode)).filter((title) => title.endsWith('.html')), ['v10.html']);
    assert.deepEqual(redraw.map((node) => node.id).sort(), [photosNode.id, siteNode.id].sort());
    // Removed in the same page it was changed in: gone from both.
    await model.applyChanges([{ fileId: index, item: { ...inBoth, version: '11' }, removed: false }, { fileId: index, removed: true }]);
    assert.ok(!titles(await model.children(photosNode)).some((title) => title.endsWith('.html')));
    assert.ok(!titles(await model.children(siteNode)).some((title) => title.endsWith('.html')));
  });

  it('reports a listing failure and retries on the next expansion', async () => {
    const drive = new FakeDrive();
    drive.file('a.txt');
    const original = drive.listFiles.bind(drive);
    let fail = true;
    drive.listFiles = async (request) => {
      if (fail) throw new Error('offline');
      return original(request);
    };
    const model = new DriveTreeModel(drive);
    await assert.rejects(model.children(model.section('myDrive')), /offline/);
    fail = false;
    assert.deepEqual(titles(await model.children(model.section('myDrive'))), ['a.txt']);
  });
});
