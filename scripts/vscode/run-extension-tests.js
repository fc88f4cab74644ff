#!/usr/bin/env node
// npm run test:vscode — runs the mocha suite of test/vscode inside a real VS Code extension host (code-server's
// VS Code 1.100.3, driven headless through Debian's Chromium), against a fresh emulator with demo data.
// Build and compile first (npm test does): dist/ for the extension and emulator, out/test/vscode for the suite.
//
// Pass/fail is decided from the workbench's codeAutomationExit (0 = run() resolved) AND the JSON result file that
// run() writes; the server's and extension host's exit codes say nothing about the suite.
// Options: --grep TEXT (test titles), --file TEXT (test file names; several, comma-separated: any of them), --timeout SECONDS (default 300, per window run).
// --with-reloads: after the suite, every two-phase suite of out/test/vscode/twoPhase (what npm test runs).
// --reload NAME: a two-phase run across a real window reload. Phase 1 runs out/test/vscode/twoPhase/NAME.phase1.js;
// once it passed, the runner reloads the page in Chromium (the window, its extension host and Desk start again on the
// same server, user data and browser profile) and phase 2 runs NAME.phase2.js in the reloaded window. The phases
// pass what they need through the folder in DESK_TEST_HANDOFF (the phase number is its file `phase`).
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
    options: { grep: { type: 'string' }, file: { type: 'string' }, timeout: { type: 'string' }, reload: { type: 'string' }, 'with-reloads': { type: 'boolean' } },
  });
  const timeoutMs = Number(values.timeout ?? 300) * 1000;
  const testsPath = path.join(repoRoot, 'out', 'test', 'vscode', 'index');
  if (!fs.existsSync(`${testsPath}.js`)) throw new Error(`${testsPath}.js is missing: run "npx tsc -p tsconfig.test.json" first`);
  if (!fs.existsSync(path.join(repoRoot, 'dist', 'extension.js'))) throw new Error('dist/extension.js is missing: run "node esbuild.js" first');
  const started = Date.now();
  const env = {};
  if (values.grep) env.DESK_TEST_GREP = values.grep;
  if (values.file) env.DESK_TEST_GREP_FILE = values.file;

  // --reload NAME: that two-phase suite alone. --with-reloads: the suite, then every two-phase suite (npm test).
  const runs = values.reload ? [values.reload] : [undefined, ...(values['with-reloads'] ? twoPhaseSuites() : [])];
  const totals = { passed: 0, failed: 0, pending: 0 };
  let allPassed = true;
  for (const reload of runs) {
    if (reload) console.log(`\n[test:vscode] two-phase suite ${reload} (phase 1, a window reload, phase 2)`);
    const { result, passed } = await runSuite({ testsPath, env, timeoutMs, reload });
    if (!result) {
      console.error(`[test:vscode] ${reload ?? 'the suite'} wrote no result file: it did not run to the end`);
      totals.failed += 1;
      allPassed = false;
      continue;
    }
    totals.passed += result.passed;
    totals.failed += result.failed;
    totals.pending += result.pending;
    if (!passed) {
      allPassed = false;
      // A load or host error with no failing test is one failure.
      if (result.failed === 0) totals.failed += 1;
    }
  }

  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  // Mocha-style lines for the summary reader (scripts/test-all.js), then our verdict.
  console.log(`\n  ${totals.passed} passing`);
  if (totals.pending) console.log(`  ${totals.pending} pending`);
  if (totals.failed) console.log(`  ${totals.failed} failing`);
  console.log(`[test:vscode] ${allPassed ? 'passed' : 'FAILED'} in ${seconds} s`);
  return allPassed ? 0 : 1;
}

/** The two-phase suites compiled: out/test/vscode/twoPhase/NAME.phase1.js. */
function twoPhaseSuites() {
  const dir = path.join(repoRoot, 'out', 'test', 'vscode', 'twoPhase');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((name) => name.endsWith('.phase1.js')).map((name) => name.slice(0, -'.phase1.js'.length)).sort();
}

/**
 * One window of the suite (or, with `reload`, a two-phase suite: phase 1, a real reload of the page, phase 2).
 * Answers the results added up and whether the workbench said the run passed.
 */
async function runSuite({ testsPath, env: baseEnv, timeoutMs, reload }) {
  let resultFile;
  let exitCode;
  let signalExit;
  let exited;
  const expectExit = () => {
    exited = new Promise((resolve) => {
      signalExit = resolve;
    });
  };
  expectExit();
  const env = { ...baseEnv };
  const phases = reload ? 2 : 1;
  let handoff;
  if (reload) {
    const phaseFile = path.join(repoRoot, 'out', 'test', 'vscode', 'twoPhase', `${reload}.phase1.js`);
    if (!fs.existsSync(phaseFile)) throw new Error(`${phaseFile} is missing: no two-phase suite of that name (compile first?)`);
    handoff = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'desk-handoff-'));
    fs.writeFileSync(path.join(handoff, 'phase'), '1');
    env.DESK_TEST_TWO_PHASE = reload;
    env.DESK_TEST_HANDOFF = handoff;
  }
  /** The phases' results, added up. */
  const totals = { passed: 0, failed: 0, pending: 0 };
  let phasesRun = 0;

  let workbench;
  try {
    workbench = await withTimeout(
      startWorkbench({
        name: reload ? 'vscode-reload' : 'vscode-suite',
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
    for (let phase = 1; phase <= phases; phase++) {
      exitCode = await withTimeout(exited, timeoutMs, phases > 1 ? `phase ${phase} of ${reload}` : 'the extension-host suite');
      const result = readResult(resultFile);
      if (!result) break;
      phasesRun = phase;
      totals.passed += result.passed;
      totals.failed += result.failed;
      totals.pending += result.pending;
      if (phase === phases || exitCode !== 0 || result.failed > 0) break;
      // A real reload of the window: the page goes, its extension host ends, and the workbench starts again on the
      // same server, user data and browser profile (what a user's reload does in code-server).
      fs.rmSync(resultFile, { force: true });
      fs.writeFileSync(path.join(handoff, 'phase'), String(phase + 1));
      console.log(`\n[test:vscode] phase ${phase} passed: reloading the window for phase ${phase + 1}`);
      expectExit();
      await workbench.page.reload({ waitUntil: 'domcontentloaded' });
    }
  } catch (error) {
    console.error(`\n[test:vscode] ${error instanceof Error ? error.message : String(error)}`);
    if (workbench) console.error(`[test:vscode] server log: ${workbench.serverLog} (kept only with DESK_KEEP_RUN=1)`);
    exitCode = exitCode ?? 1;
  }

  if (workbench) await workbench.close();
  if (handoff && !process.env.DESK_KEEP_RUN) fs.rmSync(handoff, { recursive: true, force: true });
  if (phasesRun === 0) return { result: undefined, passed: false };
  if (phasesRun < phases && totals.failed === 0) {
    console.error(`[test:vscode] phase ${phasesRun + 1} of ${reload} wrote no result: it did not run to the end`);
    totals.failed = 1;
  }
  const passed = exitCode === 0 && totals.failed === 0;
  if (exitCode !== 0 && totals.failed === 0) console.error(`[test:vscode] the workbench reported exit ${exitCode} although no test failed (load or host error)`);
  return { result: totals, passed };
}

function readResult(resultFile) {
  try {
    return resultFile ? JSON.parse(fs.readFileSync(resultFile, 'utf8')) : undefined;
  } catch {
    return undefined;
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`[test:vscode] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
