// Drive's Add People: the addresses and the message typed and left with Escape on a later step (or refused by Drive) come back the next time the dialog is opened for the same file; sharing drops them.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { Drafts } from '../../../../../src/core/drafts';
import type { DriveCommandContext } from '../../../../../src/features/drive/commands/context';
import { DriveSharingCommands } from '../../../../../src/features/drive/commands/sharing';
import type { DriveItem } from '../../../../../src/features/drive/port';
import type { DriveNode } from '../../../../../src/features/drive/tree/model';
import { fakeVscode } from '../../../../support/fakeVscode';

interface Step { prompt: string; value: string }
/** What the user does in one input box: type `text` (undefined: leave it as it is), then accept or press Escape. */
interface Action { type?: string; escape?: boolean }

/** Sharing commands over fake input boxes that play `actions` in order (quick picks take their first item), and a Drive holding `file`. */
function sharingCommands(file: DriveItem) {
  const steps: Step[] = [];
  let actions: Action[] = [];
  let refuse: string | undefined;
  const invited: { email: string; message?: string }[] = [];
  const base = fakeVscode();
  const window = {
    ...base.window,
    showInputBox: async (options: vscode.InputBoxOptions) => {
      steps.push({ prompt: options.prompt ?? '', value: options.value ?? '' });
      const action = actions.shift() ?? {};
      const text = action.type ?? options.value ?? '';
      // VS Code validates the box's text as it changes.
      await options.validateInput?.(text);
      return action.escape ? undefined : text;
    },
    showQuickPick: async <T>(items: readonly T[]) => items[0],
    showInformationMessage: async () => undefined,
    showWarningMessage: async () => undefined,
  };
  const vs = { ...base, window } as unknown as typeof vscode;
  const sharing = {
    listPermissions: async () => ({ items: [] }),
    insertPermission: async (_fileId: string, permission: { emailAddress?: string }, options: { emailMessage?: string }) => {
      if (permission.emailAddress === refuse) throw new Error(`${refuse} cannot be shared with`);
      invited.push({ email: permission.emailAddress ?? '', ...(options.emailMessage ? { message: options.emailMessage } : {}) });
      return {};
    },
  };
  const desk = { vs, showError: async () => undefined, log: { debug: () => undefined, warn: () => undefined }, clock: { day: () => '' } };
  const host = { desk, api: () => ({ getFile: async () => file }), about: async () => ({ userEmail: 'me@example.com' }), resources: () => sharing };
  const context = { host, vs, t: vs.l10n.t, drafts: new Drafts(), targetFile: async () => file, changeEach: async () => [] } as unknown as DriveCommandContext;
  const node = { kind: 'file', item: file } as unknown as DriveNode;
  return {
    commands: new DriveSharingCommands(context), node, steps, invited,
    play: (next: Action[]) => { actions = next; steps.length = 0; },
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

    const other = sharingCommands({ ...file, id: 'f2' } as DriveItem);
    other.play([{ escape: true }]);
    await other.commands.addPeople(other.node);
    assert.equal(other.steps[0]?.value, '');
  });
});
