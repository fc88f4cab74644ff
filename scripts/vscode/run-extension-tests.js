#!/usr/bin/env node
// npm run test:vscode — runs the mocha suite of test/vscode inside a real VS Code extension host (code-server's
// VS Code 1.100.3, driven headless through Debian's Chromium), against a fresh emulator with demo data.
// Build and compile first (npm test does): dist/ for the extension and emulator, out/test/vscode for the suite.
//
// Pass/fail is decided from the workbench's codeAutomationExit (0 = run() resolved) AND the JSON result file that
// run() writes; the server's and extension host's exit codes say nothing about the suite.
// Options: --grep TEXT (test titles), --file TEXT (test file names; several, comma-separated: any of them), --timeout SECONDS (default 300).
// DESK_DEBUG_REQUEST_LOG=FILE keeps the emulator's request log (JSON lines: what Desk asked, when, the answer's status).
// Prints a mocha-style summary ("N passing", "N failing") that scripts/test-all.js reads.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { repoRoot } = require('./paths');
const { startWorkbench, withTimeout } = require('./launch');

/** Workbench chatter that says nothing about the suite; DESK_VERBOSE=1 shows it. */
const WORKBENCH_NOISE = [
  /^(Resolving|Resolved) connection token/,
  /^Creating a socket \(/,
  /^Ignoring fetching additional builtin extensions/,
  /^ChatSessionStore:/,
  /^\[Service Worker\] registration/,
  /^Updating additional builtin extensions cache/,
];
const verbose = Boolean(process.env.DESK_VERBOSE);

async function main() {
  const { values } = parseArgs({
    options: { grep: { type: 'string' }, file: { type: 'string' }, timeout: { type: 'string' } },
  });
  const timeoutMs = Number(values.timeout ?? 300) * 1000;
  const testsPath = path.join(repoRoot, 'out', 'test', 'vscode', 'index');
  if (!fs.existsSync(`${testsPath}.js`)) throw new Error(`${testsPath}.js is missing: run "npx tsc -p tsconfig.test.json" first`);
  if (!fs.existsSync(path.join(repoRoot, 'dist', 'extension.js'))) throw new Error('dist/extension.js is missing: run "node esbuild.js" first');

  const started = Date.now();
  let resultFile;
  let exitCode;
  let signalExit;
  const exited = new Promise((resolve) => {
    signalExit = resolve;
  });
  const env = {};
  if (values.grep) env.DESK_TEST_GREP = values.grep;
  if (values.file) env.DESK_TEST_GREP_FILE = values.file;

  let workbench;
  try {
    workbench = await withTimeout(
      startWorkbench({
        name: 'vscode-suite',
        seed: 'demo',
        testsPath,
        ...(process.env.DESK_DEBUG_REQUEST_LOG ? { requestLog: process.env.DESK_DEBUG_REQUEST_LOG } : {}),
        // Reminders fire on the real clock: in a shared host one could land while another suite stubs a dialog.
        settings: { 'desk.calendar.reminders': false },
        env,
        onLog: (type, raw) => {
          // Mocha in the extension host colours its output whatever it is told; logs read better without.
          const text = raw.replace(/\u001b\[[0-9;]*m/g, '');
          if (!verbose && WORKBENCH_NOISE.some((pattern) => pattern.test(text))) return;
          if (type === 'error') console.error(text);
          else console.log(text);
        },
        onExit: (code) => signalExit(code),
        waitForWorkbench: false,
      }),
      120000,
      'starting VS Code',
    );
    resultFile = workbench.resultFile;
    exitCode = await withTimeout(exited, timeoutMs, 'the extension-host suite');
  } catch (error) {
    console.error(`\n[test:vscode] ${error instanceof Error ? error.message : String(error)}`);
    if (workbench) console.error(`[test:vscode] server log: ${workbench.serverLog} (kept only with DESK_KEEP_RUN=1)`);
    exitCode = exitCode ?? 1;
  }

  let result;
  try {
    result = resultFile ? JSON.parse(fs.readFileSync(resultFile, 'utf8')) : undefined;
  } catch {
    result = undefined;
  }
  if (workbench) await workbench.close();

  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (!result) {
    console.error('[test:vscode] the suite wrote no result file: it did not run to the end');
    console.log('\n  0 passing\n  1 failing');
    return 1;
  }
  // Mocha-style lines for the summary reader, then our verdict.
  console.log(`\n  ${result.passed} passing`);
  if (result.pending) console.log(`  ${result.pending} pending`);
  if (result.failed) console.log(`  ${result.failed} failing`);
  const passed = exitCode === 0 && result.failed === 0;
  if (exitCode !== 0 && result.failed === 0) {
    console.error(`[test:vscode] the workbench reported exit ${exitCode} although no test failed (load or host error)`);
    console.log('  1 failing');
  }
  console.log(`[test:vscode] ${passed ? 'passed' : 'FAILED'} in ${seconds} s`);
  return passed ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`[test:vscode] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
