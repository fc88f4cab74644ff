#!/usr/bin/env node
// npm run demo — Desk in a real VS Code (code-server's VS Code 1.100.3, in your browser) against the local
// emulator with the demo accounts' data. Builds, installs code-server on first use, starts the emulator with a
// data folder kept across runs (.desk-data/), starts VS Code with Desk as a development extension, prints the
// address to open, and runs until Ctrl-C. An emulator that stops is started again on the same port and data (VS
// Code keeps running and Desk stays signed in); the port and the page's key half are kept in .desk-data/ so a
// re-run stays signed in too.
// Options: --port N (VS Code's port, default 8080), --emulator-port N (default: the last run's if free, else any),
//          --reset (start from fresh demo data), --no-build.
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { repoRoot } = require('./paths');
const { installCodeServer } = require('./install-code-server');
const { startEmulator, startVSCodeServer, startFrontProxy, workbenchUrl, stopChild } = require('./launch');
const { chooseEmulatorPort, rememberPort, loadKeyHalf } = require('./demo-state');
const { superviseChild } = require('./supervise');

const HOST = '127.0.0.1';

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8080' },
      'emulator-port': { type: 'string', default: '0' },
      reset: { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error('--port must be a port number');
  const requestedEmulatorPort = Number(values['emulator-port']);
  if (!Number.isInteger(requestedEmulatorPort) || requestedEmulatorPort < 0 || requestedEmulatorPort > 65535) {
    throw new Error('--emulator-port must be a port number');
  }

  if (!values['no-build']) {
    const build = spawnSync(process.execPath, [path.join(repoRoot, 'esbuild.js')], { cwd: repoRoot, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('the build failed');
  }
  installCodeServer();

  const demoRoot = path.join(repoRoot, '.desk-data');
  const dataDir = path.join(demoRoot, 'emulator');
  if (values.reset) fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const workspace = path.join(demoRoot, 'workspace');
  if (!fs.existsSync(workspace)) {
    fs.mkdirSync(workspace, { recursive: true });
    fs.writeFileSync(
      path.join(workspace, 'notes.md'),
      '# Demo workspace\n\nOpen the Desk view in the activity bar and sign in as one of the demo users (alice@example.com).\n\n' +
        '<!-- TODO: try linking this line to a task -->\n',
    );
  }
  // VS Code's own state (settings, window layout) lives beside the data and survives restarts too.
  const runDir = path.join(demoRoot, 'vscode');
  fs.mkdirSync(runDir, { recursive: true });

  // Desk's session is keyed by the emulator's URL: the same port as last time keeps the user signed in.
  const portFile = path.join(demoRoot, 'emulator-port');
  const emulatorOptions = {
    seed: 'demo',
    dataDir,
    port: await chooseEmulatorPort({ requested: requestedEmulatorPort, file: portFile, host: HOST }),
    logFile: path.join(demoRoot, 'emulator.log'),
  };
  const emulator = await superviseChild({
    name: 'The emulator',
    start: () => startEmulator(emulatorOptions),
    log: (message) => console.error(`[demo] ${message}`),
    onRestarted: (restarted) => console.error(`[demo] The emulator is back on ${restarted.url} (same data; VS Code kept running)`),
  });
  const emulatorUrl = emulator.current.url;
  // Restarts use this port, never another: a new URL would sign Desk out.
  emulatorOptions.port = Number(new URL(emulatorUrl).port);
  rememberPort(portFile, emulatorOptions.port);
  let stopping = false;
  // Ctrl-C and SIGTERM are handled by launch.js: it stops both children (the emulator flushes its data) and exits.
  // Here they only mark the stop as intended, so the exits that follow are neither reported nor restarted.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      stopping = true;
      emulator.stopRestarting();
    });
  }
  let server;
  let front;
  try {
    server = await startVSCodeServer({ runDir, emulatorUrl, host: HOST });
    // The browser talks to the front proxy, which also serves code-server's /proxy/<port>/ route that
    // Desk's sign-in callback goes through in a browser-hosted VS Code.
    front = await startFrontProxy({ serverPort: server.port, port, host: HOST, keyHalf: loadKeyHalf(path.join(runDir, 'key-half')) });
  } catch (error) {
    if (server) await server.stop();
    await emulator.stop();
    throw error;
  }
  const url = workbenchUrl({ host: HOST, port: front.port, folder: workspace });
  console.log(`\nDesk emulator: ${emulatorUrl} (demo data in ${path.relative(process.cwd(), dataDir) || dataDir})`);
  console.log(`VS Code log:   ${server.logFile}`);
  console.log(`\nOpen ${url} in a browser`);
  console.log('(Ctrl-C stops the emulator and VS Code; the emulator is restarted if it stops on its own.)\n');

  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await stopChild(server.child);
    await emulator.stop();
    process.exit(0);
  };
  server.child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`[demo] VS Code stopped unexpectedly (${signal ?? code}); stopping the demo`);
    void stop();
  });
}

main().catch((error) => {
  console.error(`[demo] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
