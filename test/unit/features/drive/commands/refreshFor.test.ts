import * as assert from 'node:assert/strict';
import { refreshFor } from '../../../../../src/features/drive/commands/context';
import { DriveTreeModel, FileNode } from '../../../../../src/features/drive/tree/model';
import type { ContainerNode } from '../../../../../src/features/drive/tree/model';
import { FakeDrive } from '../../../../support/fakes/drive';

describe('Drive commands: showing what a write changed', () => {
  it('puts Drive\'s answer in the rows at once, before the refreshed folders come back', async () => {
    const drive = new FakeDrive();
    const site = drive.folder('site');
    const photos = drive.folder('Photos');
    const index = drive.file('index.html', site);
    const model = new DriveTreeModel(drive);
    const siteNode = (await model.children(model.section('myDrive'))).find((node): node is FileNode => node.kind === 'file' && node.item.id === site);
    assert.ok(siteNode);
    const row = (await model.children(siteNode)).find((node): node is FileNode => node.kind === 'file' && node.item.id === index);
    assert.ok(row);
    const refreshed: ContainerNode[] = [];
    // Drive answered the write (now also in Photos); the refreshed folders reload only when VS Code asks again.
    const answer = { ...row.item, parents: [{ id: site }, { id: photos }] };
    await refreshFor({ model: () => model, provider: { refresh: (container: ContainerNode) => { refreshed.push(container); } } } as unknown as Parameters<typeof refreshFor>[0], [answer], [siteNode]);
    assert.deepEqual(row.item.parents, [{ id: site }, { id: photos }], 'the next command (Add to Folder) sees the file in both folders');
    assert.ok(refreshed.some((container) => container.id === siteNode.id));
  });
});
