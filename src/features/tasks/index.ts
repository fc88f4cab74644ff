/**
 * The Tasks feature, wired as one Disposable: the view (client, tree, drag and drop, checkboxes), the commands with the
 * read-only details documents, the writable notes documents (desk-tasks:) and TODO tracking in the editor. Nothing
 * here touches the network: the tree loads when VS Code first asks for its rows.
 */
import { markViewOffline } from '../../core/offline/offlineStatus';
import { TASKS_TREE_VIEW } from '../../config/treeViews';
import type * as vscode from 'vscode';
import { TasksClient } from '../../api/tasks';
import { SHOW_COMPLETED_CONTEXT_KEY, TaskCommands } from './commands';
import type { DeskContext } from '../../core/deskContext';
import { Disposable } from '../../core/disposable';
import { DESK_SCOPES } from '../../config/scopes';
import { TASKS_SETTING } from '../../config/settingKeys';
import { TasksDragAndDropController } from './tree/dragAndDrop';
import { TASKS_VIEW_ID, TasksNode } from './tree/nodes';
import { TASKS_SNAPSHOT } from './tree/snapshot';
import type { TasksApi } from './port';
import { TasksTreeOptions, TasksTreeProvider } from './tree/treeProvider';
import { TodoTracking } from './todo/todoTasks';
import { TaskNotesFileSystemProvider } from './notes/notesFileSystem';
import { NOTES_SCHEME } from './notes/notesPath';
import { UriAccounts } from '../../core/accounts/accounts';
import { TASKS_CHANGED_FEED } from '../../core/sync/push';
import { ExpandedLists } from './tree/expandedLists';
import { TasksOfflineWrites } from './offline';
import { accountOfRow, accountScoped, AccountRootNode, AccountRootsProvider } from '../../core/accounts/accountRoots';

/** The Tasks slice as activate() returns it to tests. */
export interface TasksSlice {
  readonly api: TasksApi;
  /** The tree of the account the operation runs as (the first account's outside one). */
  readonly tree: TasksTreeProvider;
  /** What the view shows: the first account's tree, or one root per account when several are signed in. */
  readonly roots: AccountRootsProvider<TasksNode>;
  readonly view: vscode.TreeView<TasksNode>;
  readonly commands: TaskCommands;
  readonly dragAndDrop: TasksDragAndDropController;
  /** TODO comments ↔ tasks in the editor (quick fix, hover, decorations). */
  readonly todo: TodoTracking;
  /** The desk-tasks: file system (task notes as documents). */
  readonly notes: TaskNotesFileSystemProvider;
  /** Tasks writes kept while offline (core/offline/writeQueue.ts replays them). */
  readonly offline: TasksOfflineWrites;
  /** What the tree's checkbox does (tests call it as VS Code would). */
  handleCheckboxes(items: ReadonlyArray<readonly [TasksNode, vscode.TreeItemCheckboxState]>): Promise<void>;
}

/** Set once the user ticks a task's checkbox: what completes the walkthrough's Tasks step. */
export const WALKTHROUGH_TICKED_CONTEXT_KEY = 'desk:walkthrough.taskTicked';

/** For the search (its bundle imports this index): the reader lives with the view's slot. */
export { cachedTaskLists } from './tree/snapshot';

export function registerTasks(desk: DeskContext): TasksSlice {
  return desk.register(new TasksFeature(desk));
}

class TasksFeature extends Disposable implements TasksSlice {
  readonly api: TasksApi;
  readonly tree: TasksTreeProvider;
  readonly roots: AccountRootsProvider<TasksNode>;
  readonly view: vscode.TreeView<TasksNode>;
  readonly commands: TaskCommands;
  readonly dragAndDrop: TasksDragAndDropController;
  readonly todo: TodoTracking;
  readonly notes: TaskNotesFileSystemProvider;
  readonly offline: TasksOfflineWrites;

  constructor(private readonly desk: DeskContext) {
    super();
    const vs = desk.vs;
    this.api = new TasksClient(desk.httpClient((endpoints) => endpoints.tasks, DESK_SCOPES));
    // Lists left open stay open in any workspace ("Add to Workspace" reloads into a new one): see tree/expandedLists.ts.
    // One store for every account's tree: list ids are unique across accounts.
    const expandedLists = new ExpandedLists(desk.extensionContext.globalState);
    const treeOptions: TasksTreeOptions = {
      api: this.api,
      showCompleted: () => desk.settings().tasksShowCompleted,
      pageSize: () => desk.settings().tasksPageSize,
      withProgress: (work) => Promise.resolve(vs.window.withProgress({ location: { viewId: TASKS_VIEW_ID } }, work)),
      isSignedIn: () => desk.session.isSignedIn(),
      log: (message) => { desk.log.warn(message); },
      day: (ms) => desk.clock.day(ms),
      today: () => desk.clock.today(),
      onRefresh: () => { desk.push.notify(TASKS_CHANGED_FEED); },
      expandedLists,
    };
    // Each tree keeps its first rows in its account's slot (tree/snapshot.ts); the first account's is the one shown alone.
    const primary = this._register(new TasksTreeProvider(vs, { ...treeOptions, cache: desk.viewCache.slot(TASKS_SNAPSHOT) }));
    primary.model.prefetchFirstRows();
    // Several accounts: one root per account, each account's tree with its own slot.
    this.roots = this._register(new AccountRootsProvider<TasksNode>(vs, {
      session: desk.session,
      primary,
      create: (account) => {
        const tree = new TasksTreeProvider(vs, { ...treeOptions, cache: desk.viewCache.slot(TASKS_SNAPSHOT, account) });
        tree.model.prefetchFirstRows();
        return tree;
      },
      icon: 'account',
    }));
    this.tree = accountScoped(primary, this.roots, desk.session, ['refreshAll', 'refreshLists']);
    let commands: TaskCommands | undefined;
    const dragAndDrop = new TasksDragAndDropController(vs, { move: (requests, lists) => (commands ? commands.move(requests, lists) : Promise.resolve()) });
    this.dragAndDrop = dragAndDrop;
    // The view's rows are TasksNode but for the account roots (several accounts), which no command acts on.
    this.view = this._register(vs.window.createTreeView<TasksNode | AccountRootNode>(TASKS_VIEW_ID, { treeDataProvider: this.roots, dragAndDropController: dragAndDrop, ...TASKS_TREE_VIEW.options })) as unknown as vscode.TreeView<TasksNode>;
    this._register(markViewOffline(desk, this.view));
    // Writes that cannot reach the service wait in Desk's queue (the view refreshes once they are replayed).
    const offline = new TasksOfflineWrites({ desk, api: this.api, tree: this.tree });
    this.offline = offline;
    commands = new TaskCommands(desk, this.api, this.tree, this.view, offline);
    this.commands = commands;
    for (const disposable of commands.register()) this._register(disposable);

    this._register(this.view.onDidExpandElement((event) => { if (event.element.kind === 'list') expandedLists.set(event.element.listId, true); }));
    this._register(this.view.onDidCollapseElement((event) => { if (event.element.kind === 'list') expandedLists.set(event.element.listId, false); }));
    this._register(this.view.onDidChangeCheckboxState((event) => void this.handleCheckboxes(event.items)));
    // "Edit Notes": a task's notes as a writable markdown document, saved with tasks.patch.
    const notes = this._register(new TaskNotesFileSystemProvider(vs, {
      api: () => this.api,
      // Notes URIs always name their account (nothing path-only was ever saved in a workspace): no legacy lookup.
      accounts: new UriAccounts({ gate: desk.session, t: vs.l10n.t }),
      onSaved: (listId, task) => { this.tree.updateTask(listId, task); },
      log: (message) => { desk.log.info(message); },
      keepOffline: (listId, pinned, text) => offline.saveNotes(listId, pinned, text),
    }));
    this.notes = notes;
    for (const replayer of offline.register()) this._register(replayer);
    this._register(vs.workspace.registerFileSystemProvider(NOTES_SCHEME, notes, { isCaseSensitive: true }));
    this._register(desk.session.onDidChangeSignedIn(() => {
      notes.reset();
      this.tree.refreshAll({ accountChanged: true });
    }));
    // Back online (the waiting changes sent): the view shows the service's rows again.
    this._register(desk.onDidComeOnline(() => { this.tree.refreshAll(); }));
    this._register(desk.backend.onDidChange(() => {
      notes.reset();
      void desk.session.check();
      this.tree.refreshAll({ accountChanged: true });
    }));
    void vs.commands.executeCommand('setContext', SHOW_COMPLETED_CONTEXT_KEY, desk.settings().tasksShowCompleted);
    this._register(vs.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(TASKS_SETTING.showCompleted) || event.affectsConfiguration(TASKS_SETTING.pageSize)) {
        void vs.commands.executeCommand('setContext', SHOW_COMPLETED_CONTEXT_KEY, desk.settings().tasksShowCompleted);
        this.tree.refreshAll();
      }
    }));
    this.todo = this._register(new TodoTracking(desk, this));
  }

  async handleCheckboxes(items: ReadonlyArray<readonly [TasksNode, vscode.TreeItemCheckboxState]>): Promise<void> {
    await Promise.all(items.map(async ([node, state]) => {
      // A task under another account's root is completed in that account (and its tree shows it).
      const account = accountOfRow(node);
      await (account ? this.desk.session.runAs(account, () => this.tick(node, state)) : this.tick(node, state));
    }));
  }

  private async tick(node: TasksNode, state: vscode.TreeItemCheckboxState): Promise<void> {
    if (node.kind !== 'task') return;
    const completed = state === this.desk.vs.TreeItemCheckboxState.Checked;
    if ((node.task.status === 'completed') === completed) return;
    await this.commands.patchStatus(node.listId, node.task, completed);
    // The walkthrough's Tasks step is done by a real tick (package.json: onContext:desk:walkthrough.taskTicked).
    void this.desk.vs.commands.executeCommand('setContext', WALKTHROUGH_TICKED_CONTEXT_KEY, true);
  }
}
