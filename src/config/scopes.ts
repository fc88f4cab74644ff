/** The OAuth scopes each service needs, and the set Desk asks for at sign-in. No vscode: shared by auth and features. */

/** OAuth scopes Desk asks for, per service. */
export const SCOPES = {
  identity: ['openid', 'email', 'profile'],
  tasks: ['https://www.googleapis.com/auth/tasks'],
  books: ['https://www.googleapis.com/auth/books'],
  /** drive.apps.readonly: apps.list (the Apps picker) is allowed by no other scope. */
  drive: ['https://www.googleapis.com/auth/drive', 'https://www.googleapis.com/auth/drive.apps.readonly'],
  calendar: ['https://www.googleapis.com/auth/calendar'],
  /** Directory users (watching them): an administrator's scope, asked for only when the user watches directory users, never at sign-in. */
  directory: ['https://www.googleapis.com/auth/admin.directory.user'],
  /** Drive label definitions (the Drive Labels API): asked for only when the user first applies or edits a label. */
  driveLabels: ['https://www.googleapis.com/auth/drive.labels.readonly'],
} as const;

/** The scopes asked for at sign-in, so one sign-in serves every feature (the admin scope is asked for only when needed). */
export const DESK_SCOPES: readonly string[] = [...SCOPES.identity, ...SCOPES.tasks, ...SCOPES.books, ...SCOPES.drive, ...SCOPES.calendar];
