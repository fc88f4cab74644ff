import * as assert from 'node:assert/strict';
import { planDrop } from '../../../../../src/features/drive/tree/dragAndDrop';
import { DriveNode, DriveTreeModel, FileNode } from '../../../../../src/features/drive/tree/model';
import { FakeDrive } from '../../../../support/fakes/drive';

async function child(model: DriveTreeModel, parent: Parameters<DriveTreeModel['children']>[0], title: string): Promise<FileNode> {
  const nodes: DriveNode[] = await model.children(parent);
  const found = nodes.find((node): node is FileNode => node.kind === 'file' && node.item.title === title);
  assert.ok(found, `no ${title}`);
  return found;
}

describe('Drive drag and drop plan', () => {
  async function tree() {
    const drive = new FakeDrive();
    const a = drive.folder('A');
    const b = drive.folder('B');
    const inner = drive.folder('Inner', a);
    drive.file('doc.txt', a);
    drive.file('top.txt');
    drive.file('old.txt', drive.rootId, { labels: { trashed: true } });
    drive.file('shared.txt', 'bobs-folder', { sharedWithMe: true });
    const model = new DriveTreeModel(drive);
    const myDrive = model.section('myDrive');
    const nodeA = await child(model, myDrive, 'A');
    const nodeB = await child(model, myDrive, 'B');
    return { drive, model, a, b, inner, nodeA, nodeB, myDrive };
  }

  it('moves a file between folders: add the target, remove the folder it was dragged from', async () => {
    const { model, a, b, nodeA, nodeB } = await tree();
    const doc = await child(model, nodeA, 'doc.txt');
    const plan = planDrop([doc], nodeB, 'root-id');
    assert.deepEqual(plan.actions, [{ kind: 'move', fileId: doc.item.id, title: 'doc.txt', addParents: [b], removeParents: [a] }]);
  });

  it('dropping onto a file means its folder; onto My Drive means the root folder', async () => {
    const { model, a, nodeA, myDrive } = await tree();
    const top = await child(model, myDrive, 'top.txt');
    const doc = await child(model, nodeA, 'doc.txt');
    assert.deepEqual(planDrop([top], doc, 'root-id').actions[0], { kind: 'move', fileId: top.item.id, title: 'top.txt', addParents: [a], removeParents: ['root-id'] });
    assert.deepEqual(planDrop([doc], myDrive, 'root-id').actions[0], { kind: 'move', fileId: doc.item.id, title: 'doc.txt', addParents: ['root-id'], removeParents: [a] });
  });

  it('never moves a folder into itself or below itself, nor where it already is', async () => {
    const { model, nodeA, myDrive } = await tree();
    const inner = await child(model, nodeA, 'Inner');
    assert.equal(planDrop([nodeA], inner, 'root-id').actions.length, 0);
    assert.equal(planDrop([nodeA], nodeA, 'root-id').actions.length, 0);
    const top = await child(model, myDrive, 'top.txt');
    const plan = planDrop([top], myDrive, 'root-id');
    assert.equal(plan.actions.length, 0);
    assert.match(plan.skipped[0]?.reason ?? '', /already/);
  });

  it('dropping onto Trash trashes; a file from Shared with me gains a parent without losing its owner\'s', async () => {
    const { model, b, nodeA, nodeB } = await tree();
    const doc = await child(model, nodeA, 'doc.txt');
    assert.deepEqual(planDrop([doc], model.section('trash'), 'root-id').actions, [{ kind: 'trash', fileId: doc.item.id, title: 'doc.txt' }]);
    const shared = await child(model, model.section('shared'), 'shared.txt');
    assert.deepEqual(planDrop([shared], nodeB, 'root-id').actions, [{ kind: 'move', fileId: shared.item.id, title: 'shared.txt', addParents: [b], removeParents: [] }]);
    assert.equal(planDrop([doc], model.section('shared'), 'root-id').actions.length, 0);
    const old = await child(model, model.section('trash'), 'old.txt');
    assert.equal(planDrop([old], nodeB, 'root-id').actions.length, 0);
  });
});
