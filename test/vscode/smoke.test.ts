// The extension as VS Code sees it: installed from the development path, activatable, commands registered.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import { eventually } from './support';

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

  it('keeps the code cache of the feature bundles it loaded, for the next start to compile from', async function () {
    this.timeout(30000);
    const extension = vscode.extensions.getExtension<DeskApi>(EXTENSION_ID);
    assert.ok(extension);
    const api = await extension.activate();
    const cacheDir = path.join(api.desk.extensionContext.globalStorageUri.fsPath, 'code-cache');
    const names = await eventually('the code cache', () => {
      const files = fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir) : [];
      return ['tasks', 'drive', 'calendar', 'books', 'search', 'channels'].every((name) => files.some((file) => file.startsWith(`${name}-`))) ? files : undefined;
    }, 25000);
    for (const name of names) {
      assert.match(name, /^(tasks|drive|calendar|books|search|channels)-[0-9a-f]{24}\.v8cache$/);
      assert.ok(fs.statSync(path.join(cacheDir, name)).size > 1000, `${name} holds compiled code`);
    }
  });
});
