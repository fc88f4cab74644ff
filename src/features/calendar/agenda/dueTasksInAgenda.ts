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
import { accountOfRow } from '../../../core/accounts/rowAccount';
import { DueTaskStore } from './dueTaskStore';

/** What an Agenda's tree needs of its account's due tasks. */
export interface DueTasksOfAgenda {
  readonly store: DueTaskStore;
  enabled(): boolean;
  showCompleted(): boolean;
}

export class DueTasksInAgenda extends Disposable {
  /** The first account's due tasks. */
  readonly store: DueTaskStore;
  /** The due tasks of the other accounts signed in (their Agendas under their roots), by account. */
  private readonly otherStores = new Map<string, DueTaskStore>();
  private client: TasksClient | undefined;

  constructor(private readonly desk: DeskContext, private readonly hooks: { redraw(): void }) {
    super();
    this.store = this.newStore(() => { hooks.redraw(); });
    this._register(desk.push.onEvent(TASKS_CHANGED_FEED, (event) => {
      if (event.kind === 'notified' && this.enabled()) this.forgetAll();
    }));
    this._register(desk.vs.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(CALENDAR_SETTING.showTasks) || event.affectsConfiguration(TASKS_SETTING.showCompleted)) this.forgetAll();
    }));
    for (const disposable of registerCommands(desk, { [CALENDAR_COMMAND.showTaskInTasks]: (node?: unknown) => this.showInTasks(node) })) this._register(disposable);
  }

  enabled(): boolean {
    return this.desk.vs.workspace.getConfiguration().get<boolean>(CALENDAR_SETTING.showTasks) !== false;
  }

  /** The first account's due tasks, for its Agenda. */
  treeOptions(): DueTasksOfAgenda {
    return this.optionsOf(this.store);
  }

  /**
   * Another account's due tasks, for the Agenda under its root: read as that account (its tree runs as it), kept apart
   * from the first account's; `redraw` draws that Agenda again.
   */
  treeOptionsOf(account: string, redraw: () => void): DueTasksOfAgenda {
    const store = this.newStore(redraw);
    this.otherStores.set(account, store);
    return this.optionsOf(store);
  }

  /** An account signed out of (its Agenda's tree is gone). */
  dropAccount(account: string): void {
    this.otherStores.delete(account);
  }

  /** Every account's due tasks are read again (sign-in, a task changed, a setting). */
  forgetAll(): void {
    this.store.forget();
    for (const store of this.otherStores.values()) store.forget();
  }

  private optionsOf(store: DueTaskStore): DueTasksOfAgenda {
    return { store, enabled: () => this.enabled(), showCompleted: () => this.desk.settings().tasksShowCompleted };
  }

  /** One store per account over one client: each request takes the token of the account it runs as. */
  private newStore(onChange: () => void): DueTaskStore {
    return new DueTaskStore({
      api: () => (this.client ??= new TasksClient(this.desk.httpClient((endpoints) => endpoints.tasks, DESK_SCOPES))),
      showCompleted: () => this.desk.settings().tasksShowCompleted,
      onChange,
    });
  }

  /** The checkboxes of the view's due-task rows. */
  attach(view: vscode.TreeView<CalendarTreeNode>): void {
    this._register(view.onDidChangeCheckboxState((event) => void this.onCheckboxes(event.items)));
  }

  /** What a checkbox does (tests call it as VS Code would): complete or reopen through the Tasks API. */
  async onCheckboxes(items: ReadonlyArray<readonly [CalendarTreeNode, vscode.TreeItemCheckboxState]>): Promise<void> {
    const vs = this.desk.vs;
    const changes = items.filter((entry): entry is readonly [DueTaskNode, vscode.TreeItemCheckboxState] => entry[0].kind === 'dueTask');
    // Whether each change was made.
    const made = await Promise.all(changes.map(async ([node, state]): Promise<boolean> => {
      const completed = state === vs.TreeItemCheckboxState.Checked;
      if ((node.dueTask.task.status === 'completed') === completed) return false;
      const title = node.dueTask.task.title;
      const action = completed ? vs.l10n.t('Could not complete "{0}"', title) : vs.l10n.t('Could not reopen "{0}"', title);
      // A task under another account's root is that account's: completed in it, its copy updated.
      const account = accountOfRow(node);
      const store = (account ? this.otherStores.get(account) : undefined) ?? this.store;
      const complete = (): Promise<unknown> => store.setCompleted(node.dueTask, completed);
      const patched = await attempt(this.desk, () => (account ? this.desk.session.runAs(account, complete) : complete()), { action, retry: true });
      if (patched) return true;
      this.hooks.redraw(); // the checkbox goes back to what the task is
      return false;
    }));
    // The Tasks view shows the same task: it reads its lists again (which makes the Agenda read the tasks too).
    if (made.includes(true)) await vs.commands.executeCommand(TASKS_COMMAND.refresh);
  }

  private async showInTasks(node: unknown): Promise<boolean> {
    const row = node as Partial<DueTaskNode> | undefined;
    if (row?.kind !== 'dueTask' || !row.dueTask) return false;
    return Boolean(await this.desk.vs.commands.executeCommand<boolean | undefined>(TASKS_COMMAND.revealTask, row.dueTask.listId, row.dueTask.task.id, { open: false }));
  }
}
