/**
 * The task lists the user left open in the Tasks view, kept in globalState: VS Code keeps a tree's expanded rows per
 * workspace, so a window that reloads into another workspace ("Add to Workspace" turns a folder into an untitled
 * multi-root workspace) showed every list collapsed. A list remembered here starts expanded where VS Code has no state
 * of its own for it. No vscode: the memento is passed in.
 */
import { updateDurably, type WritableMemento } from '../../../core/storage/durableMemento';

const KEY = 'desk.tasks.expandedLists';
/** Enough for anyone's open lists; old ones drop off first. */
const MAX_REMEMBERED = 200;

export class ExpandedLists {
  private readonly ids: Set<string>;

  constructor(private readonly memento: WritableMemento) {
    const stored = memento.get(KEY);
    this.ids = new Set(Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : []);
  }

  has(listId: string): boolean {
    return this.ids.has(listId);
  }

  set(listId: string, expanded: boolean): void {
    if (this.ids.has(listId) === expanded) return;
    if (expanded) this.ids.add(listId);
    else this.ids.delete(listId);
    void updateDurably(this.memento, KEY, [...this.ids].slice(-MAX_REMEMBERED));
  }
}
