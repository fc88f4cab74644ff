import * as assert from 'node:assert/strict';
import { criticalPath, requestsOf, roundTripFigures } from '../../../bench/support/roundTrips';
import type { RequestRecord } from '../../../src/emulator/core/requestLog';

/**
 * The network benchmark's reading of the emulator's request log: overlapping requests are one round trip, a chain of
 * requests that waited on each other is one round trip each, and a chain longer than the data need is a waterfall.
 */
describe('round trips from the request log (bench/support/roundTrips.ts)', () => {
  const request = (target: string, startMs: number, endMs: number): RequestRecord => ({ method: 'GET', target, status: 200, startMs, endMs });

  it('counts requests that overlap as one round trip', () => {
    const figures = roundTripFigures([request('/a', 0, 150), request('/b', 5, 160), request('/c', 149, 300)], 1);
    assert.equal(figures.requests, 3);
    assert.equal(figures.roundTrips, 1);
    assert.equal(figures.waterfall, false);
  });

  it('follows the longest chain of requests that started after another ended', () => {
    // lists (0–150) → two lists' tasks in parallel (151–300, 152–310) → a subtask fetch after the slower one (311–460).
    const lists = request('/lists', 0, 150);
    const slower = request('/lists/2/tasks', 152, 310);
    const last = request('/tasks/x', 311, 460);
    const chain = criticalPath([request('/lists/1/tasks', 151, 300), last, lists, slower]);
    assert.deepEqual(chain.map((record) => record.target), ['/lists', '/lists/2/tasks', '/tasks/x']);
  });

  it('flags a waterfall when the chain is longer than the data need', () => {
    // The root folder's id, then its listing: the listing could have asked for 'root' at once.
    const records = [request('/files/root', 0, 150), request('/files?q=root', 150, 300)];
    assert.deepEqual({ ...roundTripFigures(records, 1), chain: undefined }, { requests: 2, roundTrips: 2, needed: 1, waterfall: true, chain: undefined });
    assert.equal(roundTripFigures(records, 2).waterfall, false);
  });

  it('leaves a request the client abandoned out of the chain, but counts it (a search for the text before the last keystroke)', () => {
    const abandoned: RequestRecord = { ...request('/volumes?q=pla', 0, 102), status: 499 };
    const figures = roundTripFigures([abandoned, request('/events?q=plan', 110, 260)], 1);
    assert.deepEqual({ ...figures, chain: undefined }, { requests: 2, roundTrips: 1, needed: 1, waterfall: false, chain: undefined });
    assert.deepEqual(figures.chain.map((record) => record.target), ['/events?q=plan']);
    assert.equal(roundTripFigures([{ ...abandoned, status: 200 }, request('/events?q=plan', 110, 260)], 1).waterfall, true, 'answered, it is a link');
  });

  it('counts each next page on the chain as needed: a page waits for the one before it', () => {
    const records = [request('/files?q=x', 0, 150), request('/files?q=x&pageToken=p2', 151, 300), request('/files?q=x&pageToken=p3', 301, 450)];
    const figures = roundTripFigures(records, 1);
    assert.equal(figures.roundTrips, 3);
    assert.equal(figures.needed, 3);
    assert.equal(figures.waterfall, false);
  });

  it('needs nothing, and flags nothing, without requests (an action served from memory)', () => {
    assert.deepEqual({ ...roundTripFigures([], 2), chain: undefined }, { requests: 0, roundTrips: 0, needed: 0, waterfall: false, chain: undefined });
  });

  it('splits an action\'s requests into those its result waited for and those after it, leaving out other APIs and earlier requests', () => {
    const records = [
      request('/tasks/v1/before', 0, 90), // started before the action
      request('/tasks/v1/lists', 100, 250),
      request('/drive/v2/changes', 110, 260), // another view's poll
      request('/tasks/v1/lists/1/tasks?pageToken=p2', 300, 450), // prefetch after the rows were shown
    ];
    const split = requestsOf(records, { fromMs: 100, doneMs: 280, idleMs: 600, include: (record) => record.target.startsWith('/tasks/') });
    assert.deepEqual(split.beforeDone.map((record) => record.target), ['/tasks/v1/lists']);
    assert.deepEqual(split.afterDone.map((record) => record.target), ['/tasks/v1/lists/1/tasks?pageToken=p2']);
  });
});
