// Revision history and labels of Drive files inside a real extension host, against the harness's emulator: old
// versions open read-only, compare with the current content and with each other in VS Code's diff editor, restore
// (confirmed), pin through the history picker, delete (confirmed); labels applied, their typed fields changed with
// validated input, and removed — each checked through the API.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fetch from 'node-fetch';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import { driveUri } from '../../src/features/drive/fs/driveFileSystem';
import type { DriveLabel } from '../../src/shared/schemas/drive/labels';
import type { DriveRevision } from '../../src/shared/schemas/drive/revisions';
import { consentBrowser } from '../support/consentBrowser';
import { activateAndSignIn, emulatorRequest, emulatorToken, emulatorUrl, eventually, WindowStubs, DialogStep, scriptDialogs } from './support';

interface ApiFile { id: string; title: string; headRevisionId?: string }

const stubs = new WindowStubs();

async function upload(fileId: string | undefined, text: string, title?: string): Promise<ApiFile> {
  const path = fileId ? `/upload/drive/v2/files/${fileId}?uploadType=media` : '/upload/drive/v2/files?uploadType=multipart';
  const boundary = 'revisions-test';
  const body = fileId ? text : `--${boundary}\r\nContent-Type: application/json\r\n\r\n${JSON.stringify({ title, mimeType: 'text/plain' })}\r\n--${boundary}\r\nContent-Type: text/plain\r\n\r\n${text}\r\n--${boundary}--`;
  const response = await fetch(`${emulatorUrl()}${path}`, {
    method: fileId ? 'PUT' : 'POST',
    headers: { Authorization: `Bearer ${await emulatorToken()}`, 'Content-Type': fileId ? 'text/plain' : `multipart/related; boundary=${boundary}` },
    body,
  });
  assert.equal(response.status, 200);
  return (await response.json()) as ApiFile;
}

async function contentOf(fileId: string, revisionId?: string): Promise<string> {
  const query = revisionId ? `&revisionId=${revisionId}` : '';
  const response = await fetch(`${emulatorUrl()}/drive/v2/files/${fileId}?alt=media${query}`, { headers: { Authorization: `Bearer ${await emulatorToken()}` } });
  return response.text();
}

const revisionsOf = async (fileId: string): Promise<DriveRevision[]> => (await emulatorRequest<{ items: DriveRevision[] }>('GET', `/drive/v2/files/${fileId}/revisions`)).body.items;
/** A label as read here: a field it does not set is absent from `fields`. */
type LabelRead = Omit<DriveLabel, 'fields'> & { fields?: Partial<NonNullable<DriveLabel['fields']>> };
const labelsOf = async (fileId: string): Promise<LabelRead[]> => (await emulatorRequest<{ items: LabelRead[] }>('GET', `/drive/v2/files/${fileId}/listLabels`)).body.items;

describe('Drive revision history and labels in VS Code', function () {
  this.timeout(60000);
  let api: DeskApi;
  let problems: string[];
  let errors: string[];
  let confirmations: string[];

  /** Answers the dialogs in order; once the script is done, every further question is dismissed (Escape). */
  function script(steps: readonly DialogStep[]): void {
    scriptDialogs(stubs, steps, problems);
  }

  /** Confirms every modal with its action (and records what was asked). */
  function confirmAll(): void {
    stubs.stub('showWarningMessage', async (message: unknown, _options: unknown, ...actions: unknown[]) => {
      confirmations.push(String(message));
      return actions[0];
    });
  }

  /** A text file with three versions: "one", "two", "three". */
  async function fileWithHistory(): Promise<{ file: ApiFile; revisions: DriveRevision[] }> {
    const file = await upload(undefined, 'one\n', `history-${randomBytes(3).toString('hex')}.txt`);
    await upload(file.id, 'two\n');
    await upload(file.id, 'three\n');
    const revisions = await revisionsOf(file.id);
    assert.equal(revisions.length, 3);
    return { file, revisions };
  }

  function activeDiff(): vscode.TabInputTextDiff {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(input instanceof vscode.TabInputTextDiff, `the active tab is a diff editor (${vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? 'none'})`);
    return input;
  }

  async function textAt(uri: vscode.Uri): Promise<string> {
    return (await vscode.workspace.openTextDocument(uri)).getText();
  }

  before(async () => {
    api = await activateAndSignIn();
  });

  beforeEach(() => {
    problems = [];
    errors = [];
    confirmations = [];
    stubs.stub('showErrorMessage', async (message: unknown) => {
      errors.push(String(message));
      return undefined;
    });
    stubs.stub('showInformationMessage', async () => undefined);
  });

  afterEach(async () => {
    stubs.restore();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opens an old version read-only and compares it with the current content and with another version', async () => {
    const { file, revisions } = await fileWithHistory();
    const [first, second] = revisions as [DriveRevision, DriveRevision];

    await vscode.commands.executeCommand('desk.drive.openRevision', { fileId: file.id, revisionId: first.id });
    const editor = await eventually('the old version in an editor', () => vscode.window.activeTextEditor?.document.uri.scheme === 'desk-drive-revision' ? vscode.window.activeTextEditor : undefined);
    assert.equal(editor.document.getText(), 'one\n');
    assert.match(editor.document.uri.path, /\(version 1\)\.txt$/);
    // A content provider's document: an edit leaves it as it was, and there is nothing to save it to.
    await editor.edit((builder) => { builder.insert(new vscode.Position(0, 0), 'x'); });
    assert.equal(editor.document.getText(), 'one\n', 'the old version is read-only');
    assert.equal(editor.document.isDirty, false);
    assert.equal(await editor.document.save(), false);

    await vscode.commands.executeCommand('desk.drive.compareRevisionWithCurrent', { fileId: file.id, revisionId: first.id });
    let diff = await eventually('a diff editor', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff ? input : undefined;
    });
    assert.equal(diff.original.scheme, 'desk-drive-revision');
    assert.equal(diff.modified.scheme, 'desk-drive');
    assert.equal(await textAt(diff.original), 'one\n');
    assert.equal(await textAt(diff.modified), 'three\n');
    assert.match(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '', /version 1\) ↔ current/);

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('desk.drive.compareRevisions', { fileId: file.id, revisionId: second.id, otherRevisionId: first.id });
    diff = activeDiff();
    assert.equal(await textAt(diff.original), 'one\n', 'the older version on the left');
    assert.equal(await textAt(diff.modified), 'two\n');
    assert.deepEqual(errors, []);
  });

  it('restores an old version (confirmed), pins one through the history picker, and deletes one (confirmed)', async () => {
    const { file, revisions } = await fileWithHistory();
    const [first, second] = revisions as [DriveRevision, DriveRevision];
    // The file is open: the restore reloads it.
    const open = await vscode.workspace.openTextDocument(driveUri(vscode, 'alice@example.com', file));
    assert.equal(open.getText(), 'three\n');
    confirmAll();
    await vscode.commands.executeCommand('desk.drive.restoreRevision', { fileId: file.id, revisionId: first.id });
    assert.deepEqual(errors, []);
    await eventually('the open editor to show the restored content', () => (open.getText() === 'one\n' ? true : undefined));
    assert.match(confirmations[0] ?? '', /Restore “history-.*\.txt” to version 1 of 3\?/);
    assert.equal(await contentOf(file.id), 'one\n');
    const after = await revisionsOf(file.id);
    assert.equal(after.length, 4, 'the replaced content stays in the history');
    assert.equal(await contentOf(file.id, after[2]?.id), 'three\n');

    // The history picker: version 2, then what to do with it.
    script([{ pick: /version 2$/ }, { pick: /Keep Forever/ }]);
    await vscode.commands.executeCommand('desk.drive.revisionHistory', { fileId: file.id });
    assert.deepEqual(problems, []);
    assert.equal((await revisionsOf(file.id)).find((revision) => revision.id === second.id)?.pinned, true);

    // Deleting never offers the current version.
    script([{ pick: /version 1$/ }]);
    await vscode.commands.executeCommand('desk.drive.deleteRevision', { fileId: file.id });
    assert.deepEqual(problems, []);
    assert.deepEqual(errors, []);
    const remaining = await revisionsOf(file.id);
    assert.equal(remaining.some((revision) => revision.id === first.id), false);
    assert.equal(remaining.length, 3);
    assert.ok(confirmations.some((message) => /Delete version 1 of/.test(message)));
  });

  it('applies a label, changes its typed fields with validated input, and removes it', async () => {
    const file = await upload(undefined, 'labelled\n', `labels-${randomBytes(3).toString('hex')}.txt`);
    confirmAll();
    // The label definitions need the Drive Labels permission: asked for (with consent) the first time.
    api.setAuthUrlOpener(consentBrowser('alice@example.com', (result) => {
      if (result instanceof Error) console.error(`consent failed: ${result.message}`);
    }));
    try {
      script([
        { pick: /Project/ },
        { pick: /^Budget/ }, { type: '1200', rejects: ['lots', '-5', '12.5', '2000000'] },
        { pick: /^Due date/ }, { type: '2026-06-30', rejects: ['30/06/2026', '2026-02-30'] },
        { pick: /^Status/ }, { pick: /^In progress/ },
        { pick: /^Owner/ }, { type: 'bob@example.com', rejects: ['bob', 'a@b.c, d@e.f'] },
        { pick: /Done/ },
      ]);
      await vscode.commands.executeCommand('desk.drive.applyLabel', { kind: 'file', item: file });
    } finally {
      api.setAuthUrlOpener(undefined);
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(errors, []);
    let label = (await labelsOf(file.id)).at(0);
    assert.equal(label?.id, 'deskProject');
    assert.deepEqual(label.fields?.budget?.integer, ['1200']);
    assert.deepEqual(label.fields.dueDate?.dateString, ['2026-06-30']);
    assert.deepEqual(label.fields.status?.selection, ['inProgress']);
    assert.equal(label.fields.owner?.user?.at(0)?.emailAddress, 'bob@example.com');

    // Change: a multi-valued field of another label, and clearing one of this label's.
    script([{ pick: /Project/ }, { pick: /^Budget/ }, { type: '' }, { pick: /^Status/ }, { pick: /^Done/ }, { pick: /Done/ }]);
    await vscode.commands.executeCommand('desk.drive.changeLabelFields', { kind: 'file', item: file });
    assert.deepEqual(problems, []);
    label = (await labelsOf(file.id)).at(0);
    assert.equal(label?.fields?.budget, undefined);
    assert.deepEqual(label?.fields?.status?.selection, ['done']);

    script([{ pick: /Project/ }]);
    await vscode.commands.executeCommand('desk.drive.removeLabel', { kind: 'file', item: file });
    assert.deepEqual(problems, []);
    assert.deepEqual(errors, []);
    assert.deepEqual(await labelsOf(file.id), []);
    assert.ok(confirmations.some((message) => /Remove the label “Project”/.test(message)));
  });
});
