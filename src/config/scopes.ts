/** The OAuth scopes each service needs, and the set Desk asks for at sign-in. No vscode: shared by auth and features. */

/** OAuth scopes Desk asks for, per service. */
export const SCOPES = {
  identity: ['openid', 'email', 'profile'],
  tasks: ['https://www.googleapis.com/auth/tasks'],
  books: ['https://www.googleapis.com/auth/books'],
  drive: ['https://www.googleapis.com/auth/drive'],
  calendar: ['https://www.googleapis.com/auth/calendar'],
} as const;

/** Every scope Desk's features use, asked for at once so one sign-in serves them all. */
export const DESK_SCOPES: readonly string[] = [...SCOPES.identity, ...SCOPES.tasks, ...SCOPES.books, ...SCOPES.drive, ...SCOPES.calendar];
