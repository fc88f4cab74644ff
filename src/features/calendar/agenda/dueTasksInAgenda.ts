/**
 * Due tasks in the Calendar's Agenda, wired to VS Code: the store over the Tasks API, the settings that hide them
 * (desk.calendar.showTasks) or their completed ones (desk.tasks.showCompleted), the checkbox that completes a task
 * (then the Tasks view refreshes), "Show in Tasks View", and the Tasks view's own changes (through the push hub:
 * the features are separate bundles) making the Agenda read the tasks again.
 */
import type * as vscode from 'vscode';
import { TasksClient } from '../../../api/tasks';
import { attempt, registerCommands } from '../../../core/commands';
import type { DeskContext } from '../../../core/deskContext';
import { Disposable } from '../../../core/disposable';
import { CALENDAR_SETTING, TASKS_SETTING } from '../../../config/settingKeys';
import { TASKS_CHANGED_FEED } from '../../../core/sync/push';
import { CALENDAR_COMMAND, TASKS_COMMAND } from '../../../config/commandIds';
import { DESK_SCOPES } from '../../../config/scopes';
import type { CalendarTreeNode, DueTaskNode } from '../tree/model';
import { DueTaskStore } from './dueTaskStore';

export class DueTasksInAgenda extends Disposable {
  readonly store: DueTaskStore;
  private client: TasksClient | undefined;

  constructor(private readonly desk: DeskContext, private readonly hooks: { redraw(): void }) {
    super();
    this.store = new DueTaskStore({
      api: () => (this.client ??= new TasksClient(desk.httpClient((endpoints) => endpoints.tasks, DESK_SCOPES))),
      showCompleted: () => desk.settings().tasksShowCompleted,
      onChange: () => hooks.redraw(),
    });
    this._register(desk.push.onEvent(TASKS_CHANGED_FEED, (event) => {
      if (event.kind === 'notified' && this.enabled()) this.store.forget();
    }));
    this._register(desk.vs.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(CALENDAR_SETTING.showTasks) || event.affectsConfiguration(TASKS_SETTING.showCompleted)) this.store.forget();
    }));
    for (const disposable of registerCommands(desk, { [CALENDAR_COMMAND.showTaskInTasks]: (node?: unknown) => this.showInTasks(node) })) this._register(disposable);
  }

  enabled(): boolean {
    return this.desk.vs.workspace.getConfiguration().get<boolean>(CALENDAR_SETTING.showTasks) !== false;
  }

  treeOptions(): { store: DueTaskStore; enabled(): boolean; showCompleted(): boolean } {
    return { store: this.store, enabled: () => this.enabled(), showCompleted: () => this.desk.settings().tasksShowCompleted };
  }

  /** The checkboxes of the view's due-task rows. */
  attach(view: vscode.TreeView<CalendarTreeNode>): void {
    this._register(view.onDidChangeCheckboxState((event) => void this.onCheckboxes(event.items)));
  }

  /** What a checkbox does (tests call it as VS Code would): complete or reopen through the Tasks API. */
  async onCheckboxes(items: ReadonlyArray<readonly [CalendarTreeNode, vscode.TreeItemCheckboxState]>): Promise<void> {
    const vs = this.desk.vs;
    const changes = items.filter((entry): entry is readonly [DueTaskNode, vscode.TreeItemCheckboxState] => entry[0].kind === 'dueTask');
    let changed = false;
    await Promise.all(changes.map(async ([node, state]) => {
      const completed = state === vs.TreeItemCheckboxState.Checked;
      if ((node.dueTask.task.status === 'completed') === completed) return;
      const title = node.dueTask.task.title ?? '';
      const action = completed ? vs.l10n.t('Could not complete "{0}"', title) : vs.l10n.t('Could not reopen "{0}"', title);
      const patched = await attempt(this.desk, () => this.store.setCompleted(node.dueTask, completed), { action, retry: true });
      if (patched) changed = true;
      else this.hooks.redraw(); // the checkbox goes back to what the task is
    }));
    // The Tasks view shows the same task: it reads its lists again (which makes the Agenda read the tasks too).
    if (changed) await vs.commands.executeCommand(TASKS_COMMAND.refresh);
  }

  private async showInTasks(node: unknown): Promise<boolean> {
    const row = node as Partial<DueTaskNode> | undefined;
    if (row?.kind !== 'dueTask' || !row.dueTask) return false;
    return Boolean(await this.desk.vs.commands.executeCommand(TASKS_COMMAND.revealTask, row.dueTask.listId, row.dueTask.task.id, { open: false }));
  }
}
