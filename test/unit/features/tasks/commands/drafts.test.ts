// Add / Edit Task: text typed and left with Escape on a later step (or a failed save) comes back the next time the same dialog is opened for the same task; a save drops it.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { Drafts } from '../../../../../src/core/ui/drafts';
import type { TaskCommandContext } from '../../../../../src/features/tasks/commands/context';
import { TaskPrompts } from '../../../../../src/features/tasks/commands/prompts';
import { TaskItemCommands } from '../../../../../src/features/tasks/commands/tasks';
import type { TasksNode } from '../../../../../src/features/tasks/tree/nodes';
import type { TasksTreeProvider } from '../../../../../src/features/tasks/tree/treeProvider';
import type { Task, TaskList, TaskWrite } from '../../../../../src/shared/schemas/tasks';
import { fakeVscode } from '../../../../support/fakeVscode';

interface Step { title: string; prompt: string; value: string }
/** What the user does in one input box: type `text` (undefined: leave it as it is), then accept or press Escape. */
interface Action { type?: string; escape?: boolean }

/** Task commands over fake VS Code input boxes that play `actions` in order, and a Tasks API holding `task`. */
function taskCommands(task: Task) {
  const steps: Step[] = [];
  let actions: Action[] = [];
  const updates: TaskWrite[] = [];
  const inserts: string[] = [];
  const base = fakeVscode();
  const window = {
    ...base.window,
    showInputBox: async (options: vscode.InputBoxOptions) => {
      steps.push({ title: options.title ?? '', prompt: options.prompt ?? '', value: options.value ?? '' });
      const action = actions.shift() ?? {};
      const text = action.type ?? options.value ?? '';
      // VS Code validates the box's text as it changes.
      await options.validateInput?.(text);
      return action.escape ? undefined : text;
    },
    showWarningMessage: async () => undefined,
  };
  const vs = { ...base, window, InputBoxValidationSeverity: { Info: 1, Warning: 2, Error: 3 }, env: { ...base.env, language: 'en-GB' } } as unknown as typeof vscode;
  const list = { id: 'l1', title: 'Home' } as TaskList;
  const api = {
    getTask: async () => task,
    updateTask: async (_list: string, _id: string, body: TaskWrite) => { updates.push(body); return { ...task, ...body } as Task; },
    insertTask: async (_list: string, body: { title: string }) => { inserts.push(body.title); return { id: 'new', title: body.title, status: 'needsAction' } as Task; },
  };
  const tree = { refreshList: () => undefined } as unknown as TasksTreeProvider;
  const context = { desk: { vs, showError: async () => undefined, log: { debug: () => undefined } }, api, tree, view: { visible: false }, prompts: new TaskPrompts(vs, tree), drafts: new Drafts(),
    // Online: every write is sent (the offline queue is tested in features/tasks/offline.test.ts).
    offline: { orKeep: async <T>(write: () => Promise<T>) => ({ value: await write(), kept: false }) } } as unknown as TaskCommandContext;
  const node = { kind: 'task', listId: list.id, list: { list }, task } as unknown as TasksNode;
  const listNode = { kind: 'list', list } as unknown as TasksNode;
  return { commands: new TaskItemCommands(context), node, listNode, steps, updates, inserts, play: (next: Action[]) => { actions = next; steps.length = 0; } };
}

describe('Tasks: text typed in a dialog left with Escape', () => {
  const task: Task = { id: 't1', title: 'Renew passport', notes: 'photo booth', status: 'needsAction' } as Task;

  it('Edit Task starts with the title and notes typed last time, says so, and a save drops them', async () => {
    const { commands, node, steps, updates, play } = taskCommands(task);
    play([{ type: 'Renew passport and ID card' }, { type: 'photo booth, form B' }, { type: 'fri', escape: true }]);
    assert.equal(await commands.editTask(node), undefined);
    assert.equal(updates.length, 0);

    play([{ escape: true }]);
    await commands.editTask(node);
    assert.equal(steps[0]?.value, 'Renew passport and ID card');
    assert.match(steps[0]?.prompt ?? '', /unsaved text from last time/);

    play([{}, {}, {}]);
    await commands.editTask(node);
    assert.deepEqual(steps.map((step) => step.value), ['Renew passport and ID card', 'photo booth, form B', 'fri']);
    assert.equal(updates[0]?.title, 'Renew passport and ID card');
    assert.equal(updates[0]?.notes, 'photo booth, form B');
    assert.ok(updates[0]?.due);

    // Saved: the next edit starts from the task itself.
    play([{ escape: true }]);
    await commands.editTask(node);
    assert.equal(steps[0]?.value, 'Renew passport');
    assert.doesNotMatch(steps[0]?.prompt ?? '', /unsaved/);
  });

  it('keeps the text of the step where Escape was pressed, and only for the same task', async () => {
    const { commands, node, steps, play } = taskCommands(task);
    play([{ type: 'Renew passport today', escape: true }]);
    await commands.editTask(node);
    play([{ escape: true }]);
    await commands.editTask(node);
    assert.equal(steps[0]?.value, 'Renew passport today');

    const other = taskCommands({ ...task, id: 't2', title: 'Water the plants' } as Task);
    other.play([{ escape: true }]);
    await other.commands.editTask(other.node);
    assert.equal(other.steps[0]?.value, 'Water the plants');
  });

  it('Add Task starts with the title typed last time until it is added', async () => {
    const { commands, listNode, steps, inserts, play } = taskCommands(task);
    play([{ type: 'Book the ferry', escape: true }]);
    assert.equal(await commands.addTask(listNode), undefined);
    play([{}]);
    await commands.addTask(listNode);
    assert.equal(steps[0]?.value, 'Book the ferry');
    assert.match(steps[0]?.prompt ?? '', /unsaved text from last time/);
    assert.deepEqual(inserts, ['Book the ferry']);
    play([{ escape: true }]);
    await commands.addTask(listNode);
    assert.equal(steps[0]?.value, '');
  });
});
