import { ChildProcess, spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { english, Translate } from '../../shared/l10n';
import type { EmulatorSeed } from '../settings';

export interface EmulatorLaunchOptions {
  /** The bundled `dist/emulator.js`. */
  readonly scriptPath: string;
  /** Durable data folder, so the user's emulator data survives restarts of VS Code. */
  readonly dataDir: string;
  readonly seed: EmulatorSeed;
  /** Output channel lines (never tokens: the emulator does not print any). */
  readonly log: (line: string) => void;
  /** Defaults to `process.execPath`: Node in a server/remote host, the Electron binary on the desktop. */
  readonly execPath?: string;
  readonly startTimeoutMs?: number;
  /**
   * The port of the last run. Sign-in sessions are kept per emulator address, so reusing the port keeps the
   * user signed in across VS Code restarts; when it is taken, any free port is used.
   */
  readonly preferredPort?: number;
  /** Words the errors a user sees (vscode.l10n.t); the log stays in English. */
  readonly t?: Translate;
}

const LISTENING = /Desk emulator listening on (http:\/\/\S+)/;

/**
 * Runs the bundled emulator as a child process of the extension host. A separate process keeps the
 * emulator's request handling off the extension host's event loop and lets it die with us. The URL is read
 * from the emulator's first stdout line (port 0 picks a free port every start).
 */
export class EmulatorLauncher {
  private child: ChildProcess | undefined;
  private starting: Promise<string> | undefined;
  private url: string | undefined;
  private readonly exitListeners = new Set<(code: number | null) => void>();

  constructor(private readonly options: EmulatorLaunchOptions) {}

  get runningUrl(): string | undefined {
    return this.url;
  }

  /** Called when a started emulator exits on its own (crash, killed); not after `stop()`. */
  onUnexpectedExit(listener: (code: number | null) => void): { dispose(): void } {
    this.exitListeners.add(listener);
    return { dispose: () => this.exitListeners.delete(listener) };
  }

  /** Starts the emulator once; concurrent callers share the same start. */
  start(): Promise<string> {
    if (this.url) return Promise.resolve(this.url);
    this.starting ??= this.launch().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    this.url = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const killTimer = setTimeout(() => child.kill('SIGKILL'), 3000);
      child.once('exit', () => {
        clearTimeout(killTimer);
        resolve();
      });
      // SIGTERM lets the emulator flush its journal before exiting.
      child.kill('SIGTERM');
    });
  }

  private async launch(): Promise<string> {
    await mkdir(this.options.dataDir, { recursive: true });
    const preferred = this.options.preferredPort;
    if (preferred) {
      try {
        return await this.launchOn(preferred);
      } catch (error) {
        this.options.log(`Port ${preferred} is not available (${error instanceof Error ? error.message : String(error)}); using a free port`);
      }
    }
    return this.launchOn(0);
  }

  private launchOn(port: number): Promise<string> {
    const { scriptPath, dataDir, seed, log, t = english } = this.options;
    const args = [scriptPath, '--port', String(port), '--data-dir', dataDir, '--seed', seed];
    log(`Starting the local emulator (data in ${dataDir})`);
    const child = spawn(this.options.execPath ?? process.execPath, args, {
      // In desktop VS Code process.execPath is Electron: this makes it behave as plain Node.
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    this.child = child;

    return new Promise<string>((resolve, reject) => {
      let stdoutBuffer = '';
      let stderrTail = '';
      let settled = false;
      const fail = (message: string): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (this.child === child) this.child = undefined;
        child.kill('SIGKILL');
        const details = stderrTail.trim();
        reject(new Error(details ? `${message}: ${details}` : message));
      };
      const timer = setTimeout(() => { fail(t('The local emulator did not start in time')); }, this.options.startTimeoutMs ?? 20_000);

      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        if (settled) {
          for (const line of chunk.split('\n')) if (line.trim()) log(line.trimEnd());
          return;
        }
        stdoutBuffer += chunk;
        const match = LISTENING.exec(stdoutBuffer);
        if (!match?.[1]) return;
        settled = true;
        clearTimeout(timer);
        this.url = match[1];
        log(`Local emulator running at ${this.url}`);
        resolve(this.url);
      });
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        stderrTail = (stderrTail + chunk).slice(-2000);
        log(chunk.trimEnd());
      });
      child.once('error', (error) => { fail(t('Could not start the local emulator ({0})', error.message)); });
      child.once('exit', (code, signal) => {
        if (!settled) { fail(t('The local emulator exited before it was ready ({0})', signal ?? t('exit code {0}', String(code)))); return; }
        if (this.child !== child) return; // stopped on purpose
        this.child = undefined;
        this.url = undefined;
        log(`The local emulator stopped (${signal ?? `exit code ${String(code)}`})`);
        for (const listener of this.exitListeners) listener(code);
      });
    });
  }
}
