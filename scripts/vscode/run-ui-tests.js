#!/usr/bin/env node
// npm run test:ui — Playwright tests against the real workbench (test/ui/**/*.test.ts, compiled to out/test/ui),
// run by plain mocha; each test file opens its own VS Code through test/ui/workbench.ts. Build and compile first.
// Screenshots land in test-results/ui/. Options after "--" go to mocha (e.g. --grep); compiled test files given
// there (out/test/ui/drive.ui.test.js …) run instead of the whole suite.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { repoRoot, serverMainPath } = require('./paths');

const OVERALL_TIMEOUT_MS = Number(process.env.DESK_UI_TIMEOUT_SECONDS ?? 900) * 1000;

function main() {
  const testDir = path.join(repoRoot, 'out', 'test', 'ui');
  if (!fs.existsSync(testDir)) throw new Error(`${testDir} is missing: run "npx tsc -p tsconfig.test.json" first`);
  if (!fs.existsSync(serverMainPath())) throw new Error('code-server is missing: run "node scripts/vscode/install-code-server.js" first');
  if (!fs.existsSync(path.join(repoRoot, 'dist', 'extension.js'))) throw new Error('dist/ is missing: run "node esbuild.js" first');

  const mocha = path.join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js');
  const args = [
    mocha,
    '--config', path.join(repoRoot, '.mocharc.json'),
    '--timeout', '120000',
    '--no-color',
    // The spec reporter, plus a line with the error of every attempt that gets a retry.
    '--reporter', path.join(__dirname, 'ui-reporter.js'),
    // Test files run one after another (two VS Code windows at once are too much for 2 cores), and
    // --exit so a stuck browser handle cannot keep the run alive after the summary.
    '--exit',
    // One retry per test, as Playwright suites usually have: a real browser's timing varies on a loaded
    // 2-core machine. A real regression fails both attempts; a test that needed its retry is logged.
    '--retries', '1',
    ...(process.argv.slice(2).some((arg) => arg.endsWith('.test.js')) ? [] : ['out/test/ui/**/*.test.js']),
    ...process.argv.slice(2),
  ];
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: 'inherit', detached: true });
  const timer = setTimeout(() => {
    console.error(`[test:ui] timed out after ${OVERALL_TIMEOUT_MS / 1000} s; stopping`);
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }, OVERALL_TIMEOUT_MS);
  // The mocha process leads its own group; its browsers and servers have their own groups and are ended
  // by launch.js's exit handler, also on SIGTERM forwarded here.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    });
  }
  child.on('exit', (code, signal) => {
    clearTimeout(timer);
    process.exit(code ?? (signal ? 1 : 0));
  });
}

try {
  main();
} catch (error) {
  console.error(`[test:ui] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
