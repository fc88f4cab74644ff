// The next-event status item depends on the clock and on everything else on the calendars then: a test that checks its
// countdown sets a clock of its own, in a half hour no other event of the accounts touches, at whatever hour it runs.
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import { NextEventStatus } from '../../src/features/calendar/status/statusBar';
import { addDays, dateKey, zonedToUtc } from '../../src/features/calendar/time';
import { emulatorRequest } from './support';

const HALF_HOUR = 30 * 60_000;

interface ListedEvent { start?: { dateTime?: string }; end?: { dateTime?: string } }

/**
 * A start tomorrow in `zone` (on the half hour, 08:00 to 22:30) with no timed event of `accounts`, in any of their
 * calendars, from half an hour before it to half an hour after: the emulator's own listing, not a view's.
 */
export async function freeHalfHourTomorrow(zone: string, accounts: readonly string[]): Promise<number> {
  const tomorrow = addDays(dateKey(Date.now(), zone), 1);
  const from = zonedToUtc(tomorrow, 0, 0, zone);
  const busy: Array<{ start: number; end: number }> = [];
  for (const account of accounts) {
    const calendars = (await emulatorRequest<{ items?: Array<{ id: string }> }>('GET', '/calendar/v3/users/me/calendarList?showHidden=true', undefined, account)).body.items ?? [];
    for (const calendar of calendars) {
      const query = `singleEvents=true&maxResults=2500&timeMin=${encodeURIComponent(new Date(from - HALF_HOUR * 2).toISOString())}&timeMax=${encodeURIComponent(new Date(from + 26 * 3_600_000).toISOString())}`;
      const events = (await emulatorRequest<{ items?: ListedEvent[] }>('GET', `/calendar/v3/calendars/${encodeURIComponent(calendar.id)}/events?${query}`, undefined, account)).body.items ?? [];
      for (const event of events) {
        if (event.start?.dateTime && event.end?.dateTime) busy.push({ start: Date.parse(event.start.dateTime), end: Date.parse(event.end.dateTime) });
      }
    }
  }
  const starts = Array.from({ length: 30 }, (_, step) => zonedToUtc(tomorrow, 8, 0, zone) + step * HALF_HOUR);
  const free = starts.find((start) => !busy.some((event) => event.start < start + HALF_HOUR && event.end > start - HALF_HOUR));
  if (free === undefined) throw new Error(`no free hour tomorrow (${tomorrow}, ${zone}) in the calendars of ${accounts.join(', ')}`);
  return free;
}

/** The status item's words and event at `now`: the live item's own source (every signed-in account's agenda), on a set clock. */
export function statusAt(api: DeskApi, now: number): { text: string; event: string | undefined; account: string | undefined } {
  const clock = { now: () => now, setTimeout: () => undefined, clearTimeout: () => undefined };
  const status = new NextEventStatus(vscode, api.calendar.status.source, clock);
  try {
    status.start();
    return { text: status.text, event: status.current?.event.summary, account: status.currentAccount };
  } finally {
    status.dispose();
  }
}
