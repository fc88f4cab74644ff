import * as assert from 'node:assert/strict';
import { Connectivity, ConnectivityEvent } from '../../../../src/core/offline/connectivity';
import { ManualTimers } from '../../../support/manualTimers';

function connectivity(answers: boolean[]): { state: Connectivity; timers: ManualTimers; events: ConnectivityEvent[]; probes: () => number } {
  const timers = new ManualTimers();
  let probes = 0;
  let now = Date.UTC(2026, 10, 28, 10, 0);
  const state = new Connectivity({
    timers,
    now: () => (now += 1000),
    probe: async () => {
      probes++;
      return answers.shift() ?? false;
    },
  });
  const events: ConnectivityEvent[] = [];
  state.onDidChange((event) => events.push(event));
  return { state, timers, events, probes: () => probes };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('Connectivity: the one notion of offline', () => {
  it('goes offline once, records since when, and probes with a doubling backoff until the service answers', async () => {
    const { state, timers, events, probes } = connectivity([false, false, true]);
    state.unreachable();
    state.unreachable();
    assert.equal(state.online, false);
    assert.equal(events.length, 1);
    assert.equal(state.offlineSince, Date.UTC(2026, 10, 28, 10, 0, 1));
    assert.deepEqual(timers.pending, [1000]);
    timers.fire();
    await settle();
    assert.deepEqual(timers.pending, [2000]);
    timers.fire();
    await settle();
    assert.deepEqual(timers.pending, [4000]);
    timers.fire();
    await settle();
    assert.equal(probes(), 3);
    assert.equal(state.online, true);
    assert.deepEqual(events.map((event) => event.online), [false, true]);
    assert.deepEqual(timers.pending, [], 'no probe while online');
  });

  it('the backoff stops growing at its ceiling', async () => {
    const { state, timers } = connectivity(Array.from({ length: 10 }, () => false));
    state.unreachable();
    for (let i = 0; i < 8; i++) {
      timers.fire();
      await settle();
    }
    assert.deepEqual(timers.pending, [30_000]);
  });

  it('a focus probes at once; any answer of a request is back online too', async () => {
    const { state, timers, events } = connectivity([true]);
    state.unreachable();
    await state.probeNow();
    assert.equal(state.online, true);
    assert.deepEqual(timers.pending, []);
    state.unreachable();
    state.reachable();
    assert.deepEqual(events.map((event) => event.online), [false, true, false, true]);
  });

  it('online, a focus probes nothing', async () => {
    const { state, probes } = connectivity([true]);
    await state.probeNow();
    assert.equal(probes(), 0);
  });
});
