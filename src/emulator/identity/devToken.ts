/** What a dev token is: the client id behind tokens handed out without a browser, and every scope Desk uses. */
/** The client id behind tokens handed out without a browser (scripts, tests, benchmarks). */
export const DEV_CLIENT_ID = 'desk-emulator-dev';
/** Every scope Desk's services use: what a script's token (and a test's) may do. */
export const ALL_SCOPES = [
  'https://www.googleapis.com/auth/tasks',
  'https://www.googleapis.com/auth/books',
  'https://www.googleapis.com/auth/drive',
  'https://www.googleapis.com/auth/drive.apps.readonly',
  'https://www.googleapis.com/auth/calendar',
  'https://www.googleapis.com/auth/admin.directory.user',
  'https://www.googleapis.com/auth/drive.labels.readonly',
];
