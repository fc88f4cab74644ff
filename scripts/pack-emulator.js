#!/usr/bin/env node
// Packs the emulator as an npm package other projects can install (`npm install desk-emulator-<version>.tgz`, then
// `npx desk-emulator --port 8080 --seed demo`): the built dist/emulator.js, which bundles everything it needs (only
// Node's own modules are required), with a manifest of its own — no dependencies, nothing of the extension.
// Usage: node scripts/pack-emulator.js [--out DIR]   (needs `node esbuild.js` first; prints the tarball's path)
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

const repoRoot = path.resolve(__dirname, '..');

function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const outDir = path.resolve(values.out ?? path.join(repoRoot, 'out'));
  const bundle = path.join(repoRoot, 'dist', 'emulator.js');
  if (!fs.existsSync(bundle)) throw new Error('dist/emulator.js is missing: run `node esbuild.js` first');
  const extension = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const staging = path.join(outDir, 'emulator-package');
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  fs.copyFileSync(bundle, path.join(staging, 'emulator.js'));
  fs.chmodSync(path.join(staging, 'emulator.js'), 0o755);
  fs.copyFileSync(path.join(repoRoot, 'LICENSE'), path.join(staging, 'LICENSE'));
  fs.writeFileSync(path.join(staging, 'README.md'), [
    '# desk-emulator',
    '',
    'A local emulator of Google Tasks, Books, Drive v2, Calendar v3 and the Admin SDK Directory API (same URLs, JSON',
    'and errors), for testing code that calls them. `npx desk-emulator --port 8080 --seed demo` starts it with demo',
    'data; `POST /emulator/v1/token?user=alice@example.com` gives a token. See "Use the emulator in your own tests"',
    `in ${extension.homepage}.`,
    '',
  ].join('\n'));
  const manifest = {
    name: 'desk-emulator',
    version: extension.version,
    description: 'A local emulator of Google Tasks, Books, Drive v2, Calendar v3 and the Admin SDK Directory API, for tests.',
    license: extension.license,
    repository: extension.repository,
    homepage: extension.homepage,
    keywords: ['google', 'emulator', 'mock', 'drive', 'calendar', 'tasks', 'testing'],
    bin: { 'desk-emulator': 'emulator.js' },
    files: ['emulator.js', 'README.md', 'LICENSE'],
    engines: { node: extension.engines.node },
  };
  fs.writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const packed = spawnSync(npm, ['pack', '--json', '--pack-destination', outDir], { cwd: staging, encoding: 'utf8' });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const [{ filename }] = JSON.parse(packed.stdout);
  console.log(path.join(outDir, filename));
}

try {
  main();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
