#!/usr/bin/env node
// npm run demo — Desk in a real VS Code (code-server's VS Code 1.100.3, in your browser) against the local
// emulator with the demo accounts' data. Builds, installs code-server on first use, starts the emulator with a
// data folder kept across runs (.desk-data/), starts VS Code with Desk as a development extension, prints the
// address to open, and runs until Ctrl-C.
// Options: --port N (VS Code's port, default 8080), --emulator-port N (default: any free port),
//          --reset (start from fresh demo data), --no-build.
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { repoRoot } = require('./paths');
const { installCodeServer } = require('./install-code-server');
const { startEmulator, startVSCodeServer, startFrontProxy, workbenchUrl, stopChild } = require('./launch');

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

  const emulator = await startEmulator({
    seed: 'demo',
    dataDir,
    port: Number(values['emulator-port']),
    logFile: path.join(demoRoot, 'emulator.log'),
  });
  let server;
  let front;
  try {
    server = await startVSCodeServer({ runDir, emulatorUrl: emulator.url, host: HOST });
    // The browser talks to the front proxy, which also serves code-server's /proxy/<port>/ route that
    // Desk's sign-in callback goes through in a browser-hosted VS Code.
    front = await startFrontProxy({ serverPort: server.port, port, host: HOST });
  } catch (error) {
    if (server) await server.stop();
    await emulator.stop();
    throw error;
  }
  const url = workbenchUrl({ host: HOST, port: front.port, folder: workspace });
  console.log(`\nDesk emulator: ${emulator.url} (demo data in ${path.relative(process.cwd(), dataDir) || dataDir})`);
  console.log(`VS Code log:   ${server.logFile}`);
  console.log(`\nOpen ${url} in a browser`);
  console.log('(Ctrl-C stops the emulator and VS Code.)\n');

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await stopChild(server.child);
    await emulator.stop();
    process.exit(0);
  };
  // Ctrl-C and SIGTERM are handled by launch.js: it stops both children (the emulator flushes its data) and exits.
  // Here they only mark the stop as intended, so the exits that follow are not reported as crashes.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => (stopping = true));
  const report = (name) => (code, signal) => {
    if (stopping) return;
    console.error(`${name} stopped unexpectedly (${signal ?? code}); stopping the demo`);
    void stop();
  };
  server.child.on('exit', report('VS Code'));
  emulator.child.on('exit', report('The emulator'));
}

main().catch((error) => {
  console.error(`[demo] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
