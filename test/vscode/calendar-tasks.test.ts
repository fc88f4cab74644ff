// Due tasks in the Calendar's Agenda inside a real extension host, against the harness's emulator: a task due in two
// days appears on that day after the all-day events, counted; its checkbox completes it through the Tasks API and the
// Tasks view follows; reopening it in the Tasks view updates the Agenda; "Show in Tasks View" selects its row; the
// settings hide tasks (desk.calendar.showTasks) and completed ones (desk.tasks.showCompleted).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import { dateKey } from '../../src/features/calendar/time';
import type { CalendarTreeNode, DayNode, DueTaskNode } from '../../src/features/calendar/tree/model';
import { activateAndSignIn, emulatorRequest, eventually, labelText } from './support';

interface ApiTask { id: string; status: string; title: string }

describe('Due tasks in the Calendar Agenda', function () {
  this.timeout(60000);
  let api: DeskApi;
  let listId = '';
  let taskId = '';
  let dayKey = '';
  const title = `Submit the expense report ${Date.now()}`;

  const tree = () => api.calendar.tree;

  async function day(): Promise<DayNode | undefined> {
    const rows = await tree().getChildren(tree().agenda);
    return rows.find((row): row is DayNode => row.kind === 'day' && row.group.key === dayKey);
  }

  async function taskRow(): Promise<DueTaskNode | undefined> {
    const node = await day();
    if (!node) return undefined;
    const rows = await tree().getChildren(node);
    return rows.find((row): row is DueTaskNode => row.kind === 'dueTask' && row.dueTask.task.id === taskId);
  }

  /** The task's row in the Tasks view (its lists read first, as VS Code would when showing the view). */
  async function tasksViewRow() {
    await api.tasks.tree.getChildren();
    return api.tasks.tree.findTaskNode(listId, taskId);
  }

  const checkboxOf = (node: DueTaskNode): vscode.TreeItemCheckboxState | undefined => {
    const checkbox = tree().getTreeItem(node).checkboxState;
    return typeof checkbox === 'object' ? checkbox.state : checkbox;
  };

  async function emulatorTask(): Promise<ApiTask> {
    return (await emulatorRequest<ApiTask>('GET', `/tasks/v1/lists/${listId}/tasks/${taskId}`)).body;
  }

  before(async () => {
    api = await activateAndSignIn();
    const zone = await api.calendar.timeZone();
    dayKey = dateKey(Date.now() + 2 * 86_400_000, zone);
    listId = (await emulatorRequest<{ items: Array<{ id: string }> }>('GET', '/tasks/v1/users/@me/lists')).body.items[0]?.id ?? '';
    // An all-day event on the same day, to see the order.
    await emulatorRequest('POST', '/calendar/v3/calendars/primary/events', { summary: 'Conference day', start: { date: dayKey }, end: { date: dateKey(Date.parse(`${dayKey}T12:00:00Z`) + 86_400_000, 'UTC') } });
    await api.calendar.store.sync('primary');
  });

  after(async () => {
    await vscode.workspace.getConfiguration().update('desk.calendar.showTasks', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration().update('desk.tasks.showCompleted', undefined, vscode.ConfigurationTarget.Global);
  });

  it('shows a task made elsewhere once the Tasks view refreshes, on its day after the all-day events, and counts it', async () => {
    taskId = (await emulatorRequest<ApiTask>('POST', `/tasks/v1/lists/${listId}/tasks`, { title, due: `${dayKey}T00:00:00.000Z` })).body.id;
    await vscode.commands.executeCommand('desk.tasks.refresh');
    const row = await eventually('the task in the Agenda', () => taskRow());
    const item = tree().getTreeItem(row);
    assert.equal(labelText(item), title);
    assert.equal(checkboxOf(row), vscode.TreeItemCheckboxState.Unchecked);
    assert.match(String(item.description), /My Tasks|\w/);
    const dayNode = await day();
    assert.ok(dayNode);
    const kinds = (await tree().getChildren(dayNode)).map((child: CalendarTreeNode) => (child.kind === 'event' ? (child.occurrence.allDay ? 'all-day' : 'timed') : child.kind));
    const firstTask = kinds.indexOf('dueTask');
    assert.ok(kinds.lastIndexOf('all-day') < firstTask, `all-day events come first: ${kinds.join(', ')}`);
    assert.ok(kinds.indexOf('timed') === -1 || kinds.indexOf('timed') > kinds.lastIndexOf('dueTask'), `timed events come after the tasks: ${kinds.join(', ')}`);
    assert.match(String(tree().getTreeItem(dayNode).description), /\b\d+ tasks?\b/, 'the day counts its tasks');
  });

  it('completes the task from its checkbox through the Tasks API, and the Tasks view follows', async () => {
    const row = await eventually('the task row', () => taskRow());
    await api.calendar.agendaTasks.onCheckboxes([[row, vscode.TreeItemCheckboxState.Checked]]);
    assert.equal((await emulatorTask()).status, 'completed');
    const inTasks = await eventually('the Tasks view showing it completed', async () => {
      const node = await tasksViewRow();
      return node?.task.status === 'completed' ? node : undefined;
    });
    const checkbox = api.tasks.tree.getTreeItem(inTasks).checkboxState;
    assert.equal(typeof checkbox === 'object' ? checkbox.state : checkbox, vscode.TreeItemCheckboxState.Checked);
    const after = await eventually('the Agenda row checked', async () => {
      const current = await taskRow();
      return current && checkboxOf(current) === vscode.TreeItemCheckboxState.Checked ? current : undefined;
    });
    assert.match(String(tree().getTreeItem(after).description), /completed/);
  });

  it('follows a reopen in the Tasks view', async () => {
    const node = await eventually('the task in the Tasks view', () => tasksViewRow());
    await api.tasks.handleCheckboxes([[node, vscode.TreeItemCheckboxState.Unchecked]]);
    assert.equal((await emulatorTask()).status, 'needsAction');
    await eventually('the Agenda row unchecked', async () => {
      const current = await taskRow();
      return current && checkboxOf(current) === vscode.TreeItemCheckboxState.Unchecked ? true : undefined;
    });
  });

  it('"Show in Tasks View" selects the task\'s row there', async () => {
    const row = await eventually('the task row', () => taskRow());
    assert.equal(await vscode.commands.executeCommand('desk.calendar.showTaskInTasks', row), true);
    const selected = api.tasks.view.selection.at(0);
    assert.equal(selected?.kind === 'task' ? selected.task.id : undefined, taskId);
  });

  it('hides completed tasks with the Tasks setting, and all tasks with desk.calendar.showTasks', async () => {
    await emulatorRequest('PATCH', `/tasks/v1/lists/${listId}/tasks/${taskId}`, { status: 'completed' });
    await vscode.commands.executeCommand('desk.tasks.refresh');
    await eventually('the completed task in the Agenda', async () => ((await taskRow())?.dueTask.task.status === 'completed' ? true : undefined));
    await vscode.workspace.getConfiguration().update('desk.tasks.showCompleted', false, vscode.ConfigurationTarget.Global);
    await eventually('the completed task hidden', async () => ((await taskRow()) === undefined ? true : undefined));
    await vscode.workspace.getConfiguration().update('desk.tasks.showCompleted', undefined, vscode.ConfigurationTarget.Global);
    await eventually('the completed task back', () => taskRow());
    await vscode.workspace.getConfiguration().update('desk.calendar.showTasks', false, vscode.ConfigurationTarget.Global);
    await eventually('no task rows', async () => {
      const rows = await tree().getChildren(tree().agenda);
      const days = rows.filter((one): one is DayNode => one.kind === 'day');
      const children = (await Promise.all(days.map((one) => tree().getChildren(one)))).flat();
      return children.some((child) => child.kind === 'dueTask') ? undefined : true;
    });
  });
});
