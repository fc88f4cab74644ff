/** The Calendar feature's port: the part of CalendarClient the tree, the sync, the status bar and the commands use (fakes implement it). */
import type { CalendarClient } from '../../api/calendar';

export type CalendarApi = Pick<CalendarClient,
  | 'allCalendarListEntries' | 'getCalendarListEntry' | 'insertCalendarListEntry' | 'patchCalendarListEntry' | 'deleteCalendarListEntry'
  | 'getCalendar' | 'insertCalendar' | 'patchCalendar' | 'deleteCalendar' | 'clearCalendar'
  | 'listEvents' | 'getEvent' | 'insertEvent' | 'importEvent' | 'patchEvent' | 'deleteEvent' | 'deleteEvents' | 'allInstances' | 'moveEvent' | 'quickAddEvent'
  | 'allAclRules' | 'insertAclRule' | 'patchAclRule' | 'deleteAclRule'
  | 'getColors' | 'queryFreeBusy' | 'allSettings' | 'getSetting'>;
