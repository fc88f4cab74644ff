#!/usr/bin/env node
// npm run package — production bundles, then desk-<version>.vsix with @vscode/vsce (a dev dependency). The bundles
// carry every dependency, so vsce packs no node_modules (--no-dependencies); .vscodeignore keeps the rest out.
// Prints the path and size of the .vsix. Option: --out FILE.
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '..');

function main() {
  const { version, name } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const outIndex = process.argv.indexOf('--out');
  const out = outIndex > 0 ? path.resolve(process.argv[outIndex + 1]) : path.join(repoRoot, `${name}-${version}.vsix`);
  execFileSync(process.execPath, [path.join(repoRoot, 'esbuild.js'), '--production'], { cwd: repoRoot, stdio: 'inherit' });
  const vsce = path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', out], { cwd: repoRoot, stdio: 'inherit' });
  const size = fs.statSync(out).size;
  console.log(`packaged ${path.relative(repoRoot, out)} (${(size / 1024).toFixed(1)} KiB)`);
}

main();
