import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { findUser, EmulatorUser } from '../src/emulator/identity/users';
import { calendarModule, calendarServiceFor } from '../src/emulator/calendar';
import { emulatorAdminModule } from '../src/emulator/auth/devRoutes';
import { startEmulator } from '../src/emulator/emulator';
import { machineLoad, ms, percentiles, runWhenMain } from './support/stats';

/**
 * Calendar at its limits (issue 18), figures printed, never asserted; memory store, requests over HTTP on loopback,
 * `/emulator/v1/health` polled every 5 ms throughout each request to show whether the server kept answering others:
 *  1. freebusy.query at its documented limits: 89 days × 50 calendars, each with an hourly series (2,136 instances
 *     a calendar in the window), then the same with series that began a year before the window.
 *  2. events.list?singleEvents=true to year 9999 over an event with 100 RRULE lines that never match.
 *  3. events.list?singleEvents=true paging through a daily series that ends in 2080 (20,000+ instances).
 *  4. Hostile listings in a zone with daylight saving: instances of daily, weekly and yearly series to year 9999, a
 *     first page of 2,500 over an endless daily series to 2080, and imports of series with 100 rules each.
 * Each line also gives the longest the event loop was held while the request ran (perf_hooks' delay monitor), and
 * the most CPU time one turn of the loop took (the same, without the waits for a core on a loaded machine).
 * The stated memory budget: one series keeps at most 100,000 instances (under 2 MB of numbers), and one request
 * builds at most 200,000 candidate times in expansions ahead of it (50,000 more for each series it then finds unexpanded) (see src/emulator/calendar/events/expansion.ts).
 */

const CALENDARS = 50;
const DAYS = 89;
const MB = 1024 * 1024;

interface Measured {
  status: number;
  wallMs: number;
  healthMaxMs: number;
  healthP50Ms: number;
  healthCount: number;
  peakRssMb: number;
  bytes: number;
  loopHeldMs: number;
  loopCpuMs: number;
}

export async function run(): Promise<void> {
  const emulator = await startEmulator({ port: 0 }, [emulatorAdminModule, calendarModule]);
  try {
    const alice = findUser('alice@example.com') as EmulatorUser;
    const service = calendarServiceFor(emulator.deps);
    const token = emulator.tokenFor(alice.email).accessToken;
    console.log(`calendar at its limits ${machineLoad()}`);
    const rss = (): number => process.memoryUsage().rss / MB;

    /** One request, with health polled alongside it, and the process's peak RSS while it ran. */
    const measure = async (method: string, path: string, body?: unknown): Promise<Measured> => {
      let done = false;
      let peakRss = rss();
      const loopDelay = monitorEventLoopDelay({ resolution: 5 });
      loopDelay.enable();
      // The CPU time one turn of the event loop took at most: unlike the delay above, it does not grow when other
      // processes hold the machine's cores.
      let loopCpuMax = 0;
      let lastCpu = process.cpuUsage();
      const turn = (): void => {
        const cpu = process.cpuUsage();
        loopCpuMax = Math.max(loopCpuMax, (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000);
        lastCpu = cpu;
        if (!done) setImmediate(turn);
      };
      setImmediate(turn);
      const health: number[] = [];
      const poller = (async () => {
        while (!done) {
          const started = performance.now();
          await (await fetch(`${emulator.url}/emulator/v1/health`)).arrayBuffer();
          health.push(performance.now() - started);
          peakRss = Math.max(peakRss, rss());
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      const started = performance.now();
      const response = await fetch(`${emulator.url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const bytes = (await response.arrayBuffer()).byteLength;
      const wallMs = performance.now() - started;
      done = true;
      await poller;
      loopDelay.disable();
      peakRss = Math.max(peakRss, rss());
      const stats = percentiles(health);
      return { status: response.status, wallMs, healthMaxMs: stats.max, healthP50Ms: stats.p50, healthCount: health.length, peakRssMb: peakRss, bytes, loopHeldMs: loopDelay.max / 1e6, loopCpuMs: loopCpuMax };
    };
    const report = (label: string, measured: Measured, extra = ''): void => {
      console.log(`${label}: HTTP ${measured.status} in ${ms(measured.wallMs, 0)} (${(measured.bytes / 1024).toFixed(0)} KB${extra}); health answered ${measured.healthCount}× meanwhile, p50 ${ms(measured.healthP50Ms, 1)}, max ${ms(measured.healthMaxMs, 1)}; event loop held at most ${ms(measured.loopHeldMs, 0)} (${ms(measured.loopCpuMs, 0)} of CPU in one turn); peak RSS ${measured.peakRssMb.toFixed(0)} MB`);
    };

    // 1. freeBusy at its limits.
    const windowStart = Date.parse('2026-03-02T00:00:00Z');
    const timeMin = new Date(windowStart).toISOString();
    const timeMax = new Date(windowStart + DAYS * 86_400_000).toISOString();
    const rssBefore = rss();
    const setupStarted = performance.now();
    const freshIds: string[] = [];
    const olderIds: string[] = [];
    for (let index = 0; index < CALENDARS * 2; index++) {
      const older = index >= CALENDARS;
      const calendar = service.calendars.insert(alice, { summary: `Hourly ${index}`, timeZone: 'UTC' });
      const start = older ? windowStart - 365 * 86_400_000 : windowStart;
      service.events.insert(alice, calendar.id, {
        summary: 'hourly',
        start: { dateTime: new Date(start).toISOString().replace('Z', ''), timeZone: 'UTC' },
        end: { dateTime: new Date(start + 30 * 60_000).toISOString().replace('Z', ''), timeZone: 'UTC' },
        recurrence: ['RRULE:FREQ=HOURLY'],
      }, { conferenceDataVersion: 0 });
      (older ? olderIds : freshIds).push(calendar.id);
    }
    console.log(`setup: ${CALENDARS * 2} calendars with an hourly series each in ${ms(performance.now() - setupStarted, 0)}; RSS ${rssBefore.toFixed(0)} → ${rss().toFixed(0)} MB`);
    for (const [label, ids] of [['freeBusy 89 days × 50 calendars of hourly series', freshIds], ['the same, series begun a year before the window', olderIds]] as const) {
      const measured = await measure('POST', '/calendar/v3/freeBusy', { timeMin, timeMax, items: ids.map((id) => ({ id })) });
      report(label, measured, `, ${CALENDARS * DAYS * 24} intervals asked for`);
    }
    const again = await measure('POST', '/calendar/v3/freeBusy', { timeMin, timeMax, items: freshIds.map((id) => ({ id })) });
    report('freeBusy again (expansions cached)', again);

    // 2. A window to year 9999 over 100 lines that never match.
    const never = service.calendars.insert(alice, { summary: 'Never', timeZone: 'UTC' });
    service.events.insert(alice, never.id, {
      summary: 'never',
      start: { dateTime: '2026-01-05T09:00:00', timeZone: 'UTC' },
      end: { dateTime: '2026-01-05T09:30:00', timeZone: 'UTC' },
      recurrence: Array.from({ length: 100 }, (_unused, index) => (index % 2 === 0 ? 'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30' : 'RRULE:FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=31')),
    }, { conferenceDataVersion: 0 });
    const neverPath = `/calendar/v3/calendars/${encodeURIComponent(never.id)}/events?singleEvents=true`;
    report('100 never-matching lines, singleEvents to year 9999', await measure('GET', `${neverPath}&timeMin=2026-01-01T00:00:00Z&timeMax=9999-12-31T00:00:00Z`));
    report('the same series, one quarter', await measure('GET', `${neverPath}&timeMin=2026-01-01T00:00:00Z&timeMax=2026-04-01T00:00:00Z`));

    // 3. Paging through a daily series to 2080.
    const long = service.calendars.insert(alice, { summary: 'Long', timeZone: 'UTC' });
    service.events.insert(alice, long.id, {
      summary: 'daily', start: { dateTime: '2026-01-05T09:00:00', timeZone: 'UTC' }, end: { dateTime: '2026-01-05T09:30:00', timeZone: 'UTC' }, recurrence: ['RRULE:FREQ=DAILY;UNTIL=20801231T235959Z'],
    }, { conferenceDataVersion: 0 });
    let pageToken: string | undefined;
    let pages = 0;
    let instances = 0;
    let slowest: Measured | undefined;
    const pagingStarted = performance.now();
    do {
      const path = `/calendar/v3/calendars/${encodeURIComponent(long.id)}/events?singleEvents=true&orderBy=startTime&maxResults=2500${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`;
      const measured = await measure('GET', path);
      const response = await fetch(`${emulator.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
      const page = (await response.json()) as { items: unknown[]; nextPageToken?: string };
      instances += page.items.length;
      pageToken = page.nextPageToken;
      pages++;
      if (!slowest || measured.wallMs > slowest.wallMs) slowest = measured;
    } while (pageToken !== undefined && pages < 50);
    console.log(`daily series to 2080: ${instances} instances in ${pages} pages of 2,500 (${ms(performance.now() - pagingStarted, 0)} for all, each page fetched twice)`);
    if (slowest) report('slowest page', slowest);

    // 4. Hostile listings in a zone with daylight saving.
    const berlin = service.calendars.insert(alice, { summary: 'Berlin', timeZone: 'Europe/Berlin' });
    const berlinPath = `/calendar/v3/calendars/${encodeURIComponent(berlin.id)}/events`;
    const seriesIn = (rule: string): string => service.events.insert(alice, berlin.id, {
      summary: rule, start: { dateTime: '2026-01-05T09:00:00', timeZone: 'Europe/Berlin' }, end: { dateTime: '2026-01-05T09:30:00', timeZone: 'Europe/Berlin' }, recurrence: [`RRULE:${rule}`],
    }, { conferenceDataVersion: 0 }).id;
    for (const rule of ['FREQ=DAILY', 'FREQ=WEEKLY', 'FREQ=YEARLY']) {
      const id = seriesIn(rule);
      report(`instances of ${rule} (Europe/Berlin) to year 9999`, await measure('GET', `${berlinPath}/${id}/instances?timeMin=2026-03-01T00:00:00Z&timeMax=9999-12-31T00:00:00Z&maxResults=2500`));
    }
    report('events.list singleEvents over those three to 2080, first 2,500', await measure('GET', `${berlinPath}?singleEvents=true&orderBy=startTime&timeMin=2026-01-01T00:00:00Z&timeMax=2080-01-01T00:00:00Z&maxResults=2500`));
    report('events.list of series (not singleEvents) to year 9999', await measure('GET', `${berlinPath}?timeMin=2026-01-01T00:00:00Z&timeMax=9999-12-31T00:00:00Z&maxResults=1`));
    const manyRules = Array.from({ length: 100 }, (_unused, index) => `RRULE:FREQ=WEEKLY;INTERVAL=${1 + (index % 7)};BYDAY=${['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'][index % 7] as string}`);
    let slowestImport: Measured | undefined;
    for (let index = 0; index < 20; index++) {
      const measured = await measure('POST', `${berlinPath}/import`, {
        iCalUID: `bench-${index}@example.com`, summary: 'imported', start: { dateTime: '2026-01-05T09:00:00', timeZone: 'Europe/Berlin' }, end: { dateTime: '2026-01-05T10:00:00', timeZone: 'Europe/Berlin' }, recurrence: manyRules,
      });
      if (!slowestImport || measured.loopHeldMs > slowestImport.loopHeldMs) slowestImport = measured;
    }
    if (slowestImport) report('slowest of 20 imports of a series with 100 weekly rules', slowestImport);
    report('events.list singleEvents over them all, one year', await measure('GET', `${berlinPath}?singleEvents=true&timeMin=2026-01-01T00:00:00Z&timeMax=2027-01-01T00:00:00Z&maxResults=2500`));
  } finally {
    await emulator.close();
  }
}

runWhenMain(module, run);
