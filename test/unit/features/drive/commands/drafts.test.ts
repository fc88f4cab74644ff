// Drive's Add People and comment boxes: what was typed and left with Escape on a later step (or refused by Drive) comes back the next time the dialog is opened for the same file or comment; sending drops it.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { DriveCommandContext, DriveCommandHost } from '../../../../../src/features/drive/commands/context';
import { DriveSharingCommands } from '../../../../../src/features/drive/commands/sharing';
import { DriveCommentCommands } from '../../../../../src/features/drive/commands/comments';
import { SharedDriveCommands } from '../../../../../src/features/drive/commands/sharedDrives';
import { DrivePropertyCommands } from '../../../../../src/features/drive/commands/properties';
import type { CommentTarget } from '../../../../../src/features/drive/comments/threads';
import type { DriveComment } from '../../../../../src/shared/schemas/drive/comments';
import type { DriveItem } from '../../../../../src/features/drive/port';
import type { DriveNode } from '../../../../../src/features/drive/tree/model';
import { fakeVscode } from '../../../../support/fakeVscode';
import { scriptedInputBoxes } from '../../../../support/scriptedInputBoxes';


/** Sharing commands over fake input boxes that play `actions` in order (quick picks take their first item), and a Drive holding `file`. */
function sharingCommands(file: DriveItem) {
  const { showInputBox, steps, play } = scriptedInputBoxes();
  let refuse: string | undefined;
  const invited: { email: string; message?: string }[] = [];
  const base = fakeVscode();
  const window = {
    ...base.window,
    showInputBox,
    showQuickPick: async <T>(items: readonly T[]) => items[0],
    showInformationMessage: async () => undefined,
    showWarningMessage: async () => undefined,
  };
  const vs = { ...base, window } as unknown as typeof vscode;
  const sharing = {
    listPermissions: async () => ({ items: [] }),
    listProperties: async () => ({ items: [] }),
    insertProperty: async (_fileId: string, property: { key: string; value: string }) => {
      if (property.key === refuse) throw new Error(`${refuse} is refused`);
      // Recorded with the invitations, as key=value.
      invited.push({ email: `${property.key}=${property.value}` });
      return property;
    },
    insertPermission: async (_fileId: string, permission: { emailAddress?: string }, options?: { emailMessage?: string }) => {
      if (permission.emailAddress === refuse) throw new Error(`${String(refuse)} cannot be shared with`);
      invited.push({ email: permission.emailAddress ?? '', ...(options?.emailMessage ? { message: options.emailMessage } : {}) });
      return {};
    },
  };
  const desk = { vs, showError: async () => undefined, log: { debug: () => undefined, warn: () => undefined }, clock: { day: () => '' } };
  const drives = async function* () { yield { id: file.id, name: file.title }; };
  const host = { desk, api: () => ({ getFile: async () => file }), about: async () => ({ userEmail: 'me@example.com' }), resources: () => ({ ...sharing, allDrives: drives }), treeView: { selection: [] } };
  // The change is shown by re-reading the file's row, which these tests have no tree for.
  const context = Object.assign(new DriveCommandContext(host as unknown as DriveCommandHost), { changeEach: async () => [] });
  const node = { kind: 'file', item: file } as unknown as DriveNode;
  return {
    commands: new DriveSharingCommands(context), members: new SharedDriveCommands(context), properties: new DrivePropertyCommands(context), node, steps, invited,
    play,
    refuse: (email: string | undefined) => { refuse = email; },
  };
}

describe('Drive: Add People keeps what was typed', () => {
  const file = { id: 'f1', title: 'Budget', ownedByMe: true, capabilities: { canShare: true } } as unknown as DriveItem;

  it('starts with the addresses and message typed before Escape, says so, and sharing drops them', async () => {
    const { commands, node, steps, invited, play } = sharingCommands(file);
    play([{ type: 'bob@example.com, carol@example.com' }, { type: 'Here are the figures for Q3.', escape: true }]);
    await commands.addPeople(node);
    assert.equal(invited.length, 0);

    play([{}, {}]);
    await commands.addPeople(node);
    assert.deepEqual(steps.map((step) => step.value), ['bob@example.com, carol@example.com', 'Here are the figures for Q3.']);
    assert.match(steps[0]?.prompt ?? '', /unsaved text from last time/);
    assert.match(steps[1]?.prompt ?? '', /unsaved text from last time/);
    assert.deepEqual(invited, [{ email: 'bob@example.com', message: 'Here are the figures for Q3.' }, { email: 'carol@example.com', message: 'Here are the figures for Q3.' }]);

    play([{ escape: true }]);
    await commands.addPeople(node);
    assert.equal(steps[0]?.value, '');
    assert.doesNotMatch(steps[0]?.prompt ?? '', /unsaved/);
  });

  it('after a refusal offers the people not added yet with the same message, for that file only', async () => {
    const { commands, node, steps, invited, play, refuse } = sharingCommands(file);
    refuse('carol@example.com');
    play([{ type: 'bob@example.com, carol@example.com' }, { type: 'See you Monday' }]);
    await commands.addPeople(node);
    assert.deepEqual(invited.map((invite) => invite.email), ['bob@example.com']);

    refuse(undefined);
    play([{}, {}]);
    await commands.addPeople(node);
    assert.deepEqual(steps.map((step) => step.value), ['carol@example.com', 'See you Monday']);

    const other = sharingCommands({ ...file, id: 'f2' });
    other.play([{ escape: true }]);
    await other.commands.addPeople(other.node);
    assert.equal(other.steps[0]?.value, '');
  });
});

/** Comment commands over the same fake input boxes, an editor on a Drive file, and comments that fail while `failing` is set. */
function commentCommands() {
  const { showInputBox, steps, play } = scriptedInputBoxes();
  let failing = false;
  const sent: { kind: 'add' | 'reply' | 'edit'; text: string; target?: CommentTarget }[] = [];
  const base = fakeVscode();
  const document = { uri: { toString: () => 'desk-drive:/f1/plan.md' } };
  const editor = { document, selection: { start: { line: 2, character: 0 }, end: { line: 4, character: 3 } } };
  const window = {
    ...base.window,
    activeTextEditor: editor,
    showInputBox,
    showInformationMessage: async () => undefined,
  };
  const vs = { ...base, window } as unknown as typeof vscode;
  const send = (kind: 'add' | 'reply' | 'edit', text: string, target?: CommentTarget) => {
    if (failing) throw new Error('Drive is unreachable');
    sent.push({ kind, text, ...(target ? { target } : {}) });
  };
  const comments = {
    isDriveDocument: () => true,
    add: async (_document: unknown, _span: unknown, text: string) => { send('add', text); return {}; },
    reply: async (target: CommentTarget, text: string) => { send('reply', text, target); },
    edit: async (target: CommentTarget, text: string) => { send('edit', text, target); },
  };
  const desk = { vs, showError: async () => undefined, log: { debug: () => undefined, warn: () => undefined } };
  const context = new DriveCommandContext({ desk, comments } as unknown as DriveCommandHost);
  const fileRow = { kind: 'file', item: { id: 'f1', title: 'plan.md' } };
  const row = (comment: Partial<DriveComment>) => ({ kind: 'comment', parent: { kind: 'comments', parent: fileRow }, comment: { author: { displayName: 'Ann', isAuthenticatedUser: true }, ...comment } }) as unknown as DriveNode;
  return {
    commands: new DriveCommentCommands(context), steps, sent, row,
    play,
    fail: (on: boolean) => { failing = on; },
  };
}

describe('Drive: Add Members to a shared drive keeps the addresses typed', () => {
  const drive = { id: 'd1', title: 'Team' } as DriveItem;

  it('offers the ones Drive refused next time, saying so, and nothing once all are added', async () => {
    const { members, steps, invited, play, refuse } = sharingCommands(drive);
    play([{ type: 'bob@example.com, carol@example.com' }]);
    await members.addMember();
    assert.equal(invited.length, 2, 'the fake quick pick takes the first role');
    invited.length = 0;
    play([{ escape: true }]);
    await members.addMember();
    assert.equal(steps[0]?.value, '', 'added: nothing is offered');

    play([{ type: 'dan@example.com, erin@example.com' }]);
    refuse('erin@example.com');
    await members.addMember();
    assert.deepEqual(invited.map((invite) => invite.email), ['dan@example.com']);
    refuse(undefined);
    play([{}]);
    await members.addMember();
    assert.equal(steps[0]?.value, 'erin@example.com');
    assert.match(steps[0]?.prompt ?? '', /unsaved text from last time/);
    play([{ escape: true }]);
    await members.addMember();
    assert.equal(steps[0]?.value, '');
  });
});

describe('Drive: Add Property keeps the key and value typed', () => {
  const file = { id: 'f1', title: 'Budget' } as DriveItem;

  it('offers them after Drive refused, for the same file, and nothing once added', async () => {
    const { properties, node, steps, invited, play, refuse } = sharingCommands(file);
    refuse('reviewed-by');
    play([{ type: 'reviewed-by' }, { type: 'Ann Lee, 26 Nov' }]);
    await properties.addProperty(node);
    assert.equal(invited.length, 0);
    refuse(undefined);
    play([{}, {}]);
    await properties.addProperty(node);
    assert.deepEqual(steps.map((step) => step.value), ['reviewed-by', 'Ann Lee, 26 Nov']);
    assert.match(steps[1]?.prompt ?? '', /^Value of reviewed-by \(your unsaved text from last time\)$/);
    assert.deepEqual(invited.map((added) => added.email), ['reviewed-by=Ann Lee, 26 Nov']);
    play([{ escape: true }]);
    await properties.addProperty(node);
    assert.equal(steps[0]?.value, '');
  });
});

describe('Drive: comment boxes keep what was typed', () => {
  it('a reply left with Escape or refused comes back for the same comment only, and goes once sent', async () => {
    const { commands, steps, sent, row, play, fail } = commentCommands();
    const first = row({ commentId: 'c1', content: 'Is this final?' });
    play([{ type: 'Not yet, waiting for Bob', escape: true }]);
    await commands.reply(first);
    play([{ type: 'Not yet, waiting for Bob and Carol' }]);
    fail(true);
    await commands.reply(first);
    assert.equal(steps[0]?.value, 'Not yet, waiting for Bob');
    assert.match(steps[0]?.prompt ?? '', /unsaved text from last time/);
    assert.equal(sent.length, 0);

    fail(false);
    play([{ escape: true }]);
    await commands.reply(row({ commentId: 'c2', content: 'Typo here' }));
    assert.equal(steps[0]?.value, '', 'another comment starts empty');
    play([{}]);
    await commands.reply(first);
    assert.equal(steps[0]?.value, 'Not yet, waiting for Bob and Carol');
    assert.deepEqual(sent.map((item) => item.text), ['Not yet, waiting for Bob and Carol']);
    play([{ escape: true }]);
    await commands.reply(first);
    assert.equal(steps[0]?.value, '');
  });

  it('Edit Comment and Add Comment on Selection start with the text left unsaved, then from the comment once saved', async () => {
    const { commands, steps, sent, row, play, fail } = commentCommands();
    const mine = row({ commentId: 'c1', content: 'Move to Friday' });
    fail(true);
    play([{ type: 'Move to Friday 10:00' }]);
    await commands.edit(mine);
    fail(false);
    play([{}]);
    await commands.edit(mine);
    assert.equal(steps[0]?.value, 'Move to Friday 10:00');
    assert.deepEqual(sent, [{ kind: 'edit', text: 'Move to Friday 10:00', target: { fileId: 'f1', commentId: 'c1' } }]);

    play([{ type: 'These three lines repeat section 2', escape: true }]);
    await commands.add();
    play([{}]);
    await commands.add();
    assert.equal(steps[0]?.value, 'These three lines repeat section 2');
    assert.match(steps[0]?.prompt ?? '', /^Comment on lines 3–5 \(your unsaved text from last time\)$/);
    assert.equal(sent.at(1)?.text, 'These three lines repeat section 2');
  });
});
