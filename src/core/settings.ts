/**
 * Desk's settings, read through one small interface so the logic that interprets them (which backend to
 * use) runs under plain mocha. User settings can hold anything: each value is checked and falls back to its
 * default instead of breaking activation.
 */
import { CALENDAR_SETTING, DESK_SETTING, TASKS_SETTING } from '../config/settingKeys';

export interface ConfigurationReader {
  get(section: string): unknown;
}

export type BackendSetting = 'auto' | 'emulator' | 'google';
export type EmulatorSeed = 'demo' | 'none';

export interface DeskSettings {
  readonly backend: BackendSetting;
  /** An already running emulator; empty means Desk starts its embedded one on demand. */
  readonly emulatorUrl: string | undefined;
  readonly emulatorSeed: EmulatorSeed;
  readonly googleClientId: string | undefined;
  readonly tasksShowCompleted: boolean;
  readonly tasksPageSize: number;
  /** How many days the Agenda shows (1–60). */
  readonly calendarDaysAhead: number;
  /** Reminder notifications before events (the status bar shows the next event either way). */
  readonly calendarReminders: boolean;
}

/** Google's maximum for tasks.list `maxResults`. */
export const MAX_TASKS_PAGE_SIZE = 100;

/** A trimmed, non-empty string, or undefined. */
function nonEmptyString(value: unknown): string | undefined {
  const text = typeof value === 'string' ? value.trim() : '';
  return text === '' ? undefined : text;
}

function urlString(value: unknown): string | undefined {
  const text = nonEmptyString(value);
  if (text === undefined) return undefined;
  try {
    new URL(text);
    return text;
  } catch {
    return undefined;
  }
}

function oneOf<T extends string>(values: readonly T[], value: unknown, fallback: T): T {
  return values.find((candidate) => candidate === value) ?? fallback;
}

/**
 * `config` is `vscode.workspace.getConfiguration()` (the root), or a fake in tests. Checked by hand, not with
 * zod: settings are read during activation, before the schema library is loaded.
 */
export function readDeskSettings(config: ConfigurationReader): DeskSettings {
  const showCompleted = config.get(TASKS_SETTING.showCompleted);
  const pageSize = config.get(TASKS_SETTING.pageSize);
  const daysAhead = config.get(CALENDAR_SETTING.daysAhead);
  return {
    backend: oneOf(['auto', 'emulator', 'google'], config.get(DESK_SETTING.backend), 'auto'),
    emulatorUrl: urlString(config.get(DESK_SETTING.emulatorUrl))?.replace(/\/+$/, ''),
    emulatorSeed: oneOf(['demo', 'none'], config.get(DESK_SETTING.emulatorSeed), 'demo'),
    googleClientId: nonEmptyString(config.get(DESK_SETTING.googleClientId)),
    tasksShowCompleted: typeof showCompleted === 'boolean' ? showCompleted : true,
    tasksPageSize: typeof pageSize === 'number' && Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= MAX_TASKS_PAGE_SIZE ? pageSize : MAX_TASKS_PAGE_SIZE,
    calendarDaysAhead: typeof daysAhead === 'number' && Number.isInteger(daysAhead) && daysAhead >= 1 && daysAhead <= 60 ? daysAhead : 7,
    calendarReminders: config.get(CALENDAR_SETTING.reminders) !== false,
  };
}

/** Where Desk's requests go, before anything is started. */
export type BackendChoice =
  | { readonly kind: 'google'; readonly clientId: string | undefined }
  /** `url` undefined: the embedded emulator, started the first time something needs it. */
  | { readonly kind: 'emulator'; readonly url: string | undefined; readonly seed: EmulatorSeed };

/** `auto` means Google once a client id is configured (nothing works against Google without one), else the emulator. */
export function chooseBackend(settings: DeskSettings): BackendChoice {
  const kind = settings.backend === 'auto' ? (settings.googleClientId ? 'google' : 'emulator') : settings.backend;
  if (kind === 'google') return { kind, clientId: settings.googleClientId };
  return { kind, url: settings.emulatorUrl, seed: settings.emulatorSeed };
}

export function sameChoice(a: BackendChoice, b: BackendChoice): boolean {
  if (a.kind === 'google' && b.kind === 'google') return a.clientId === b.clientId;
  if (a.kind === 'emulator' && b.kind === 'emulator') return a.url === b.url && a.seed === b.seed;
  return false;
}
