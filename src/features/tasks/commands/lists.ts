/** Task list commands: create, rename (patch from a row; get + update from the palette), delete, and clear a list's completed tasks. */
import { attempt } from '../../../core/commands';
import { confirmModal } from '../../../core/ui/confirm';
import type { TaskList } from '../../../shared/schemas/tasks';
import type { TasksNode } from '../tree/nodes';
import { renameListPrompt } from '../tree/presentation';
import type { TaskCommandContext } from './context';

export class TaskListCommands {
  constructor(private readonly context: TaskCommandContext) {}

  private t(message: string, ...args: Array<string | number>): string {
    return this.context.prompts.t(message, ...args);
  }

  /** A change to the lists, with Retry on failure, then the lists row refreshed. */
  private change(action: string, work: () => Promise<TaskList>): Promise<TaskList | undefined> {
    return attempt(this.context.desk, work, { action, retry: true, onSuccess: () => { this.context.tree.refreshLists(); } });
  }

  async createList(): Promise<TaskList | undefined> {
    const title = await this.context.prompts.askTitle(this.t('New task list'), this.t('Name of the new task list'), '');
    if (title === undefined) return undefined;
    return this.change(this.t('Could not create the task list'), () => this.context.api.insertTaskList(title));
  }

  /**
   * Rename: the list is read fresh first (tasklists.get: a rename made elsewhere is the starting text). A list's
   * title is all it has, so tasklists.patch and tasklists.update change the same thing; the action keeps both of
   * the spec's operations in use: from a tree row only the title is sent (patch), from the palette, where the list
   * was picked by name, it is written whole (update).
   */
  async renameList(node?: TasksNode): Promise<TaskList | undefined> {
    const picked = await this.context.prompts.resolveList(node, this.t('Rename which task list?'));
    if (!picked) return undefined;
    const current = await this.context.api.getTaskList(picked.id);
    const title = await this.context.prompts.askTitle(this.t('Rename task list'), renameListPrompt(current, this.context.desk.vs.l10n.t, (ms) => this.context.desk.clock.day(ms)), current.title);
    if (title === undefined || title === current.title) return undefined;
    const fromRow = node?.kind === 'list';
    return this.change(this.t('Could not rename the task list'), () => (fromRow ? this.context.api.patchTaskList(current.id, { title }) : this.context.api.updateTaskList(current.id, { title })));
  }

  async deleteList(node?: TasksNode): Promise<boolean> {
    const list = await this.context.prompts.resolveList(node, this.t('Delete which task list?'));
    if (!list) return false;
    if (!(await confirmModal(this.context.desk.vs, this.t('Delete the task list "{0}" and all its tasks?', list.title), this.t('This cannot be undone.'), this.t('Delete List')))) return false;
    await this.context.api.deleteTaskList(list.id);
    this.context.tree.refreshLists();
    return true;
  }

  /** tasks.clear: completed tasks become hidden (they leave the tree). */
  async clearCompleted(node?: TasksNode): Promise<boolean> {
    const list = node?.kind === 'task' ? node.list.list : await this.context.prompts.resolveList(node, this.t('Clear the completed tasks of which list?'));
    if (!list) return false;
    const detail = this.t('They are hidden from the list and no longer shown.');
    if (!(await confirmModal(this.context.desk.vs, this.t('Clear the completed tasks of "{0}"?', list.title), detail, this.t('Clear Completed')))) return false;
    await this.context.api.clearTasks(list.id);
    this.context.tree.refreshList(list.id);
    return true;
  }
}
