import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateAndSignIn, WindowStubs } from './support';

describe('choosing Google without an OAuth client', () => {
  const stubs = new WindowStubs();
  afterEach(() => { stubs.restore(); });

  it('says what an OAuth client is, asks for it, and stays on the emulator when the user cancels', async () => {
    await activateAndSignIn();
    const before = vscode.workspace.getConfiguration('desk').inspect<string>('backend')?.globalValue;
    const prompts: string[] = [];
    const explained: string[] = [];
    // First, one dialog says what an OAuth client is; the user chooses to enter one.
    stubs.stub('showInformationMessage', async (message: unknown, ...items: unknown[]) => {
      explained.push(String(message));
      return items.find((item) => item === 'Enter Client ID…');
    });
    stubs.stub('showInputBox', async (options: unknown) => {
      prompts.push((options as { title?: string }).title ?? '');
      return undefined; // the user presses Escape
    });
    await vscode.commands.executeCommand('desk.useGoogle');
    assert.deepEqual(explained, ['Signing in to Google needs an OAuth client of your own.']);
    assert.deepEqual(prompts, ['Google OAuth client (Desktop app)']);
    assert.equal(vscode.workspace.getConfiguration('desk').inspect<string>('backend')?.globalValue, before);
  });
});
