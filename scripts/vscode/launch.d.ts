// Types of launch.js for the TypeScript that loads it at run time (test/ui/workbench.ts, bench/activation.ts).
import type { BrowserContext, Page } from 'playwright-core';
import type { ChildProcess } from 'node:child_process';

export interface StartWorkbenchOptions {
  /** Prefix of the run folder's name. */
  name?: string;
  seed?: 'demo' | 'none';
  /** Durable emulator data folder; memory mode when omitted. */
  dataDir?: string;
  /** User settings on top of the harness defaults (telemetry off, emulator backend, ...). */
  settings?: Record<string, unknown>;
  /** Extra environment for the server, which reaches the extension host. */
  env?: Record<string, string>;
  /** Absolute path (without .js) of a module exporting run(): VS Code runs it as an extension test suite. */
  testsPath?: string;
  /** Folder the window opens; a fresh empty one when omitted. */
  folder?: string;
  onExit?: (code: number) => void;
  onLog?: (type: string, text: string) => void;
  viewport?: { width: number; height: number };
  /** Wait for `.monaco-workbench` before resolving (default true). */
  waitForWorkbench?: boolean;
  /** A .vsix to install instead of loading this folder as the development extension (default: $DESK_VSIX; '' for none). */
  vsix?: string;
  /** The folder loaded as the development extension (default: this repository, or none when a vsix is installed). */
  extensionPath?: string;
  /** VS Code's display language, e.g. 'qps-ploc' (pseudo-localized); default English. */
  locale?: string;
  /** Latency the emulator adds to every API call (`--latency`), e.g. 150 for Google's. */
  emulatorLatencyMs?: number;
  /** A file the emulator writes its timed request records to (`--request-log`). */
  requestLog?: string;
}

export interface Workbench {
  runDir: string;
  folder: string;
  emulatorUrl: string;
  serverPort: number;
  serverLog: string;
  resultFile: string;
  workbenchUrl: string;
  page: Page;
  browserContext: BrowserContext;
  close(): Promise<void>;
}

export function startWorkbench(options?: StartWorkbenchOptions): Promise<Workbench>;

export function startEmulator(options?: {
  seed?: 'demo' | 'none';
  dataDir?: string;
  port?: number;
  logFile?: string;
  echo?: boolean;
  latencyMs?: number;
  requestLog?: string;
}): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }>;

/** Forwards to VS Code's server (websockets too) and serves code-server's /proxy/<port>/ route. */
export function startFrontProxy(options: { serverPort: number; port?: number; host?: string; keyHalf?: Buffer }): Promise<{ port: number; host: string; close(): Promise<void> }>;

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T>;
export function stopChild(child: ChildProcess | undefined, graceMs?: number): Promise<void>;
export function userSettings(emulatorUrl: string, overrides?: Record<string, unknown>): Record<string, unknown>;

/** A fresh folder for one run (short, outside the repository). */
export function makeRunDir(prefix: string): string;

/** Removes a run folder (kept when DESK_KEEP_RUN is set). */
export function removeRunDir(runDir: string): void;

/** Debian's Chromium with a fresh profile under runDir, the workbench's test hooks exposed, only loopback reachable. */
export function launchBrowser(options: {
  runDir: string;
  onExit?: (code: number) => void;
  onLog?: (type: string, text: string) => void;
  viewport?: { width: number; height: number };
  locale?: string;
}): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }>;
