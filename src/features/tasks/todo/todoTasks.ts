import type * as vscode from 'vscode';
import { errorMessage, GoogleApiError } from '../../../api/errors';
import { TasksClient } from '../../../api/tasks';
import type { DeskContext } from '../../../core/deskContext';
import { Disposable, toDisposable } from '../../../core/disposable';
import { updateDurably } from '../../../core/storage/durableMemento';
import { recallForAccount, rememberForAccount } from '../../../core/storage/accountMemory';
import { DESK_SCOPES } from '../../../config/scopes';
import type { Task, TaskList } from '../../../shared/schemas/tasks';
import type { TasksSlice } from '..';
import { revealTask } from '../reveal';
import { taskTooltip } from '../tree/presentation';
import type { TasksApi } from '../port';
import { dueDateOf, isOverdue } from '../../../core/text/dates';
import { TodoCommands } from './todoCommands';
import { findLinkedTodos, linkLine, normalizeKeywords, parseTodo, patternsFor, sourceNotes, taskTitleFor, TodoComment, withoutSource } from './todoParser';
import { TodoWorkspace } from './todoView';
import { TASKS_COMMAND, TODO_COMMAND } from '../../../config/commandIds';
import { registerCommands } from '../../../core/commands';
import { TASKS_SETTING } from '../../../config/settingKeys';

/** How long a fetched task answers hovers and decorations before it is asked for again. */
const CACHE_MS = 30_000;
/** Decorations fetch at most this many linked tasks per refresh: a file full of markers must stay cheap. */
const MAX_DECORATION_LOOKUPS = 50;
/** The last list a TODO's task went to, per account (core/storage/accountMemory.ts). */
const LAST_LIST_KEY = 'desk.todo.lastList';
/** The cache's key of a marker's task: its id, and its account when the marker names one. */
function cacheKey(taskId: string, account: string | undefined): string {
  return account === undefined ? taskId : `${account}/${taskId}`;
}

/** taskId → listId, so a hover finds its task with one request instead of trying every list. */
const TASK_LISTS_KEY = 'desk.todo.taskLists';

export type TodoApi = Pick<TasksApi, 'allTaskLists' | 'getTask' | 'insertTask' | 'insertTasks' | 'patchTask' | 'deleteTask'>;

/** A linked task as last fetched: found in a list, or known to be gone. */
export type Lookup = { readonly found: true; readonly task: Task; readonly listId: string } | { readonly found: false };

interface CacheEntry {
  readonly at: number;
  readonly lookup: Promise<Lookup>;
}

/** What the TODO commands act on: one line of a document. */
interface TodoTarget {
  readonly document: vscode.TextDocument;
  readonly line: number;
  readonly todo: TodoComment;
}

/**
 * TODO ↔ task tracking in the editor: a quick fix "Create task from TODO" on TODO/FIXME comment lines (not a
 * CodeLens on every match, which is far too verbose), a hover on linked markers with the task's state and
 * actions, and a quiet "✓ done" after markers whose task is completed. Registering is all it does at
 * activation: no request goes out until the user hovers, runs a fix, or opens an editor with a marker, and
 * nothing is offered while signed out.
 */
export class TodoTracking extends Disposable {
  readonly api: TodoApi;
  /** The TODOs view (the workspace's TODO comments, scanned with ripgrep). */
  readonly workspace: TodoWorkspace;
  /** Track as Task, Go to Source, Unlink, Clean Up Finished TODOs. */
  readonly commands: TodoCommands;
  private readonly cache = new Map<string, CacheEntry>();
  private decoration: vscode.TextEditorDecorationType | undefined;
  private overdueDecoration: vscode.TextEditorDecorationType | undefined;
  /** The lines marked overdue per document, as last applied. */
  private readonly overdue = new Map<string, number[]>();
  private decorationTimer: ReturnType<typeof setTimeout> | undefined;
  /** The lines marked "✓ done" per document, as last applied. */
  private readonly decorated = new Map<string, number[]>();

  constructor(private readonly desk: DeskContext, readonly tasks?: TasksSlice) {
    super();
    const vs = desk.vs;
    this.api = tasks?.api ?? new TasksClient(desk.httpClient((endpoints) => endpoints.tasks, DESK_SCOPES));
    const selector: vscode.DocumentSelector = [{ scheme: 'file' }, { scheme: 'untitled' }];
    this._register(vs.languages.registerCodeActionsProvider(selector, {
      provideCodeActions: (document, range) => this.codeActions(document, range),
    }, { providedCodeActionKinds: [vs.CodeActionKind.QuickFix] }));
    this._register(vs.languages.registerHoverProvider(selector, {
      provideHover: (document, position) => this.hover(document, position),
    }));
    // The quick fix's and the hover's commands get (document uri, line); behind the one wrapper like every command.
    const onTarget = (run: (target: TodoTarget | undefined) => Promise<unknown>) => async (where?: unknown, line?: unknown) => run(await this.target(where, line));
    for (const disposable of registerCommands(desk, {
      [TASKS_COMMAND.linkTodo]: onTarget((target) => this.link(target)),
      [TASKS_COMMAND.completeFromTodo]: onTarget((target) => this.complete(target)),
      [TASKS_COMMAND.openTodoTask]: onTarget((target) => this.open(target)),
    })) this._register(disposable);

    // Decorations follow what is on screen; all of these are user or data events, none fires at activation.
    this._register(vs.window.onDidChangeVisibleTextEditors(() => { this.scheduleDecorations(); }));
    this._register(vs.workspace.onDidChangeTextDocument((event) => {
      if (vs.window.visibleTextEditors.some((editor) => editor.document === event.document)) this.scheduleDecorations();
    }));
    this._register(desk.session.onDidChangeSignedIn(() => {
      this.cache.clear();
      this.scheduleDecorations();
    }));
    this.workspace = this._register(new TodoWorkspace(desk, {
      keywords: () => this.keywords(),
      lookup: (taskId, account) => this.lookup(taskId, { account }),
      isSignedIn: (account) => account === undefined ? desk.session.signedIn : desk.session.isSignedInAs(account),
    }));
    this.commands = new TodoCommands(desk, this, this.workspace);
    for (const disposable of this.commands.register()) this._register(disposable);
    if (tasks) {
      this._register(tasks.tree.onDidChangeTreeData(() => {
        // A refresh of the tree may mean tasks changed elsewhere: forget what we knew, look again (debounced).
        this.cache.clear();
        this.scheduleDecorations(1000);
        this.workspace.forgetTask();
      }));
    }
    this._register(desk.session.onDidChangeSignedIn(() => { this.workspace.forgetTask(); }));
    this._register(vs.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(TASKS_SETTING.todoKeywords)) this.scheduleDecorations();
    }));
    this._register(toDisposable(() => { clearTimeout(this.decorationTimer); }));
  }

  private get vs(): typeof vscode {
    return this.desk.vs;
  }

  private t(message: string, ...args: Array<string | number>): string {
    return this.vs.l10n.t(message, ...args);
  }

  /** The trigger words (`desk.todo.keywords`; TODO and FIXME unless set). */
  keywords(): readonly string[] {
    return normalizeKeywords(this.vs.workspace.getConfiguration().get<unknown>(TASKS_SETTING.todoKeywords));
  }

  // ---- quick fixes

  private codeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection): vscode.CodeAction[] {
    // No session (or not known yet): offer nothing rather than a fix that can only fail.
    if (!this.desk.session.signedIn) return [];
    const vs = this.vs;
    const actions: vscode.CodeAction[] = [];
    const last = Math.min(range.end.line, range.start.line + 50, document.lineCount - 1);
    for (let line = range.start.line; line <= last; line++) {
      const todo = parseTodo(document.lineAt(line).text, this.keywords());
      if (!todo) continue;
      const args = [document.uri, line];
      if (!todo.taskId) {
        const action = new vs.CodeAction(this.t('Create task from {0}', todo.keyword), vs.CodeActionKind.QuickFix);
        action.command = { command: TASKS_COMMAND.linkTodo, title: action.title, arguments: args };
        actions.push(action);
      } else {
        const complete = new vs.CodeAction(this.t('Complete the linked task'), vs.CodeActionKind.QuickFix);
        complete.command = { command: TASKS_COMMAND.completeFromTodo, title: complete.title, arguments: args };
        const open = new vs.CodeAction(this.t('Show the linked task in the Tasks view'), vs.CodeActionKind.QuickFix);
        open.command = { command: TASKS_COMMAND.openTodoTask, title: open.title, arguments: args };
        actions.push(complete, open);
      }
    }
    return actions;
  }

  // ---- commands

  /** The line a command acts on: (uri, line) from a quick fix or hover link, else the cursor's line. */
  async target(where: unknown, line: unknown): Promise<TodoTarget | undefined> {
    const vs = this.vs;
    let document: vscode.TextDocument | undefined;
    let lineNumber: number | undefined;
    if ((where instanceof vs.Uri || typeof where === 'string') && typeof line === 'number') {
      document = await vs.workspace.openTextDocument(typeof where === 'string' ? vs.Uri.parse(where) : where);
      lineNumber = line;
    } else {
      const editor = vs.window.activeTextEditor;
      document = editor?.document;
      lineNumber = editor?.selection.active.line;
    }
    if (!document || lineNumber === undefined || lineNumber < 0 || lineNumber >= document.lineCount) {
      void vs.window.showInformationMessage(this.t('Desk: put the cursor on a TODO comment first.'));
      return undefined;
    }
    const todo = parseTodo(document.lineAt(lineNumber).text, this.keywords());
    if (!todo) {
      void vs.window.showInformationMessage(this.t('Desk: there is no {0} comment on line {1}.', this.keywords().join('/'), lineNumber + 1));
      return undefined;
    }
    return { document, line: lineNumber, todo };
  }

  /** Creates a task from the TODO and writes its marker into the comment; resolves to the task. */
  private async link(target: TodoTarget | undefined): Promise<Task | undefined> {
    if (!target) return undefined;
    const vs = this.vs;
    const { todo } = target;
    if (todo.taskId) {
      void vs.window.showInformationMessage(this.t('Desk: this {0} is already linked to a task.', todo.keyword));
      return undefined;
    }
    // Several accounts signed in: whose task it is (the marker records it); one account: as always, unrecorded.
    const session = this.desk.session;
    if (session.accounts.length > 1 && session.operationAccount === undefined) {
      const account = await session.chooseAccount(this.t('Create the task in which account?'));
      return account ? session.runAs(account, () => this.linkAs(target, account)) : undefined;
    }
    return this.linkAs(target, session.accounts.length > 1 ? session.operationAccount : undefined);
  }

  private async linkAs(target: TodoTarget, account: string | undefined): Promise<Task | undefined> {
    const vs = this.vs;
    const { document, todo } = target;
    const list = await this.pickList();
    if (!list) return undefined;
    const relative = vs.workspace.asRelativePath(document.uri, (vs.workspace.workspaceFolders?.length ?? 0) > 1);
    const place = `${relative}:${target.line + 1}`;
    // Notes carry a link back: `Source: <path>` (Go to Source finds the comment by its marker, wherever it moved)
    // and a file URI with #L<line>, which VS Code opens at that line.
    const link = document.uri.with({ fragment: `L${target.line + 1}` }).toString();
    const task = await this.api.insertTask(list.id, { title: taskTitleFor(todo, place, undefined, this.vs.l10n.t), notes: sourceNotes(relative, link) });
    await this.remember(task.id, list.id);
    this.cache.set(cacheKey(task.id, account), { at: Date.now(), lookup: Promise.resolve({ found: true, task, listId: list.id }) });
    await this.usedList(list.id);
    this.tasks?.tree.refreshList(list.id);

    if (!(await this.writeMarker(document, target.line, todo, task.id, account))) {
      void vs.window.showWarningMessage(this.t('Desk: created the task "{0}", but could not mark the comment. Add "{1}" to it to keep the link.', task.title, `(task:${task.id}${account === undefined ? '' : `/${account}`})`));
    } else {
      vs.window.setStatusBarMessage(this.t('Desk: created the task "{0}" in {1}.', task.title, list.title), 4000);
    }
    this.scheduleDecorations();
    return task;
  }

  /** Rewrites only the changed middle of the line, so cursors elsewhere on it stay put. */
  private async writeMarker(document: vscode.TextDocument, line: number, todo: TodoComment, taskId: string, account?: string): Promise<boolean> {
    const vs = this.vs;
    // The user may have typed while the task was being created: find the same TODO again, nearest first.
    const lineOf = (): number | undefined => {
      for (let distance = 0; distance < document.lineCount; distance++) {
        for (const candidate of distance === 0 ? [line] : [line - distance, line + distance]) {
          if (candidate < 0 || candidate >= document.lineCount) continue;
          const found = parseTodo(document.lineAt(candidate).text, this.keywords());
          if (found && !found.taskId && found.text === todo.text) return candidate;
        }
      }
      return undefined;
    };
    const at = lineOf();
    if (at === undefined) return false;
    const before = document.lineAt(at).text;
    const after = linkLine(before, taskId, this.keywords(), account);
    let start = 0;
    while (start < before.length && before[start] === after[start]) start++;
    let tail = 0;
    while (tail < before.length - start && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
    const edit = new vs.WorkspaceEdit();
    edit.replace(document.uri, new vs.Range(at, start, at, before.length - tail), after.slice(start, after.length - tail));
    return vs.workspace.applyEdit(edit);
  }

  /** Which list a new task goes to: a quick pick with the last used list first (no question with one list). */
  /** Remembers the list a task went to, so it is offered first next time. */
  async usedList(listId: string): Promise<void> {
    await rememberForAccount(this.desk.extensionContext.globalState, LAST_LIST_KEY, this.desk.session.viewAccount(), listId);
  }

  async pickList(title = this.t('Create Task from TODO')): Promise<TaskList | undefined> {
    const vs = this.vs;
    const lists = await this.taskLists();
    if (lists.length === 0) {
      void vs.window.showInformationMessage(this.t('Desk: there is no task list yet. Create one in the Tasks view first.'));
      return undefined;
    }
    if (lists.length === 1) return lists[0];
    const lastId = recallForAccount(this.desk.extensionContext.globalState, LAST_LIST_KEY, this.desk.session.viewAccount());
    const ordered = [...lists.filter((list) => list.id === lastId), ...lists.filter((list) => list.id !== lastId)];
    const items = ordered.map((list) => ({
      label: list.title || this.t('(untitled list)'),
      description: list.id === lastId ? this.t('last used') : undefined,
      list,
    }));
    const picked = await vs.window.showQuickPick(items, { title, placeHolder: this.t('Which task list?') });
    return picked?.list;
  }

  private async complete(target: TodoTarget | undefined): Promise<Task | undefined> {
    if (!target) return undefined;
    return this.inTaskAccount(target.todo, 'complete', () => this.completeHere(target));
  }

  /**
   * Runs `work` in the account the marker names (a marker without one: the first account, as before accounts); an
   * account not signed in is said ("Sign in as bob@example.com to complete…") and nothing is looked up elsewhere.
   */
  private async inTaskAccount<T>(todo: TodoComment, action: 'complete' | 'open', work: () => Promise<T>): Promise<T | undefined> {
    const account = todo.taskAccount;
    if (account === undefined) return work();
    const session = this.desk.session;
    if (!session.isSignedInAs(account)) {
      const message = action === 'complete'
        ? this.t('Sign in as {0} to complete the task linked to this {1}.', account, todo.keyword)
        : this.t('Sign in as {0} to open the task linked to this {1}.', account, todo.keyword);
      void this.vs.window.showInformationMessage(message);
      return undefined;
    }
    return session.runAs(account, work);
  }

  private async completeHere(target: TodoTarget): Promise<Task | undefined> {
    const vs = this.vs;
    const account = target.todo.taskAccount;
    const taskId = target.todo.taskId;
    if (!taskId) {
      void vs.window.showInformationMessage(this.t('Desk: this {0} is not linked to a task yet. Use "Create task from TODO" first.', target.todo.keyword));
      return undefined;
    }
    // Fresh state, not the cache: the task may have been completed or deleted elsewhere.
    const lookup = await this.lookup(taskId, { fresh: true, account });
    if (!lookup.found) {
      void vs.window.showWarningMessage(this.t('Desk: the task linked here no longer exists (or is in a list you cannot see).'));
      return undefined;
    }
    if (lookup.task.status === 'completed') {
      void vs.window.showInformationMessage(this.t('Desk: "{0}" is already completed.', lookup.task.title));
      this.scheduleDecorations();
      return lookup.task;
    }
    const task = await this.api.patchTask(lookup.listId, taskId, { status: 'completed' });
    this.cache.set(cacheKey(taskId, account), { at: Date.now(), lookup: Promise.resolve({ found: true, task, listId: lookup.listId }) });
    this.tasks?.tree.refreshList(lookup.listId);
    vs.window.setStatusBarMessage(this.t('Desk: completed "{0}".', task.title), 4000);
    this.scheduleDecorations();
    return task;
  }

  /** Reveals the linked task's row in the Tasks view (loading its list as far as needed). */
  private async open(target: TodoTarget | undefined): Promise<boolean> {
    if (!target?.todo.taskId) return false;
    return (await this.inTaskAccount(target.todo, 'open', () => this.openHere(target))) ?? false;
  }

  private async openHere(target: TodoTarget): Promise<boolean> {
    const taskId = target.todo.taskId;
    if (!taskId) return false;
    const vs = this.vs;
    const lookup = await this.lookup(taskId, { account: target.todo.taskAccount });
    if (!lookup.found) {
      void vs.window.showWarningMessage(this.t('Desk: the task linked here no longer exists (or is in a list you cannot see).'));
      return false;
    }
    const slice = this.tasks;
    if (!slice) return false;
    return (await revealTask({ vs, tree: slice.tree, view: slice.view }, lookup.listId, taskId, lookup.task.title)) !== undefined;
  }

  // ---- hover

  private async hover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    if (!this.desk.session.signedIn) return undefined;
    const text = document.lineAt(position.line).text;
    if (!patternsFor(this.keywords()).hint.test(text)) return undefined;
    const todo = parseTodo(text, this.keywords());
    if (!todo?.taskId || position.character < todo.start || position.character > Math.max(todo.textEnd, todo.headEnd)) return undefined;
    const vs = this.vs;
    const range = new vs.Range(position.line, todo.start, position.line, todo.headEnd);
    const account = todo.taskAccount;
    // Another account's task (the marker says whose): shown only while that account is signed in.
    if (account !== undefined && !this.desk.session.isSignedInAs(account)) {
      return new vs.Hover(new vs.MarkdownString(this.t('Sign in as {0} to see the task linked to this {1}.', account, todo.keyword)), range);
    }
    let lookup: Lookup;
    try {
      lookup = await this.lookup(todo.taskId, { account });
    } catch (error) {
      return new vs.Hover(new vs.MarkdownString(this.t('Could not load the linked task: {0}', errorMessage(error, this.desk.vs.l10n.t))), range);
    }
    if (!lookup.found) return new vs.Hover(new vs.MarkdownString(this.t('The linked task no longer exists (or is in a list you cannot see).')), range);
    const lists = await (account === undefined ? this.taskLists() : this.desk.session.runAs(account, () => this.taskLists())).catch(() => [] as TaskList[]);
    const listTitle = lists.find((list) => list.id === lookup.listId)?.title ?? '';
    const args = encodeURIComponent(JSON.stringify([document.uri.toString(), position.line]));
    const actions: string[] = [];
    if (lookup.task.status !== 'completed') actions.push(`[${this.t('Complete task')}](command:${TASKS_COMMAND.completeFromTodo}?${args})`);
    if (this.tasks) actions.push(`[${this.t('Open in Tasks view')}](command:${TASKS_COMMAND.openTodoTask}?${args})`);
    actions.push(`[${this.t('Unlink…')}](command:${TODO_COMMAND.unlink}?${args})`);
    const shown = { ...lookup.task, notes: withoutSource(lookup.task.notes) };
    const markdown = new vs.MarkdownString(`${taskTooltip(shown, listTitle, this.desk.clock.today(), vs.l10n.t, (ms) => this.desk.clock.day(ms), vs.env.language)}\n\n---\n\n${actions.join(' · ')}`);
    // Only our own commands may run from this hover; taskTooltip escapes the title and defuses links in the notes.
    markdown.isTrusted = { enabledCommands: [TASKS_COMMAND.completeFromTodo, TASKS_COMMAND.openTodoTask, TODO_COMMAND.unlink] };
    return new vs.Hover(markdown, range);
  }

  // ---- decorations

  scheduleDecorations(delayMs = 250): void {
    clearTimeout(this.decorationTimer);
    this.decorationTimer = setTimeout(() => void this.updateDecorations().catch((error: unknown) => { this.desk.log.warn(`TODO decorations: ${String(error)}`); }), delayMs);
  }

  /** Marks the linked TODOs of visible editors whose task is completed; signed out, it clears them. */
  private async updateDecorations(): Promise<void> {
    if (this.isDisposed) return;
    const vs = this.vs;
    const editors = vs.window.visibleTextEditors.filter((editor) => editor.document.uri.scheme === 'file' || editor.document.uri.scheme === 'untitled');
    const signedIn = this.desk.session.signedIn;
    const linked = new Map<vscode.TextEditor, ReturnType<typeof findLinkedTodos>>();
    for (const editor of editors) {
      const found = signedIn ? findLinkedTodos(editor.document.getText(), 20000, this.keywords()) : [];
      if (found.length > 0 || this.decoration) linked.set(editor, found);
    }
    if (![...linked.values()].some((found) => found.length > 0)) {
      for (const editor of linked.keys()) {
        if (this.decoration) editor.setDecorations(this.decoration, []);
        if (this.overdueDecoration) editor.setDecorations(this.overdueDecoration, []);
      }
      this.decorated.clear();
      this.overdue.clear();
      return;
    }
    // Each marker's task looked up in its account (an account not signed in shows nothing).
    const wanted = new Map([...linked.values()].flat().map((item) => [cacheKey(item.taskId, item.todo.taskAccount), item] as const));
    const states = new Map<string, Lookup>();
    await Promise.all([...wanted].slice(0, MAX_DECORATION_LOOKUPS).map(async ([key, item]) => {
      states.set(key, await this.lookup(item.taskId, { account: item.todo.taskAccount }).catch((): Lookup => ({ found: false })));
    }));
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- disposed while the lookups ran
    if (this.isDisposed) return;
    this.decoration ??= this._register(vs.window.createTextEditorDecorationType({
      after: { contentText: this.t('✓ done'), color: new vs.ThemeColor('descriptionForeground'), fontStyle: 'italic', margin: '0 0 0 1.5em' },
    }));
    // Overdue open tasks: the warning colour after the comment, with the date, so it is seen where the work is.
    this.overdueDecoration ??= this._register(vs.window.createTextEditorDecorationType({
      after: { color: new vs.ThemeColor('editorWarning.foreground'), margin: '0 0 0 1.5em' },
      overviewRulerColor: new vs.ThemeColor('editorWarning.foreground'),
      overviewRulerLane: vs.OverviewRulerLane.Right,
    }));
    const today = this.desk.clock.today();
    for (const [editor, found] of linked) {
      const late = found.flatMap((item) => {
        const state = states.get(cacheKey(item.taskId, item.todo.taskAccount));
        const due = state?.found === true && state.task.status !== 'completed' ? dueDateOf(state.task.due) : undefined;
        return due && isOverdue(due, today) ? [{ item, due }] : [];
      });
      this.overdue.set(editor.document.uri.toString(), late.map(({ item }) => item.line));
      editor.setDecorations(this.overdueDecoration, late.map(({ item, due }) => {
        const end = editor.document.lineAt(item.line).range.end;
        return { range: new vs.Range(end, end), renderOptions: { after: { contentText: this.t('⚠ overdue (due {0})', due) } } };
      }));
      const done = found.filter((item) => {
        const state = states.get(cacheKey(item.taskId, item.todo.taskAccount));
        return state?.found === true && state.task.status === 'completed';
      });
      this.decorated.set(editor.document.uri.toString(), done.map((item) => item.line));
      editor.setDecorations(this.decoration, done.map((item) => {
        const end = editor.document.lineAt(item.line).range.end;
        return new vs.Range(end, end);
      }));
    }
  }

  /** Which lines of an editor show "overdue" right now (for tests). */
  async overdueLines(document: vscode.TextDocument): Promise<number[]> {
    clearTimeout(this.decorationTimer);
    await this.updateDecorations();
    return this.overdue.get(document.uri.toString()) ?? [];
  }

  /** Which lines of an editor show "✓ done" right now (for tests). */
  async decoratedLines(document: vscode.TextDocument): Promise<number[]> {
    clearTimeout(this.decorationTimer);
    await this.updateDecorations();
    return this.decorated.get(document.uri.toString()) ?? [];
  }

  // ---- data

  async taskLists(): Promise<TaskList[]> {
    if (this.tasks) return this.tasks.tree.taskLists();
    const lists: TaskList[] = [];
    for await (const list of this.api.allTaskLists()) lists.push(list);
    return lists;
  }

  /** A task just created or changed here: cached for hovers and rows, its list remembered. */
  async known(task: Task, listId: string): Promise<void> {
    await this.remember(task.id, listId);
    this.cache.set(task.id, { at: Date.now(), lookup: Promise.resolve({ found: true, task, listId }) });
  }

  /** A task deleted here. */
  forget(taskId: string): void {
    this.cache.set(taskId, { at: Date.now(), lookup: Promise.resolve({ found: false }) });
  }

  private async remember(taskId: string, listId: string): Promise<void> {
    const state = this.desk.extensionContext.workspaceState;
    const known = state.get<Record<string, string>>(TASK_LISTS_KEY) ?? {};
    if (known[taskId] === listId) return;
    await updateDurably(state, TASK_LISTS_KEY, { ...known, [taskId]: listId });
  }

  /** The linked task, from the cache while fresh; concurrent asks for one task share one request. */
  lookup(taskId: string, options: { fresh?: boolean; account?: string | undefined } = {}): Promise<Lookup> {
    const key = cacheKey(taskId, options.account);
    const cached = this.cache.get(key);
    if (cached && !options.fresh && Date.now() - cached.at < CACHE_MS) return cached.lookup;
    const session = this.desk.session;
    // A marker without an account is the first account's, even when looked up during another account's operation
    // (decorations redrawn after completing bob's task).
    const account = options.account ?? (session.operationAccount !== undefined ? session.currentAccount : undefined);
    // A marker naming an account is looked up in that account only; one not signed in finds nothing elsewhere.
    const lookup = account === undefined ? this.fetchTask(taskId)
      : this.desk.session.isSignedInAs(account) ? this.desk.session.runAs(account, () => this.fetchTask(taskId))
        : Promise.reject(new Error(this.t('Sign in as {0} to see this task.', account)));
    const entry: CacheEntry = { at: Date.now(), lookup };
    this.cache.set(key, entry);
    // A failure (network, signed out) is not remembered: the next hover tries again.
    lookup.catch(() => {
      if (this.cache.get(key) === entry) this.cache.delete(key);
    });
    return lookup;
  }

  /** One request when the list is known (from this workspace); otherwise the lists are tried in turn. */
  private async fetchTask(taskId: string): Promise<Lookup> {
    const known = this.desk.extensionContext.workspaceState.get<Record<string, string>>(TASK_LISTS_KEY)?.[taskId];
    const tryList = async (listId: string): Promise<Lookup | undefined> => {
      try {
        const task = await this.api.getTask(listId, taskId);
        // A deleted task is still answered by id (until purged), but for the TODO it is gone.
        return task.deleted ? { found: false } : { found: true, task, listId };
      } catch (error) {
        // Another list, or deleted: Google answers 404 (sometimes 400 for an id from another list).
        if (error instanceof GoogleApiError && (error.status === 404 || error.status === 400)) return undefined;
        throw error;
      }
    };
    if (known) {
      const found = await tryList(known);
      if (found) return found;
    }
    for (const list of await this.taskLists()) {
      if (list.id === known) continue;
      const found = await tryList(list.id);
      if (found?.found) {
        await this.remember(taskId, list.id);
        return found;
      }
    }
    return { found: false };
  }
}
