/**
 * The commands of the TODOs view and of linked tasks, as one table behind the core wrapper: Track as Task (one
 * TODO, a selection, or a whole file: one WorkspaceEdit per file, so one undo step each), Go to Source (the
 * comment found again by its task marker), Unlink (marker only, or the task too: asked), and Clean Up Finished
 * TODOs (remove or mark DONE the comments of completed tasks, shown in the refactor preview first).
 */
import type * as vscode from 'vscode';
import { errorMessage } from '../../../api/errors';
import { settleAll } from '../../../core/bulk';
import { attempt, registerCommands } from '../../../core/commands';
import type { DeskContext } from '../../../core/deskContext';
import type { Task, TaskList, TaskWrite } from '../../../shared/schemas/tasks';
import { TaskNode } from '../tree/nodes';
import { parseNaturalDue, NATURAL_DUE_HELP } from './dueInput';
import { describeDay } from '../../../core/text/dates';
import { byFile, TodoTreeNode, unlinkedTodosOf } from './todoIndex';
import {
  doneEdit, LineEdit, linkLine, minimalEdit, parseTodo, relocateTodo, removalEdit, sourceNotes, sourceOf, taskTitleFor, TodoComment, todoLocator,
  unlinkEdit, withSource,
} from './todoParser';
import type { FoundTodo } from './todoScan';
import type { TodoTracking } from './todoTasks';
import type { TodoWorkspace, WorkspaceTodo } from './todoView';
import { TODO_COMMAND } from '../../../config/commandIds';
import { appendAll } from '../../../shared/arrays';


/** What Unlink answers: undefined when cancelled. */
export interface UnlinkResult {
  readonly taskId: string;
  readonly deletedTask: boolean;
}

export class TodoCommands {
  /** What the last clean-up put in the refactor preview (the entries' metadata cannot be read back from a WorkspaceEdit). */
  lastCleanUp: Array<{ readonly uri: string; readonly line: number; readonly needsConfirmation: boolean }> = [];

  constructor(private readonly desk: DeskContext, private readonly tracking: TodoTracking, private readonly workspace: TodoWorkspace) {}

  private get vs(): typeof vscode {
    return this.desk.vs;
  }

  private t(message: string, ...args: Array<string | number>): string {
    return this.vs.l10n.t(message, ...args);
  }

  register(): vscode.Disposable[] {
    return registerCommands(this.desk, {
      [TODO_COMMAND.refresh]: () => this.workspace.refresh(),
      [TODO_COMMAND.track]: (node?: unknown, selection?: unknown) => this.track(node, selection),
      [TODO_COMMAND.goToSource]: (node?: unknown) => this.goToSource(node),
      [TODO_COMMAND.unlink]: (where?: unknown, line?: unknown) => this.unlink(where, line),
      [TODO_COMMAND.cleanUp]: () => this.cleanUp(),
    // From the palette with several accounts signed in, Track as Task asks whose tasks they become.
    }, { askAccount: [TODO_COMMAND.track] });
  }

  // ---- Track as Task

  /**
   * Creates a task per unlinked TODO of the clicked row, or of the selection when the row is part of it (a file
   * row = all its TODOs), asking once for the list and the due date, then writes the markers.
   */
  async track(node?: unknown, selection?: unknown): Promise<Task[]> {
    const nodes = todoNodes(selection, node);
    let targets: FoundTodo[] = unlinkedTodosOf(nodes);
    if (nodes.length === 0) targets = await this.palettePick();
    if (targets.length === 0) {
      if (nodes.length > 0) void this.vs.window.showInformationMessage(this.t('Desk: every TODO there is already tracked.'));
      return [];
    }
    const title = targets.length === 1 ? this.t('Track as Task') : this.t('Track {0} TODOs as Tasks', targets.length);
    const list = await this.tracking.pickList(title);
    if (!list) return [];
    const due = await this.askDue(title);
    if (due === undefined) return [];
    return this.createAndMark(targets, list, due);
  }

  /** From the palette: the TODO at the cursor, else a pick among the workspace's unlinked TODOs. */
  private async palettePick(): Promise<FoundTodo[]> {
    const editor = this.vs.window.activeTextEditor;
    if (editor) {
      const line = editor.selection.active.line;
      const todo = parseTodo(editor.document.lineAt(line).text, this.tracking.keywords());
      const key = this.vs.workspace.asRelativePath(editor.document.uri, (this.vs.workspace.workspaceFolders?.length ?? 0) > 1);
      if (todo && !todo.taskId && editor.document.uri.scheme === 'file') return [{ file: key, line, todo }];
    }
    const unlinked = (await this.workspace.todos()).filter((item) => !item.todo.taskId);
    if (unlinked.length === 0) {
      void this.vs.window.showInformationMessage(this.t('Desk: there is no untracked TODO in the workspace.'));
      return [];
    }
    const picked = await this.vs.window.showQuickPick(
      unlinked.map((item) => ({ label: item.todo.text || item.todo.keyword, description: `${item.file}:${item.line + 1}`, item })),
      { canPickMany: true, title: this.t('Track as Task'), placeHolder: this.t('Which TODOs?'), matchOnDescription: true },
    );
    return (picked ?? []).map((choice) => choice.item);
  }

  /** The due date: a date, null for none, undefined when cancelled. Natural language ("next friday") is read by chrono. */
  private async askDue(title: string): Promise<string | null | undefined> {
    const vs = this.vs;
    const help = this.t(NATURAL_DUE_HELP);
    const answer = await vs.window.showInputBox({
      title,
      prompt: help,
      placeHolder: this.t('next friday'),
      ignoreFocusOut: true,
      validateInput: (text) => {
        const parsed = parseNaturalDue(text, this.desk.clock.today(), this.vs.l10n.t);
        return parsed.kind === 'invalid' ? this.t('Not a date Desk understands. {0}', help) : parsed.kind === 'date' ? { message: this.t('Due {0}', describeDay(parsed.date, vs.env.language)), severity: vs.InputBoxValidationSeverity.Info } : undefined;
      },
    });
    if (answer === undefined) return undefined;
    const parsed = parseNaturalDue(answer, this.desk.clock.today(), this.vs.l10n.t);
    if (parsed.kind === 'invalid') {
      void vs.window.showWarningMessage(this.t('"{0}" is not a date Desk understands: nothing was created.', answer.trim()));
      return undefined;
    }
    return parsed.kind === 'date' ? parsed.date : null;
  }

  /**
   * Creates the tasks in one batch request (api/batch.ts), then marks each TODO whose task exists: one WorkspaceEdit
   * per file. The TODOs whose task could not be created are named in one message, and Retry creates only those.
   */
  private async createAndMark(targets: readonly FoundTodo[], list: TaskList, due: string | null): Promise<Task[]> {
    const vs = this.vs;
    const keywords = this.tracking.keywords();
    const created: Task[] = [];
    let unmarked = 0;
    const located: Array<{ file: string; uri: vscode.Uri; item: FoundTodo; line: number }> = [];
    for (const [file, items] of byFile(targets)) {
      const uri = this.workspace.uriOf(file);
      if (!uri) continue;
      // The document as it is now (open or not): the TODO may have moved since the scan.
      const document = await vs.workspace.openTextDocument(uri);
      const locator = todoLocator((at) => document.lineAt(at).text, document.lineCount, keywords);
      for (const item of items) {
        const line = locator.unlinked(item.line, item.todo);
        if (line === undefined) unmarked++;
        else located.push({ file, uri, item, line });
      }
    }
    const bodyOf = (todo: (typeof located)[number]): TaskWrite => ({
      title: taskTitleFor(todo.item.todo, `${todo.file}:${todo.line + 1}`, undefined, this.vs.l10n.t),
      notes: sourceNotes(todo.file, todo.uri.with({ fragment: `L${todo.line + 1}` }).toString()),
      ...(due ? { due: `${due}T00:00:00.000Z` } : {}),
    });
    const markAll = async (done: readonly { item: (typeof located)[number]; value: Task }[]): Promise<void> => {
      for (const { value } of done) await this.tracking.known(value, list.id);
      appendAll(created, done.map(({ value }) => value));
      unmarked += await this.writeMarkers(done.map(({ item, value }) => ({ file: item.file, uri: item.uri, item: item.item, taskId: value.id })), keywords);
      if (done.length === 0) return;
      await this.tracking.usedList(list.id);
      this.tracking.tasks?.tree.refreshList(list.id);
      this.tracking.scheduleDecorations();
      await this.workspace.updateFiles([...new Set(done.map(({ item }) => item.uri.toString()))].map((uri) => vs.Uri.parse(uri)));
    };
    await vs.window.withProgress({ location: targets.length > 3 ? vs.ProgressLocation.Notification : vs.ProgressLocation.Window, title: this.t('Desk: tracking TODOs as tasks') }, () =>
      attempt(this.desk, () => settleAll({
        items: located,
        run: (todos) => this.tracking.api.insertTasks(list.id, todos.map(bodyOf)),
        nameOf: (todo) => `${todo.item.todo.text || todo.item.todo.keyword} (${todo.file}:${todo.line + 1})`,
        describe: (error) => errorMessage(error, this.vs.l10n.t),
        t: this.vs.l10n.t,
        onDone: markAll,
      }), { action: this.t('Desk: some TODOs could not be tracked as tasks') }));
    if (unmarked > 0) void vs.window.showWarningMessage(this.t('Desk: {0} TODO(s) changed before they could be marked; check them in the TODOs view.', unmarked));
    else if (created.length > 0) vs.window.setStatusBarMessage(this.t('Desk: {0} task(s) created in {1}.', created.length, list.title), 4000);
    return created;
  }

  /** Writes `TODO(task:…)` markers, one WorkspaceEdit (one undo step) per file; answers how many TODOs moved away meanwhile. */
  private async writeMarkers(marks: readonly { file: string; uri: vscode.Uri; item: FoundTodo; taskId: string }[], keywords: ReturnType<TodoTracking['keywords']>): Promise<number> {
    const vs = this.vs;
    let unmarked = 0;
    // Several accounts signed in: each marker records whose task it is (the account the tasks were created in).
    const session = this.desk.session;
    const account = session.accounts.length > 1 ? session.operationAccount ?? session.currentAccount : undefined;
    for (const [, items] of byFile(marks.map((mark) => ({ ...mark.item, mark })))) {
      const uri = items.at(0)?.mark.uri;
      if (!uri) continue;
      const document = await vs.workspace.openTextDocument(uri);
      const edit = new vs.WorkspaceEdit();
      let count = 0;
      const locator = todoLocator((at) => document.lineAt(at).text, document.lineCount, keywords);
      for (const { mark } of items) {
        const line = locator.unlinked(mark.item.line, mark.item.todo);
        if (line === undefined) {
          unmarked++;
          continue;
        }
        const before = document.lineAt(line).text;
        const change = minimalEdit(before, linkLine(before, mark.taskId, keywords, account));
        edit.replace(uri, new vs.Range(line, change.start, line, change.end), change.text);
        count++;
      }
      if (count > 0 && !(await vs.workspace.applyEdit(edit, { isRefactoring: true }))) unmarked += count;
    }
    return unmarked;
  }

  // ---- Go to Source

  /** Opens the comment a task was created from, found by its marker (`task:<id>`) wherever it is now. */
  async goToSource(node?: unknown): Promise<{ uri: vscode.Uri; line: number } | undefined> {
    const vs = this.vs;
    const resolved = await this.taskOf(node);
    if (!resolved) return undefined;
    const { task, listId } = resolved;
    const hits = await this.workspace.findMarker(task.id);
    let hit: WorkspaceTodo | undefined = hits[0];
    if (hits.length === 0) {
      const source = sourceOf(task.notes);
      void vs.window.showWarningMessage(source
        ? this.t('Desk: no comment in this workspace carries "task:{0}" any more (the task came from {1}).', task.id, source.path)
        : this.t('Desk: no comment in this workspace carries "task:{0}".', task.id));
      return undefined;
    }
    if (hits.length > 1) {
      const picked = await vs.window.showQuickPick(hits.map((item) => ({ label: `${item.file}:${item.line + 1}`, description: item.todo.text, item })), { title: this.t('Go to TODO Comment'), placeHolder: this.t('The marker is in more than one place') });
      hit = picked?.item;
    }
    if (!hit) return undefined;
    const range = new vs.Range(hit.line, hit.todo.start, hit.line, hit.todo.headEnd);
    await vs.window.showTextDocument(hit.uri, { selection: range, preview: false });
    // The link back follows the comment: a renamed file is written into the task's notes.
    const source = sourceOf(task.notes);
    if (source && source.path !== hit.file) {
      const notes = withSource(task.notes ?? '', hit.file).replace(/^file:\S*$/m, hit.uri.with({ fragment: `L${hit.line + 1}` }).toString());
      void this.tracking.api.patchTask(listId, task.id, { notes }).then(
        (patched) => this.tracking.known(patched, listId),
        (error: unknown) => { this.desk.log.warn(`Could not update the source of ${task.id}: ${String(error)}`); },
      );
    }
    return { uri: hit.uri, line: hit.line };
  }

  /** A Tasks view row, a TODOs view row, or a task id → the task (fetched fresh for its notes). */
  private async taskOf(node: unknown): Promise<{ task: Task; listId: string } | undefined> {
    let taskId: string | undefined;
    if (node instanceof TaskNode) return { task: node.task, listId: node.listId };
    if (isTodoNode(node) && node.kind === 'todo') taskId = node.found.todo.taskId;
    else if (typeof node === 'string') taskId = node;
    else if (typeof node === 'object' && node !== null && (node as { kind?: unknown }).kind === 'task') {
      const row = node as { listId: string; task: Task };
      return { task: row.task, listId: row.listId };
    }
    if (!taskId) {
      void this.vs.window.showInformationMessage(this.t('Desk: run "Go to TODO Comment" on a task in the Tasks view.'));
      return undefined;
    }
    const lookup = await this.tracking.lookup(taskId);
    return lookup.found ? { task: lookup.task, listId: lookup.listId } : undefined;
  }

  // ---- Unlink

  /** Removes the marker from a linked TODO; asks whether the task stays or goes too. */
  async unlink(where?: unknown, line?: unknown): Promise<UnlinkResult | undefined> {
    const vs = this.vs;
    let uri: vscode.Uri | undefined;
    let lineNumber: number | undefined;
    if (isTodoNode(where) && where.kind === 'todo') {
      uri = this.workspace.uriOf(where.found.file);
      lineNumber = where.found.line;
    } else if ((where instanceof vs.Uri || typeof where === 'string') && typeof line === 'number') {
      uri = typeof where === 'string' ? vs.Uri.parse(where) : where;
      lineNumber = line;
    }
    const target = await this.tracking.target(uri, lineNumber);
    if (!target) return undefined;
    const { document, todo } = target;
    const taskId = todo.taskId;
    if (!taskId) {
      void vs.window.showInformationMessage(this.t('Desk: this {0} is not linked to a task.', todo.keyword));
      return undefined;
    }
    const keep = this.t('Remove Marker, Keep Task');
    const remove = this.t('Remove Marker and Delete Task');
    const lookup = await this.tracking.lookup(taskId, { fresh: true }).catch(() => ({ found: false }) as const);
    const name = lookup.found ? lookup.task.title : taskId;
    const choice = await vs.window.showWarningMessage(
      this.t('Unlink this {0} from the task "{1}"?', todo.keyword, name),
      { modal: true, detail: this.t('The comment stays as a plain {0}. Deleting the task cannot be undone; removing the marker can.', todo.keyword) },
      ...(lookup.found ? [keep, remove] : [keep]),
    );
    if (choice !== keep && choice !== remove) return undefined;
    const at = relocateTodo((index) => document.lineAt(index).text, document.lineCount, target.line, (found) => found.taskId === taskId, this.tracking.keywords());
    const current = at === undefined ? undefined : parseTodo(document.lineAt(at).text, this.tracking.keywords());
    const change = current && unlinkEdit(current);
    if (at === undefined || !change) return undefined;
    const edit = new vs.WorkspaceEdit();
    edit.replace(document.uri, new vs.Range(at, change.start, at, change.end), change.text);
    if (!(await vs.workspace.applyEdit(edit))) throw new Error(this.t('Could not edit {0}', vs.workspace.asRelativePath(document.uri)));
    let deletedTask = false;
    if (choice === remove && lookup.found) {
      await this.tracking.api.deleteTask(lookup.listId, taskId);
      this.tracking.forget(taskId);
      this.tracking.tasks?.tree.refreshList(lookup.listId);
      deletedTask = true;
    }
    this.workspace.forgetTask(taskId);
    await this.workspace.updateFiles([document.uri]);
    this.tracking.scheduleDecorations();
    return { taskId, deletedTask };
  }

  // ---- Clean Up Finished TODOs

  /**
   * The linked TODOs whose task is completed: removed, or rewritten as DONE, in one WorkspaceEdit whose every
   * change needs confirmation, so VS Code shows the refactor preview and nothing changes until the user applies it.
   */
  async cleanUp(): Promise<number> {
    const vs = this.vs;
    const keywords = this.tracking.keywords();
    const linked = (await this.workspace.todos()).filter((item) => item.todo.taskId);
    const ids = [...new Set(linked.map((item) => item.todo.taskId as string))];
    const states = new Map<string, Task>();
    await vs.window.withProgress({ location: vs.ProgressLocation.Window, title: this.t('Desk: checking linked tasks') }, async () => {
      for (let start = 0; start < ids.length; start += 8) {
        await Promise.all(ids.slice(start, start + 8).map(async (id) => {
          const lookup = await this.tracking.lookup(id, { fresh: true }).catch(() => undefined);
          if (lookup?.found && lookup.task.status === 'completed') states.set(id, lookup.task);
        }));
      }
    });
    const finished = linked.filter((item) => states.has(item.todo.taskId as string));
    if (finished.length === 0) {
      void vs.window.showInformationMessage(this.t('Desk: no linked TODO has a completed task.'));
      return 0;
    }
    type Mode = 'remove' | 'done';
    const mode = (await vs.window.showQuickPick<{ label: string; detail: string; mode: Mode }>([
      { label: this.t('Remove the Comments'), detail: this.t('Delete the {0} finished TODO comment(s) (a comment alone on its line takes the line).', finished.length), mode: 'remove' },
      { label: this.t('Mark Them DONE'), detail: this.t('Keep the comments as a record: TODO(task:…) becomes DONE(task:…).'), mode: 'done' },
    ], { title: this.t('Clean Up Finished TODOs'), placeHolder: this.t('{0} linked TODO(s) have a completed task', finished.length) }))?.mode;
    if (!mode) return 0;

    const edit = new vs.WorkspaceEdit();
    this.lastCleanUp = [];
    let count = 0;
    for (const [, items] of byFile(finished)) {
      const uri = items.at(0)?.uri;
      if (!uri) continue;
      const document = await vs.workspace.openTextDocument(uri);
      const lines = new Set<number>();
      const locator = todoLocator((at) => document.lineAt(at).text, document.lineCount, keywords);
      for (const item of items) {
        const taskId = item.todo.taskId as string;
        const line = locator.linked(item.line, taskId);
        if (line === undefined || lines.has(line)) continue;
        lines.add(line);
        const text = document.lineAt(line).text;
        const todo = parseTodo(text, keywords) as TodoComment;
        const task = states.get(taskId) as Task;
        const metadata: vscode.WorkspaceEditEntryMetadata = {
          needsConfirmation: true,
          label: mode === 'remove' ? this.t('Remove finished TODOs') : this.t('Mark finished TODOs DONE'),
          description: task.title,
          iconPath: new vs.ThemeIcon('pass-filled'),
        };
        this.lastCleanUp.push({ uri: uri.toString(), line, needsConfirmation: metadata.needsConfirmation });
        const removal = mode === 'remove' ? removalEdit(text, todo) : undefined;
        if (removal?.kind === 'line') {
          const range = line + 1 < document.lineCount ? new vs.Range(line, 0, line + 1, 0) : new vs.Range(Math.max(0, line - 1), line > 0 ? document.lineAt(line - 1).text.length : 0, line, text.length);
          edit.delete(uri, range, metadata);
        } else {
          const change: LineEdit = removal?.kind === 'span' ? { start: removal.start, end: removal.end, text: '' } : doneEdit(todo);
          edit.replace(uri, new vs.Range(line, change.start, line, change.end), change.text, metadata);
        }
        count++;
      }
    }
    if (count === 0) return 0;
    // needsConfirmation: VS Code opens the refactor preview; false when the user discards it.
    const applied = await vs.workspace.applyEdit(edit, { isRefactoring: true });
    if (!applied) return 0;
    for (const id of states.keys()) this.workspace.forgetTask(id);
    return count;
  }
}

function isTodoNode(value: unknown): value is TodoTreeNode {
  const kind = (value as { kind?: unknown } | undefined)?.kind;
  return typeof value === 'object' && value !== null && (kind === 'todo' || kind === 'file' || kind === 'section') && 'id' in value;
}

/** The rows a tree command acts on: the selection when the clicked row is part of it, else the row. */
function todoNodes(selection: unknown, node: unknown): TodoTreeNode[] {
  const selected = Array.isArray(selection) ? selection.filter(isTodoNode) : [];
  if (isTodoNode(node)) return selected.some((item) => item.id === node.id) ? selected : [node];
  return selected;
}
