#!/usr/bin/env node
// Installs the real VS Code that Desk's extension-host and UI tests run in: the npm package code-server, which
// bundles VS Code's server and web workbench with a real Node extension host. @vscode/test-electron cannot be used
// here because it downloads a desktop build from a host these machines cannot reach; code-server comes from the
// npm registry. Installed once into .vscode-test/code-server/ (git-ignored) and reused.
//
// Version pin: each code-server release pins one Node major in its `engines` and its postinstall refuses others.
// code-server 4.100.3 (VS Code 1.100.3) wants Node 20, the Node of these machines and of CI; 4.103+ want Node 22.
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { CODE_SERVER_VERSION, codeServerRoot, codeServerPackageDir, serverMainPath } = require('./paths');

const REQUIRED_NODE_MAJOR = 20;
const installRoot = codeServerRoot();
const packageDir = codeServerPackageDir();
const markerFile = path.join(installRoot, 'installed.json');

/** Native modules code-server's postinstall builds; present only if its install scripts really ran. */
const NATIVE_MODULES = [
  'lib/vscode/node_modules/node-pty/build/Release/pty.node',
  'lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node',
  'lib/vscode/node_modules/kerberos/build/Release/kerberos.node',
  'lib/vscode/node_modules/native-watchdog/build/Release/watchdog.node',
  // Not native, but fetched by a postinstall (from our cache archive, see seedRipgrepCache).
  'lib/vscode/node_modules/@vscode/ripgrep/bin/rg',
];

function log(message) {
  console.log(`[code-server] ${message}`);
}

function missingNativeModules() {
  return NATIVE_MODULES.filter((relative) => !fs.existsSync(path.join(packageDir, relative)));
}

function isInstalled() {
  try {
    const marker = JSON.parse(fs.readFileSync(markerFile, 'utf8'));
    const installed = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
    return (
      marker.version === CODE_SERVER_VERSION &&
      installed.version === CODE_SERVER_VERSION &&
      fs.existsSync(serverMainPath()) &&
      missingNativeModules().length === 0
    );
  } catch {
    return false;
  }
}

/**
 * @vscode/ripgrep's postinstall downloads `rg` from the internet unless it finds this cached archive in
 * os.tmpdir(); an archive holding Debian's /usr/bin/rg at its root is accepted.
 */
function seedRipgrepCache(tmpDir) {
  const rg = '/usr/bin/rg';
  if (!fs.existsSync(rg)) throw new Error(`${rg} is missing: install Debian's ripgrep package (apt-get install ripgrep)`);
  const cacheDir = path.join(tmpDir, 'vscode-ripgrep-cache-1.15.11');
  fs.mkdirSync(cacheDir, { recursive: true });
  const archive = path.join(cacheDir, 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz');
  if (fs.existsSync(archive)) return;
  const result = spawnSync('tar', ['czf', archive, '-C', path.dirname(rg), path.basename(rg)], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('could not create the ripgrep cache archive');
}

function install() {
  const nodeMajor = Number(process.versions.node.split('.')[0]);
  if (nodeMajor !== REQUIRED_NODE_MAJOR) {
    throw new Error(`code-server ${CODE_SERVER_VERSION} needs Node ${REQUIRED_NODE_MAJOR}; this is Node ${process.versions.node}`);
  }
  const started = Date.now();
  fs.rmSync(installRoot, { recursive: true, force: true });
  fs.mkdirSync(installRoot, { recursive: true });
  const tmpDir = path.join(installRoot, 'tmp');
  fs.mkdirSync(tmpDir, { recursive: true });
  seedRipgrepCache(tmpDir);
  // A package.json of its own keeps this install out of the project's dependencies and lockfile. Its
  // allowScripts records that code-server's postinstall was reviewed: npm 11.19 still runs unreviewed install
  // scripts with a notice, but its docs announce blocking them, which would silently skip the native builds.
  // code-server's postinstall runs a nested npm install in lib/vscode whose own notices we cannot silence;
  // the check of NATIVE_MODULES after the install is what proves the scripts really ran.
  fs.writeFileSync(
    path.join(installRoot, 'package.json'),
    JSON.stringify(
      {
        name: 'desk-vscode-test-code-server',
        private: true,
        description: 'Cache folder: the VS Code (code-server) that Desk tests run in. Created by scripts/vscode/install-code-server.js.',
        dependencies: { 'code-server': CODE_SERVER_VERSION },
        allowScripts: { [`code-server@${CODE_SERVER_VERSION}`]: true },
      },
      null,
      2,
    ) + '\n',
  );
  log(`installing code-server@${CODE_SERVER_VERSION} into ${path.relative(process.cwd(), installRoot)} (builds native modules; about 1-2 minutes on 2 cores)`);
  const env = {
    ...process.env,
    TMPDIR: tmpDir,
    // node-gyp builds against the local Node headers instead of downloading them.
    npm_config_nodedir: process.env.npm_config_nodedir || '/usr',
    // code-server's postinstall refuses to run as root without this; CI runs as root.
    npm_config_unsafe_perm: 'true',
    npm_config_yes: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_ignore_scripts: 'false',
  };
  const result = spawnSync(
    'npm',
    ['install', '--no-package-lock', '--foreground-scripts'],
    { cwd: installRoot, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  const logFile = path.join(installRoot, 'install.log');
  fs.writeFileSync(logFile, `${result.stdout ?? ''}\n--- stderr ---\n${result.stderr ?? ''}`);
  if (result.status !== 0) {
    process.stderr.write((result.stderr ?? '').slice(-8000));
    throw new Error(`npm install code-server failed (exit ${result.status}); full log: ${logFile}`);
  }
  const missing = missingNativeModules();
  if (missing.length > 0 || !fs.existsSync(serverMainPath())) {
    throw new Error(`code-server installed but its postinstall did not build: ${missing.join(', ') || serverMainPath()}; see ${logFile}`);
  }
  fs.rmSync(tmpDir, { recursive: true, force: true });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  fs.writeFileSync(markerFile, JSON.stringify({ version: CODE_SERVER_VERSION, node: process.versions.node, seconds: Number(seconds) }) + '\n');
  log(`installed in ${seconds} s`);
}

function main() {
  if (!process.argv.includes('--force') && isInstalled()) {
    log(`code-server@${CODE_SERVER_VERSION} already installed in ${path.relative(process.cwd(), installRoot)}`);
    return;
  }
  install();
}

if (require.main === module) {
  try {
    main();
  } catch (error) {
    console.error(`[code-server] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

module.exports = { isInstalled, installCodeServer: main };
