// Keeps a child process running for the demo: starts it, and when it exits without being asked to, starts it
// again (same arguments, so the same port and data folder) after a delay that doubles while it keeps crashing.
// Plain CommonJS so it runs uncompiled; the clock and the log are injected so the restart logic is unit-tested.
'use strict';

const SYSTEM_TIMERS = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle),
};

function seconds(ms) {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** The first line of an error: launch.js appends the child's last output, which the log file already has. */
function firstLine(error) {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}

/**
 * Starts `start()` (which resolves with `{ child, stop() }` once the child is ready, or rejects) and keeps it
 * running until `stop()`. A failed first start rejects: there is nothing to keep running yet.
 *
 * options:
 * - name: how messages call the child ("The emulator").
 * - start(): the same child each time (same port, same data).
 * - log(message): where restarts are reported (console.error by default).
 * - onRestarted(handle, restarts): after a restart succeeded.
 * - firstDelayMs / maxDelayMs: the delay before a restart doubles per crash in a row, up to the maximum.
 * - stableAfterMs: a child that ran this long before it stopped counts as healthy: the delay starts over.
 * - timers: { now, setTimeout, clearTimeout } (tests pass a fake clock).
 *
 * Resolves with { current (the running handle, or undefined between restarts), restarts, stopRestarting(), stop() }.
 */
async function superviseChild(options) {
  const {
    name,
    start,
    log = (message) => console.error(message),
    onRestarted,
    firstDelayMs = 500,
    maxDelayMs = 30_000,
    stableAfterMs = 30_000,
    timers = SYSTEM_TIMERS,
  } = options;
  let stopped = false;
  let current;
  let timer;
  /** A restart under way (it stops its child itself if stop() came meanwhile). */
  let restarting;
  /** Crashes in a row: each doubles the next delay. */
  let crashes = 0;
  let restarts = 0;

  const nextDelay = () => Math.min(maxDelayMs, firstDelayMs * 2 ** crashes++);

  const schedule = (delayMs) => {
    timer = timers.setTimeout(() => {
      timer = undefined;
      restarting = restart().finally(() => (restarting = undefined));
    }, delayMs);
  };

  const watch = (handle) => {
    current = handle;
    const startedAt = timers.now();
    handle.child.once('exit', (code, signal) => {
      if (current === handle) current = undefined;
      if (stopped) return;
      if (timers.now() - startedAt >= stableAfterMs) crashes = 0;
      const delayMs = nextDelay();
      log(`${name} stopped unexpectedly (${signal ?? code}); restarting it in ${seconds(delayMs)}`);
      schedule(delayMs);
    });
  };

  const restart = async () => {
    if (stopped) return;
    let handle;
    try {
      handle = await start();
    } catch (error) {
      if (stopped) return;
      const delayMs = nextDelay();
      log(`${name} did not restart (${firstLine(error)}); trying again in ${seconds(delayMs)}`);
      schedule(delayMs);
      return;
    }
    if (stopped) {
      await handle.stop();
      return;
    }
    restarts++;
    watch(handle);
    onRestarted?.(handle, restarts);
  };

  /** No more restarts; the running child is left to whoever stops it (launch.js on Ctrl-C). */
  const stopRestarting = () => {
    stopped = true;
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = undefined;
  };

  watch(await start());
  return {
    get current() {
      return current;
    },
    get restarts() {
      return restarts;
    },
    stopRestarting,
    /** No more restarts, and the child stopped (one being started too). */
    async stop() {
      stopRestarting();
      await restarting;
      if (current) await current.stop();
    },
  };
}

module.exports = { superviseChild };
