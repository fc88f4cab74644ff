// Drive's trash commands name a file as every other Drive message does: a very long title cut, an untitled file by its id.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { nameInMessage } from '../../../../../src/core/text/names';
import { DriveCommandContext, DriveCommandHost } from '../../../../../src/features/drive/commands/context';
import { DriveTrashCommands } from '../../../../../src/features/drive/commands/trash';
import type { DriveItem } from '../../../../../src/features/drive/port';
import type { DriveNode, FileNode } from '../../../../../src/features/drive/tree/model';
import { fakeVscode } from '../../../../support/fakeVscode';

/** Trash commands whose writes succeed, recording what the user is told and asked. */
function trashCommands() {
  const told: string[] = [];
  const asked: string[] = [];
  const base = fakeVscode();
  const window = {
    ...base.window,
    showInformationMessage: async (message: string) => { told.push(message); return undefined; },
    // Cancel: only the question matters here.
    showWarningMessage: async (message: string) => { asked.push(message); return undefined; },
  };
  const vs = { ...base, window } as unknown as typeof vscode;
  const desk = { vs, showError: async () => undefined, log: { debug: () => undefined, warn: () => undefined } };
  const host = { desk, model: () => ({ section: (section: string) => ({ kind: 'section', section }) }), treeView: { selection: [] } };
  // Drive's answer to the batch: every file done (the request itself is covered by the extension-host suite).
  const context = Object.assign(new DriveCommandContext(host as unknown as DriveCommandHost), {
    changeAll: async (files: readonly FileNode[]) => files.map((file) => ({ item: file, value: file.item })),
  });
  return { commands: new DriveTrashCommands(context), told, asked };
}

function row(item: Partial<DriveItem> & { id: string }): DriveNode {
  return { kind: 'file', item, parent: { kind: 'section', section: 'trash' } } as unknown as DriveNode;
}

describe('Drive: the trash commands name the file', () => {
  const longTitle = `Minutes of the ${'very '.repeat(20)}long meeting.docx`;

  it('Restore from Trash cuts a very long title like the other Drive messages', async () => {
    const { commands, told } = trashCommands();
    await commands.untrash(row({ id: 'f1', title: longTitle }));
    assert.deepEqual(told, [`Restored “${nameInMessage(longTitle)}” to the folder it was in.`]);
    assert.ok(nameInMessage(longTitle).length < longTitle.length);
  });

  it('Delete Forever names an untitled file by its id, not as “”', async () => {
    const { commands, asked } = trashCommands();
    await commands.delete(row({ id: 'f2' }));
    assert.deepEqual(asked, ['Delete “f2” forever?']);
  });
});
