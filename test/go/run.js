#!/usr/bin/env node
// Runs the Go conformance program (test/go, Google's official Go client) against a fresh emulator: builds it in
// GOPATH mode from Debian's packages (golang-go, golang-google-api-dev; no module download), starts dist/emulator.js
// (--port 0, demo data), takes alice's token from the emulator's development route, and runs the program with both.
// The program ends with mocha's "N passing / N failing" lines, which scripts/test-all.js counts.
// Usage: node test/go/run.js [path/to/emulator.js]
'use strict';

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');

const repoRoot = path.resolve(__dirname, '..', '..');
const DEBIAN_GOPATH = '/usr/share/gocode';
const binary = path.join(repoRoot, 'out', 'go', 'conformance');

function summary(passed, failed) {
  console.log(`\n  ${passed} passing`);
  if (failed) console.log(`  ${failed} failing`);
}

function goTool() {
  for (const candidate of ['go', '/usr/lib/go/bin/go']) {
    if (spawnSync(candidate, ['version'], { stdio: 'ignore' }).status === 0) return candidate;
  }
  return undefined;
}

/** GOPATH mode over Debian's sources only: nothing is downloaded, and a missing package fails the build. */
function goEnvironment() {
  // Go keeps its build cache under $HOME; a CI user without one gets a cache in the temporary folder.
  const cache = process.env.GOCACHE ?? (process.env.HOME ? undefined : path.join(os.tmpdir(), 'desk-go-build'));
  return { ...process.env, GO111MODULE: 'off', GOPATH: DEBIAN_GOPATH, GOPROXY: 'off', GOFLAGS: '', CGO_ENABLED: '0', ...(cache ? { GOCACHE: cache } : {}) };
}

/** The emulator's URL, from its first line ("… listening on http://127.0.0.1:PORT …"). */
function startEmulator(bundle) {
  const child = spawn(process.execPath, [bundle, '--port', '0', '--seed', 'demo'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr.on('data', (chunk) => process.stderr.write(chunk));
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout });
    const timer = setTimeout(() => reject(new Error('the emulator did not start within 30 s')), 30_000);
    lines.on('line', (line) => {
      const found = /listening on (http:\/\/\S+)/.exec(line);
      if (found) {
        clearTimeout(timer);
        resolve({ child, url: found[1] });
      }
    });
    child.on('exit', (code) => reject(new Error(`the emulator exited (${code}) before listening`)));
  });
}

async function main() {
  const go = goTool();
  if (!go) {
    console.log('Go is missing: run `bash scripts/setup.sh system` (Debian packages golang-go, golang-google-api-dev)');
    summary(0, 1);
    return 1;
  }
  if (!fs.existsSync(path.join(DEBIAN_GOPATH, 'src', 'google.golang.org', 'api', 'drive', 'v2'))) {
    console.log(`google.golang.org/api is missing under ${DEBIAN_GOPATH}: run \`bash scripts/setup.sh system\` (golang-google-api-dev)`);
    summary(0, 1);
    return 1;
  }
  fs.mkdirSync(path.dirname(binary), { recursive: true });
  const buildStarted = Date.now();
  const build = spawnSync(go, ['build', '-o', binary, './test/go'], { cwd: repoRoot, env: goEnvironment(), encoding: 'utf8' });
  if (build.status !== 0) {
    console.log(`go build failed:\n${build.stdout}${build.stderr}`);
    summary(0, 1);
    return 1;
  }
  console.log(`  (go build: ${((Date.now() - buildStarted) / 1000).toFixed(1)} s)`);

  const bundle = process.argv[2] ?? path.join(repoRoot, 'dist', 'emulator.js');
  let emulator;
  try {
    emulator = await startEmulator(bundle);
  } catch (error) {
    console.log(String(error));
    summary(0, 1);
    return 1;
  }
  try {
    const answer = await fetch(`${emulator.url}/emulator/v1/token?user=alice@example.com`, { method: 'POST' });
    const token = (await answer.json()).access_token;
    const program = spawn(binary, [], { stdio: 'inherit', env: { ...process.env, DESK_EMULATOR_URL: emulator.url, DESK_TOKEN: token } });
    return await new Promise((resolve) => program.on('exit', (code) => resolve(code ?? 1)));
  } finally {
    emulator.child.kill();
  }
}

main().then((code) => process.exit(code), (error) => {
  console.log(String(error));
  summary(0, 1);
  process.exit(1);
});
