#!/usr/bin/env node
// npm test — every check, in order: typecheck, lint (typescript-eslint + import boundaries), build, compile tests, unit, integration + conformance, the
// extension-host suite in a real VS Code, and the Playwright UI suite. Each stage has a time limit; a failing
// stage does not stop the later ones (their counts still tell something), except that the VS Code stages need
// the build. Ends with one line `N passed, N failed` (the counts of tests; a broken stage counts as one failure)
// and a non-zero exit if anything failed.
// Options: --only a,b (stage names), --skip a,b. Stages: typecheck lint build compile unit integration liveness python go emulator-package vscode package ui vscode@sunday ui@sunday.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { hostileClockEnv, nodeWithFakeClock } = require('./hostileClock');

const repoRoot = path.resolve(__dirname, '..');
const node = process.execPath;
const bin = (name) => path.join(repoRoot, 'node_modules', '.bin', name);
const mochaBin = path.join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js');
const PACKAGED_VSIX = path.join(repoRoot, 'out', 'desk-test.vsix');

/** Compiled test files under out/<dirs>, found here so an empty suite is "0 tests", not mocha's error. */
function compiledTests(...dirs) {
  const files = [];
  for (const dir of dirs) {
    const root = path.join(repoRoot, 'out', 'test', dir);
    if (!fs.existsSync(root)) continue;
    for (const name of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      if (name.endsWith('.test.js')) files.push(path.join('out', 'test', dir, name));
    }
  }
  return files.sort();
}

function mochaStage(name, dirs, extraArgs, timeoutSeconds) {
  return {
    name,
    timeoutSeconds,
    tests: true,
    command: () => {
      const files = compiledTests(...dirs);
      if (files.length === 0) return undefined;
      return [node, [mochaBin, '--config', '.mocharc.json', '--no-color', ...extraArgs, ...files]];
    },
  };
}

const STAGES = [
  { name: 'typecheck', timeoutSeconds: 300, command: () => [node, [path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.', '--noEmit']] },
  // Lint errors fail (import boundaries, house rules and the file-size budget included); warnings are printed only.
  { name: 'lint', timeoutSeconds: 300, command: () => [node, [path.join(repoRoot, 'node_modules', 'eslint', 'bin', 'eslint.js'), '.']] },
  { name: 'build', timeoutSeconds: 120, command: () => [node, ['esbuild.js']] },
  {
    name: 'compile',
    timeoutSeconds: 300,
    // tsc emits even when some file has a type error; those errors are the typecheck stage's to report.
    // A fresh out/ keeps the compiled tests of deleted files from running.
    before: () => fs.rmSync(path.join(repoRoot, 'out'), { recursive: true, force: true }),
    command: () => [node, [path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.test.json']],
    passed: () => fs.existsSync(path.join(repoRoot, 'out', 'test')),
    quiet: true,
  },
  mochaStage('unit', ['unit'], [], 300),
  mochaStage('integration', ['integration', 'conformance'], ['--timeout', '20000'], 900),
  // The emulator's liveness under fuzzing, in a process of its own: its health-check latency is measured in the
  // test process, which must not carry the integration suite's heap and garbage collections.
  mochaStage('liveness', ['liveness'], ['--timeout', '20000'], 300),
  // Google's Python client (Debian's python3-googleapi) built from the emulator's discovery documents, against the
  // built dist/emulator.js; its runner ends with mocha's "N passing / N failing" lines, counted like the others.
  { name: 'python', timeoutSeconds: 300, tests: true, needsBuild: true, command: () => [pythonWithDebianModules(), ['test/python/run.py']], env: { NODE: node } },
  // Google's official Go client (Debian's golang-google-api-dev, built in GOPATH mode: no module download) against
  // the built emulator: its runner builds test/go (a cold build takes about a minute here) and prints the same lines.
  { name: 'go', timeoutSeconds: 600, tests: true, needsBuild: true, command: () => [node, ['test/go/run.js']] },
  // The emulator as other projects install it: packed, installed in an empty folder, started with npx, and the
  // README's Node, Python and Go programs run against it as printed.
  { name: 'emulator-package', timeoutSeconds: 600, tests: true, needsBuild: true, command: () => [node, ['test/package/run.js']] },
  { name: 'vscode', timeoutSeconds: 720, tests: true, needsBuild: true, command: () => [node, ['scripts/vscode/run-extension-tests.js', '--timeout', '480', '--with-reloads']] },
  // The UI suite runs against the packaged extension, installed from its .vsix as a user installs it, so a
  // packaging mistake fails here (the extension-host suite above runs the development build).
  { name: 'package', timeoutSeconds: 300, needsBuild: true, command: () => [node, ['scripts/package.js', '--out', PACKAGED_VSIX]] },
  { name: 'ui', timeoutSeconds: 1500, tests: true, needsBuild: true, command: () => (compiledTests('ui').length ? [node, ['scripts/vscode/run-ui-tests.js']] : undefined), env: { DESK_UI_TIMEOUT_SECONDS: '1440', DESK_VSIX: PACKAGED_VSIX } },
  // The two VS Code suites again, every process's clock moved to the coming Sunday 23:40 in Europe/Berlin
  // (scripts/hostileClock.js): what shows dates, the demo's week and the channels' expirations must hold on any day.
  hostileClockStage('vscode@sunday', ['scripts/vscode/run-extension-tests.js', '--timeout', '480', '--with-reloads'], 720, {}),
  hostileClockStage('ui@sunday', ['scripts/vscode/run-ui-tests.js'], 1500, { DESK_UI_TIMEOUT_SECONDS: '1440', DESK_VSIX: PACKAGED_VSIX, DESK_UI_RESULTS: 'test-results/sunday' }),
];

/** A stage run under the hostile clock; without libfaketime it fails (scripts/setup.sh installs it), never passes silently. */
function hostileClockStage(name, args, timeoutSeconds, env) {
  // The offset is taken when the stage starts, not when npm test did: the run begins at Sunday 23:40, whatever ran before.
  let clock;
  return {
    name,
    timeoutSeconds,
    tests: true,
    needsBuild: true,
    command: () => {
      clock = hostileClockEnv();
      let fakedNode;
      try {
        if (!clock) throw new Error("libfaketime is missing: bash scripts/setup.sh system installs Debian's faketime");
        fakedNode = nodeWithFakeClock(path.join(repoRoot, '.vscode-test', 'faketime-node'));
      } catch (error) {
        return [node, ['-e', `console.error(${JSON.stringify(String(error instanceof Error ? error.message : error))}); process.exit(1)`]];
      }
      console.log(`(clock moved to ${clock.DESK_HOSTILE_CLOCK}, FAKETIME=${clock.FAKETIME}, TZ=${clock.TZ}; Node: ${fakedNode})`);
      return [fakedNode, args];
    },
    // Read after command() has set the clock.
    get env() {
      return { ...env, ...(clock ?? {}) };
    },
  };
}

/** Debian's python3, whose dist-packages hold python3-googleapi (a python3 earlier on PATH, such as pyenv's, may not see them). */
function pythonWithDebianModules() {
  return fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
}

/** Mocha's closing summary: the last "N passing" and the pending/failing lines right after it. */
function mochaCounts(output) {
  const lines = output.replace(/\u001b\[[0-9;]*m/g, '').split('\n');
  let at = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (/^\s*\d+ passing\b/.test(lines[i])) {
      at = i;
      break;
    }
  }
  if (at < 0) return undefined;
  const count = (word) => {
    for (const line of lines.slice(at, at + 4)) {
      const found = new RegExp(`^\\s*(\\d+) ${word}\\b`).exec(line);
      if (found) return Number(found[1]);
    }
    return 0;
  };
  return { passed: count('passing'), failed: count('failing'), pending: count('pending') };
}

/** Runs a command in its own process group, echoing and capturing its output; kills the group on timeout. */
function runCommand(command, args, { timeoutSeconds, env, quiet }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: repoRoot,
      // No FORCE_COLOR here: the supports-color in mocha reads FORCE_COLOR=0 as "force colours on".
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    const collect = (stream, sink) =>
      stream.on('data', (chunk) => {
        output += chunk;
        if (!quiet) sink.write(chunk);
      });
    collect(child.stdout, process.stdout);
    collect(child.stderr, process.stderr);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGTERM');
        setTimeout(() => {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }, 5000).unref();
      } catch {
        // already gone
      }
    }, timeoutSeconds * 1000);
    child.on('error', (error) => {
      output += String(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 1 : 0), output, timedOut });
    });
  });
}

async function main() {
  const { values } = parseArgs({ options: { only: { type: 'string' }, skip: { type: 'string' } } });
  const only = values.only ? new Set(values.only.split(',')) : undefined;
  const skip = new Set(values.skip ? values.skip.split(',') : []);
  const results = [];
  let buildFailed = false;
  const startedAll = Date.now();

  for (const stage of STAGES) {
    if ((only && !only.has(stage.name)) || skip.has(stage.name)) continue;
    const started = Date.now();
    console.log(`\n=== ${stage.name} ===`);
    const record = (status, counts = { passed: 0, failed: 0, pending: 0 }, note = '') => {
      const seconds = (Date.now() - started) / 1000;
      results.push({ name: stage.name, status, ...counts, seconds, note });
      console.log(`=== ${stage.name}: ${status}${stage.tests ? ` (${counts.passed} passed, ${counts.failed} failed)` : ''} in ${seconds.toFixed(1)} s${note ? ` — ${note}` : ''}`);
    };
    if (stage.needsBuild && buildFailed) {
      record('FAILED', { passed: 0, failed: 1, pending: 0 }, 'not run: the build failed');
      continue;
    }
    if (stage.before) stage.before();
    const command = stage.command();
    if (!command) {
      record('ok', undefined, 'no test files');
      continue;
    }
    const run = await runCommand(command[0], command[1], { timeoutSeconds: stage.timeoutSeconds, env: stage.env, quiet: stage.quiet });
    if (!stage.tests) {
      const ok = stage.passed ? stage.passed() : run.code === 0 && !run.timedOut;
      if (!ok && stage.quiet) process.stdout.write(run.output.slice(-4000));
      if (!ok && stage.name === 'build') buildFailed = true;
      record(ok ? 'ok' : 'FAILED', { passed: 0, failed: ok ? 0 : 1, pending: 0 }, run.timedOut ? `timed out after ${stage.timeoutSeconds} s` : '');
      continue;
    }
    const counts = mochaCounts(run.output) ?? { passed: 0, failed: 0, pending: 0 };
    // A non-zero exit with no failing test counted (a crash, a load error, a timeout) is one failure.
    if ((run.code !== 0 || run.timedOut) && counts.failed === 0) counts.failed = 1;
    const note = run.timedOut ? `timed out after ${stage.timeoutSeconds} s` : '';
    record(counts.failed === 0 ? 'ok' : 'FAILED', counts, note);
  }

  console.log('\n=== summary ===');
  for (const result of results) {
    const counts = `${String(result.passed).padStart(4)} passed ${String(result.failed).padStart(3)} failed${result.pending ? ` ${result.pending} pending` : ''}`;
    console.log(`${result.name.padEnd(17)} ${result.status.padEnd(7)} ${counts}  ${result.seconds.toFixed(1).padStart(6)} s${result.note ? `  ${result.note}` : ''}`);
  }
  console.log(`total ${((Date.now() - startedAll) / 1000).toFixed(1)} s`);
  const passed = results.reduce((sum, result) => sum + result.passed, 0);
  const failed = results.reduce((sum, result) => sum + result.failed, 0);
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error(error);
      console.log('0 passed, 1 failed');
      process.exit(1);
    },
  );
}

module.exports = { mochaCounts };
