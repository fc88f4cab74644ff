// A bulk Drive command inside a real extension host, against the harness's emulator: trashing a selection is one
// batch request; the one file that fails is named in one message, the others are trashed, and Retry sends only
// the failed one again (a file another client restored meanwhile is not trashed a second time).
import * as assert from 'node:assert/strict';
import fetch from 'node-fetch';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import type { DriveNode, FileNode } from '../../src/features/drive/tree/model';
import { activateAndSignIn, emulatorToken, emulatorUrl, eventually, labelText, WindowStubs } from './support';

interface ApiFile { id: string; title: string; labels?: { trashed?: boolean } }

async function http(method: string, path: string, json?: unknown): Promise<{ status: number; json: unknown }> {
  // A token of alice's own, not Desk's: "another client" of the same account.
  const headers: Record<string, string> = { Authorization: `Bearer ${await emulatorToken()}` };
  if (json !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${emulatorUrl()}${path}`, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as unknown) : undefined };
}

const stubs = new WindowStubs();

describe('Drive bulk commands in VS Code (batch requests)', function () {
  this.timeout(40000);
  let api: DeskApi;

  before(async () => {
    api = await activateAndSignIn();
  });

  /** Files this suite made: deleted for good afterwards, so the suites after it (same emulator) see the seed as it was. */
  const made: string[] = [];
  afterEach(() => { stubs.restore(); });
  after(async () => {
    for (const id of made) await http('DELETE', `/drive/v2/files/${id}`);
    api.drive.provider.refresh();
  });

  const label = (node: DriveNode): string => labelText(api.drive.provider.getTreeItem(node));

  async function myDriveRows(): Promise<FileNode[]> {
    const roots = await api.drive.provider.getChildren();
    const myDrive = roots.find((root) => root.kind === 'section' && root.section === 'myDrive');
    assert.ok(myDrive);
    return (await api.drive.provider.getChildren(myDrive)).filter((row): row is FileNode => row.kind === 'file');
  }

  const trashed = async (id: string): Promise<boolean> => ((await http('GET', `/drive/v2/files/${id}`)).json as ApiFile).labels?.trashed === true;

  it('trashes a selection in one batch: the file that fails is named once, Retry sends only that one', async () => {
    const titles = ['bulk-a.txt', 'bulk-b.txt', 'bulk-c.txt'];
    const created: ApiFile[] = [];
    for (const title of titles) created.push((await http('POST', '/drive/v2/files', { title, mimeType: 'text/plain' })).json as ApiFile);
    made.push(...created.map((file) => file.id));
    api.drive.provider.refresh();
    const rows = await eventually('the new files listed', async () => {
      const found = (await myDriveRows()).filter((row) => titles.includes(label(row)));
      return found.length === titles.length ? found : undefined;
    });
    const [a, b, c] = titles.map((title) => rows.find((row) => label(row) === title));
    assert.ok(a && b && c);
    // Another client deletes b for good: Desk's row for it is stale, and trashing it is a 404.
    assert.equal((await http('DELETE', `/drive/v2/files/${b.item.id}`)).status, 204);

    const errors: string[] = [];
    let offerRetry = true;
    stubs.stub('showErrorMessage', async (message: unknown, ...actions: unknown[]) => {
      errors.push(String(message));
      if (offerRetry && actions.includes('Retry')) {
        offerRetry = false;
        // Before Retry runs, another client restores a: a Retry that repeated it would trash it again.
        await http('POST', `/drive/v2/files/${a.item.id}/untrash`);
        return 'Retry';
      }
      return undefined;
    });
    stubs.stub('showInformationMessage', async () => undefined);
    await vscode.commands.executeCommand('desk.drive.trash', a, [a, b, c]);

    await eventually('the failure and the retried failure shown', () => (errors.length >= 2 ? true : undefined));
    assert.equal(errors.length, 2, errors.join('\n'));
    for (const message of errors) {
      assert.match(message, /bulk-b\.txt/, 'the failed file is named');
      assert.doesNotMatch(message, /bulk-a\.txt|bulk-c\.txt/, 'the files that were trashed are not');
    }
    assert.match(errors[0] ?? '', /1 of 3/);
    assert.equal(await trashed(c.item.id), true, 'c was trashed');
    assert.equal(await trashed(a.item.id), false, 'Retry did not trash a again');
    assert.equal((await http('GET', `/drive/v2/files/${b.item.id}`)).status, 404);
  });
});
