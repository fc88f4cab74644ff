import * as assert from 'node:assert/strict';
import { EverythingSearch, readAhead, SearchHit, SearchService, SearchSource, SearchState } from '../../../../src/features/search/model';
import { driveSearchQuery, DriveSearchSource } from '../../../../src/features/search/sources/drive';
import { TasksSearchSource } from '../../../../src/features/search/sources/tasks';
import type { SearchCalendarApi, SearchDriveApi } from '../../../../src/features/search/port';
import { CalendarSearchSource } from '../../../../src/features/search/sources/calendar';
import type { CalendarEvent, CalendarListEntry } from '../../../../src/shared/schemas/calendar';
import { DeskClock } from '../../../../src/core/text/clock';
import type { DriveFile } from '../../../../src/shared/schemas/drive';
import { ManualTimers } from '../../../support/manualTimers';
import { FakeTasksApi, list, task } from '../../../support/fakes/tasks';

/** A source answering when the test says so, recording the signal of each search. */
class HeldSource implements SearchSource {
  readonly asked: Array<{ query: string; signal: AbortSignal; answer: (hits: SearchHit[]) => void; fail: (error: Error) => void }> = [];
  constructor(readonly service: SearchService, readonly account?: string) {}
  search(query: string, signal: AbortSignal): Promise<readonly SearchHit[]> {
    return new Promise((resolve, reject) => this.asked.push({ query, signal, answer: resolve, fail: reject }));
  }
}

const hit = (title: string): SearchHit => ({ title, context: '', target: { kind: 'volume', volumeId: title } });
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const summary = (state: SearchState): string[] => state.groups.map((group) => `${group.service}:${group.status}${group.status === 'done' ? `(${group.hits.map((one) => one.title).join(',')})` : ''}`);

describe('Desk search: every service at once', () => {
  it('with several accounts, groups by account then service, each hit carrying its account; one failing account leaves the other', async () => {
    const timers = new ManualTimers();
    const alice = { tasks: new HeldSource('tasks', 'alice@example.com'), drive: new HeldSource('drive', 'alice@example.com') };
    const bob = { tasks: new HeldSource('tasks', 'bob@example.com'), drive: new HeldSource('drive', 'bob@example.com') };
    const search = new EverythingSearch({ sources: [alice.drive, bob.tasks, alice.tasks, bob.drive], timers, onDidChange: () => undefined });
    search.setQuery('plan');
    timers.fire();
    await settle();
    bob.tasks.asked[0]?.answer([hit('Plan bob')]);
    alice.tasks.asked[0]?.answer([hit('Plan alice')]);
    alice.drive.asked[0]?.fail(new Error('503 backendError'));
    bob.drive.asked[0]?.answer([]);
    await settle();
    const groups = search.state.groups.map((group) => `${group.account ?? ''}/${group.service}:${group.status}`);
    assert.deepEqual(groups, ['alice@example.com/tasks:done', 'alice@example.com/drive:failed', 'bob@example.com/tasks:done', 'bob@example.com/drive:done']);
    const hits = search.state.groups.flatMap((group) => (group.status === 'done' ? group.hits : []));
    assert.deepEqual(hits.map((one) => [one.title, one.account]), [['Plan alice', 'alice@example.com'], ['Plan bob', 'bob@example.com']]);
  });

  it('with one account, groups and hits carry no account (as before accounts)', async () => {
    const timers = new ManualTimers();
    const tasks = new HeldSource('tasks');
    const search = new EverythingSearch({ sources: [tasks], timers, onDidChange: () => undefined });
    search.setQuery('plan');
    timers.fire();
    await settle();
    tasks.asked[0]?.answer([hit('Plan')]);
    await settle();
    const group = search.state.groups.at(0);
    assert.ok(group && group.status === 'done');
    assert.equal('account' in group, false);
    assert.equal(group.hits[0]?.account, undefined);
  });

  function setUp() {
    const sources = { books: new HeldSource('books'), tasks: new HeldSource('tasks'), drive: new HeldSource('drive'), calendar: new HeldSource('calendar') };
    const timers = new ManualTimers();
    const states: SearchState[] = [];
    // Given in any order: the groups still come out as Tasks, Drive, Calendar, Books.
    const search = new EverythingSearch({ sources: Object.values(sources), timers, onDidChange: (state) => states.push(state) });
    return { sources, timers, states, search };
  }

  it('searches once typing pauses, asking every service with the same text', async () => {
    const { sources, timers, search } = setUp();
    search.setQuery('re');
    search.setQuery('release ');
    assert.deepEqual(timers.pending, [250], 'one debounce, restarted by each keystroke');
    assert.equal(sources.tasks.asked.length, 0);
    timers.fire();
    await settle();
    assert.deepEqual(Object.values(sources).map((source) => source.asked.map((ask) => ask.query)), [['release'], ['release'], ['release'], ['release']]);
    assert.deepEqual(summary(search.state), ['tasks:searching', 'drive:searching', 'calendar:searching', 'books:searching']);
    assert.equal(search.state.busy, true);
  });

  it('shows each group as it answers, in a fixed order, and a failure only in its own group', async () => {
    const { sources, timers, search } = setUp();
    search.setQuery('plan');
    timers.fire();
    await settle();
    sources.books.asked[0]?.answer([hit('Plan B')]);
    await settle();
    assert.deepEqual(summary(search.state), ['tasks:searching', 'drive:searching', 'calendar:searching', 'books:done(Plan B)'], 'the first answer is shown at once');
    sources.calendar.asked[0]?.fail(new Error('503 backendError'));
    sources.tasks.asked[0]?.answer([hit('Plan the trip')]);
    await settle();
    assert.deepEqual(summary(search.state), ['tasks:done(Plan the trip)', 'drive:searching', 'calendar:failed', 'books:done(Plan B)']);
    assert.equal(search.state.busy, true, 'Drive has not answered yet');
    const failed = search.state.groups.at(2);
    assert.equal(failed?.status === 'failed' ? (failed.error as Error).message : undefined, '503 backendError');
    sources.drive.asked[0]?.answer([]);
    await settle();
    assert.equal(search.state.busy, false);
  });

  it('aborts a search the user typed past and ignores its late answers', async () => {
    const { sources, timers, search } = setUp();
    search.setQuery('old');
    timers.fire();
    await settle();
    search.setQuery('new');
    timers.fire();
    await settle();
    assert.equal(sources.drive.asked[0]?.signal.aborted, true, 'the old search was cancelled');
    assert.equal(sources.drive.asked[1]?.signal.aborted, false);
    sources.drive.asked[0]?.answer([hit('old file')]);
    sources.drive.asked[1]?.answer([hit('new file')]);
    await settle();
    assert.equal(search.state.query, 'new');
    assert.deepEqual(summary(search.state)[1], 'drive:done(new file)');
    assert.deepEqual(search.rounds.map((round) => round.query), ['old', 'new']);
  });

  it('clears at once for an empty text, and searches again on demand after a failure', async () => {
    const { sources, timers, search } = setUp();
    search.setQuery('x');
    timers.fire();
    await settle();
    sources.tasks.asked[0]?.fail(new Error('offline'));
    await settle();
    search.searchNow();
    await settle();
    assert.equal(sources.tasks.asked.length, 2, 'Enter on the failure row asks again');
    search.setQuery('  ');
    assert.deepEqual(search.state, { query: '', groups: [], busy: false });
    assert.equal(sources.tasks.asked[1]?.signal.aborted, true);
    assert.deepEqual(timers.pending, []);
  });
});

describe('Desk search: Tasks source', () => {
  it('matches every word in title or notes across lists, open tasks first, completed ones marked, lists read once', async () => {
    const api = new FakeTasksApi([list('home', 'Home'), list('work', 'Work')], {
      home: [[task('a', '1', { title: 'Renew passport', notes: 'Photos in the drawer' }), task('b', '2', { title: 'Passport photos', status: 'completed', completed: '2026-11-01T00:00:00.000Z' })]],
      work: [[task('c', '1', { title: 'Release notes', notes: 'mention the passport fix', due: '2026-12-01T00:00:00.000Z' })], [task('d', '2', { title: 'Unrelated' })]],
    });
    // Due dates read as in the Tasks view, from the user's today: short, never ISO.
    const source = new TasksSearchSource(api, undefined, { today: () => new Date(2026, 10, 20), locale: 'en-GB' });
    const signal = new AbortController().signal;
    const photos = await source.search('PASSPORT photos', signal);
    assert.deepEqual(photos.map((one) => [one.title, one.completed]), [['Renew passport', false], ['Passport photos', true]]);
    assert.match(photos[1]?.context ?? '', /^Home · ✓ completed$/);
    const callsAfterFirst = api.calls.length;
    const fix = await source.search('passport fix', signal);
    assert.deepEqual(fix.map((one) => one.context), ['Work · due 1 Dec · mention the passport fix']);
    assert.deepEqual(fix[0]?.target, { kind: 'task', listId: 'work', taskId: 'c' });
    assert.equal(api.calls.length, callsAfterFirst, 'the second search filters what the first loaded');
    assert.ok(api.calls.every((call) => call.showCompleted === true));
  });

  it('rejects a superseded search at once while the shared load goes on', async () => {
    const api = new FakeTasksApi([list('home', 'Home')], { home: [[task('a', '1')], [task('b', '2', { title: 'later' })]] });
    let open: () => void = () => undefined;
    api.gate = new Promise((resolve) => {
      open = resolve;
    });
    const source = new TasksSearchSource(api);
    const controller = new AbortController();
    const first = source.search('later', controller.signal);
    controller.abort(new Error('superseded'));
    await assert.rejects(first, /superseded/);
    open();
    assert.deepEqual((await source.search('later', new AbortController().signal)).map((one) => one.title), ['later']);
  });
});

describe('Desk search: Drive source', () => {
  it('asks Drive for every word in the title or the full text, quoted, outside the trash', () => {
    assert.equal(driveSearchQuery(`bob's  plan`), `(fullText contains 'bob\\'s' or title contains 'bob\\'s') and (fullText contains 'plan' or title contains 'plan') and trashed = false`);
  });

  it('says where each file is and whose it is, reading each folder once', async () => {
    const folders: Partial<Record<string, DriveFile>> = {
      p: { id: 'p', title: 'Projects', parents: [{ id: 'root', isRoot: true }] },
      q: { id: 'q', title: 'Q4', parents: [{ id: 'p', isRoot: false }] },
      team: { id: 'team', title: 'Team', driveId: 'team' },
    };
    const gets: string[] = [];
    const api: SearchDriveApi = {
      listFiles: async (options) => {
        assert.equal(options?.includeItemsFromAllDrives, true);
        return {
          items: [
            { id: '1', title: 'plan.txt', parents: [{ id: 'q', isRoot: false }], ownerNames: ['Alice'] },
            { id: '2', title: 'plan.md', parents: [{ id: 'q', isRoot: false }], ownerNames: ['Alice'] },
            { id: '3', title: 'shared plan', parents: [{ id: 'hidden', isRoot: false }], ownerNames: ['Bob'] },
            { id: '4', title: 'team plan', parents: [{ id: 'team', isRoot: false }], driveId: 'team' },
          ],
        };
      },
      getFile: (async (id: string) => {
        gets.push(id);
        const folder = folders[id];
        if (!folder) throw new Error('404 notFound');
        return folder;
      }),
      listDrives: async () => ({ items: [] }),
    };
    const hits = await new DriveSearchSource(api).search('plan', new AbortController().signal);
    assert.deepEqual(hits.map((one) => one.context), ['My Drive › Projects › Q4 · owner Alice', 'My Drive › Projects › Q4 · owner Alice', 'Shared with me · owner Bob', 'Shared drives › Team']);
    assert.deepEqual(gets.sort(), ['hidden', 'p', 'q', 'team'], 'each folder once');
  });
});

describe('Desk search: Calendar source', () => {
  /** One calendar in Berlin with a timed event kept in New York's zone and an all-day one. */
  const api = {
    async *allCalendarListEntries() {
      yield { kind: 'calendar#calendarListEntry', id: 'work', summary: 'Work', timeZone: 'Europe/Berlin', accessRole: 'owner' } as CalendarListEntry;
    },
    async listEvents() {
      return { items: [
        { id: 'a', summary: 'Budget call', start: { dateTime: '2026-12-01T09:00:00-05:00', timeZone: 'America/New_York' }, end: { dateTime: '2026-12-01T10:00:00-05:00' } },
        { id: 'b', summary: 'Budget day', start: { date: '2026-12-02' }, end: { date: '2026-12-03' } },
      ] as CalendarEvent[] };
    },
  } as unknown as SearchCalendarApi;

  it('writes when an event starts as Desk\'s clock does (the user\'s Calendar zone), all-day ones by their date, never ISO', async () => {
    const now = Date.UTC(2026, 10, 27, 12);
    const clock = new DeskClock('en-GB', undefined, 'Europe/Berlin');
    const source = new CalendarSearchSource(api, { locale: 'en-GB', now: () => now, dateTime: (ms) => clock.dateTime(ms, now) });
    const hits = await source.search('budget', new AbortController().signal);
    // 09:00 in New York is 15:00 in Berlin: the time the Agenda shows, not the zone the event was saved in.
    assert.deepEqual(hits.map((hit) => hit.context.replace(/,(?= \d)/, '')), ['Tue 1 Dec 15:00 · Work', 'Wed 2 Dec · Work']);
  });
});

describe('Desk search: the views\' caches read as the quick pick opens (readAhead)', () => {
  it('asks a known calendar\'s events at once on the first search, the cache having been read while the user typed', async () => {
    const asked: string[] = [];
    let listCalendars: () => void = () => undefined;
    const listed = new Promise<void>((resolve) => {
      listCalendars = resolve;
    });
    const api = {
      async *allCalendarListEntries() {
        asked.push('calendarList');
        await listed;
        yield { kind: 'calendar#calendarListEntry', id: 'work', summary: 'Work', accessRole: 'owner' } as CalendarListEntry;
      },
      async listEvents(calendarId: string) {
        asked.push(`events:${calendarId}`);
        return { items: [] as CalendarEvent[] };
      },
    };
    let reads = 0;
    // The picker opens: the cache's read starts now, and has answered by the time the user's text is searched.
    const known = readAhead(async () => {
      reads++;
      return [{ kind: 'calendar#calendarListEntry', id: 'work', summary: 'Work', accessRole: 'owner' }];
    });
    assert.equal(reads, 1, 'read as the picker opens, before any search');
    await settle();
    const source = new CalendarSearchSource(api, { knownCalendars: known });
    const searching = source.search('budget', new AbortController().signal);
    await settle();
    assert.deepEqual(asked.sort(), ['calendarList', 'events:work'], 'the events are out beside the calendar list, not after it');
    listCalendars();
    await searching;
    await source.search('budgets', new AbortController().signal);
    assert.equal(reads, 1, 'each search of the same picker uses the one read');
  });

  it('answers undefined when the read failed, without an unhandled rejection', async () => {
    const known = readAhead(async (): Promise<string> => {
      throw new Error('unreadable');
    });
    assert.equal(await known(), undefined);
  });
});
