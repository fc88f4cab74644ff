/**
 * The tree views Desk registers at activation, before their features load (core/startup/lazyFeatures.ts): their ids, the
 * options fixed at registration and their drag and drop mime types. Each feature creates its view with these, so the
 * two cannot differ.
 */

/** Options of a view that VS Code reads once, when the view is registered. */
export interface TreeViewStaticOptions {
  readonly canSelectMany?: boolean;
  readonly showCollapseAll?: boolean;
  readonly manageCheckboxStateManually?: boolean;
}

export interface TreeViewRegistration {
  readonly id: string;
  readonly options: TreeViewStaticOptions;
  /** The mime types of its drag and drop controller (which handles both drag and drop), when it has one. */
  readonly dragAndDrop?: { readonly dragMimeTypes: readonly string[]; readonly dropMimeTypes: readonly string[] };
}

/** Task rows dragged within the Tasks view. */
export const TASKS_MIME = 'application/vnd.code.tree.desk.tasks';
/** Drive rows dragged within the Drive view. */
export const DRIVE_TREE_MIME = 'application/vnd.code.tree.desk.drive';
/** Files dropped on the Drive view from the Explorer or the desktop. */
export const URI_LIST_MIME = 'text/uri-list';
/** Volumes dragged within a shelf. */
export const BOOKS_MIME = 'application/vnd.code.tree.desk.books';

export const TASKS_TREE_VIEW = {
  id: 'desk.tasks',
  // Completing a parent must not tick its subtasks: each checkbox is one task.
  options: { canSelectMany: true, showCollapseAll: true, manageCheckboxStateManually: true },
  dragAndDrop: { dragMimeTypes: [TASKS_MIME], dropMimeTypes: [TASKS_MIME] },
} as const satisfies TreeViewRegistration;

export const DRIVE_TREE_VIEW = {
  id: 'desk.drive',
  options: { canSelectMany: true, showCollapseAll: true },
  dragAndDrop: { dragMimeTypes: [DRIVE_TREE_MIME], dropMimeTypes: [DRIVE_TREE_MIME, URI_LIST_MIME] },
} as const satisfies TreeViewRegistration;

export const CALENDAR_TREE_VIEW = {
  id: 'desk.calendar',
  options: { showCollapseAll: true, manageCheckboxStateManually: true },
} as const satisfies TreeViewRegistration;

export const BOOKS_TREE_VIEW = {
  id: 'desk.books',
  options: { canSelectMany: true, showCollapseAll: true },
  dragAndDrop: { dragMimeTypes: [BOOKS_MIME], dropMimeTypes: [BOOKS_MIME] },
} as const satisfies TreeViewRegistration;

/** A developer's view, collapsed by default: registered at activation so that, when open at a start, its first ask loads it. */
export const CHANNELS_TREE_VIEW = {
  id: 'desk.channels',
  options: {},
} as const satisfies TreeViewRegistration;
