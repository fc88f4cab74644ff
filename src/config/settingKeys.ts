/**
 * Every setting key Desk reads or writes, one table per area, as package.json's `contributes.configuration` lists
 * them (test/unit/config/settingKeys.test.ts checks both agree both ways). Code names a setting only through these
 * constants, like the command ids (config/commandIds.ts); what a value means is read where it is used
 * (core/settings.ts for Desk's own and the Tasks and Calendar views', a feature for its own).
 */

/** Where Desk's requests go (core/settings.ts, core/backend/backend.ts). */
export const DESK_SETTING = {
  backend: 'desk.backend',
  emulatorUrl: 'desk.emulator.url',
  emulatorSeed: 'desk.emulator.seed',
  googleClientId: 'desk.google.clientId',
} as const;

export const TASKS_SETTING = {
  showCompleted: 'desk.tasks.showCompleted',
  pageSize: 'desk.tasks.pageSize',
  /** The comment keywords the TODO view and decorations look for (features/tasks/todo). */
  todoKeywords: 'desk.todo.keywords',
} as const;

export const CALENDAR_SETTING = {
  daysAhead: 'desk.calendar.daysAhead',
  reminders: 'desk.calendar.reminders',
  /** Tasks due on a day shown in the Agenda (features/calendar/agenda/dueTasksInAgenda.ts). */
  showTasks: 'desk.calendar.showTasks',
} as const;

/** Push notification channels renewed before they expire (features/channels/timers.ts). */
export const CHANNELS_SETTING = {
  autoRenew: 'desk.channels.autoRenew',
} as const;

/** Drive's change feed by push (features/drive/changes/push.ts). */
export const DRIVE_SETTING = {
  pushChanges: 'desk.drive.pushChanges',
} as const;

const ALL = [DESK_SETTING, TASKS_SETTING, CALENDAR_SETTING, CHANNELS_SETTING, DRIVE_SETTING] as const;

/** Every key of the tables above (for the test against the manifest). */
export function allSettingKeys(): string[] {
  return ALL.flatMap((table) => Object.values(table) as string[]);
}
