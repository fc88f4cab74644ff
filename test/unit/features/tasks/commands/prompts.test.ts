// Choosing a task from the palette: the picker writes each due date as the Tasks view's row does, never as the API's date.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { TaskPrompts } from '../../../../../src/features/tasks/commands/prompts';
import type { TasksTreeProvider } from '../../../../../src/features/tasks/tree/treeProvider';
import type { Task, TaskList } from '../../../../../src/shared/schemas/tasks';
import { fakeVscode } from '../../../../support/fakeVscode';

/** A date `days` from today as the API keeps a due date (midnight UTC). */
function dueIn(days: number): string {
  const today = new Date();
  return new Date(Date.UTC(today.getFullYear(), today.getMonth(), today.getDate() + days)).toISOString();
}

describe('Tasks: choosing a task', () => {
  it('writes due dates in the picker as the tree rows do ("tomorrow", "· overdue"), not as YYYY-MM-DD', async () => {
    const list: TaskList = { id: 'l1', title: 'Home' } as TaskList;
    const tasks: Task[] = [
      { id: 't1', title: 'Renew passport', status: 'needsAction', due: dueIn(1) } as Task,
      { id: 't2', title: 'Pay rent', status: 'needsAction', due: dueIn(-3) } as Task,
      { id: 't3', title: 'Water the plants', status: 'needsAction' } as Task,
    ];
    const offered: vscode.QuickPickItem[][] = [];
    const base = fakeVscode();
    const vs = {
      ...base,
      env: { ...base.env, language: 'en-GB' },
      window: { ...base.window, showQuickPick: async (items: vscode.QuickPickItem[]) => { offered.push(items); return items.find((item) => item.label === 'Home'); } },
    } as unknown as typeof vscode;
    const tree = { taskLists: async () => [list], allTasks: async () => tasks.map((task) => ({ task, children: [] })) } as unknown as Pick<TasksTreeProvider, 'taskLists' | 'allTasks'>;
    await new TaskPrompts(vs, tree).resolveTask(undefined, 'Edit which task?');
    const descriptions = offered.at(1)?.map((item) => item.description);
    assert.equal(descriptions?.[0], 'tomorrow');
    assert.match(descriptions[1] ?? '', / · overdue$/);
    assert.equal(descriptions[2], '');
    assert.ok(!descriptions.some((text) => /\d{4}-\d{2}-\d{2}/.test(text ?? '')), descriptions.join(', '));
  });
});
