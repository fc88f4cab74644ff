/**
 * "Desk: Search…" against the emulator with added latency (default 100 ms per call, `--latency MS` to change): the time
 * from the search starting to the first service's group and to the last one, and each service's own time, for the
 * first search of a pick (lists, calendars and shelves still to read) and for a later one (those cached for the pick's
 * life). The real API clients and sources, without VS Code. Prints figures; asserts nothing.
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { BooksClient } from '../src/api/books';
import { CalendarClient } from '../src/api/calendar';
import { DriveClient } from '../src/api/drive';
import { HttpClient } from '../src/api/http';
import { TasksClient } from '../src/api/tasks';
import { startEmulator } from '../src/emulator/emulator';
import { EverythingSearch, SEARCH_SERVICES, SearchService, SearchSource, SearchState } from '../src/features/search/model';
import { BooksSearchSource } from '../src/features/search/sources/books';
import { CalendarSearchSource } from '../src/features/search/sources/calendar';
import { DriveSearchSource } from '../src/features/search/sources/drive';
import { TasksSearchSource } from '../src/features/search/sources/tasks';
import { machineLoad, ms, percentiles, runWhenMain } from './support/stats';

const QUERIES = ['plan', 'desk', 'dune', 'notes', 'weekly', 'passport', 'budget', 'review'];

interface Round {
  first: number;
  last: number;
  perService: Map<SearchService, number>;
  failed: SearchService[];
}

/** Runs one search on `search` and times each group from the moment it starts. */
function timeRound(sources: readonly SearchSource[], query: string): { round: Promise<Round>; search: EverythingSearch } {
  let started = 0;
  const perService = new Map<SearchService, number>();
  let resolveRound: (round: Round) => void = () => undefined;
  const round = new Promise<Round>((resolve) => {
    resolveRound = resolve;
  });
  const onDidChange = (state: SearchState): void => {
    if (state.query !== query) return;
    for (const group of state.groups) {
      if (group.status !== 'searching' && !perService.has(group.service)) perService.set(group.service, performance.now() - started);
    }
    if (state.groups.length > 0 && !state.busy) {
      const times = [...perService.values()];
      resolveRound({ first: Math.min(...times), last: Math.max(...times), perService, failed: state.groups.filter((group) => group.status === 'failed').map((group) => group.service) });
    }
  };
  const search = new EverythingSearch({ sources, onDidChange, debounceMs: 0 });
  search.setQuery(query);
  started = performance.now();
  search.searchNow();
  return { round, search };
}

export async function run(): Promise<void> {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { latency: { type: 'string' } }, strict: false });
  const latencyMs = Number(values.latency ?? 100);
  const emulator = await startEmulator({ port: 0, seed: 'demo', latencyMs });
  try {
    const token = emulator.tokenFor('alice@example.com').accessToken;
    const http = new HttpClient({ rootUrl: () => emulator.url, token: async () => token });
    const clients = { tasks: new TasksClient(http), drive: new DriveClient(http), calendar: new CalendarClient(http), books: new BooksClient(http) };
    const newSources = (): SearchSource[] => [
      new TasksSearchSource(clients.tasks),
      new DriveSearchSource(clients.drive),
      new CalendarSearchSource(clients.calendar),
      new BooksSearchSource(clients.books),
    ];
    console.log(`Desk: Search… over the demo data, emulator latency ${latencyMs} ms per API call, ${QUERIES.length} queries`);
    console.log(machineLoad());
    const cold: Round[] = [];
    const warm: Round[] = [];
    for (const query of QUERIES) {
      const sources = newSources();
      const first = timeRound(sources, query);
      cold.push(await first.round);
      first.search.dispose();
      // The next text in the same pick (one letter deleted): the sources' caches are filled.
      const again = timeRound(sources, query.slice(0, -1));
      warm.push(await again.round);
      again.search.dispose();
      for (const source of sources) source.dispose?.();
    }
    const line = (label: string, rounds: readonly Round[]): void => {
      const first = percentiles(rounds.map((round) => round.first));
      const last = percentiles(rounds.map((round) => round.last));
      const services = SEARCH_SERVICES.map((service) => `${service} ${ms(percentiles(rounds.map((round) => round.perService.get(service) ?? NaN)).p50, 0)}`).join(', ');
      const failures = rounds.flatMap((round) => round.failed);
      console.log(`${label.padEnd(30)} first group p50 ${ms(first.p50, 0)} (max ${ms(first.max, 0)}), last group p50 ${ms(last.p50, 0)} (max ${ms(last.max, 0)})`);
      console.log(`${''.padEnd(30)} per service p50: ${services}${failures.length > 0 ? `; failed: ${failures.join(', ')}` : ''}`);
    };
    line('first search of a pick', cold);
    line('later search, same pick', warm);
  } finally {
    await emulator.close();
  }
}

runWhenMain(module, run);
