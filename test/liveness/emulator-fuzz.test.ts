// The emulator's liveness under hostile input, in a mocha process of its own: the health check's latency is measured
// in this process, so it must not carry the heap (and the garbage collections) of the hundreds of integration tests
// before it. scripts/test-all.js runs this folder as its own stage.
import * as assert from 'node:assert/strict';
import { cpus, loadavg } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { channelRegistryFor } from '../../src/emulator/core/channels';
import { startEmulator } from '../../src/emulator/emulator';
import { emulatorHttp, HttpCallOptions } from '../support/emulatorHttp';
import { seededRandom } from '../../src/emulator/core/random';

describe('emulator fuzz (seeded): Calendar, Books, the directory, channels, shared drives and Drive collaboration', () => {
  it('never answers 500, answers every request within 2 s and keeps its health check answering throughout (95th percentile within 100 ms, every one within 250 ms)', async function () {
    this.timeout(180_000);
    const random = seededRandom(20261126);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const emulator = await startEmulator({ port: 0, seed: 'demo' });
    // The emulator runs in this process: a receiver address it would have to dial outside loopback is a bug, never a connection.
    const registry = channelRegistryFor(emulator.deps);
    registry.network.resolver = (host) => Promise.resolve(host === 'localhost' ? ['127.0.0.1'] : []);
    registry.configureDelivery({ initialDelayMs: 10, maxDelayMs: 20, maxAttempts: 1, timeoutMs: 500 });
    // Liveness bounds, for an idle machine; on a loaded one (several test runs sharing two cores) every request
    // waits for the CPU, so the bounds grow with the load per core. A blocked event loop would show seconds.
    const loadFactor = Math.max(1, (loadavg()[0] ?? 0) / Math.max(1, cpus().length));
    const answerBound = 2000 * loadFactor;
    // The health check answers within 100 ms (the issue's bound) at its 95th percentile and 250 ms at its worst:
    // expansion, listing, rendering and serialising work in time slices of a few milliseconds (core/slices.ts), so
    // only a part of the server that holds the event loop breaks these (an instances listing to the year 9999 held it
    // ~300 ms before; the hangs this test was written for, 8 s to endless). Measured at load 1.4-2.3 per core: p95
    // 11-15 ms, worst 14-22 ms. The worst keeps a margin: at load 4.5 per core one poll waited 418 ms for a core while
    // the loop held nothing longer than a few milliseconds of work.
    const healthBound = 100 * loadFactor;
    const healthWorstBound = 250 * loadFactor;
    const figures = new Map<string, Map<number, number>>();
    let slowest = { ms: 0, request: '' };
    let largestRss = process.memoryUsage().rss;
    let healthWorst = 0;
    const healthTimes: number[] = [];
    let healthPolls = 0;
    // Stops the health poller when the fuzz ends.
    const fuzzEnded = new AbortController();
    // The longest the event loop was held while each request ran: names the request that held it.
    const loopDelay = monitorEventLoopDelay({ resolution: 5 });
    loopDelay.enable();
    const stalls: { ms: number; request: string }[] = [];
    try {
      const alice = emulator.tokenFor('alice@example.com').accessToken;
      const call = emulatorHttp(emulator, () => alice);
      const ids = (json: unknown, key = 'id'): string[] => ((json as { items?: Record<string, unknown>[] } | undefined)?.items ?? []).map((item) => item[key]).filter((value): value is string => typeof value === 'string');
      const fileIds = ids((await call('GET', '/drive/v2/files?maxResults=20')).json);
      const events = ids((await call('GET', '/calendar/v3/calendars/primary/events?maxResults=20')).json);
      const drive = (await call('POST', '/drive/v2/drives?requestId=fuzz-drive', { json: { name: 'Fuzz drive' } })).json as { id?: string };
      const driveIds = drive.id ? [drive.id] : [];
      const commentIds: string[] = [];
      const volumeIds = ids((await call('GET', '/books/v1/volumes?q=the&maxResults=20')).json);
      const junkId = (): string => encodeURIComponent(pick(['', 'x', '%ZZ', 'a'.repeat(300), '..', 'primary', '@me', 'root', '\u00e9', '-1']));
      const anId = (known: readonly string[]): string => (random() < 0.7 && known.length > 0 ? pick(known) : junkId());

      // Values, with nesting depth and size among the mutations.
      const nested = (levels: number): string => `${'{"n":'.repeat(levels)}1${'}'.repeat(levels)}`;
      const scalar = (): unknown => pick<() => unknown>([
        () => pick(['', 'x', 'a'.repeat(10_000), '2026-02-30T00:00:00Z', '2026-05-01T10:00:00Z', '\u0000', 'reader', 'writer', 'owner']),
        () => pick([0, -1, 1.5, 1e308, Number.MAX_SAFE_INTEGER]),
        () => pick([true, false, null]),
        () => Array.from({ length: pick([0, 3, 5000]) }, (_unused, index) => index),
        () => ({ email: pick(['bob@example.com', 'nobody@nowhere', '']), role: pick(['reader', 'owner', 'x']) }),
      ])();
      const rrule = (): string => {
        const parts = [`FREQ=${pick(['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY', 'HOURLY', 'MINUTELY', 'SECONDLY', 'FORTNIGHTLY'])}`];
        if (random() < 0.4) parts.push(`BYSECOND=${pick([0, 30, 59, 60, 61])}`);
        if (random() < 0.4) parts.push(`BYHOUR=${pick([0, 9, 23, 24])}`);
        if (random() < 0.4) parts.push(`BYMONTHDAY=${pick([0, 1, 30, 31, -1, 32])}`);
        if (random() < 0.4) parts.push(`BYMONTH=${pick([0, 2, 12, 13])}`);
        if (random() < 0.3) parts.push(`BYDAY=${pick(['MO', '1MO', '0MO', '-1FR', 'SU,SA'])}`);
        if (random() < 0.3) parts.push(`BYSETPOS=${pick([0, 1, -1, 366, 367, -999])}`);
        if (random() < 0.3) parts.push(`INTERVAL=${pick([1, 2, 24, 9999])}`);
        if (random() < 0.3) parts.push(pick(['COUNT=5', 'COUNT=999999', 'UNTIL=20801231T000000Z', 'UNTIL=20261399']));
        return `${pick(['RRULE', 'RRULE', 'EXRULE', 'RDATE', 'DTSTART'])}:${parts.join(';')}`;
      };
      const eventBody = (): HttpCallOptions => {
        const roll = random();
        if (roll < 0.08) return { body: `{"summary":"deep","gadget":${nested(pick([99, 101, 500, 5000]))}}` };
        if (roll < 0.12) return { body: pick(['{', '[1]', 'null', `{"summary":"${'s'.repeat(300_000)}"}`]) };
        const day = 1 + Math.floor(random() * 28);
        const body: Record<string, unknown> = {
          summary: random() < 0.9 ? 'fuzz' : scalar(),
          start: { dateTime: `2026-03-${String(day).padStart(2, '0')}T09:00:00`, timeZone: pick(['UTC', 'Europe/Berlin', 'Mars/Base']) },
          end: { dateTime: `2026-03-${String(day).padStart(2, '0')}T10:00:00`, timeZone: 'UTC' },
        };
        if (random() < 0.6) body.recurrence = Array.from({ length: pick([1, 1, 2, 3, 100]) }, rrule);
        if (random() < 0.2) body[pick(['attendees', 'reminders', 'extendedProperties', 'workingLocationProperties'])] = scalar();
        return { json: body };
      };
      const window = (): string => {
        const from = pick(['2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z', 'junk', '']);
        const to = pick(['2026-03-02T00:00:00Z', '2026-06-01T00:00:00Z', '2080-01-01T00:00:00Z', '9999-12-31T00:00:00Z', '']);
        return `timeMin=${encodeURIComponent(from)}&timeMax=${encodeURIComponent(to)}`;
      };
      const jsonOf = (fields: Record<string, () => unknown>): HttpCallOptions => {
        if (random() < 0.1) return { body: `{"x":${nested(pick([101, 3000]))}}` };
        const json: Record<string, unknown> = {};
        for (const [name, value] of Object.entries(fields)) if (random() < 0.7) json[name] = random() < 0.8 ? value() : scalar();
        return { json };
      };
      const channelBody = (): HttpCallOptions => jsonOf({
        id: () => `fuzz-${Math.floor(random() * 1e9)}`,
        type: () => pick(['web_hook', 'webhook', 'email']),
        // Loopback (nothing listens on port 1), and addresses refused before any connection; never a name needing DNS.
        address: () => pick(['https://127.0.0.1:1/hook', 'https://localhost:1/', 'http://127.0.0.1/', 'https://10.0.0.1/', 'https://169.254.169.254/', 'https://[fd00::1]/', 'https://metadata.google.internal/', 'https://0.0.0.0:1/', 'not a url']),
        token: () => pick(['t', 'x'.repeat(300)]),
        expiration: () => pick([Date.now() + 60_000, -1, 'soon']),
      });
      const file = (): string => anId(fileIds);

      type Family = [service: string, make: () => [string, string, HttpCallOptions]];
      const families: Family[] = [
        ['calendar', () => [pick(['POST', 'POST', 'PUT', 'PATCH']), pick([
          '/calendar/v3/calendars/primary/events', '/calendar/v3/calendars/primary/events/import', `/calendar/v3/calendars/primary/events/${anId(events)}`,
        ]), eventBody()]],
        ['calendar', () => ['GET', pick([
          `/calendar/v3/calendars/primary/events?singleEvents=${pick(['true', 'false'])}&${window()}&maxResults=${pick([1, 250, 2500])}`,
          `/calendar/v3/calendars/primary/events/${anId(events)}/instances?${window()}`,
          `/calendar/v3/calendars/primary/events/${anId(events)}`,
          `/calendar/v3/calendars/${pick(['primary', 'bob@example.com', junkId()])}/events?orderBy=startTime&singleEvents=true&${window()}`,
        ]), {}]],
        ['calendar', () => ['POST', '/calendar/v3/freeBusy', jsonOf({
          timeMin: () => pick(['2026-03-01T00:00:00Z', '2026-01-01T00:00:00Z', 'junk']),
          timeMax: () => pick(['2026-05-29T00:00:00Z', '2026-03-02T00:00:00Z', '2027-01-01T00:00:00Z']),
          items: () => Array.from({ length: pick([1, 3, 50, 60]) }, () => ({ id: pick(['primary', 'bob@example.com', 'carol@example.com', 'team@example.com', junkId()]) })),
          calendarExpansionMax: () => pick([1, 50, 51]),
        })]],
        ['calendar', () => [pick(['GET', 'POST', 'PATCH', 'DELETE']), pick([
          '/calendar/v3/users/me/calendarList', '/calendar/v3/calendars', `/calendar/v3/calendars/${pick(['primary', junkId()])}/acl`, '/calendar/v3/users/me/settings', '/calendar/v3/colors',
        ]), jsonOf({ summary: () => 'c', role: () => pick(['reader', 'owner', 'none']), scope: () => ({ type: pick(['user', 'default']), value: 'bob@example.com' }) })]],
        ['books', () => [pick(['GET', 'GET', 'POST']), pick([
          `/books/v1/volumes?q=${encodeURIComponent(pick(['intitle:the', 'inauthor:', 'isbn:x', 'a'.repeat(3000), '%', '']))}&startIndex=${pick([0, 40, -1, 1e9])}&maxResults=${pick([1, 40, 41])}`,
          `/books/v1/volumes/${anId(volumeIds)}`,
          `/books/v1/mylibrary/bookshelves/${pick([0, 2, 7, 99, 'x'])}/addVolume?volumeId=${anId(volumeIds)}`,
          `/books/v1/mylibrary/bookshelves/${pick([0, 2, 7, 99, 'x'])}/moveVolume?volumeId=${anId(volumeIds)}&volumePosition=${pick([0, -1, 9999])}`,
          '/books/v1/mylibrary/bookshelves', `/books/v1/users/${pick(['alice', '1', junkId()])}/bookshelves`,
        ]), {}]],
        ['directory', () => [pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']), pick([
          `/admin/directory/v1/users?domain=${pick(['example.com', 'x'])}&maxResults=${pick([1, 500, 501])}`,
          `/admin/directory/v1/users/${pick(['bob@example.com', 'carol@example.com', junkId()])}`,
          '/admin/directory/v1/users',
        ]), jsonOf({ primaryEmail: () => `fuzz${Math.floor(random() * 1000)}@example.com`, name: () => ({ givenName: 'F', familyName: 'Z' }), password: () => 'secret-password-1' })]],
        ['channels', () => ['POST', pick([
          '/calendar/v3/calendars/primary/events/watch', '/calendar/v3/users/me/calendarList/watch', '/drive/v2/changes/watch', `/drive/v2/files/${file()}/watch`,
          '/admin/directory/v1/users/watch?domain=example.com&event=add', '/calendar/v3/channels/stop', '/drive/v2/channels/stop',
        ]), channelBody()]],
        ['shared drives', () => [pick(['GET', 'POST', 'PUT', 'DELETE']), pick([
          `/drive/v2/drives?requestId=${Math.floor(random() * 1e6)}`, `/drive/v2/drives/${anId(driveIds)}`, `/drive/v2/drives/${anId(driveIds)}/hide`,
          `/drive/v2/files?supportsAllDrives=true&includeItemsFromAllDrives=true&corpora=drive&driveId=${anId(driveIds)}`,
          `/drive/v2/files/${anId(driveIds)}/permissions?supportsAllDrives=true`,
        ]), jsonOf({ name: () => 'Drive', title: () => 't', parents: () => [{ id: anId(driveIds) }], role: () => pick(['organizer', 'reader']), type: () => 'user', value: () => 'bob@example.com' })]],
        ['drive collaboration', () => [pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']), pick([
          `/drive/v2/files/${file()}/permissions`, `/drive/v2/files/${file()}/permissions/${pick(['anyone', 'me', junkId()])}`,
          `/drive/v2/files/${file()}/comments`, `/drive/v2/files/${file()}/comments/${anId(commentIds)}`, `/drive/v2/files/${file()}/comments/${anId(commentIds)}/replies`,
          `/drive/v2/files/${file()}/revisions`, `/drive/v2/files/${file()}/revisions/${pick(['head', '1', junkId()])}`,
        ]), jsonOf({ role: () => pick(['reader', 'writer', 'commenter', 'owner']), type: () => pick(['user', 'anyone', 'domain']), value: () => 'bob@example.com', content: () => 'comment', pinned: () => true, published: () => true })]],
      ];

      const record = (service: string, status: number): void => {
        let statuses = figures.get(service);
        if (!statuses) figures.set(service, (statuses = new Map<number, number>()));
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      };
      const poller = (async () => {
        while (!fuzzEnded.signal.aborted) {
          const started = performance.now();
          const response = await fetch(`${emulator.url}/emulator/v1/health`);
          await response.arrayBuffer();
          const took = performance.now() - started;
          healthWorst = Math.max(healthWorst, took);
          healthTimes.push(took);
          healthPolls++;
          largestRss = Math.max(largestRss, process.memoryUsage().rss);
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      })();

      for (let index = 0; index < 700; index++) {
        const [service, make] = pick(families);
        const [method, path, options] = make();
        const sent = method === 'GET' || method === 'DELETE' ? { ...options, json: undefined, body: undefined } : options;
        loopDelay.reset();
        const started = performance.now();
        const answer = await call(method, path, sent);
        const took = performance.now() - started;
        const described = `#${index} ${method} ${path.slice(0, 160)} ${JSON.stringify(sent).slice(0, 160)}`;
        stalls.push({ ms: loopDelay.max / 1e6, request: described });
        if (took > slowest.ms) slowest = { ms: took, request: described };
        record(service, answer.status);
        assert.ok(answer.status > 0 && answer.status < 500, `${described} → ${answer.status} ${answer.text.slice(0, 300)}`);
        assert.ok(took < answerBound, `${described} took ${took.toFixed(0)} ms`);
        if (service === 'drive collaboration' && method === 'POST' && path.endsWith('/comments') && answer.status === 200) commentIds.push(...ids({ items: [answer.json] }));
      }
      fuzzEnded.abort();
      await poller;
      assert.ok(healthPolls > 0);
      const healthP95 = [...healthTimes].sort((a, b) => a - b)[Math.floor(healthTimes.length * 0.95)] ?? 0;
      assert.ok(healthP95 < healthBound, `the health check's 95th percentile was ${healthP95.toFixed(0)} ms during the fuzz (bound ${healthBound.toFixed(0)} ms)`);
      assert.ok(healthWorst < healthWorstBound, `the health check took ${healthWorst.toFixed(0)} ms once during the fuzz (bound ${healthWorstBound.toFixed(0)} ms)`);
    } finally {
      fuzzEnded.abort();
      // The figures the issue's closing note needs, printed whether the run passed or not.
      for (const [service, statuses] of figures) {
        const total = [...statuses.values()].reduce((sum, count) => sum + count, 0);
        console.log(`      fuzz ${service}: ${total} requests; ${[...statuses.entries()].sort((a, b) => a[0] - b[0]).map(([status, count]) => `${status}×${count}`).join(', ')}`);
      }
      console.log(`      fuzz slowest answer ${slowest.ms.toFixed(0)} ms (${slowest.request.slice(0, 160)}); health p95 ${([...healthTimes].sort((a, b) => a - b)[Math.floor(healthTimes.length * 0.95)] ?? 0).toFixed(0)} ms, worst ${healthWorst.toFixed(0)} ms over ${healthPolls} polls; largest RSS ${(largestRss / 1024 / 1024).toFixed(0)} MB; load factor ${loadFactor.toFixed(1)} (bounds ${answerBound.toFixed(0)} / ${healthBound.toFixed(0)} / ${healthWorstBound.toFixed(0)} ms)`);
      loopDelay.disable();
      for (const stall of stalls.sort((a, b) => b.ms - a.ms).slice(0, 5)) console.log(`      event loop held ${stall.ms.toFixed(0)} ms during ${stall.request.slice(0, 200)}`);
      await emulator.close();
    }
  });
});
