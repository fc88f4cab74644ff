/**
 * The view cache's slot (file) of each view that keeps its first rows (core/storage/viewCache.ts): named here so activation
 * can start reading them all before the features load.
 */
export const VIEW_CACHE_SLOTS = {
  /** The task lists and the first tasks as last shown. */
  tasks: 'tasks',
  /** My Drive's first rows. */
  myDrive: 'drive-my-drive',
  /** The calendars and the Agenda's occurrences. */
  agenda: 'calendar-agenda',
  /** My Library's shelves. */
  myLibrary: 'books',
} as const;
