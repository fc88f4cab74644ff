// Which account a command run without a row acts in when several accounts are signed in (core/commands.ts): the
// selected row's or the active Desk document's when that is clear, else the account the user picks; nothing asked
// with one account, inside an account's operation, or for a command that does not act in one account.
import * as assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import type * as vscode from 'vscode';
import { registerCommands, RegisterOptions } from '../../../src/core/commands';
import type { CommandId } from '../../../src/config/commandIds';

const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';

function setUp(options: { accounts?: string[]; editor?: string; pick?: string } = {}) {
  const handlers = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  const asked: string[] = [];
  const store = new AsyncLocalStorage<string>();
  const editor = options.editor ? { document: { uri: { scheme: options.editor.split(':')[0], authority: options.editor.split('//')[1]?.split('/')[0] ?? '' } } } : undefined;
  const vs = {
    commands: { registerCommand: (id: string, handler: (...args: unknown[]) => Promise<unknown>) => { handlers.set(id, handler); return { dispose: () => undefined }; } },
    window: { activeTextEditor: editor },
  } as unknown as typeof vscode;
  const session = {
    accounts: (options.accounts ?? [ALICE, BOB]).map((email) => ({ email })),
    get operationAccount() { return store.getStore(); },
    runAs: <T>(account: string, work: () => Promise<T>) => store.run(account, work),
    chooseAccount: async () => {
      asked.push('which account');
      return options.pick;
    },
  };
  const desk = { vs, showError: async () => undefined, session };
  const ran: Array<string | undefined> = [];
  const record = () => {
    ran.push(store.getStore());
    return 'done';
  };
  const register = (registerOptions: RegisterOptions) => registerCommands(desk, { ['desk.tasks.completeTask' as CommandId]: record, ['desk.tasks.refresh' as CommandId]: record }, registerOptions);
  const run = (id: string, ...args: unknown[]) => handlers.get(id)?.(...args);
  return { register, run, ran, asked, store };
}

describe('Commands run without a row: which account (several signed in)', () => {
  it('asks which account for an askAccount command, and runs it as the one picked; closing the question runs nothing', async () => {
    const picked = setUp({ pick: BOB });
    picked.register({ askAccount: ['desk.tasks.completeTask'] });
    await picked.run('desk.tasks.completeTask');
    assert.deepEqual(picked.asked, ['which account']);
    assert.deepEqual(picked.ran, [BOB]);
    const closed = setUp({ pick: undefined });
    closed.register({ askAccount: ['desk.tasks.completeTask'] });
    assert.equal(await closed.run('desk.tasks.completeTask'), undefined);
    assert.deepEqual(closed.ran, []);
  });

  it('takes the active Desk document\'s account without asking, unless that account is not signed in', async () => {
    const clear = setUp({ editor: `desk-tasks://${BOB}/list/task` });
    clear.register({ askAccount: ['desk.tasks.completeTask'] });
    await clear.run('desk.tasks.completeTask');
    assert.deepEqual(clear.asked, []);
    assert.deepEqual(clear.ran, [BOB]);
    const gone = setUp({ editor: 'desk-tasks://carol@example.com/list/task', pick: ALICE });
    gone.register({ askAccount: ['desk.tasks.completeTask'] });
    await gone.run('desk.tasks.completeTask');
    assert.deepEqual(gone.asked, ['which account']);
    assert.deepEqual(gone.ran, [ALICE]);
  });

  it('takes the selected row\'s account (clearAccount) for a followAccount command, and asks nothing when none is clear', async () => {
    const selected = setUp();
    selected.register({ followAccount: ['desk.tasks.completeTask'], clearAccount: () => BOB });
    await selected.run('desk.tasks.completeTask');
    assert.deepEqual(selected.ran, [BOB]);
    const none = setUp();
    none.register({ followAccount: ['desk.tasks.completeTask'], clearAccount: () => undefined });
    await none.run('desk.tasks.completeTask');
    assert.deepEqual(none.asked, []);
    assert.deepEqual(none.ran, [undefined]);
  });

  it('asks nothing with one account, for a command not listed, or inside an account\'s operation', async () => {
    const one = setUp({ accounts: [ALICE] });
    one.register({ askAccount: ['desk.tasks.completeTask'] });
    await one.run('desk.tasks.completeTask');
    const unlisted = setUp({ editor: `desk-tasks://${BOB}/x` });
    unlisted.register({ askAccount: ['desk.tasks.completeTask'] });
    await unlisted.run('desk.tasks.refresh');
    assert.deepEqual(unlisted.ran, [undefined], 'a refresh of every account stays one');
    const inside = setUp({ editor: `desk-tasks://${ALICE}/x` });
    inside.register({ askAccount: ['desk.tasks.completeTask'] });
    await inside.store.run(BOB, async () => inside.run('desk.tasks.completeTask'));
    assert.deepEqual([...one.asked, ...unlisted.asked, ...inside.asked], []);
    assert.deepEqual(inside.ran, [BOB], 'a search hit opened as bob stays bob\'s');
  });
});
