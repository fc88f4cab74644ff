#!/usr/bin/env node
// npm run package — production bundles, then desk-<version>.vsix with @vscode/vsce (a dev dependency). The bundles
// carry every dependency, so vsce packs no node_modules (--no-dependencies); .vscodeignore keeps the rest out.
// Prints what the .vsix holds (each file with its size, biggest first), then its path and size: the README points
// here rather than quoting numbers that go stale. Option: --out FILE.
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '..');

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

/** The lines printed for the package: every file (biggest first), the unpacked total, the .vsix itself. */
function contentsReport(files, vsixPath, vsixBytes) {
  const sorted = [...files].sort((a, b) => b.size - a.size || a.path.localeCompare(b.path));
  const width = Math.max(...sorted.map((file) => kib(file.size).length));
  const total = sorted.reduce((sum, file) => sum + file.size, 0);
  return [
    ...sorted.map((file) => `${kib(file.size).padStart(width)}  ${file.path}`),
    `${sorted.length} files, ${kib(total)} unpacked`,
    `packaged ${vsixPath} (${kib(vsixBytes)})`,
  ];
}

function main() {
  const { version, name } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const outIndex = process.argv.indexOf('--out');
  const out = outIndex > 0 ? path.resolve(process.argv[outIndex + 1]) : path.join(repoRoot, `${name}-${version}.vsix`);
  execFileSync(process.execPath, [path.join(repoRoot, 'esbuild.js'), '--production'], { cwd: repoRoot, stdio: 'inherit' });
  const vsce = path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', out], { cwd: repoRoot, stdio: 'inherit' });
  // The same selection vsce just packed (.vscodeignore applied), with each file's size.
  const listed = execFileSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: repoRoot, encoding: 'utf8' });
  const files = listed.split('\n').map((line) => line.trim()).filter(Boolean).map((file) => ({ path: file, size: fs.statSync(path.join(repoRoot, file)).size }));
  for (const line of contentsReport(files, path.relative(repoRoot, out), fs.statSync(out).size)) console.log(line);
}

if (require.main === module) main();

module.exports = { contentsReport };
