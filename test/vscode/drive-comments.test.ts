// Drive comments inside a real extension host, against the harness's emulator: a file of alice's that bob comments
// on (seeded through the API) opens with its comments as threads at their lines; reply, resolve and reopen, edit and
// delete one's own words, add a comment on a selection; the tree's Comments node lists them and opens the file at one.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fetch from 'node-fetch';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import { lineAnchor, parseAnchor } from '../../src/features/drive/comments/anchors';
import type { CommentNode, CommentsNode } from '../../src/features/drive/comments/nodes';
import type { DriveCommentEntry } from '../../src/features/drive/comments/threads';
import { driveUri } from '../../src/features/drive/fs/driveFileSystem';
import type { DriveNode, FileNode } from '../../src/features/drive/tree/model';
import type { DriveComment } from '../../src/shared/schemas/drive/comments';
import { activateAndSignIn, emulatorRequest, emulatorToken, emulatorUrl, eventually, labelText, WindowStubs } from './support';

const BOB = 'bob@example.com';
const TEXT = '# Review\n\nThe parser keeps every token.\nIt never backtracks.\nErrors carry positions.\n';

interface ApiFile { id: string; title: string }

/** A new text file of alice's in My Drive, shared with bob as a commenter. */
async function newFile(title: string, text: string): Promise<ApiFile> {
  const token = await emulatorToken();
  const created = await emulatorRequest<ApiFile>('POST', '/drive/v2/files', { title, mimeType: 'text/markdown', parents: [{ id: 'root' }] });
  assert.equal(created.status, 200);
  const upload = await fetch(`${emulatorUrl()}/upload/drive/v2/files/${created.body.id}?uploadType=media`, { method: 'PUT', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/markdown' }, body: text });
  assert.equal(upload.status, 200);
  const shared = await emulatorRequest('POST', `/drive/v2/files/${created.body.id}/permissions`, { type: 'user', role: 'commenter', emailAddress: BOB });
  assert.equal(shared.status, 200);
  return created.body;
}

async function comment(fileId: string, body: Record<string, unknown>, account = BOB): Promise<DriveComment> {
  const response = await emulatorRequest<DriveComment>('POST', `/drive/v2/files/${fileId}/comments`, body, account);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body;
}

async function remote(fileId: string, commentId: string): Promise<DriveComment> {
  return (await emulatorRequest<DriveComment>('GET', `/drive/v2/files/${fileId}/comments/${commentId}`)).body;
}

/** Desk's entries of a comment thread (VS Code's API types a thread's comments as plain vscode.Comment). */
function isDriveEntry(comment: vscode.Comment): comment is DriveCommentEntry {
  return 'target' in comment;
}

const stubs = new WindowStubs();

describe('Drive comments in VS Code', function () {
  this.timeout(60000);
  let api: DeskApi;
  let file: ApiFile;
  let anchored: DriveComment;
  let quoted: DriveComment;
  let loose: DriveComment;

  async function openFile(): Promise<vscode.TextEditor> {
    const document = await vscode.workspace.openTextDocument(driveUri(vscode, 'alice@example.com', file));
    return vscode.window.showTextDocument(document);
  }

  function thread(document: vscode.TextDocument, commentId: string): Promise<vscode.CommentThread> {
    return eventually(`the thread of ${commentId}`, () => api.drive.comments.threadOf(document, commentId));
  }

  async function fileRow(target: ApiFile = file): Promise<FileNode> {
    const roots = await api.drive.provider.getChildren();
    const myDrive = roots.find((root) => root.kind === 'section' && root.section === 'myDrive');
    assert.ok(myDrive);
    api.drive.provider.refresh(myDrive as Extract<DriveNode, { kind: 'section' }>);
    const rows = await api.drive.provider.getChildren(myDrive);
    const row = rows.find((node): node is FileNode => node.kind === 'file' && node.item.id === target.id);
    assert.ok(row, `no ${target.title} in My Drive`);
    return row;
  }

  before(async () => {
    api = await activateAndSignIn();
    file = await newFile(`review-${randomBytes(3).toString('hex')}.md`, TEXT);
    // Line 3 (0-based 2) by Desk's anchor; an anchor Desk cannot read whose quote is on line 5; nothing to place by.
    anchored = await comment(file.id, { content: 'Every token? Even whitespace?', anchor: lineAnchor({ start: 2, end: 2 }, 6), context: { type: 'text/plain', value: 'The parser keeps every token.' } });
    quoted = await comment(file.id, { content: 'Line and column, please.', anchor: 'kix.4f2a', context: { type: 'text/html', value: 'Errors carry <b>positions</b>.' } });
    loose = await comment(file.id, { content: 'Nice write-up overall.' });
  });

  afterEach(async () => {
    stubs.restore();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('draws a file row as a file (no expand arrow) until it is known to have comments, learnt when hovered', async () => {
    const quiet = await newFile(`quiet-${randomBytes(3).toString('hex')}.md`, TEXT);
    const talked = await newFile(`talked-${randomBytes(3).toString('hex')}.md`, TEXT);
    await comment(talked.id, { content: 'One remark.' });
    for (const target of [quiet, talked]) {
      const row = await fileRow(target);
      const item = api.drive.provider.getTreeItem(row);
      assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.None, `${target.title} expands before anything is known`);
      await api.drive.provider.resolveTreeItem(item, row);
    }
    const talkedRow = await eventually('the commented file to expand', async () => {
      const row = await fileRow(talked);
      return api.drive.provider.getTreeItem(row).collapsibleState === vscode.TreeItemCollapsibleState.Collapsed ? row : undefined;
    });
    assert.match(String(api.drive.provider.getTreeItem(talkedRow).description), /1 comment$/);
    const [group] = await api.drive.provider.getChildren(talkedRow);
    assert.equal(labelText(api.drive.provider.getTreeItem(group as CommentsNode)), 'Comments (1)');
    // The file without comments was asked about too, and stays a plain row.
    await eventually('the quiet file\'s comments', () => (api.drive.comments.store.cached(quiet.id) ? true : undefined));
    const quietItem = api.drive.provider.getTreeItem(await fileRow(quiet));
    assert.equal(quietItem.collapsibleState, vscode.TreeItemCollapsibleState.None);
    assert.doesNotMatch(String(quietItem.description), /comment/);
  });

  it('shows the comments of a Drive file as threads at their anchor, their quoted text, or the top', async () => {
    const { document } = await openFile();
    const first = await thread(document, anchored.commentId);
    assert.equal(first.range?.start.line, 2);
    assert.equal((await thread(document, quoted.commentId)).range?.start.line, 4, 'an unreadable anchor falls back to the quoted text');
    assert.equal((await thread(document, loose.commentId)).range?.start.line, 0, 'no anchor, no quote: the top');
    assert.equal(first.comments.length, 1);
    assert.equal(first.comments[0]?.author.name, 'Bob Demo');
    assert.equal(first.comments[0]?.body, 'Every token? Even whitespace?');
    assert.equal(first.state, vscode.CommentThreadState.Unresolved);
    assert.equal(first.contextValue, 'driveThread open', 'bob\'s comment: no "mine", so no Edit or Delete for alice');
    assert.equal(first.comments[0]?.contextValue, 'driveComment comment');
    assert.equal(first.label, '“The parser keeps every token.”');
  });

  it('replies from the thread, resolves from its title, reopens from the palette', async () => {
    const { document } = await openFile();
    const target = await thread(document, anchored.commentId);
    await vscode.commands.executeCommand('desk.drive.replyComment', { thread: target, text: '  Whitespace too.  ' });
    assert.deepEqual((await remote(file.id, anchored.commentId)).replies?.map((reply) => reply.content), ['Whitespace too.']);
    assert.equal(target.comments.length, 2);
    assert.equal(target.comments[1]?.author.name, 'Alice Demo');
    assert.equal(target.comments[1]?.contextValue, 'driveComment reply mine', 'alice may edit and delete her reply');

    await vscode.commands.executeCommand('desk.drive.resolveComment', target);
    assert.equal((await remote(file.id, anchored.commentId)).status, 'resolved');
    assert.equal(target.state, vscode.CommentThreadState.Resolved);
    assert.equal(target.contextValue, 'driveThread resolved');
    assert.equal(target.collapsibleState, vscode.CommentThreadCollapsibleState.Collapsed);

    // From the palette: a pick of the resolved comments of the active Drive document.
    const offered: string[] = [];
    stubs.stub('showQuickPick', async (items: unknown) => {
      const list = (await items) as (vscode.QuickPickItem & { comment: DriveComment })[];
      offered.push(...list.map((item) => item.label));
      return list.find((item) => item.comment.commentId === anchored.commentId);
    });
    await vscode.commands.executeCommand('desk.drive.reopenComment');
    assert.equal(offered.length, 1, `only resolved comments are offered: ${offered.join(' | ')}`);
    assert.equal((await remote(file.id, anchored.commentId)).status, 'open');
    // Unresolved and unfolded again: both can land a moment apart (the fold of the resolve may still be on its way).
    await eventually('the reopened thread, unfolded', () => (target.state === vscode.CommentThreadState.Unresolved && target.collapsibleState === vscode.CommentThreadCollapsibleState.Expanded ? true : undefined));
  });

  it('edits and deletes only one\'s own words: the entry goes into edit mode, Save writes it, Delete asks first', async () => {
    const { document } = await openFile();
    const target = await thread(document, anchored.commentId);
    const mine = target.comments.find((entry) => entry.contextValue?.includes('mine')) as DriveCommentEntry | undefined;
    assert.ok(mine?.target.replyId, 'alice\'s reply from the previous test');
    await vscode.commands.executeCommand('desk.drive.editComment', mine);
    assert.equal(mine.mode, vscode.CommentMode.Editing);
    mine.body = 'Whitespace and comments too.';
    await vscode.commands.executeCommand('desk.drive.saveComment', mine);
    const after = await remote(file.id, anchored.commentId);
    assert.equal(after.replies?.find((reply) => reply.replyId === mine.target.replyId)?.content, 'Whitespace and comments too.');
    assert.equal(target.comments.filter(isDriveEntry).find((entry) => entry.target.replyId === mine.target.replyId)?.mode, vscode.CommentMode.Preview);

    const asked: unknown[] = [];
    stubs.stub('showWarningMessage', async (...args: unknown[]) => {
      asked.push(args[0]);
      return 'Delete';
    });
    await vscode.commands.executeCommand('desk.drive.deleteComment', mine);
    assert.deepEqual(asked, ['Delete this reply?']);
    // What is left are the resolve and reopen of the previous test, shown as such.
    const left = (await remote(file.id, anchored.commentId)).replies ?? [];
    assert.deepEqual(left.map((reply) => reply.verb), ['resolve', 'reopen']);
    assert.deepEqual(target.comments.map((entry) => entry.label), [undefined, 'resolved', 'reopened']);
  });

  it('adds a comment on the selected lines, anchored and quoted so it is found again; and from a new thread\'s box', async () => {
    const editor = await openFile();
    editor.selection = new vscode.Selection(3, 3, 3, 10);
    stubs.stub('showInputBox', async () => 'Why not?');
    const added = await vscode.commands.executeCommand<DriveComment | undefined>('desk.drive.addComment');
    assert.ok(added?.commentId);
    const stored = await remote(file.id, added.commentId);
    assert.equal(stored.content, 'Why not?');
    assert.deepEqual(parseAnchor(stored.anchor), { kind: 'line', start: 3, count: 1 });
    assert.equal(stored.context?.value, 'It never backtracks.');
    const shown = await thread(editor.document, added.commentId);
    assert.equal(shown.range?.start.line, 3);
    assert.equal(shown.contextValue, 'driveThread open mine');

    // The gutter's "+" makes an empty thread; its Add button sends the typed text for the thread's lines.
    let disposed = false;
    const draft = { uri: editor.document.uri, range: new vscode.Range(0, 0, 0, 0), comments: [], dispose: () => { disposed = true; } };
    const fromBox = await vscode.commands.executeCommand<DriveComment>('desk.drive.createComment', { thread: draft, text: 'Title case?' });
    assert.equal((await remote(file.id, fromBox.commentId)).context?.value, '# Review');
    assert.equal(disposed, true, 'the draft gives way to Drive\'s thread');
    assert.equal((await thread(editor.document, fromBox.commentId)).range?.start.line, 0);
  });

  it('lists the comments under the file in the tree, and a comment row opens the file at its line', async () => {
    const row = await fileRow();
    assert.equal(api.drive.provider.getTreeItem(row).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    const group = (await api.drive.provider.getChildren(row)).at(0);
    assert.equal(group?.kind, 'comments');
    const expected = (await emulatorRequest<{ items: DriveComment[] }>('GET', `/drive/v2/files/${file.id}/comments`)).body.items;
    assert.equal(labelText(api.drive.provider.getTreeItem(group)), `Comments (${expected.length})`);
    const rows = (await api.drive.provider.getChildren(group)) as CommentNode[];
    const labels = rows.map((node) => labelText(api.drive.provider.getTreeItem(node)));
    assert.ok(labels.includes('Bob Demo: Line and column, please.'), labels.join(' | '));
    const quotedRow = rows.find((node) => node.comment.commentId === quoted.commentId);
    assert.ok(quotedRow);
    assert.equal(api.drive.provider.getTreeItem(quotedRow).contextValue, 'driveComment open');
    await vscode.commands.executeCommand('desk.drive.openComment', quotedRow);
    const editor = await eventually('the editor at the comment', () => (vscode.window.activeTextEditor?.document.uri.query.includes(file.id) ? vscode.window.activeTextEditor : undefined));
    assert.equal(editor.selection.active.line, 4);

    // Resolving from the row's menu: the row says so.
    await vscode.commands.executeCommand('desk.drive.resolveComment', quotedRow);
    const refreshed = await eventually('the resolved row', async () => {
      const [again] = await api.drive.provider.getChildren(row);
      const found = ((await api.drive.provider.getChildren(again)) as CommentNode[]).find((node) => node.comment.commentId === quoted.commentId);
      return found && found.comment.status === 'resolved' ? found : undefined;
    });
    assert.equal(api.drive.provider.getTreeItem(refreshed).description, 'Resolved');
    assert.equal(api.drive.provider.getTreeItem(refreshed).contextValue, 'driveComment resolved');
  });

  it('Show Comments picks a comment of the active file and shows its thread', async () => {
    await openFile();
    stubs.stub('showQuickPick', async (items: unknown) => ((await items) as (vscode.QuickPickItem & { comment: DriveComment })[]).find((item) => item.comment.commentId === anchored.commentId));
    await vscode.commands.executeCommand('desk.drive.showComments');
    const editor = await eventually('the editor', () => vscode.window.activeTextEditor);
    assert.equal(editor.selection.active.line, 2);
  });

  it('reloads the threads when the file is reopened, and re-places them after another client changes the file', async () => {
    const later = await comment(file.id, { content: 'One more thing.', anchor: lineAnchor({ start: 4, end: 4 }, 6), context: { type: 'text/plain', value: 'Errors carry positions.' } });
    const { document } = await openFile();
    assert.equal((await thread(document, later.commentId)).range?.start.line, 4, 'the reopened file shows a comment made while it was closed');

    // Another client inserts two lines at the top: the change poller reloads the file, its threads follow their text.
    await eventually('the change poller', () => (api.drive.changesState().polling ? true : undefined));
    const token = await emulatorToken();
    const upload = await fetch(`${emulatorUrl()}/upload/drive/v2/files/${file.id}?uploadType=media`, { method: 'PUT', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/markdown' }, body: `Draft\n\n${TEXT}` });
    assert.equal(upload.status, 200);
    await eventually('the threads to follow their text', () => {
      api.drive.pollChangesNow();
      return api.drive.comments.threadOf(document, later.commentId)?.range?.start.line === 6 ? true : undefined;
    }, 20000);
    assert.equal(api.drive.comments.threadOf(document, anchored.commentId)?.range?.start.line, 4);
  });
});
