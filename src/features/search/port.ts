/** The search's port: the parts of each service's client the sources use (fakes implement them), no type declared twice. */
import type { BooksClient } from '../../api/books';
import type { CalendarClient } from '../../api/calendar';
import type { DriveClient } from '../../api/drive';
import type { TasksClient } from '../../api/tasks';

export type SearchTasksApi = Pick<TasksClient, 'allTaskLists' | 'allTasks'>;
export type SearchDriveApi = Pick<DriveClient, 'listFiles' | 'getFile' | 'listDrives'>;
export type SearchCalendarApi = Pick<CalendarClient, 'allCalendarListEntries' | 'listEvents'>;
export type SearchBooksApi = Pick<BooksClient, 'searchVolumes' | 'listMyBookshelves' | 'listMyShelfVolumes'>;
