// The extension as VS Code sees it: installed from the development path, activatable, commands registered.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'desk-dev.desk';

describe('Desk in VS Code', () => {
  it('is loaded as an extension and activates without error', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not among the loaded extensions`);
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  it('registers its contributed commands', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    await extension.activate();
    const contributed = (extension.packageJSON as { contributes?: { commands?: { command: string }[] } }).contributes?.commands ?? [];
    const registered = new Set(await vscode.commands.getCommands(true));
    // Every command the manifest promises must have a handler, or the palette shows entries that fail.
    const missing = contributed.map((entry) => entry.command).filter((command) => !registered.has(command));
    assert.deepEqual(missing, []);
    assert.ok(registered.has('desk.tasks.refresh'), 'desk.tasks.refresh is not registered');
  });

  it('runs with the settings the harness gave it (emulator backend)', () => {
    const emulatorUrl = process.env.DESK_TEST_EMULATOR_URL;
    assert.ok(emulatorUrl, 'DESK_TEST_EMULATOR_URL did not reach the extension host');
    assert.equal(vscode.workspace.getConfiguration('desk').get('emulator.url'), emulatorUrl);
  });
});
