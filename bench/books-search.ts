import { performance } from 'node:perf_hooks';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { Catalogue, generateSyntheticCatalogue, loadDefaultCatalogue } from '../src/emulator/books/catalogue';
import { renderVolume } from '../src/emulator/books/render';
import { parseQuery, textSnippet, VolumeSearchIndex } from '../src/emulator/books/search';
import { startEmulator } from '../src/emulator/emulator';
import { volumesSchema, VolumeFilter, OrderBy } from '../src/shared/schemas/books';
import { machineLoad, ms, runWhenMain } from './support/stats';

/**
 * Books emulator search figures (printed, never asserted; targets at 100,000 volumes: p50 ≤ 5 ms, p99 ≤ 20 ms):
 *  1. Index build time and the heap the index takes, for the real catalogue and for 100,000 synthetic volumes.
 *  2. Search latency p50 / p99 over a mix of query shapes (free text, prefix, typo, intitle:, inauthor:, subject:,
 *     a phrase, a filter, orderBy=newest), as the emulator runs them: parse, search, page of 10, snippets, render.
 *  3. The same mix over HTTP against an emulator started with `--books synthetic:100000`.
 */

const SYNTHETIC_VOLUMES = 100_000;
const ROUNDS = 40;
const WARMUP_ROUNDS = 3;

interface BenchQuery {
  q: string;
  filter?: VolumeFilter;
  orderBy?: OrderBy;
}

/** Query shapes a user types, in the vocabulary of each catalogue. */
const REAL_QUERIES: readonly BenchQuery[] = [
  { q: 'island' },
  { q: 'war' },
  { q: 'sherlok holmes' },
  { q: 'tolk' },
  { q: 'intitle:time' },
  { q: 'inauthor:austen' },
  { q: '"the time machine"' },
  { q: 'subject:horror' },
  { q: 'love', orderBy: 'newest' },
  { q: 'adventure', filter: 'free-ebooks' },
];

const SYNTHETIC_QUERIES: readonly BenchQuery[] = [
  { q: 'harbor' },
  { q: 'silent garden' },
  { q: 'gard' },
  { q: 'lanturn' },
  { q: 'intitle:orchard' },
  { q: 'inauthor:novak' },
  { q: '"iron bridge"' },
  { q: 'subject:poetry' },
  { q: 'tides memory', orderBy: 'newest' },
  { q: 'clockwork', filter: 'free-ebooks' },
];

/** A garbage collector to call between measurements (scripts/bench.js runs without --expose-gc). */
function collector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

function heapMb(gc: () => void): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

/** p50 and p99 (stats.ts stops at p95; the target here is a p99). */
function p50p99(samples: readonly number[]): { p50: number; p99: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (share: number): number => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? NaN };
}

/** What one volumes.list costs the emulator, minus HTTP. */
function runSearch(index: VolumeSearchIndex, query: BenchQuery): number {
  const page = index.search({
    query: parseQuery(query.q),
    startIndex: 0,
    maxResults: 10,
    orderBy: query.orderBy ?? 'relevance',
    printType: 'all',
    ...(query.filter ? { filter: query.filter } : {}),
  });
  for (const hit of page.hits) renderVolume(hit.volume, { baseUrl: 'http://127.0.0.1', projection: 'full', textSnippet: textSnippet(hit.volume.record.description, hit.matchedTerms) });
  return page.totalItems;
}

function measure(label: string, index: VolumeSearchIndex, queries: readonly BenchQuery[]): void {
  for (let round = 0; round < WARMUP_ROUNDS; round++) for (const query of queries) runSearch(index, query);
  const samples: number[] = [];
  const perQuery = new Map<string, number[]>();
  const hits = new Map<string, number>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const query of queries) {
      const started = performance.now();
      hits.set(query.q, runSearch(index, query));
      const elapsed = performance.now() - started;
      samples.push(elapsed);
      perQuery.set(query.q, [...(perQuery.get(query.q) ?? []), elapsed]);
    }
  }
  const { p50, p99, max } = p50p99(samples);
  console.log(`${label}: search p50 ${ms(p50)}, p99 ${ms(p99)}, max ${ms(max)} (${samples.length} searches)`);
  for (const query of queries) {
    const figures = p50p99(perQuery.get(query.q) ?? []);
    const extra = [query.filter ? `filter=${query.filter}` : '', query.orderBy ? `orderBy=${query.orderBy}` : ''].filter(Boolean).join(' ');
    console.log(`    ${`${query.q} ${extra}`.padEnd(34)} ${String(hits.get(query.q)).padStart(6)} hits   p50 ${ms(figures.p50)}   p99 ${ms(figures.p99)}`);
  }
}

function buildIndex(label: string, catalogue: Catalogue, gc: () => void): VolumeSearchIndex {
  const before = heapMb(gc);
  const started = performance.now();
  const index = new VolumeSearchIndex(catalogue);
  const buildMs = performance.now() - started;
  const after = heapMb(gc);
  console.log(`${label}: ${catalogue.size.toLocaleString('en')} volumes, ${index.termCount.toLocaleString('en')} terms; index built in ${ms(buildMs, 0)}, heap ${before.toFixed(1)} → ${after.toFixed(1)} MB (index ${(after - before).toFixed(1)} MB)`);
  return index;
}

async function overHttp(queries: readonly BenchQuery[]): Promise<void> {
  const emulator = await startEmulator({ port: 0, booksCatalogue: `synthetic:${SYNTHETIC_VOLUMES}` });
  try {
    const url = (query: BenchQuery): string =>
      `${emulator.url}/books/v1/volumes?q=${encodeURIComponent(query.q)}${query.filter ? `&filter=${query.filter}` : ''}${query.orderBy ? `&orderBy=${query.orderBy}` : ''}`;
    // The first search builds the index (as the first user search would).
    const started = performance.now();
    await fetch(url(queries[0])).then((response) => response.text());
    console.log(`over HTTP, emulator --books synthetic:${SYNTHETIC_VOLUMES}: first search (builds the index) ${ms(performance.now() - started, 0)}`);
    for (let round = 0; round < WARMUP_ROUNDS; round++) for (const query of queries) await fetch(url(query)).then((response) => response.text());
    const samples: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const query of queries) {
        const begun = performance.now();
        volumesSchema.parse(await fetch(url(query)).then((response) => response.json()));
        samples.push(performance.now() - begun);
      }
    }
    const { p50, p99, max } = p50p99(samples);
    console.log(`over HTTP: volumes.list p50 ${ms(p50)}, p99 ${ms(p99)}, max ${ms(max)} (${samples.length} requests, response parsed with zod)`);
  } finally {
    await emulator.close();
  }
}

export async function run(): Promise<void> {
  const gc = collector();
  console.log(`books search ${machineLoad()}`);

  const { catalogue: real, missing } = loadDefaultCatalogue();
  if (missing) console.log('real catalogue: not found (src/emulator/books/data/catalogue.jsonl), skipped');
  else measure('real catalogue', buildIndex('real catalogue', real, gc), REAL_QUERIES);

  const beforeCatalogue = heapMb(gc);
  const generationStarted = performance.now();
  const synthetic = generateSyntheticCatalogue(SYNTHETIC_VOLUMES);
  console.log(`synthetic catalogue: generated in ${ms(performance.now() - generationStarted, 0)}, records ${(heapMb(gc) - beforeCatalogue).toFixed(1)} MB`);
  measure(`synthetic ${SYNTHETIC_VOLUMES.toLocaleString('en')}`, buildIndex(`synthetic ${SYNTHETIC_VOLUMES.toLocaleString('en')}`, synthetic, gc), SYNTHETIC_QUERIES);

  await overHttp(SYNTHETIC_QUERIES);
}

runWhenMain(module, run);
