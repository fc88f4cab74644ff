/**
 * The TODOs view: every TODO/FIXME comment of the workspace, found with VS Code's bundled ripgrep, in two
 * sections (not yet tracked / tracked as tasks) grouped by file. A linked TODO shows its task's state and due
 * date, fetched only when its row is drawn and cached. The first scan runs when the view is first shown;
 * after that a file watcher (and edits to open documents) re-scan only the files that changed, debounced.
 */
import * as fs from 'node:fs';
import type * as vscode from 'vscode';
import type { DeskContext } from '../../../core/deskContext';
import { Disposable } from '../../../core/disposable';
import { dueDateOf, isOverdue } from '../../../core/text/dates';
import { taskDescription } from '../tree/presentation';
import { TASKS_SETTING } from '../../../config/settingKeys';
import { buildTodoTree, TodoIndex, TodoTreeNode } from './todoIndex';
import { applyBatch, BatchEntry } from './todoBatch';
import { findTodos } from './todoParser';
import { excludeGlobs, findMarker, findRipgrep, FoundTodo, listSearchedFiles, RgRunner, ScanOptions, scanWorkspace, spawnRunner } from './todoScan';
import type { Lookup } from './todoTasks';

export const TODOS_VIEW_ID = 'desk.todos';
/** How long file changes gather before one re-scan of the files they touched. */
const UPDATE_DEBOUNCE_MS = 150;

/** What the view needs of the TODO tracking: the trigger words, and the linked tasks (cached). */
export interface TodoViewHost {
  keywords(): readonly string[];
  /** The task of a marker, looked up in the account the marker names (none: the first account). */
  lookup(taskId: string, account: string | undefined): Promise<Lookup>;
  /** Whether the marker's account (none: any account) is signed in. */
  isSignedIn(account: string | undefined): boolean;
}

/** A TODO of the view with the document it is in. */
export interface WorkspaceTodo extends FoundTodo {
  readonly uri: vscode.Uri;
}

export class TodoWorkspace extends Disposable implements vscode.TreeDataProvider<TodoTreeNode> {
  private readonly changeEmitter: vscode.EventEmitter<TodoTreeNode | undefined>;
  readonly onDidChangeTreeData: vscode.Event<TodoTreeNode | undefined>;
  readonly view: vscode.TreeView<TodoTreeNode>;
  private readonly index = new TodoIndex();
  private tree: TodoTreeNode[] = [];
  private scanned: Promise<void> | undefined;
  private scanError: string | undefined;
  private pending = new Set<string>();
  private pendingTimer: ReturnType<typeof setTimeout> | undefined;
  private updating: Promise<void> = Promise.resolve();
  /** The linked tasks as the rows show them, by marker key (task id, and account when the marker names one). */
  private readonly tasks = new Map<string, Lookup | Promise<unknown>>();
  /** Test seam and ripgrep location: the runner is swapped by nothing but tests. */
  private readonly runner: RgRunner;
  private rgPath: string | null | undefined;

  constructor(private readonly desk: DeskContext, private readonly host: TodoViewHost, runner: RgRunner = spawnRunner) {
    super();
    const vs = desk.vs;
    this.runner = runner;
    this.changeEmitter = this._register(new vs.EventEmitter<TodoTreeNode | undefined>());
    this.onDidChangeTreeData = this.changeEmitter.event;
    this.view = this._register(vs.window.createTreeView(TODOS_VIEW_ID, { treeDataProvider: this, canSelectMany: true, showCollapseAll: true }));
    const watcher = this._register(vs.workspace.createFileSystemWatcher('**/*'));
    const changed = (uri: vscode.Uri): void => { this.queue(uri); };
    this._register(watcher.onDidChange(changed));
    this._register(watcher.onDidCreate(changed));
    this._register(watcher.onDidDelete(changed));
    // Unsaved edits (a marker just written by Track as Task) show at once, from the document's text.
    this._register(vs.workspace.onDidChangeTextDocument((event) => {
      if (event.contentChanges.length > 0 && event.document.uri.scheme === 'file') this.queue(event.document.uri);
    }));
    this._register(vs.workspace.onDidCloseTextDocument((document) => {
      if (document.uri.scheme === 'file' && document.isDirty) this.queue(document.uri); // changes thrown away: disk again
    }));
    this._register(vs.workspace.onDidChangeConfiguration((event) => {
      if ([TASKS_SETTING.todoKeywords, 'files.exclude', 'search.exclude'].some((section) => event.affectsConfiguration(section))) void this.refresh();
    }));
    this._register(vs.workspace.onDidChangeWorkspaceFolders(() => void this.refresh()));
  }

  private get vs(): typeof vscode {
    return this.desk.vs;
  }

  // ---- scanning

  /** The workspace scanned (the first time it is asked for, or again after refresh()). */
  ready(): Promise<void> {
    this.scanned ??= this.fullScan();
    return this.scanned.then(() => this.updating);
  }

  /** Scans everything again (the view's Refresh, a setting change). */
  refresh(): Promise<void> {
    this.tasks.clear();
    this.scanned = this.fullScan();
    return this.scanned;
  }

  /** Waits until queued file changes are applied (for tests and commands that just edited). */
  async settled(): Promise<void> {
    if (this.pendingTimer) {
      clearTimeout(this.pendingTimer);
      this.pendingTimer = undefined;
      this.flush();
    }
    await this.ready();
    await this.updating;
  }

  /** Every TODO of the workspace, as last scanned (unsaved edits included). */
  async todos(): Promise<WorkspaceTodo[]> {
    await this.settled();
    return this.index.all().map((found) => this.withUri(found)).filter((found): found is WorkspaceTodo => found !== undefined);
  }

  /** The folders as the scanner sees them: one ScanOptions each (undefined without rg or folders). */
  private scanTargets(): Array<{ folder: vscode.WorkspaceFolder; options: ScanOptions }> {
    const vs = this.vs;
    if (this.rgPath === undefined) this.rgPath = findRipgrep(vs.env.appRoot, (file) => fs.existsSync(file)) ?? null;
    if (!this.rgPath) return [];
    const rgPath = this.rgPath;
    return (vs.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => {
      const files = vs.workspace.getConfiguration('files', folder.uri).get<Record<string, unknown>>('exclude');
      const search = vs.workspace.getConfiguration('search', folder.uri).get<Record<string, unknown>>('exclude');
      return { folder, options: { rgPath, root: folder.uri.fsPath, run: this.runner, keywords: this.host.keywords(), excludes: excludeGlobs(files, search) } };
    });
  }

  /** The index key of a folder-relative path: the path itself, or `folder/path` in a multi-root workspace. */
  private keyOf(folder: vscode.WorkspaceFolder, relative: string): string {
    return (this.vs.workspace.workspaceFolders?.length ?? 0) > 1 ? `${folder.name}/${relative}` : relative;
  }

  /** A file URI → its folder and index key (undefined outside the workspace). */
  private locate(uri: vscode.Uri): { folder: vscode.WorkspaceFolder; relative: string; key: string } | undefined {
    const folder = this.vs.workspace.getWorkspaceFolder(uri);
    if (!folder || uri.scheme !== 'file') return undefined;
    const base = folder.uri.path.replace(/\/$/, '');
    if (!uri.path.startsWith(`${base}/`)) return undefined;
    const relative = uri.path.slice(base.length + 1);
    return { folder, relative, key: this.keyOf(folder, relative) };
  }

  uriOf(key: string): vscode.Uri | undefined {
    const folders = this.vs.workspace.workspaceFolders ?? [];
    if (folders.length === 1 && folders[0]) return this.vs.Uri.joinPath(folders[0].uri, ...key.split('/'));
    const [name, ...rest] = key.split('/');
    const folder = folders.find((candidate) => candidate.name === name);
    return folder ? this.vs.Uri.joinPath(folder.uri, ...rest) : undefined;
  }

  private withUri(found: FoundTodo): WorkspaceTodo | undefined {
    const uri = this.uriOf(found.file);
    return uri ? { ...found, uri } : undefined;
  }

  private async fullScan(): Promise<void> {
    const targets = this.scanTargets();
    this.scanError = undefined;
    if (!this.rgPath) {
      this.scanError = this.vs.l10n.t('Could not find the ripgrep (rg) that comes with VS Code under {0}.', this.vs.env.appRoot);
      this.index.replaceAll([]);
      this.redraw();
      return;
    }
    try {
      await this.vs.window.withProgress({ location: { viewId: TODOS_VIEW_ID } }, async () => {
        const results = await Promise.all(targets.map(async ({ folder, options }) => {
          const [found, searched] = await Promise.all([scanWorkspace(options), listSearchedFiles(options)]);
          return {
            found: found.map((item) => ({ ...item, file: this.keyOf(folder, item.file) })),
            searched: searched.map((file) => this.keyOf(folder, file)),
          };
        }));
        this.index.replaceAll(results.flatMap((result) => result.found), results.flatMap((result) => result.searched));
        // Open documents with unsaved changes count as they are in the editor.
        for (const document of this.vs.workspace.textDocuments) {
          const place = document.isDirty ? this.locate(document.uri) : undefined;
          if (place) this.index.setFile(place.key, this.fromText(place.key, document.getText()));
        }
      });
    } catch (error) {
      this.scanError = this.vs.l10n.t('Could not search the workspace for TODOs: {0}', error instanceof Error ? error.message : String(error));
      this.desk.log.warn(this.scanError);
    }
    this.redraw();
  }

  private fromText(key: string, text: string): FoundTodo[] {
    return findTodos(text, this.host.keywords()).map(({ line, todo }) => ({ file: key, line, todo }));
  }

  private queue(uri: vscode.Uri): void {
    if (!this.scanned) return; // nothing shown yet: the first scan will see it
    if (!this.locate(uri)) return;
    this.pending.add(uri.toString());
    clearTimeout(this.pendingTimer);
    this.pendingTimer = setTimeout(() => {
      this.pendingTimer = undefined;
      this.flush();
    }, UPDATE_DEBOUNCE_MS);
  }

  private flush(): void {
    const uris = [...this.pending].map((text) => this.vs.Uri.parse(text));
    this.pending.clear();
    if (uris.length === 0) return;
    this.updating = this.updating.then(() => this.updateFiles(uris)).catch((error: unknown) => { this.desk.log.warn(`TODOs view update: ${String(error)}`); });
  }

  /** Re-scans only `uris`: open dirty documents from their text, the others with rg on those files alone (a folder: its files). */
  async updateFiles(uris: readonly vscode.Uri[]): Promise<void> {
    await this.scanned;
    const targets = new Map(this.scanTargets().map(({ folder, options }) => [folder, options]));
    const entries: Array<BatchEntry<vscode.WorkspaceFolder>> = [];
    for (const uri of uris) {
      const place = this.locate(uri);
      if (place) entries.push({ ...place, path: uri.fsPath });
    }
    const changed = await applyBatch(this.index, entries, {
      options: (folder) => targets.get(folder),
      keyOf: (folder, relative) => this.keyOf(folder, relative),
      kindOf: (path) => {
        try {
          return fs.statSync(path).isDirectory() ? 'directory' : 'file';
        } catch {
          return 'missing'; // gone, or unreadable: either way not searched
        }
      },
      dirtyTexts: () => new Map([...this.dirtyDocuments()].map(([key, document]) => [key, () => document.getText()])),
      todosInText: (key, text) => this.fromText(key, text),
    });
    if (changed) this.redraw();
  }

  /** The open documents with unsaved changes, by index key (the first document of a key, as a lookup finds it). */
  private dirtyDocuments(): Map<string, vscode.TextDocument> {
    const documents = new Map<string, vscode.TextDocument>();
    for (const document of this.vs.workspace.textDocuments) {
      const key = document.isDirty ? this.locate(document.uri)?.key : undefined;
      if (key !== undefined && !documents.has(key)) documents.set(key, document);
    }
    return documents;
  }

  /** Where the marker of `taskId` is now, in open documents (unsaved text first) and on disk, every folder. */
  async findMarker(taskId: string): Promise<WorkspaceTodo[]> {
    const hits = new Map<string, WorkspaceTodo>();
    const dirty = new Set<string>();
    for (const document of this.vs.workspace.textDocuments) {
      const place = document.isDirty ? this.locate(document.uri) : undefined;
      if (!place) continue;
      dirty.add(place.key);
      for (const found of this.fromText(place.key, document.getText())) {
        if (found.todo.taskId === taskId) hits.set(`${place.key}:${found.line}`, { ...found, uri: document.uri });
      }
    }
    for (const { folder, options } of this.scanTargets()) {
      for (const found of await findMarker(options, taskId)) {
        const key = this.keyOf(folder, found.file);
        if (dirty.has(key)) continue;
        hits.set(`${key}:${found.line}`, { ...found, file: key, uri: this.vs.Uri.joinPath(folder.uri, ...found.file.split('/')) });
      }
    }
    return [...hits.values()];
  }

  /** The task state a linked row shows was changed (completed, unlinked…): fetch it again when drawn. */
  forgetTask(taskId?: string): void {
    if (taskId === undefined) this.tasks.clear();
    else for (const key of [...this.tasks.keys()]) if (key === taskId || key.endsWith(`/${taskId}`)) this.tasks.delete(key);
    this.redraw();
  }

  private redraw(): void {
    this.tree = buildTodoTree(this.index.all());
    void this.vs.commands.executeCommand('setContext', 'desk:todos.count', this.index.size);
    this.changeEmitter.fire(undefined);
  }

  // ---- TreeDataProvider

  async getChildren(element?: TodoTreeNode): Promise<TodoTreeNode[]> {
    if (!element) {
      await this.ready();
      return this.tree;
    }
    if (element.kind === 'section') return [...element.files];
    if (element.kind === 'file') return [...element.items];
    return [];
  }

  getParent(element: TodoTreeNode): TodoTreeNode | undefined {
    return element.parent;
  }

  getTreeItem(element: TodoTreeNode): vscode.TreeItem {
    const vs = this.vs;
    const t = vs.l10n.t;
    if (element.kind === 'section') {
      const label = element.section === 'unlinked' ? t('Not Tracked') : t('Tracked as Tasks');
      const item = new vs.TreeItem(label, vs.TreeItemCollapsibleState.Expanded);
      item.id = element.id;
      item.description = String(element.count);
      item.contextValue = `todo-section ${element.section}`;
      item.iconPath = new vs.ThemeIcon(element.section === 'unlinked' ? 'circle-large-outline' : 'checklist');
      return item;
    }
    if (element.kind === 'file') {
      const item = new vs.TreeItem(element.file, vs.TreeItemCollapsibleState.Expanded);
      item.id = element.id;
      item.resourceUri = this.uriOf(element.file);
      const slash = element.file.lastIndexOf('/');
      item.label = element.file.slice(slash + 1);
      item.description = `${slash > 0 ? element.file.slice(0, slash) : ''}${slash > 0 ? ' · ' : ''}${element.items.length}`;
      item.iconPath = vs.ThemeIcon.File;
      item.contextValue = `todo-file ${element.section}`;
      return item;
    }
    const { found } = element;
    const { todo } = found;
    const item = new vs.TreeItem(todo.text || todo.keyword, vs.TreeItemCollapsibleState.None);
    item.id = element.id;
    const words = [`${todo.keyword} · ${t('line {0}', found.line + 1)}`];
    let icon = todo.taskId ? 'pass' : 'circle-large-outline';
    if (todo.taskId && todo.taskAccount !== undefined && !this.host.isSignedIn(todo.taskAccount)) {
      // Another account's task: nothing is looked up in the accounts signed in.
      words.push(t('sign in as {0}', todo.taskAccount));
      icon = 'account';
    } else if (todo.taskId) {
      const state = this.taskState(todo.taskId, todo.taskAccount);
      if (state === undefined) words.push(t('loading task…'));
      else if (!state.found) {
        words.push(t('task not found'));
        icon = 'warning';
      } else {
        const due = dueDateOf(state.task.due);
        const today = this.desk.clock.today();
        const done = state.task.status === 'completed';
        // The due date first, in the Tasks view's own short words ("Fri", "27 Nov · overdue"): a narrow side bar
        // cuts the end of a description, never its start.
        const dueWords = taskDescription(state.task, today, t, vs.env.language);
        if (dueWords) words.unshift(dueWords);
        words.push(done ? t('done') : t('open'));
        icon = done ? 'pass-filled' : due && isOverdue(due, today) ? 'warning' : 'circle-large-outline';
      }
    }
    item.description = words.join(' · ');
    item.iconPath = new vs.ThemeIcon(icon);
    item.contextValue = todo.taskId ? 'todo-item linked' : 'todo-item unlinked';
    item.tooltip = `${todo.keyword}: ${todo.text}\n${found.file}:${found.line + 1}`;
    const uri = this.uriOf(found.file);
    if (uri) {
      const range = new vs.Range(found.line, todo.start, found.line, todo.start);
      item.command = { command: 'vscode.open', title: t('Open'), arguments: [uri, { selection: range, preview: true } satisfies vscode.TextDocumentShowOptions] };
    }
    return item;
  }

  /** The settled state of a linked task, or undefined while it loads (the row is redrawn when it arrives). */
  private taskState(taskId: string, account: string | undefined): Lookup | undefined {
    const key = account === undefined ? taskId : `${account}/${taskId}`;
    const known = this.tasks.get(key);
    if (known && !(known instanceof Promise)) return known;
    if (!known) {
      if (!this.host.isSignedIn(account)) return { found: false };
      const loading = this.host.lookup(taskId, account).then(
        (lookup) => {
          if (this.tasks.get(key) === loading) this.tasks.set(key, lookup);
        },
        () => {
          if (this.tasks.get(key) === loading) this.tasks.delete(key);
        },
      ).finally(() => { this.changeEmitter.fire(undefined); });
      this.tasks.set(key, loading);
    }
    return undefined;
  }

  /** What the rows say about a linked task right now (for tests): waits for lookups started by drawing. */
  async settledTaskStates(): Promise<void> {
    await Promise.all([...this.tasks.values()].filter((value) => value instanceof Promise));
  }
}
