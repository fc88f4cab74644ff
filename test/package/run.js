#!/usr/bin/env node
// The emulator as other projects install it: packs it (scripts/pack-emulator.js), installs the tarball in an empty
// folder (offline: the package has no dependencies), starts it there with `npx desk-emulator --port 0 --seed demo`,
// checks it answers and writes nothing into the folder, then runs the three programs of docs/emulator.md (section "Use the
// emulator in your own tests": Node, Python, Go) exactly as printed against it. Ends with mocha's summary lines
// ("N passing", "N failing"), which scripts/test-all.js counts.
// Usage: node test/package/run.js   (needs `node esbuild.js` first)
'use strict';

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');

const repoRoot = path.resolve(__dirname, '..', '..');
const SECTION = '## Use the emulator in your own tests';
const DEBIAN_GOPATH = '/usr/share/gocode';

let passed = 0;
const failures = [];

async function check(name, run) {
  const started = Date.now();
  try {
    await run();
    passed++;
    console.log(`  ✔ ${name} (${Date.now() - started}ms)`);
  } catch (error) {
    failures.push({ name, error });
    console.log(`  ${failures.length}) ${name}`);
  }
}

function ensure(condition, message) {
  if (!condition) throw new Error(message);
}

function run(command, args, options) {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 300_000, ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stdout}${result.stderr}${result.error ?? ''}`);
  return result.stdout;
}

/** The README section's code blocks by language, as printed. */
function readmeSnippets() {
  const readme = fs.readFileSync(path.join(repoRoot, 'docs', 'emulator.md'), 'utf8');
  const start = readme.indexOf(SECTION);
  ensure(start >= 0, `docs/emulator.md has no section "${SECTION}"`);
  const section = readme.slice(start).split(/\n## /)[0];
  const snippets = {};
  for (const found of section.matchAll(/```(\w+)\n([\s\S]*?)```/g)) snippets[found[1]] = found[2];
  return snippets;
}

/** `npx desk-emulator` in `folder`, resolved once it prints its URL. */
function startPacked(folder) {
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  const child = spawn(npx, ['--offline', 'desk-emulator', '--port', '0', '--seed', 'demo'], { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let errors = '';
  child.stderr.on('data', (chunk) => {
    errors += chunk;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the packed emulator did not start within 60 s: ${errors}`)), 60_000);
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      const found = /listening on (http:\/\/\S+)/.exec(line);
      if (found) {
        clearTimeout(timer);
        resolve({ child, url: found[1] });
      }
    });
    child.on('exit', (code) => reject(new Error(`the packed emulator exited (${code}): ${errors}`)));
  });
}

function stop(child) {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-emulator-package-'));
  let emulator;
  try {
    let tarball;
    await check('npm pack: one tarball with emulator.js and a manifest of no dependencies', async () => {
      tarball = run(process.execPath, [path.join(repoRoot, 'scripts', 'pack-emulator.js'), '--out', path.join(work, 'pack')], { cwd: repoRoot }).trim();
      ensure(fs.existsSync(tarball), `no tarball at ${tarball}`);
      const manifest = JSON.parse(fs.readFileSync(path.join(work, 'pack', 'emulator-package', 'package.json'), 'utf8'));
      ensure(manifest.bin['desk-emulator'] === 'emulator.js' && manifest.dependencies === undefined, `manifest ${JSON.stringify(manifest)}`);
    });
    const app = path.join(work, 'app');
    fs.mkdirSync(app);
    await check('npx desk-emulator --port 0 --seed demo runs from an empty folder with only Node, and keeps its data in memory', async () => {
      ensure(tarball !== undefined, 'nothing was packed');
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
      run(npm, ['install', '--offline', '--no-audit', '--no-fund', '--no-save', tarball], { cwd: app });
      emulator = await startPacked(app);
      const token = await fetch(`${emulator.url}/emulator/v1/token?user=alice@example.com`, { method: 'POST' });
      ensure(token.status === 200, `token: ${token.status}`);
      const { access_token: accessToken } = await token.json();
      const lists = await fetch(`${emulator.url}/tasks/v1/users/@me/lists`, { headers: { Authorization: `Bearer ${accessToken}` } });
      ensure(lists.status === 200, `tasklists.list: ${lists.status}`);
      ensure((await lists.json()).items.length > 0, 'the demo data has task lists');
      const left = fs.readdirSync(app).filter((name) => name !== 'node_modules' && name !== 'package-lock.json').sort();
      ensure(left.length === 0, `the emulator wrote into the folder: ${left.join(', ')}`);
    });

    const snippets = readmeSnippets();
    const env = { ...process.env, EMULATOR_URL: emulator?.url ?? 'http://127.0.0.1:1' };
    const snippetDir = path.join(work, 'snippets');
    fs.mkdirSync(snippetDir);
    const listsAlice = (output) => ensure(/My Tasks/.test(output), `the program did not list alice's task lists: ${output}`);
    await check('README: the Node program (@googleapis/tasks) runs as printed', async () => {
      ensure(snippets.js, 'no js block');
      const file = path.join(snippetDir, 'first-call.js');
      fs.writeFileSync(file, snippets.js);
      listsAlice(run(process.execPath, [file], { cwd: snippetDir, env: { ...env, NODE_PATH: path.join(repoRoot, 'node_modules') } }));
    });
    await check('README: the Python program (googleapiclient) runs as printed', async () => {
      ensure(snippets.python, 'no python block');
      const file = path.join(snippetDir, 'first_call.py');
      fs.writeFileSync(file, snippets.python);
      listsAlice(run(fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3', [file], { cwd: snippetDir, env }));
    });
    await check('README: the Go program (google.golang.org/api, option.WithEndpoint) runs as printed', async () => {
      ensure(snippets.go, 'no go block');
      const goDir = path.join(snippetDir, 'go');
      fs.mkdirSync(goDir);
      fs.writeFileSync(path.join(goDir, 'main.go'), snippets.go);
      const goEnv = { ...env, GO111MODULE: 'off', GOPATH: DEBIAN_GOPATH, GOPROXY: 'off', GOFLAGS: '', CGO_ENABLED: '0', ...(env.GOCACHE || env.HOME ? {} : { GOCACHE: path.join(os.tmpdir(), 'desk-go-build') }) };
      run('go', ['build', '-o', path.join(goDir, 'first-call'), '.'], { cwd: goDir, env: goEnv });
      listsAlice(run(path.join(goDir, 'first-call'), [], { cwd: goDir, env }));
    });
  } finally {
    if (emulator) stop(emulator.child);
    fs.rmSync(work, { recursive: true, force: true });
  }
  console.log(`\n  ${passed} passing`);
  if (failures.length) console.log(`  ${failures.length} failing`);
  failures.forEach(({ name, error }, index) => console.log(`\n  ${index + 1}) ${name}:\n     ${error instanceof Error ? error.message : String(error)}`));
  return failures.length === 0 ? 0 : 1;
}

main().then((code) => process.exit(code), (error) => {
  console.log(String(error));
  console.log('\n  0 passing\n  1 failing');
  process.exit(1);
});
