import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateAndSignIn, WindowStubs } from './support';

describe('choosing Google without an OAuth client', () => {
  const stubs = new WindowStubs();
  afterEach(() => stubs.restore());

  it('asks for the client first and stays on the emulator when the user cancels', async () => {
    await activateAndSignIn();
    const before = vscode.workspace.getConfiguration('desk').inspect<string>('backend')?.globalValue;
    const prompts: string[] = [];
    stubs.stub('showInputBox', async (options: unknown) => {
      prompts.push(String((options as { title?: string }).title ?? ''));
      return undefined; // the user presses Escape
    });
    await vscode.commands.executeCommand('desk.useGoogle');
    assert.deepEqual(prompts, ['Google OAuth client (Desktop app)']);
    assert.equal(vscode.workspace.getConfiguration('desk').inspect<string>('backend')?.globalValue, before);
  });
});
