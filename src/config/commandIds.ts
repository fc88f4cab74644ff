/**
 * Every command id Desk registers, one table per area, as package.json's `contributes.commands` must list them
 * (test/unit/config/commandIds.test.ts checks the manifest, its menus and these tables agree both ways). Code names a
 * command only through these constants; one export per area, so a feature bundle carries only its own ids.
 */

/** Commands of Desk's own: sign-in and the backend (core/accounts/deskCommands.ts). */
export const DESK_COMMAND = {
  signIn: 'desk.signIn',
  addAccount: 'desk.addAccount',
  signOut: 'desk.signOut',
  useEmulator: 'desk.useEmulator',
  useGoogle: 'desk.useGoogle',
  showWaitingChanges: 'desk.showWaitingChanges',
} as const;

/** Commands of the authentication provider (registered in core/accounts/deskCommands.ts). */
export const AUTH_COMMAND = {
  configureClient: 'desk.auth.configureClient',
  signOut: 'desk.auth.signOut',
} as const;

/** Commands of the Tasks view and editor parts (features/tasks). */
export const TASKS_COMMAND = {
  refresh: 'desk.tasks.refresh',
  createList: 'desk.tasks.createList',
  renameList: 'desk.tasks.renameList',
  deleteList: 'desk.tasks.deleteList',
  addTask: 'desk.tasks.addTask',
  addSubtask: 'desk.tasks.addSubtask',
  editTask: 'desk.tasks.editTask',
  editNotes: 'desk.tasks.editNotes',
  completeTask: 'desk.tasks.completeTask',
  reopenTask: 'desk.tasks.reopenTask',
  deleteTask: 'desk.tasks.deleteTask',
  clearCompleted: 'desk.tasks.clearCompleted',
  moveTask: 'desk.tasks.moveTask',
  showCompleted: 'desk.tasks.showCompleted',
  hideCompleted: 'desk.tasks.hideCompleted',
  getTask: 'desk.tasks.getTask',
  linkTodo: 'desk.tasks.linkTodo',
  completeFromTodo: 'desk.tasks.completeFromTodo',
  openTodoTask: 'desk.tasks.openTodoTask',
  revealTask: 'desk.tasks.revealTask',
} as const;

/** Commands of the TODOs view (features/tasks/todo). */
export const TODO_COMMAND = {
  refresh: 'desk.todo.refresh',
  track: 'desk.todo.track',
  goToSource: 'desk.todo.goToSource',
  unlink: 'desk.todo.unlink',
  cleanUp: 'desk.todo.cleanUp',
} as const;

/** Commands of the Drive view, editors and status bar (features/drive). */
export const DRIVE_COMMAND = {
  refresh: 'desk.drive.refresh',
  addToWorkspace: 'desk.drive.addToWorkspace',
  trashInExplorer: 'desk.drive.trashInExplorer',
  newFolder: 'desk.drive.newFolder',
  newFile: 'desk.drive.newFile',
  uploadFiles: 'desk.drive.uploadFiles',
  uploadFolder: 'desk.drive.uploadFolder',
  download: 'desk.drive.download',
  open: 'desk.drive.open',
  copy: 'desk.drive.copy',
  rename: 'desk.drive.rename',
  move: 'desk.drive.move',
  addParent: 'desk.drive.addParent',
  removeParent: 'desk.drive.removeParent',
  addExistingFile: 'desk.drive.addExistingFile',
  apps: 'desk.drive.apps',
  star: 'desk.drive.star',
  unstar: 'desk.drive.unstar',
  trash: 'desk.drive.trash',
  untrash: 'desk.drive.untrash',
  delete: 'desk.drive.delete',
  emptyTrash: 'desk.drive.emptyTrash',
  export: 'desk.drive.export',
  touch: 'desk.drive.touch',
  properties: 'desk.drive.properties',
  share: 'desk.drive.share',
  addPeople: 'desk.drive.addPeople',
  changeRole: 'desk.drive.changeRole',
  removeAccess: 'desk.drive.removeAccess',
  linkSharing: 'desk.drive.linkSharing',
  transferOwnership: 'desk.drive.transferOwnership',
  createSharedDrive: 'desk.drive.createSharedDrive',
  renameSharedDrive: 'desk.drive.renameSharedDrive',
  hideSharedDrive: 'desk.drive.hideSharedDrive',
  unhideSharedDrive: 'desk.drive.unhideSharedDrive',
  deleteSharedDrive: 'desk.drive.deleteSharedDrive',
  sharedDriveMembers: 'desk.drive.sharedDriveMembers',
  addSharedDriveMember: 'desk.drive.addSharedDriveMember',
  changeSharedDriveMemberRole: 'desk.drive.changeSharedDriveMemberRole',
  removeSharedDriveMember: 'desk.drive.removeSharedDriveMember',
  showHiddenSharedDrives: 'desk.drive.showHiddenSharedDrives',
  hideHiddenSharedDrives: 'desk.drive.hideHiddenSharedDrives',
  editProperties: 'desk.drive.editProperties',
  addProperty: 'desk.drive.addProperty',
  changeProperty: 'desk.drive.changeProperty',
  removeProperty: 'desk.drive.removeProperty',
  revisionHistory: 'desk.drive.revisionHistory',
  openRevision: 'desk.drive.openRevision',
  compareRevisionWithCurrent: 'desk.drive.compareRevisionWithCurrent',
  compareRevisions: 'desk.drive.compareRevisions',
  restoreRevision: 'desk.drive.restoreRevision',
  pinRevision: 'desk.drive.pinRevision',
  unpinRevision: 'desk.drive.unpinRevision',
  publishRevision: 'desk.drive.publishRevision',
  unpublishRevision: 'desk.drive.unpublishRevision',
  deleteRevision: 'desk.drive.deleteRevision',
  labels: 'desk.drive.labels',
  applyLabel: 'desk.drive.applyLabel',
  changeLabelFields: 'desk.drive.changeLabelFields',
  removeLabel: 'desk.drive.removeLabel',
  addComment: 'desk.drive.addComment',
  createComment: 'desk.drive.createComment',
  replyComment: 'desk.drive.replyComment',
  resolveComment: 'desk.drive.resolveComment',
  reopenComment: 'desk.drive.reopenComment',
  editComment: 'desk.drive.editComment',
  saveComment: 'desk.drive.saveComment',
  cancelCommentEdit: 'desk.drive.cancelCommentEdit',
  deleteComment: 'desk.drive.deleteComment',
  showComments: 'desk.drive.showComments',
  openComment: 'desk.drive.openComment',
  refreshComments: 'desk.drive.refreshComments',
  about: 'desk.drive.about',
  openInBrowser: 'desk.drive.openInBrowser',
  showChanges: 'desk.drive.showChanges',
  loadMore: 'desk.drive.loadMore',
  revealFile: 'desk.drive.revealFile',
  changesState: 'desk.drive.changesState',
} as const;

/** Commands of the Bookshelves view (features/books). */
export const BOOKS_COMMAND = {
  refresh: 'desk.books.refresh',
  search: 'desk.books.search',
  addPublicLibrary: 'desk.books.addPublicLibrary',
  removePublicLibrary: 'desk.books.removePublicLibrary',
  loadMore: 'desk.books.loadMore',
  openVolume: 'desk.books.openVolume',
  shelfDetails: 'desk.books.shelfDetails',
  addToShelf: 'desk.books.addToShelf',
  addVolume: 'desk.books.addVolume',
  removeVolume: 'desk.books.removeVolume',
  moveVolume: 'desk.books.moveVolume',
  clearShelf: 'desk.books.clearShelf',
} as const;

/** Commands of the Calendar view (features/calendar). */
export const CALENDAR_COMMAND = {
  refresh: 'desk.calendar.refresh',
  showHidden: 'desk.calendar.showHidden',
  hideHidden: 'desk.calendar.hideHidden',
  createEvent: 'desk.calendar.createEvent',
  quickAdd: 'desk.calendar.quickAdd',
  editEvent: 'desk.calendar.editEvent',
  deleteEvent: 'desk.calendar.deleteEvent',
  respondToEvent: 'desk.calendar.respondToEvent',
  moveEvent: 'desk.calendar.moveEvent',
  showInstances: 'desk.calendar.showInstances',
  openEvent: 'desk.calendar.openEvent',
  joinEvent: 'desk.calendar.joinEvent',
  importIcs: 'desk.calendar.importIcs',
  createCalendar: 'desk.calendar.createCalendar',
  renameCalendar: 'desk.calendar.renameCalendar',
  deleteCalendar: 'desk.calendar.deleteCalendar',
  clearCalendar: 'desk.calendar.clearCalendar',
  addCalendar: 'desk.calendar.addCalendar',
  removeCalendar: 'desk.calendar.removeCalendar',
  calendarSettings: 'desk.calendar.calendarSettings',
  share: 'desk.calendar.share',
  showSettings: 'desk.calendar.showSettings',
  freeBusy: 'desk.calendar.freeBusy',
  openNextEvent: 'desk.calendar.openNextEvent',
  showTaskInTasks: 'desk.calendar.showTaskInTasks',
} as const;

/** Commands of the Channels view (features/channels). */
export const CHANNELS_COMMAND = {
  watchDriveChanges: 'desk.channels.watchDriveChanges',
  watchDriveFile: 'desk.channels.watchDriveFile',
  watchCalendarEvents: 'desk.channels.watchCalendarEvents',
  watchCalendar: 'desk.channels.watchCalendar',
  watchDirectoryUsers: 'desk.channels.watchDirectoryUsers',
  stop: 'desk.channels.stop',
  renew: 'desk.channels.renew',
  refresh: 'desk.channels.refresh',
  startReceiver: 'desk.channels.startReceiver',
  stopReceiver: 'desk.channels.stopReceiver',
} as const;

/** Desk: Search… (features/search), over every service. */
export const SEARCH_COMMAND = {
  everything: 'desk.search.everything',
} as const;

/** Registered but not contributed: the provider's own sign-out, reached through `desk.signOut`. */
export const NOT_CONTRIBUTED: readonly string[] = ['desk.auth.signOut'];

const ALL = [DESK_COMMAND, AUTH_COMMAND, TASKS_COMMAND, TODO_COMMAND, DRIVE_COMMAND, BOOKS_COMMAND, CALENDAR_COMMAND, CHANNELS_COMMAND, SEARCH_COMMAND] as const;

/** The ids of one table, taken table by table (keyof a union of tables would be only the keys they share: none). */
type IdsOf<Table> = Table extends unknown ? Table[keyof Table] : never;

/** Any command id of Desk. */
export type CommandId = IdsOf<(typeof ALL)[number]>;

/** Every id of every table (for the manifest test). */
export function allCommandIds(): CommandId[] {
  return ALL.flatMap((table) => Object.values(table) as CommandId[]);
}
