#!/usr/bin/env node
// npm run bench — builds and compiles, then runs every benchmark module in out/bench/*.js (compiled from
// bench/*.ts) one after another; each exports `run(): Promise<void>` and prints its own figures. Benchmarks
// print numbers, they do not pass or fail on speed (but for `activation`, which throws over the start-up budget the
// README states); a benchmark that throws is reported and makes the exit code non-zero. Options: names to run only some (e.g. `npm run bench -- bundle-size activation`); `--flag value`
// pairs are left to the benchmarks, which read process.argv (e.g. `npm run bench -- search --latency 100`).
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '..');

function step(what, args) {
  const result = spawnSync(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (result.status !== 0 && what === 'build') {
    process.stderr.write(result.stdout + result.stderr);
    throw new Error(`${what} failed`);
  }
}

async function main() {
  // tsc emits even with type errors elsewhere; the benchmarks only need their own files to compile.
  step('build', ['esbuild.js']);
  step('compile', [path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.test.json']);
  const benchDir = path.join(repoRoot, 'out', 'bench');
  const wanted = process.argv.slice(2).filter((arg, index, all) => !arg.startsWith('--') && !all[index - 1]?.startsWith('--'));
  const modules = fs
    .readdirSync(benchDir)
    .filter((name) => name.endsWith('.js'))
    .filter((name) => fs.existsSync(path.join(repoRoot, 'bench', name.replace(/\.js$/, '.ts'))))
    .filter((name) => wanted.length === 0 || wanted.includes(name.replace(/\.js$/, '')))
    .sort();
  let failures = 0;
  for (const name of modules) {
    const started = Date.now();
    console.log(`\n=== bench/${name.replace(/\.js$/, '.ts')} ===`);
    try {
      const module = require(path.join(benchDir, name));
      if (typeof module.run !== 'function') throw new Error('exports no run()');
      await module.run();
      console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
    } catch (error) {
      failures++;
      console.error(`bench/${name} failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    }
  }
  return failures === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`[bench] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
