// Two accounts signed in at once, beyond the views (issue 29, item 2): alice, then bob added beside her through the
// real consent page. Search searches both and heads each group with its account, a hit opening as its account; a
// palette command acts in the selected row's or active Desk document's account, else asks which; the next-event status item weighs
// bob's calendar and says whose; each account has its own Drive change feed, saying whose, and signing bob out stops
// his feed only.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import type { DriveChangesState } from '../../src/features/drive';
import { consentBrowser } from '../support/consentBrowser';
import { freeHalfHourTomorrow, statusAt } from './statusClock';
import { activateAndSignIn, emulatorRequest, eventually, WindowStubs } from './support';

const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';

interface ApiList { id: string; title: string }
interface ApiTask { id: string; title: string; status: string }

describe('Two accounts at once: search, palette, next event and Drive changes in each account', function () {
  this.timeout(180000);
  let api: DeskApi;
  const stubs = new WindowStubs();
  const word = `Zebu${Date.now().toString(36)}`;
  const tasks: Array<{ account: string; listId: string; taskId: string }> = [];
  const cleanups: Array<() => Promise<unknown>> = [];
  let todoFile: vscode.Uri | undefined;
  let meetingStart = 0;

  async function signOutOf(account: string): Promise<void> {
    for (const session of await api.desk.auth.listSessions()) if (session.account.label === account) await api.desk.auth.removeSession(session.id);
    await api.desk.session.check();
  }

  const changesOf = async (account?: string): Promise<DriveChangesState> => vscode.commands.executeCommand<DriveChangesState>('desk.drive.changesState', account);

  before(async () => {
    api = await activateAndSignIn(ALICE);
    await signOutOf(BOB);
    stubs.stub('showInformationMessage', async () => undefined);
    for (const account of [ALICE, BOB]) {
      const list = ((await emulatorRequest<{ items?: ApiList[] }>('GET', '/tasks/v1/users/@me/lists', undefined, account)).body.items ?? [])[0];
      assert.ok(list, `${account} has a task list`);
      const task = (await emulatorRequest<ApiTask>('POST', `/tasks/v1/lists/${list.id}/tasks`, { title: `${word} ${account}` }, account)).body;
      tasks.push({ account, listId: list.id, taskId: task.id });
      cleanups.push(() => emulatorRequest('DELETE', `/tasks/v1/lists/${list.id}/tasks/${task.id}`, undefined, account));
    }
    // Bob's event, at a time nothing else of alice's or bob's touches: the status item is read on a clock set
    // half an hour before it (statusClock.ts), whatever the hour the suite runs.
    meetingStart = await freeHalfHourTomorrow('Europe/Berlin', [ALICE, BOB]);
    const event = (await emulatorRequest<{ id: string }>('POST', '/calendar/v3/calendars/primary/events', { summary: `${word} bob's meeting`, start: { dateTime: new Date(meetingStart).toISOString() }, end: { dateTime: new Date(meetingStart + 3_600_000).toISOString() } }, BOB)).body;
    cleanups.push(() => emulatorRequest('DELETE', `/calendar/v3/calendars/primary/events/${event.id}`, undefined, BOB));
    api.setAuthUrlOpener(consentBrowser(BOB, (result) => {
      if (result instanceof Error) console.error(`consent failed: ${result.message}`);
    }));
    try {
      await vscode.commands.executeCommand('desk.addAccount');
    } finally {
      api.setAuthUrlOpener(undefined);
    }
    assert.deepEqual(api.desk.session.accounts.map((account) => account.email), [ALICE, BOB]);
  });

  after(async () => {
    stubs.restore();
    api.search.picker?.quickPick.hide();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await signOutOf(BOB);
    for (const cleanup of cleanups) await cleanup();
  });

  it('searches both accounts, one group per account and service headed with name and e-mail; Enter opens bob\'s hit as bob', async () => {
    const chosen = api.search.run({ debounceMs: 0 });
    const picker = await eventually('the search pick', () => api.search.picker);
    picker.type(word);
    await eventually('both accounts\' services answering', () => {
      const state = picker.search.state;
      return state.query === word && state.groups.length === 8 && state.groups.every((group) => group.status !== 'searching') ? true : undefined;
    }, 60000);
    const items = picker.quickPick.items;
    const headers = items.filter((item) => item.kind === vscode.QuickPickItemKind.Separator).map((item) => item.label);
    assert.ok(headers.includes(`Alice Demo (${ALICE}) · Tasks`), headers.join(' | '));
    assert.ok(headers.includes(`Bob Demo (${BOB}) · Tasks`), headers.join(' | '));
    assert.ok(headers.indexOf(`Alice Demo (${ALICE}) · Tasks`) < headers.indexOf(`Bob Demo (${BOB}) · Tasks`), 'alice\'s groups first');
    const hits = items.filter((item) => item.role === 'hit' && item.service === 'tasks');
    assert.deepEqual(hits.map((item) => [item.label, item.account]), [[`${word} ${ALICE}`, ALICE], [`${word} ${BOB}`, BOB]], 'each account finds its own task only');
    const bobs = hits[1];
    assert.ok(bobs);
    picker.accept(bobs);
    const hit = await chosen;
    assert.equal((hit as { account?: string } | undefined)?.account, BOB);
    const bobTask = tasks.find((entry) => entry.account === BOB);
    const details = await eventually('bob\'s task details', () => vscode.workspace.textDocuments.find((document) => document.uri.scheme === 'desk-task' && document.uri.path.includes(bobTask?.taskId ?? '?')));
    assert.equal(details.uri.authority, BOB, 'opened as bob');
    assert.match(details.getText(), new RegExp(`${word} bob@example`), 'bob\'s task');
  });

  it('a palette command acts in the active Desk document\'s account without asking (bob\'s task details)', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const [alices, bobs] = [tasks.find((entry) => entry.account === ALICE), tasks.find((entry) => entry.account === BOB)];
    await vscode.window.showTextDocument(vscode.Uri.from({ scheme: 'desk-task', authority: BOB, path: `/${String(bobs?.listId)}/${String(bobs?.taskId)}.md`, query: 'list=x' }));
    const choose = (items: Array<{ label: string }>): { label: string } | undefined => items.find((item) => item.label === 'Bob Demo' || item.label.includes(`${word} ${BOB}`)) ?? items[0];
    const offered = stubs.answerPicks(choose, choose, choose);
    await vscode.commands.executeCommand('desk.tasks.completeTask');
    assert.ok(!offered.flat().some((item) => item.label === 'Alice Demo'), 'no account question');
    assert.ok(!offered.flat().some((item) => item.label.includes(ALICE)), 'only bob\'s tasks offered');
    const status = async (entry: { account: string; listId: string; taskId: string } | undefined): Promise<string> => (await emulatorRequest<ApiTask>('GET', `/tasks/v1/lists/${String(entry?.listId)}/tasks/${String(entry?.taskId)}`, undefined, entry?.account)).body.status;
    assert.equal(await status(bobs), 'completed');
    assert.equal(await status(alices), 'needsAction');
    const second = stubs.answerPicks(choose, choose, choose);
    await vscode.commands.executeCommand('desk.tasks.reopenTask');
    assert.ok(!second.flat().some((item) => item.label === 'Alice Demo'), 'no account question');
    assert.equal(await status(bobs), 'needsAction');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a palette command with no row or document to go by asks which account, and acts in the one chosen', async () => {
    // Another suite may have left alice's settings document open: the one this command opens is the new one.
    const isSettings = (document: vscode.TextDocument): boolean => document.uri.scheme === 'desk-calendar-info';
    const open = new Set(vscode.workspace.textDocuments.filter(isSettings));
    const offered = stubs.pickByLabel(/Bob Demo/);
    await vscode.commands.executeCommand('desk.calendar.showSettings');
    assert.deepEqual(offered[0], ['Alice Demo', 'Bob Demo']);
    const settings = await eventually('the calendar settings document', () => vscode.workspace.textDocuments.find((document) => isSettings(document) && !open.has(document)));
    assert.equal(settings.uri.authority, BOB, 'bob\'s settings');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the next-event status item weighs bob\'s calendar too and says whose event it is', async () => {
    const before = meetingStart - 30 * 60_000;
    const status = await eventually('bob\'s meeting in the status item', () => {
      const at = statusAt(api, before);
      return at.event === `${word} bob's meeting` ? at : undefined;
    }, 60000);
    assert.equal(status.account, BOB);
    assert.match(status.text, /in 30 min: .* · Bob Demo$/);
  });

  /** The TODOs view's description of the row of the TODO in `file`, once its task is looked up (the view draws it). */
  async function todoRowDescription(file: string): Promise<string | undefined> {
    const view = api.todo.workspace;
    await view.settled();
    for (const section of await view.getChildren()) {
      for (const fileNode of await view.getChildren(section)) {
        for (const item of await view.getChildren(fileNode)) {
          if (item.kind !== 'todo' || !item.found.file.endsWith(file)) continue;
          view.getTreeItem(item);
          await view.settledTaskStates();
          return String(view.getTreeItem(item).description);
        }
      }
    }
    return undefined;
  }

  it('a TODO linked while both are signed in records bob\'s account in its marker, and completing it completes bob\'s task', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(folder, 'the test window has no workspace folder');
    const filePath = path.join(folder, 'todo-two-accounts.ts');
    fs.writeFileSync(filePath, `// TODO: ${word} in bob's tasks\n`);
    cleanups.push(async () => { fs.rmSync(filePath, { force: true }); });
    todoFile = vscode.Uri.file(filePath);
    const document = await vscode.workspace.openTextDocument(todoFile);
    await vscode.window.showTextDocument(document);
    let listId: string | undefined;
    stubs.answerPicks((items) => items.find((item) => item.label === 'Bob Demo'), (items) => {
      const first = items[0] as ({ list?: { id: string } } & typeof items[number]) | undefined;
      listId = first?.list?.id;
      return first;
    });
    const task = await vscode.commands.executeCommand<ApiTask | undefined>('desk.tasks.linkTodo', todoFile, 0);
    assert.ok(task, 'a task was created');
    const lists = ((await emulatorRequest<{ items?: ApiList[] }>('GET', '/tasks/v1/users/@me/lists', undefined, BOB)).body.items ?? []).map((list) => list.id);
    listId ??= lists[0];
    assert.ok(listId && lists.includes(listId), 'in one of bob\'s lists');
    cleanups.push(() => emulatorRequest('DELETE', `/tasks/v1/lists/${String(listId)}/tasks/${task.id}`, undefined, BOB));
    assert.equal(document.lineAt(0).text, `// TODO(task:${task.id}/${BOB}): ${word} in bob's tasks`);
    const completed = await vscode.commands.executeCommand<ApiTask | undefined>('desk.tasks.completeFromTodo', todoFile.toString(), 0);
    assert.equal(completed?.status, 'completed');
    assert.equal((await emulatorRequest<ApiTask>('GET', `/tasks/v1/lists/${listId}/tasks/${task.id}`, undefined, BOB)).body.status, 'completed', 'bob\'s task completed as bob');
    await document.save();
    // The TODOs view looks the task up in bob's account too (in alice's it does not exist).
    api.todo.workspace.forgetTask(task.id);
    const row = await eventually('the TODOs view\'s row of bob\'s marker', async () => {
      const description = await todoRowDescription('todo-two-accounts.ts');
      return description !== undefined && !description.includes('loading') ? description : undefined;
    }, 30000);
    assert.doesNotMatch(row, /not found/, row);
    assert.match(row, /completed|done/i, row);
  });

  it('follows each account\'s Drive changes in its own feed, saying whose; bob signing out stops his feed only', async () => {
    // Following, not only polling: a feed reports what changes after its start token, and bob's may still be fetching it.
    await eventually('both change feeds following', async () => ((await changesOf()).following && (await changesOf(BOB)).following && (await changesOf(BOB)).account === BOB ? true : undefined), 60000);
    const title = `${word}-bob.txt`;
    const created = await emulatorRequest<{ id: string }>('POST', '/drive/v2/files', { title, mimeType: 'text/plain', parents: [{ id: 'root' }] }, BOB);
    cleanups.push(() => emulatorRequest('DELETE', `/drive/v2/files/${created.body.id}`, undefined, BOB));
    const bobs = await eventually('bob\'s feed to see his new file', async () => {
      api.drive.pollChangesNow();
      const state = await changesOf(BOB);
      return state.entries.some((entry) => entry.title === title) ? state : undefined;
    }, 60000);
    assert.match(bobs.statusText, /· Bob Demo$/, 'bob\'s status item says whose');
    assert.equal((await changesOf()).entries.some((entry) => entry.title === title), false, 'alice\'s feed does not list bob\'s file');
    await signOutOf(BOB);
    const after = await changesOf(BOB);
    assert.equal(after.account, undefined, 'bob\'s feed is gone (the first account\'s answers)');
    assert.equal(after.polling, true, 'alice\'s feed goes on');
    // Bob's TODO, with bob signed out: Desk says whose it is, and looks nothing up in alice's account.
    assert.ok(todoFile, 'the TODO test ran');
    const said = stubs.collect('showInformationMessage');
    assert.equal(await vscode.commands.executeCommand('desk.tasks.completeFromTodo', todoFile.toString(), 0), undefined);
    assert.deepEqual(said, [`Sign in as ${BOB} to complete the task linked to this TODO.`]);
    assert.match(await todoRowDescription('todo-two-accounts.ts') ?? '', new RegExp(`sign in as ${BOB}`), 'the TODOs view says whose task it is');
  });
});
