import { performance } from 'node:perf_hooks';
import { findUser, EmulatorUser } from '../src/emulator/identity/users';
import { calendarModule, calendarServiceFor } from '../src/emulator/calendar';
import { listInstances } from '../src/emulator/calendar/events/listing';
import { startEmulator } from '../src/emulator/emulator';
import type { EventsPage } from '../src/shared/schemas/calendar';
import { machineLoad, ms, runWhenMain } from './support/stats';

/**
 * Calendar emulator figures (printed, never asserted), memory store, requests over HTTP on loopback:
 *  1. events.list on a 10,000-event calendar (9,900 single events over two years, 100 weekly series): a one-week
 *     window as stored events, and the same week with singleEvents=true&orderBy=startTime.
 *  2. instances of a daily series over ten years (3,650 instances): the expansion alone (a new series each time, so
 *     no cache helps) and the two HTTP pages a client fetches.
 *  3. Incremental sync on the 10,000-event calendar after one change.
 * Targets from the issue: one-week p50 ≤ 5 ms, ten-year expansion ≤ 50 ms, incremental sync ≤ 2 ms.
 */

const EVENTS = 10_000;
const SERIES = 100;
const SAMPLES = 200;

function p50p99(samples: readonly number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (share: number): number => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? NaN;
  return `p50 ${ms(at(0.5))}, p99 ${ms(at(0.99))}`;
}

async function timed(samples: number, action: (index: number) => Promise<void> | void): Promise<number[]> {
  const values: number[] = [];
  for (let index = 0; index < samples; index++) {
    const started = performance.now();
    await action(index);
    values.push(performance.now() - started);
  }
  return values;
}

export async function run(): Promise<void> {
  const emulator = await startEmulator({ port: 0 }, [calendarModule]);
  try {
    const alice = findUser('alice@example.com') as EmulatorUser;
    const service = calendarServiceFor(emulator.deps);
    const token = emulator.tokenFor(alice.email).accessToken;
    const get = async (path: string): Promise<EventsPage> => {
      const response = await fetch(`${emulator.url}/calendar/v3${path}`, { headers: { Authorization: `Bearer ${token}` } });
      if (!response.ok) throw new Error(`${path} → ${response.status} ${await response.text()}`);
      // Plain JSON: the figures are the emulator's, not the client's schema validation.
      return (await response.json()) as EventsPage;
    };
    console.log(`calendar emulator ${machineLoad()}`);

    const big = service.calendars.insert(alice, { summary: 'Big', timeZone: 'Europe/Berlin' });
    const base = Date.parse('2026-01-05T00:00:00Z');
    const fillStarted = performance.now();
    for (let index = 0; index < EVENTS - SERIES; index++) {
      const start = base + index * 105 * 60_000;
      service.events.insert(alice, big.id, { summary: `Event ${index}`, start: { dateTime: new Date(start).toISOString() }, end: { dateTime: new Date(start + 45 * 60_000).toISOString() } }, { conferenceDataVersion: 0 });
    }
    for (let index = 0; index < SERIES; index++) {
      const day = String(5 + (index % 5)).padStart(2, '0');
      service.events.insert(alice, big.id, {
        summary: `Series ${index}`, start: { dateTime: `2026-01-${day}T${String(8 + (index % 9)).padStart(2, '0')}:00:00`, timeZone: 'Europe/Berlin' },
        end: { dateTime: `2026-01-${day}T${String(8 + (index % 9)).padStart(2, '0')}:30:00`, timeZone: 'Europe/Berlin' }, recurrence: ['RRULE:FREQ=WEEKLY'],
      }, { conferenceDataVersion: 0 });
    }
    console.log(`filled ${EVENTS} events (${SERIES} weekly series) through the model in ${ms(performance.now() - fillStarted, 0)}`);

    const calendarPath = `/calendars/${encodeURIComponent(big.id)}/events`;
    const week = (index: number): string => {
      const from = base + ((index * 7) % 600) * 24 * 3600_000;
      return `timeMin=${new Date(from).toISOString()}&timeMax=${new Date(from + 7 * 24 * 3600_000).toISOString()}`;
    };
    await get(`${calendarPath}?${week(0)}`);
    let itemsSeen = 0;
    const stored = await timed(SAMPLES, async (index) => {
      itemsSeen = (await get(`${calendarPath}?${week(index)}`)).items.length;
    });
    console.log(`events.list one-week window, stored events (${itemsSeen} items): ${p50p99(stored)}`);
    const single = await timed(SAMPLES, async (index) => {
      itemsSeen = (await get(`${calendarPath}?${week(index)}&singleEvents=true&orderBy=startTime`)).items.length;
    });
    console.log(`events.list one-week window, singleEvents=true&orderBy=startTime (${itemsSeen} items): ${p50p99(single)}`);

    // Ten years of a daily series: a fresh series per sample, so neither rrule's nor the emulator's cache helps.
    const expansion = await timed(20, (index) => {
      const series = service.events.insert(alice, 'primary', {
        summary: `Daily ${index}`, start: { dateTime: '2026-01-05T07:00:00', timeZone: 'Europe/Berlin' },
        end: { dateTime: '2026-01-05T07:30:00', timeZone: 'Europe/Berlin' }, recurrence: ['RRULE:FREQ=DAILY;UNTIL=20360102T000000Z'],
      }, { conferenceDataVersion: 0 });
      const count = listInstances(service, alice, 'primary', series.id, { maxResults: 2500, showDeleted: false }).views.length;
      if (count !== 2500) throw new Error(`expected a full first page, got ${count}`);
    });
    console.log(`instances of a daily series over ten years (3,650), expansion + first page in the model, fresh series: ${p50p99(expansion)}`);
    const daily = service.events.insert(alice, 'primary', {
      summary: 'Daily over HTTP', start: { dateTime: '2026-01-05T07:00:00', timeZone: 'Europe/Berlin' },
      end: { dateTime: '2026-01-05T07:30:00', timeZone: 'Europe/Berlin' }, recurrence: ['RRULE:FREQ=DAILY;COUNT=3650'],
    }, { conferenceDataVersion: 0 });
    const pages = await timed(20, async () => {
      let total = 0;
      let pageToken: string | undefined;
      do {
        const page = await get(`/calendars/primary/events/${daily.id}/instances?maxResults=2500${pageToken ? `&pageToken=${pageToken}` : ''}`);
        total += page.items.length;
        pageToken = page.nextPageToken;
      } while (pageToken);
      if (total !== 3650) throw new Error(`expected 3650 instances, got ${total}`);
    });
    console.log(`instances over HTTP, both pages (3,650 instances, rendered and parsed): ${p50p99(pages)}`);

    // Incremental sync after one change in the 10,000-event calendar.
    let pageToken: string | undefined;
    let syncToken: string | undefined;
    do {
      const page = await get(`${calendarPath}?maxResults=2500${pageToken ? `&pageToken=${pageToken}` : ''}`);
      pageToken = page.nextPageToken;
      syncToken = page.nextSyncToken;
    } while (pageToken);
    const first = (await get(`${calendarPath}?maxResults=1`)).items[0]?.id as string;
    const sync = await timed(SAMPLES, async (index) => {
      service.events.update(alice, big.id, first, { summary: `Changed ${index}` }, 'patch', { conferenceDataVersion: 0 });
      const page = await get(`${calendarPath}?syncToken=${syncToken}`);
      if (page.items.length !== 1) throw new Error(`expected one change, got ${page.items.length}`);
      syncToken = page.nextSyncToken;
    });
    console.log(`incremental sync after one change (10,000 events; includes the patch in the model): ${p50p99(sync)}`);
    const syncOnly: number[] = [];
    for (let index = 0; index < SAMPLES; index++) {
      service.events.update(alice, big.id, first, { summary: `Again ${index}` }, 'patch', { conferenceDataVersion: 0 });
      const started = performance.now();
      const page = await get(`${calendarPath}?syncToken=${syncToken}`);
      syncOnly.push(performance.now() - started);
      syncToken = page.nextSyncToken;
    }
    console.log(`incremental sync after one change, the request alone: ${p50p99(syncOnly)}`);
  } finally {
    await emulator.close();
  }
}

runWhenMain(module, run);
