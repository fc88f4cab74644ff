// The demo keeps its emulator running (scripts/vscode/supervise.js): an emulator that stops on its own is started
// again with the same options, so VS Code keeps running and Desk, whose session is keyed by the emulator's URL,
// stays signed in. Its port and the page's key half survive a re-run of the demo (scripts/vscode/demo-state.js).
import * as assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

const scripts = path.resolve(__dirname, '..', '..', '..', '..', 'scripts', 'vscode');

interface Handle {
  child: EventEmitter;
  stop(): Promise<void>;
}
interface Timers {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}
interface Supervisor<T extends Handle> {
  readonly current: T | undefined;
  readonly restarts: number;
  stopRestarting(): void;
  stop(): Promise<void>;
}
const { superviseChild } = require(path.join(scripts, 'supervise.js')) as {
  superviseChild: <T extends Handle>(options: {
    name: string;
    start: () => Promise<T>;
    log?: (message: string) => void;
    onRestarted?: (handle: T, restarts: number) => void;
    firstDelayMs?: number;
    maxDelayMs?: number;
    stableAfterMs?: number;
    timers?: Timers;
  }) => Promise<Supervisor<T>>;
};
const demoState = require(path.join(scripts, 'demo-state.js')) as {
  chooseEmulatorPort(options: { requested: number; file: string; host: string }): Promise<number>;
  rememberPort(file: string, port: number): void;
  loadKeyHalf(file: string): Buffer;
};

/** A tiny node child that runs until killed and says "ready" (what the emulator's first line is to the demo). */
function startTinyChild(): Promise<{ child: ChildProcess; pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['-e', 'console.log("ready"); setInterval(() => {}, 1000);'], { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', () => {
      const stop = (): Promise<void> => new Promise((done) => {
        if (child.exitCode !== null || child.signalCode !== null) { done(); return; }
        child.once('exit', () => { done(); });
        child.kill('SIGTERM');
      });
      resolve({ child, pid: child.pid ?? 0, stop });
    });
  });
}

/** Timers that run only when the test says so, with a clock the test moves. */
class ManualTimers implements Timers {
  time = 0;
  readonly scheduled: { callback: () => void; ms: number; cancelled: boolean }[] = [];
  now(): number {
    return this.time;
  }
  setTimeout(callback: () => void, ms: number): unknown {
    const entry = { callback, ms, cancelled: false };
    this.scheduled.push(entry);
    return entry;
  }
  clearTimeout(handle: unknown): void {
    (handle as { cancelled: boolean }).cancelled = true;
  }
  /** Runs the last scheduled timer (the pending restart) and lets the restart settle. */
  async fireLast(): Promise<void> {
    const entry = this.scheduled.at(-1);
    assert.ok(entry && !entry.cancelled, 'no restart is pending');
    entry.callback();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A child that exits when the test says (no process: the backoff arithmetic on its own). */
function fakeHandle(): Handle & { stopped: boolean } {
  const handle = { child: new EventEmitter(), stopped: false, stop: async () => { handle.stopped = true; } };
  return handle;
}

describe('demo: the emulator is restarted when it stops on its own', () => {
  it('starts a real child again after kill -9, says so, and stops it for good on stop()', async () => {
    const messages: string[] = [];
    const starts: number[] = [];
    const supervisor = await superviseChild({
      name: 'The child',
      start: async () => {
        const handle = await startTinyChild();
        starts.push(handle.pid);
        return handle;
      },
      log: (message) => messages.push(message),
      firstDelayMs: 100,
    });
    try {
      const first = supervisor.current;
      assert.ok(first);
      const restarted = new Promise<number>((resolve) => {
        const poll = setInterval(() => {
          if (supervisor.restarts === 1 && supervisor.current) {
            clearInterval(poll);
            resolve(supervisor.current.pid);
          }
        }, 5);
      });
      process.kill(first.pid, 'SIGKILL');
      const secondPid = await restarted;
      assert.notEqual(secondPid, first.pid);
      assert.deepEqual(starts, [first.pid, secondPid]);
      assert.deepEqual(messages, ['The child stopped unexpectedly (SIGKILL); restarting it in 0.1 s']);
    } finally {
      await supervisor.stop();
    }
    // Stopped as asked: no restart follows, and the child is gone.
    const last = starts[starts.length - 1];
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(starts.length, 2);
    assert.equal(supervisor.current, undefined);
    assert.throws(() => process.kill(last, 0), /ESRCH/);
  });

  it('waits longer after each crash in a row (0.5 s doubling, at most 30 s) and starts over after a healthy run', async () => {
    const timers = new ManualTimers();
    const handles: Handle[] = [];
    const messages: string[] = [];
    const supervisor = await superviseChild({
      name: 'The emulator',
      start: async () => {
        const handle = fakeHandle();
        handles.push(handle);
        return handle;
      },
      log: (message) => messages.push(message),
      timers,
    });
    for (let crash = 0; crash < 8; crash++) {
      handles[handles.length - 1].child.emit('exit', null, 'SIGKILL');
      await timers.fireLast();
    }
    assert.deepEqual(timers.scheduled.map((entry) => entry.ms), [500, 1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    assert.equal(messages[1], 'The emulator stopped unexpectedly (SIGKILL); restarting it in 1 s');
    assert.equal(supervisor.restarts, 8);
    // It ran 30 s before it stopped this time: a crash once in a while, not a crash loop.
    timers.time += 30_000;
    handles[handles.length - 1].child.emit('exit', 0, null);
    assert.equal(timers.scheduled[timers.scheduled.length - 1].ms, 500);
    assert.equal(messages[messages.length - 1], 'The emulator stopped unexpectedly (0); restarting it in 0.5 s');
    await supervisor.stop();
  });

  it('tries again, later, when a restart fails (its port taken meanwhile), and reports why in one line', async () => {
    const timers = new ManualTimers();
    const messages: string[] = [];
    let failNext = false;
    let starts = 0;
    const first = fakeHandle();
    const supervisor = await superviseChild({
      name: 'The emulator',
      start: async () => {
        if (failNext) {
          failNext = false;
          throw new Error('emulator exited (1) before it was ready\n--- last output ---\nEADDRINUSE');
        }
        return starts++ === 0 ? first : fakeHandle();
      },
      log: (message) => messages.push(message),
      timers,
    });
    failNext = true;
    first.child.emit('exit', 1, null);
    await timers.fireLast();
    assert.equal(supervisor.current, undefined);
    assert.equal(messages[1], 'The emulator did not restart (emulator exited (1) before it was ready); trying again in 1 s');
    await timers.fireLast();
    assert.ok(supervisor.current);
    assert.equal(supervisor.restarts, 1);
    await supervisor.stop();
  });

  it('restarts nothing once Ctrl-C said stop: neither the exit the stop causes nor a restart already scheduled', async () => {
    const timers = new ManualTimers();
    let starts = 0;
    const start = async (): Promise<Handle> => {
      starts++;
      return fakeHandle();
    };
    // Ctrl-C: launch.js stops the child, whose exit is then neither reported nor restarted.
    const messages: string[] = [];
    const stopped = await superviseChild({ name: 'The emulator', start, log: (message) => messages.push(message), timers });
    stopped.stopRestarting();
    stopped.current?.child.emit('exit', 0, null);
    assert.equal(timers.scheduled.length, 0);
    assert.deepEqual(messages, []);
    // Ctrl-C during the delay before a restart: the restart is called off.
    const crashed = await superviseChild({ name: 'The emulator', start, log: () => undefined, timers });
    crashed.current?.child.emit('exit', null, 'SIGKILL');
    crashed.stopRestarting();
    assert.equal(timers.scheduled.length, 1);
    assert.equal(timers.scheduled[0].cancelled, true);
    assert.equal(starts, 2);
  });

  it('rejects when the first start fails: there is nothing to keep running', async () => {
    await assert.rejects(superviseChild({ name: 'The emulator', start: () => Promise.reject(new Error('no build')), log: () => undefined }), /no build/);
  });
});

describe('demo: what a re-run keeps so Desk stays signed in', () => {
  let folder: string;
  beforeEach(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-demo-state-'));
  });
  afterEach(() => { fs.rmSync(folder, { recursive: true, force: true }); });

  async function freePort(): Promise<number> {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    return port;
  }

  it('reuses the last run\'s emulator port when it is free, takes any port when it is not, and obeys --emulator-port', async () => {
    const file = path.join(folder, 'emulator-port');
    assert.equal(await demoState.chooseEmulatorPort({ requested: 0, file, host: '127.0.0.1' }), 0);
    const port = await freePort();
    demoState.rememberPort(file, port);
    assert.equal(await demoState.chooseEmulatorPort({ requested: 0, file, host: '127.0.0.1' }), port);
    assert.equal(await demoState.chooseEmulatorPort({ requested: 9999, file, host: '127.0.0.1' }), 9999);
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    try {
      assert.equal(await demoState.chooseEmulatorPort({ requested: 0, file, host: '127.0.0.1' }), 0);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
    fs.writeFileSync(file, 'not a port\n');
    assert.equal(await demoState.chooseEmulatorPort({ requested: 0, file, host: '127.0.0.1' }), 0);
  });

  it('keeps one key half for the page\'s secrets across runs, readable by its owner only', () => {
    const file = path.join(folder, 'key-half');
    const first = demoState.loadKeyHalf(file);
    assert.equal(first.length, 32);
    assert.deepEqual(demoState.loadKeyHalf(file), first);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  });
});
