// Round trips from the emulator's timed request log: which requests an action made, the longest chain of requests
// that waited on one another (its critical path), and whether that chain is longer than the action's data needs.
import type { RequestRecord } from '../../src/emulator/core/requestLog';

/** The requests of one action: those that started in its window, and the part of them that its result waited for. */
export interface ActionRequests {
  /** Started at or after `fromMs` and ended by `doneMs`: what the visible result could have waited on. */
  readonly beforeDone: RequestRecord[];
  /** Started before the network went idle but ended after `doneMs` (prefetch, background refresh). */
  readonly afterDone: RequestRecord[];
}

export interface ActionWindow {
  /** When the user acted (epoch ms, the request log's clock). */
  readonly fromMs: number;
  /** When the result was on screen. */
  readonly doneMs: number;
  /** The end of the window: the network went idle after the result. */
  readonly idleMs: number;
  /** The requests that belong to this action (e.g. the Tasks API's for the Tasks view); default all. */
  readonly include?: (record: RequestRecord) => boolean;
}

export function requestsOf(records: readonly RequestRecord[], window: ActionWindow): ActionRequests {
  const mine = records.filter((record) => record.startMs >= window.fromMs && record.startMs <= window.idleMs && (window.include?.(record) ?? true));
  return {
    beforeDone: mine.filter((record) => record.endMs <= window.doneMs),
    afterDone: mine.filter((record) => record.endMs > window.doneMs),
  };
}

/**
 * The critical path: the longest chain of requests in which each one started only after the one before it had
 * ended. Requests that overlap in time ran in parallel and share a round trip; each link of the chain is one more
 * round trip the user waited for. Returned first request first; empty without requests.
 */
export function criticalPath(records: readonly RequestRecord[]): RequestRecord[] {
  const byStart = [...records].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
  const depth: number[] = [];
  const previous: (number | undefined)[] = [];
  byStart.forEach((record, index) => {
    let best: number | undefined;
    for (let earlier = 0; earlier < index; earlier++) {
      const candidate = byStart[earlier];
      if (candidate.endMs > record.startMs) continue;
      // The deepest chain before it; among equals the request that ended last (the one it waited for).
      const deeper = best === undefined || (depth[earlier]) > (depth[best]);
      const sameDepthLater = best !== undefined && depth[earlier] === depth[best] && candidate.endMs > (byStart[best]).endMs;
      if (deeper || sameDepthLater) best = earlier;
    }
    depth[index] = best === undefined ? 1 : (depth[best]) + 1;
    previous[index] = best;
  });
  let last: number | undefined;
  depth.forEach((value, index) => {
    // The deepest chain; among equals the one that ends last (what the user waited for longest).
    if (last === undefined || value > (depth[last]) || (value === depth[last] && (byStart[index]).endMs > (byStart[last]).endMs)) last = index;
  });
  const chain: RequestRecord[] = [];
  for (let at = last; at !== undefined; at = previous[at]) chain.unshift(byStart[at]);
  return chain;
}

/** A request that continues a listing (`pageToken=`): it needs the page before it, so it is a round trip of its own by nature. */
export function isNextPage(record: RequestRecord): boolean {
  return /[?&]pageToken=/.test(record.target);
}

export interface RoundTripFigures {
  readonly requests: number;
  readonly roundTrips: number;
  /** What the data dependencies require: the action's own minimum plus one per next page on the chain. */
  readonly needed: number;
  /** More round trips than needed: some requests on the chain waited on others they did not need. */
  readonly waterfall: boolean;
  readonly chain: RequestRecord[];
}

/**
 * The figures of an action whose data need `minimumRoundTrips` sequential requests (e.g. 2 for "the lists, then a
 * list's tasks", 1 for "one listing"); each next page on the chain adds one, as pages depend on the one before.
 */
export function roundTripFigures(records: readonly RequestRecord[], minimumRoundTrips: number): RoundTripFigures {
  // A request the client abandoned (a search's earlier text, superseded as the user typed on) was waited on by
  // nothing: it is counted among the requests, not as a link of the chain.
  const chain = criticalPath(records.filter((record) => !wasAbandoned(record)));
  const needed = records.length === 0 ? 0 : minimumRoundTrips + chain.filter(isNextPage).length;
  return { requests: records.length, roundTrips: chain.length, needed, waterfall: chain.length > needed, chain };
}

/** The client went away before the answer (the emulator logs nginx's 499). */
export function wasAbandoned(record: RequestRecord): boolean {
  return record.status === ABANDONED_STATUS;
}

const ABANDONED_STATUS = 499;

/** A request as one short line: method and path, ids shortened, the query's names (and fields=) kept. */
export function describeRequest(record: RequestRecord): string {
  const [pathname = '', query = ''] = record.target.split('?', 2);
  const shortPath = pathname.split('/').map((part) => (part.length > 24 ? `${part.slice(0, 8)}…` : part)).join('/');
  const names = query ? new URLSearchParams(query) : undefined;
  const params = names ? [...names.keys()].map((name) => (name === 'fields' ? `fields=${(names.get(name) ?? '').slice(0, 30)}` : name)) : [];
  return `${record.method} ${shortPath}${params.length > 0 ? `?${params.join('&')}` : ''} (${Math.round(record.endMs - record.startMs)} ms${wasAbandoned(record) ? ', abandoned' : ''})`;
}
