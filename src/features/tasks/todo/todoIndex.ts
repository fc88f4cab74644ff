/**
 * The workspace's TODO comments as the TODOs view shows them, without vscode: an index by file that a full
 * scan fills and each changed file updates, and the tree built from it: two sections (not yet tracked, tracked
 * as tasks), each grouped by file, lines in order. Node ids are stable across updates where the thing is the
 * same (a linked TODO by its task id, an unlinked one by file and text), so VS Code keeps selection and expansion.
 */
import type { FoundTodo } from './todoScan';

export type TodoSection = 'unlinked' | 'linked';

export interface TodoSectionNode {
  readonly kind: 'section';
  readonly id: string;
  readonly section: TodoSection;
  readonly parent: undefined;
  readonly files: readonly TodoFileNode[];
  readonly count: number;
}

export interface TodoFileNode {
  readonly kind: 'file';
  readonly id: string;
  readonly section: TodoSection;
  readonly file: string;
  readonly parent: TodoSectionNode;
  readonly items: readonly TodoItemNode[];
}

export interface TodoItemNode {
  readonly kind: 'todo';
  readonly id: string;
  readonly found: FoundTodo;
  readonly parent: TodoFileNode;
}

export type TodoTreeNode = TodoSectionNode | TodoFileNode | TodoItemNode;

/** The TODOs of the workspace by file; `searched` is every file rg searches (to tell a new file from an ignored one). */
export class TodoIndex {
  private readonly byFile = new Map<string, readonly FoundTodo[]>();
  private searchedFiles: Set<string> | undefined;

  /** After a full scan: everything replaced. */
  replaceAll(found: readonly FoundTodo[], searched?: readonly string[]): void {
    this.byFile.clear();
    for (const [file, items] of byFile(found)) this.byFile.set(file, items.sort((a, b) => a.line - b.line));
    this.searchedFiles = searched ? new Set(searched) : undefined;
    for (const item of found) this.searchedFiles?.add(item.file);
  }

  /** After a file changed: its TODOs now (none: the file leaves the index). Answers whether anything differs. */
  setFile(file: string, found: readonly FoundTodo[]): boolean {
    const before = this.byFile.get(file) ?? [];
    const sorted = [...found].sort((a, b) => a.line - b.line);
    if (sorted.length === 0) this.byFile.delete(file);
    else this.byFile.set(file, sorted);
    this.searchedFiles?.add(file);
    return !sameTodos(before, sorted);
  }

  /** A deleted file (or one that became ignored). */
  removeFile(file: string): boolean {
    this.searchedFiles?.delete(file);
    return this.byFile.delete(file);
  }

  /** Whether the last full scan searched `file` (undefined before the first scan or when the list is unknown). */
  isSearched(file: string): boolean | undefined {
    return this.searchedFiles?.has(file);
  }

  files(): string[] {
    return [...this.byFile.keys()];
  }

  todosOf(file: string): readonly FoundTodo[] {
    return this.byFile.get(file) ?? [];
  }

  all(): FoundTodo[] {
    return [...this.byFile.values()].flat();
  }

  linked(): FoundTodo[] {
    return this.all().filter((item) => item.todo.taskId !== undefined);
  }

  get size(): number {
    let count = 0;
    for (const todos of this.byFile.values()) count += todos.length;
    return count;
  }
}

function sameTodos(a: readonly FoundTodo[], b: readonly FoundTodo[]): boolean {
  return a.length === b.length && a.every((item, index) => {
    // As long as `a`: there is one.
    const other = b[index];
    return other.line === item.line && other.todo.text === item.todo.text && other.todo.taskId === item.todo.taskId && other.todo.keyword === item.todo.keyword;
  });
}

/** The view's tree: the sections that have TODOs (unlinked first), files by path, TODOs by line. */
export function buildTodoTree(found: readonly FoundTodo[]): TodoSectionNode[] {
  const sections: TodoSectionNode[] = [];
  for (const section of ['unlinked', 'linked'] as const) {
    const inSection = found.filter((item) => (item.todo.taskId !== undefined) === (section === 'linked'));
    if (inSection.length === 0) continue;
    const byFile = new Map<string, FoundTodo[]>();
    for (const item of inSection) {
      const items = byFile.get(item.file);
      if (items) items.push(item);
      else byFile.set(item.file, [item]);
    }
    const files: TodoFileNode[] = [];
    const node: TodoSectionNode = { kind: 'section', id: `section/${section}`, section, parent: undefined, files, count: inSection.length };
    for (const file of [...byFile.keys()].sort(comparePaths)) {
      const items: TodoItemNode[] = [];
      const fileNode: TodoFileNode = { kind: 'file', id: `file/${section}/${file}`, section, file, parent: node, items };
      const seen = new Map<string, number>();
      for (const item of (byFile.get(file) ?? []).sort((a, b) => a.line - b.line)) {
        // Unlinked TODOs have no id of their own: their text (numbered when repeated) survives lines moving.
        const base = item.todo.taskId !== undefined ? `task/${item.todo.taskId}` : `text/${item.todo.keyword}/${item.todo.text}`;
        const nth = (seen.get(base) ?? 0) + 1;
        seen.set(base, nth);
        items.push({ kind: 'todo', id: `todo/${file}/${base}${nth > 1 ? `#${nth}` : ''}`, found: item, parent: fileNode });
      }
      files.push(fileNode);
    }
    sections.push(node);
  }
  return sections;
}

/** One collator for every comparison: localeCompare with options builds one per call (most of a redraw's sort). */
const pathCollator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Folders before their contents, case-insensitively, as the Explorer sorts. */
export function comparePaths(a: string, b: string): number {
  return pathCollator.compare(a, b);
}

/** The unlinked TODOs a bulk "Track as Task" acts on: those of the nodes given (a whole file = all its TODOs). */
export function unlinkedTodosOf(nodes: readonly TodoTreeNode[]): FoundTodo[] {
  const picked = new Map<string, FoundTodo>();
  const add = (item: FoundTodo): void => {
    if (item.todo.taskId === undefined) picked.set(`${item.file}:${item.line}`, item);
  };
  for (const node of nodes) {
    if (node.kind === 'todo') add(node.found);
    else if (node.kind === 'file') node.items.forEach((item) => { add(item.found); });
    else node.files.forEach((file) => { file.items.forEach((item) => { add(item.found); }); });
  }
  return [...picked.values()].sort((a, b) => comparePaths(a.file, b.file) || a.line - b.line);
}

/** Groups TODOs by file (for one WorkspaceEdit per file). */
export function byFile<T extends { readonly file: string }>(items: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(item.file, [...(groups.get(item.file) ?? []), item]);
  return groups;
}
