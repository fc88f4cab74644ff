// Starts Desk inside a real VS Code: the Desk emulator, VS Code's server from code-server, and (for tests) Debian's
// Chromium driven by playwright-core, with Desk loaded as a development extension. Shared by the extension-host
// suite runner, the UI test helper, the demo and the activation benchmark. Plain CommonJS so it runs uncompiled.
// The method is the one recorded in shared/vscode-testing.md; comments say why where it is not obvious.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const util = require('node:util');
const { repoRoot, serverMainPath } = require('./paths');

const CHROMIUM_PATH = process.env.DESK_CHROMIUM || '/usr/bin/chromium';
/** The background-networking flags matter: without them Chromium keeps trying Google hosts this machine cannot reach. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Every child started here, so a crash or Ctrl-C still ends them (each is its own process group). */
const liveChildren = new Set();
process.on('exit', () => {
  for (const child of liveChildren) killGroup(child, 'SIGKILL');
});
// On Ctrl-C or a runner's SIGTERM: stop the children gracefully (the emulator flushes its store), then exit.
let stopping = false;
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]]) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void Promise.all([...liveChildren].map((child) => stopChild(child))).finally(() => process.exit(code));
  });
}

function killGroup(child, signal) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

/** Ends a child's whole process group: SIGTERM, then SIGKILL if it has not exited within graceMs. */
async function stopChild(child, graceMs = 3000) {
  if (!child) return;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    killGroup(child, 'SIGTERM');
    const timer = new Promise((resolve) => setTimeout(resolve, graceMs, 'timeout'));
    if ((await Promise.race([exited, timer])) === 'timeout') {
      killGroup(child, 'SIGKILL');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
    }
  }
  // Children of the group (VS Code's extension host, file watcher, pty host) may outlive the leader.
  killGroup(child, 'SIGKILL');
  liveChildren.delete(child);
}

/** A folder for one run: short (Unix socket paths are limited to 107 bytes) and outside the repo. */
function makeRunDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), `desk-${prefix}-`));
}

/** Removes a run folder; keeps it (and says where) when DESK_KEEP_RUN is set, for debugging. */
function removeRunDir(runDir) {
  if (!runDir) return;
  if (process.env.DESK_KEEP_RUN) {
    console.log(`[launch] kept run folder ${runDir}`);
    return;
  }
  fs.rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
}

/**
 * Spawns a process in its own process group, copies its output to a log file, and resolves with the first
 * stdout line that `match` recognises (its return value), or rejects when the process exits or times out first.
 */
function spawnAndWaitFor({ name, command, args, options, logFile, match, timeoutMs, echo }) {
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  liveChildren.add(child);
  const log = fs.createWriteStream(logFile, { flags: 'a' });
  const tail = [];
  const remember = (line) => {
    tail.push(line);
    if (tail.length > 40) tail.shift();
    log.write(`${line}\n`);
    if (echo) console.log(`[${name}] ${line}`);
  };
  readline.createInterface({ input: child.stderr }).on('line', remember);
  const stdoutLines = readline.createInterface({ input: child.stdout });
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (why) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stopChild(child);
      reject(new Error(`${name} ${why}\n--- last output (${logFile}) ---\n${tail.join('\n')}`));
    };
    const timer = setTimeout(() => fail(`did not start within ${timeoutMs} ms`), timeoutMs);
    child.once('error', (error) => fail(`could not start: ${error.message}`));
    child.once('exit', (code, signal) => fail(`exited (${signal ?? code}) before it was ready`));
    stdoutLines.on('line', (line) => {
      remember(line);
      if (settled) return;
      const found = match(line);
      if (found !== undefined) {
        settled = true;
        clearTimeout(timer);
        resolve({ child, value: found });
      }
    });
  });
}

/**
 * Starts the Desk emulator (dist/emulator.js; build first) on a free loopback port.
 * seed: 'demo' | 'none'; dataDir: durable folder, or undefined for memory mode.
 */
async function startEmulator({ seed = 'demo', dataDir, port = 0, logFile, echo = false, latencyMs, requestLog } = {}) {
  const emulatorJs = path.join(repoRoot, 'dist', 'emulator.js');
  if (!fs.existsSync(emulatorJs)) throw new Error(`${emulatorJs} is missing: run "node esbuild.js" first`);
  const args = [emulatorJs, '--port', String(port), '--seed', seed];
  if (dataDir) args.push('--data-dir', dataDir);
  else args.push('--memory');
  // The network benchmark: Google's latency on every API call, and the timed log of requests it reads.
  if (latencyMs) args.push('--latency', String(latencyMs));
  if (requestLog) args.push('--request-log', requestLog);
  const { child, value: url } = await spawnAndWaitFor({
    name: 'emulator',
    command: process.execPath,
    args,
    options: { cwd: repoRoot, env: process.env },
    logFile: logFile ?? path.join(os.tmpdir(), 'desk-emulator.log'),
    // The emulator's first line is its contract: "Desk emulator listening on http://127.0.0.1:PORT".
    match: (line) => /listening on (http:\/\/\S+)/.exec(line)?.[1],
    timeoutMs: 20000,
    echo,
  });
  return { url, child, stop: () => stopChild(child) };
}

/** The user settings a test or demo window starts with: quiet, offline, and pointed at the emulator. */
function userSettings(emulatorUrl, overrides = {}) {
  return {
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'workbench.enableExperiments': false,
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'security.workspace.trust.enabled': false,
    'chat.commandCenter.enabled': false,
    // The demo's workspace lives inside this repository: no offer to open the parent git repository.
    'git.openRepositoryInParentFolders': 'never',
    'desk.emulator.url': emulatorUrl,
    'desk.backend': 'emulator',
    ...overrides,
  };
}

/** The server's environment: ours without VS Code's own variables (a run from a VS Code terminal inherits them). */
function serverEnv(runTmp, extraEnv) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE') continue;
    env[key] = value;
  }
  // Without these the server leaves its IPC sockets in /tmp after every run.
  env.TMPDIR = runTmp;
  env.XDG_RUNTIME_DIR = runTmp;
  // code-server's VS Code points its gallery at open-vsx.org; an empty gallery turns the marketplace off, so a
  // run never looks up a host outside this machine (the server reads this variable at start).
  env.EXTENSIONS_GALLERY = '{}';
  return { ...env, ...extraEnv };
}

/**
 * Starts VS Code's server (from code-server) with fresh data, user and extensions folders under runDir.
 * Environment variables given here reach the extension host (that is how tests get their parameters).
 */
/**
 * Installs a packaged extension into a run's extensions folder the way a user's VS Code does
 * (`--install-extension`), so the packaged artefact itself is what runs.
 */
function installVsix({ serverMain, dirs, vsix }) {
  if (!fs.existsSync(vsix)) throw new Error(`${vsix} is missing: run "npm run package" first`);
  const { execFileSync } = require('node:child_process');
  execFileSync(process.execPath, [
    serverMain,
    '--accept-server-license-terms',
    '--server-data-dir', dirs.serverData,
    '--user-data-dir', dirs.userData,
    '--extensions-dir', dirs.extensions,
    '--install-extension', vsix,
  ], { env: serverEnv(dirs.tmp, {}), stdio: 'pipe', timeout: 60000 });
}

async function startVSCodeServer({ runDir, emulatorUrl, settings, env = {}, port = 0, host = '127.0.0.1', echo = false, vsix, locale }) {
  const serverMain = serverMainPath();
  if (!fs.existsSync(serverMain)) {
    throw new Error(`${serverMain} is missing: run "node scripts/vscode/install-code-server.js" first`);
  }
  const dirs = {
    serverData: path.join(runDir, 'server-data'),
    userData: path.join(runDir, 'user-data'),
    extensions: path.join(runDir, 'extensions'),
    tmp: path.join(runDir, 'tmp'),
  };
  for (const dir of Object.values(dirs)) fs.mkdirSync(dir, { recursive: true });
  fs.mkdirSync(path.join(dirs.userData, 'User'), { recursive: true });
  fs.writeFileSync(path.join(dirs.userData, 'User', 'settings.json'), JSON.stringify(userSettings(emulatorUrl, settings), null, 2));
  if (vsix) installVsix({ serverMain, dirs, vsix });
  const args = [
    serverMain,
    '--host', host,
    '--port', String(port),
    '--without-connection-token',
    '--accept-server-license-terms',
    '--telemetry-level', 'off',
    '--disable-workspace-trust',
    '--server-data-dir', dirs.serverData,
    '--user-data-dir', dirs.userData,
    '--extensions-dir', dirs.extensions,
    // The display language (e.g. qps-ploc, the pseudo-localized run): the manifest's and the code's l10n bundles.
    ...(locale ? ['--locale', locale] : []),
  ];
  const { child, value: listeningPort } = await spawnAndWaitFor({
    name: 'vscode-server',
    command: process.execPath,
    args,
    options: { cwd: runDir, env: serverEnv(dirs.tmp, env) },
    logFile: path.join(runDir, 'server.log'),
    match: (line) => {
      const found = /Extension host agent listening on (\d+)/.exec(line);
      return found ? Number(found[1]) : undefined;
    },
    timeoutMs: 60000,
    echo,
  });
  return { port: listeningPort, host, child, dirs, logFile: path.join(runDir, 'server.log'), stop: () => stopChild(child) };
}

/**
 * The browser's door to VS Code: forwards everything to the server, websockets included, and serves the
 * `/proxy/<port>/…` route that code-server's own wrapper (which we do not run) provides. VS Code's
 * asExternalUri maps an extension's loopback server to that route in this build, so an extension that opens a
 * loopback callback in the browser (Desk's OAuth sign-in) is reached through it, as it would be in code-server.
 * options: { serverPort, port, host, keyHalf (32 bytes the page's secrets are sealed with; fresh when omitted) }
 */
async function startFrontProxy(options) {
  const { serverPort, port = 0, host = '127.0.0.1' } = options;
  const PROXY_ROUTE = /^\/proxy\/(\d+)(\/[^?]*)?(\?.*)?$/;
  const target = (url) => {
    const found = PROXY_ROUTE.exec(url ?? '/');
    if (found) return { port: Number(found[1]), path: `${found[2] || '/'}${found[3] || ''}` };
    return { port: serverPort, path: url ?? '/' };
  };
  // The web workbench keeps extensions' secrets (Desk's sign-in) in localStorage, sealed with a key half it asks the
  // page's server for at POST /mint-key; code-server's wrapper serves that route, VS Code's server alone answers 405,
  // and the secrets then live only in the page's memory: a window reload would sign Desk out. One key per run, or
  // the caller's (the demo keeps its own across runs, as code-server does, so a re-run demo stays signed in).
  const keyHalf = options.keyHalf ?? require('node:crypto').randomBytes(32);
  const server = http.createServer((request, response) => {
    if (request.method === 'POST' && /^\/mint-key(\?|$)/.test(request.url ?? '')) {
      request.resume();
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': keyHalf.length });
      response.end(keyHalf);
      return;
    }
    const { port: targetPort, path: targetPath } = target(request.url);
    const forward = http.request(
      { host: '127.0.0.1', port: targetPort, method: request.method, path: targetPath, headers: request.headers },
      (reply) => {
        response.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(response);
      },
    );
    forward.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`proxy: ${error.message}`);
    });
    request.pipe(forward);
  });
  server.on('upgrade', (request, socket, head) => {
    const { port: targetPort, path: targetPath } = target(request.url);
    const upstream = net.connect(targetPort, '127.0.0.1', () => {
      const lines = [`${request.method} ${targetPath} HTTP/${request.httpVersion}`];
      for (let i = 0; i < request.rawHeaders.length; i += 2) lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
    const end = () => {
      socket.destroy();
      upstream.destroy();
    };
    upstream.on('error', end);
    socket.on('error', end);
    upstream.on('close', end);
    socket.on('close', end);
  });
  const sockets = new Set();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    port: server.address().port,
    host,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/**
 * The workbench URL that opens `folder` with Desk as a development extension (and, with testsPath, runs that
 * suite's run()). The server ignores its own --extensionDevelopmentPath flags for a browser client; the payload
 * is the way in, and the URIs must be vscode-remote:// with the host:port the browser uses (file:// hangs).
 */
function workbenchUrl({ host, port, folder, extensionPath = repoRoot, testsPath }) {
  const remote = (absolute) => `vscode-remote://${host}:${port}${absolute}`;
  // extensionPath null: Desk is installed from a .vsix, not loaded as a development extension.
  const payload = extensionPath === null ? [] : [['extensionDevelopmentPath', remote(extensionPath)]];
  if (testsPath) payload.push(['extensionTestsPath', remote(testsPath)]);
  const query = `folder=${encodeURIComponent(folder)}`;
  return `http://${host}:${port}/?${query}${payload.length > 0 ? `&payload=${encodeURIComponent(JSON.stringify(payload))}` : ''}`;
}

/**
 * Launches Debian's Chromium (never a downloaded browser) with a fresh profile under runDir and a page whose
 * test hooks are exposed BEFORE any navigation: the web workbench calls codeAutomationLog with the extension
 * host's console and codeAutomationExit with 0/1 when a suite's run() resolves/rejects.
 * Requests to anything but loopback are refused, so a test can never reach the internet.
 */
async function launchBrowser({ runDir, onExit, onLog, viewport = { width: 1400, height: 900 }, locale }) {
  const { chromium } = require('playwright-core');
  const context = await chromium.launchPersistentContext(path.join(runDir, 'chromium'), {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
    ...(locale ? { locale } : {}),
    env: { ...process.env, TMPDIR: path.join(runDir, 'tmp') },
  });
  await context.route(/^(?!https?:\/\/(127\.0\.0\.1|localhost)[:/])(https?|wss?):\/\//, (route) => route.abort('blockedbyclient'));
  // The web workbench takes its display language from the language pack's NLS script, and there is none for a
  // locale such as qps-ploc: set what that script would (the language is then passed on to the extension host
  // and to the server's scan of the extensions' package.nls.<locale>.json).
  if (locale) await context.addInitScript((language) => { globalThis._VSCODE_NLS_LANGUAGE = language; }, locale);
  const page = context.pages()[0] ?? (await context.newPage());
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    if (onLog) onLog(type, util.format(...(Array.isArray(args) ? args : [args])));
  });
  await page.exposeFunction('codeAutomationExit', (code) => {
    if (onExit) onExit(Number(code));
  });
  return { context, page, close: () => closeBrowser(context) };
}

async function closeBrowser(context) {
  if (!context) return;
  await Promise.race([context.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 5000))]);
}

/**
 * Everything for one window of Desk in VS Code: emulator (memory mode unless dataDir), server, browser, and the
 * workbench page loaded. close() ends all of it, in reverse order, whatever state it is in.
 *
 * options: { name, seed, dataDir, settings, env, testsPath, folder, onExit, onLog, viewport, waitForWorkbench, vsix, extensionPath, locale,
 * emulatorLatencyMs, requestLog }
 * `vsix` (default: the DESK_VSIX environment variable) installs that package instead of loading this folder as a
 * development extension; `extensionPath` loads another folder as the development extension (beside the installed
 * package, if any: the activation benchmark's production build and its marks probe); `locale` is VS Code's display
 * language (server and browser), e.g. `qps-ploc` for the pseudo-localized run.
 */
async function startWorkbench(options = {}) {
  const vsix = options.vsix ?? process.env.DESK_VSIX;
  const runDir = makeRunDir(options.name ?? 'run');
  const parts = { runDir };
  const resultFile = path.join(runDir, 'result.json');
  const close = async () => {
    await closeBrowser(parts.browser?.context);
    await parts.front?.close();
    await stopChild(parts.server?.child);
    await stopChild(parts.emulator?.child);
    removeRunDir(runDir);
  };
  try {
    parts.emulator = await startEmulator({
      seed: options.seed ?? 'demo',
      dataDir: options.dataDir,
      logFile: path.join(runDir, 'emulator.log'),
      latencyMs: options.emulatorLatencyMs,
      requestLog: options.requestLog,
    });
    parts.server = await startVSCodeServer({
      runDir,
      emulatorUrl: parts.emulator.url,
      settings: options.settings,
      // Reach the extension host: where the emulator is, and where a suite's run() writes its result.
      env: { DESK_TEST_EMULATOR_URL: parts.emulator.url, DESK_TEST_RESULT: resultFile, ...options.env },
      vsix,
      locale: options.locale,
    });
    parts.front = await startFrontProxy({ serverPort: parts.server.port });
    const folder = options.folder ?? path.join(runDir, 'workspace');
    fs.mkdirSync(folder, { recursive: true });
    parts.browser = await launchBrowser({ runDir, onExit: options.onExit, onLog: options.onLog, viewport: options.viewport, locale: options.locale });
    const extensionPath = options.extensionPath ?? (vsix ? null : repoRoot);
    const url = workbenchUrl({ host: parts.front.host, port: parts.front.port, folder, testsPath: options.testsPath, extensionPath });
    await parts.browser.page.goto(url);
    if (options.waitForWorkbench !== false) {
      await parts.browser.page.waitForSelector('.monaco-workbench', { timeout: 60000 });
    }
    return {
      runDir,
      folder,
      emulatorUrl: parts.emulator.url,
      serverPort: parts.front.port,
      serverLog: parts.server.logFile,
      resultFile,
      workbenchUrl: url,
      page: parts.browser.page,
      browserContext: parts.browser.context,
      close,
    };
  } catch (error) {
    if (process.env.DESK_KEEP_RUN === undefined && parts.server) {
      // Keep the server log's tail visible: the run folder is about to go.
      try {
        console.error(fs.readFileSync(parts.server.logFile, 'utf8').split('\n').slice(-30).join('\n'));
      } catch {
        // no log yet
      }
    }
    await close();
    throw error;
  }
}

/** Rejects after ms with a clear message; the caller's finally-block does the cleanup. */
function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

module.exports = {
  CHROMIUM_ARGS,
  startEmulator,
  startVSCodeServer,
  startFrontProxy,
  userSettings,
  workbenchUrl,
  launchBrowser,
  startWorkbench,
  stopChild,
  makeRunDir,
  removeRunDir,
  withTimeout,
};
