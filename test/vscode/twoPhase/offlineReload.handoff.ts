// What phase 1 of the offline walkthrough across a reload leaves for phase 2 (in DESK_TEST_HANDOFF). No tests here:
// a phase imports this, never the other phase (mocha would run that phase's tests too).

/** What phase 2 reads back (handoff/offlineReload.json). */
export interface OfflineReloadHandoff {
  readonly dataDir: string;
  readonly port: number;
  readonly originalUrl: string | undefined;
  readonly listId: string;
  readonly listIds: readonly string[];
  readonly completedTaskId: string;
  readonly notesTaskId: string;
  readonly fileId: string;
  readonly calendarId: string;
  /** The extension host of phase 1: phase 2 runs in another (the reload restarted it). */
  readonly hostPid: number;
}

export const HANDOFF_FILE = 'offlineReload.json';
