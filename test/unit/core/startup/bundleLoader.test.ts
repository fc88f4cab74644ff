import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BundleLoader } from '../../../../src/core/startup/bundleLoader';

/** A feature bundle as esbuild writes one: CommonJS, requiring Node's modules. */
function writeBundle(dir: string, name: string, answer: string): string {
  const file = path.join(dir, `${name}.js`);
  fs.writeFileSync(path.join(dir, 'helper.js'), 'module.exports = "the helper beside it";\n');
  fs.writeFileSync(file, `"use strict";\nconst path = require("node:path");\nmodule.exports = { answer: () => ${JSON.stringify(answer)}, base: path.basename(__filename), dir: __dirname, self: this === exports, helper: require("./helper.js") };\n`);
  return file;
}

/**
 * Loads `file` in a new Node process, as the next start of the extension host would (in this process V8 would
 * find the source in its own compilation cache and never look at the file's), then keeps the caches there.
 */
function nextStart(file: string, cacheDir: string): { answer: string; fromCache: boolean; warnings: string[] } {
  const loaderPath = require.resolve('../../../../src/core/startup/bundleLoader');
  const script = `
    const { BundleLoader } = require(${JSON.stringify(loaderPath)});
    const loader = new BundleLoader(${JSON.stringify(cacheDir)});
    const answer = loader.load(${JSON.stringify(file)}).answer();
    const warnings = [];
    loader.saveCaches((message) => warnings.push(message)).then(() => console.log(JSON.stringify({ answer, fromCache: loader.compiledFromCache(${JSON.stringify(file)}), warnings })));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as { answer: string; fromCache: boolean; warnings: string[] };
}

describe('core/startup/bundleLoader: feature bundles with V8\'s code cache', () => {
  let dir: string;
  let cacheDir: string;
  const warnings: string[] = [];
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-bundles-'));
    cacheDir = path.join(dir, 'code-cache');
    warnings.length = 0;
  });
  afterEach(() => { fs.rmSync(dir, { recursive: true, force: true }); });
  const caches = (): string[] => (fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir).sort() : []);

  it('gives the exports `require` would, evaluated once, with the module\'s own file, folder, `this` and `require`', () => {
    const file = writeBundle(dir, 'tasks', 'tasks');
    const loader = new BundleLoader(cacheDir);
    const loaded = loader.load(file) as { answer(): string; base: string; dir: string; self: boolean; helper: string };
    assert.deepEqual({ answer: loaded.answer(), base: loaded.base, dir: loaded.dir, self: loaded.self, helper: loaded.helper }, { answer: 'tasks', base: 'tasks.js', dir, self: true, helper: 'the helper beside it' });
    assert.equal(loader.load(file), loaded);
  });

  it('writes a cache once the bundle ran, and the next start compiles from it', () => {
    const file = writeBundle(dir, 'drive', 'drive');
    assert.deepEqual(nextStart(file, cacheDir), { answer: 'drive', fromCache: false, warnings: [] });
    const written = caches();
    assert.equal(written.length, 1);
    assert.match(written[0] ?? '', /^drive-[0-9a-f]{24}\.v8cache$/);
    const stamp = fs.statSync(path.join(cacheDir, written[0] ?? '')).mtimeMs;
    assert.deepEqual(nextStart(file, cacheDir), { answer: 'drive', fromCache: true, warnings: [] });
    assert.equal(fs.statSync(path.join(cacheDir, written[0] ?? '')).mtimeMs, stamp, 'a cache that was taken is not written again');
  });

  it('never uses the cache of an earlier build, and removes it once the new one is kept', () => {
    const file = writeBundle(dir, 'books', 'old');
    nextStart(file, cacheDir);
    const [oldCache] = caches();
    writeBundle(dir, 'books', 'a new build, a longer bundle');
    assert.deepEqual(nextStart(file, cacheDir), { answer: 'a new build, a longer bundle', fromCache: false, warnings: [] });
    assert.equal(caches().length, 1);
    assert.notEqual(caches()[0], oldCache);
  });

  it('compiles as usual from a damaged cache, and replaces it', () => {
    const file = writeBundle(dir, 'calendar', 'calendar');
    nextStart(file, cacheDir);
    const cache = path.join(cacheDir, caches()[0] ?? '');
    fs.writeFileSync(cache, Buffer.from('not a V8 cache at all'));
    assert.deepEqual(nextStart(file, cacheDir), { answer: 'calendar', fromCache: false, warnings: [] });
    assert.notEqual(fs.readFileSync(cache).toString(), 'not a V8 cache at all');
    assert.equal(nextStart(file, cacheDir).fromCache, true);
  });

  it('does not give V8 a cache damaged inside (V8 would take it and crash the extension host), and replaces it', () => {
    const file = writeBundle(dir, 'search', 'search');
    nextStart(file, cacheDir);
    const cache = path.join(cacheDir, caches()[0] ?? '');
    const bytes = fs.readFileSync(cache);
    // The start and the end stay whole, as when two windows' writes interleave: only the middle is another's.
    bytes.fill(0x5a, Math.floor(bytes.length / 3), Math.floor((2 * bytes.length) / 3));
    fs.writeFileSync(cache, bytes);
    assert.deepEqual(nextStart(file, cacheDir), { answer: 'search', fromCache: false, warnings: [] });
    assert.equal(nextStart(file, cacheDir).fromCache, true, 'a whole cache again');
  });

  it('never takes the cache of other source of the same length and time', () => {
    const file = writeBundle(dir, 'books', 'aaaa');
    nextStart(file, cacheDir);
    const { mtime } = fs.statSync(file);
    writeBundle(dir, 'books', 'bbbb');
    fs.utimesSync(file, mtime, mtime);
    assert.deepEqual(nextStart(file, cacheDir), { answer: 'bbbb', fromCache: false, warnings: [] });
  });

  it('leaves no temporary file behind, and removes one a stopped window left long ago', () => {
    const file = writeBundle(dir, 'tasks', 'tasks');
    fs.mkdirSync(cacheDir, { recursive: true });
    const leftOver = path.join(cacheDir, 'tasks-0123.v8cache.999-abcd.tmp');
    fs.writeFileSync(leftOver, 'half a cache');
    const longAgo = new Date(Date.now() - 10 * 60_000);
    fs.utimesSync(leftOver, longAgo, longAgo);
    nextStart(file, cacheDir);
    assert.deepEqual(caches().filter((name) => !name.endsWith('.v8cache')), []);
  });

  it('says why when the cache cannot be written, and the bundle still loads', async () => {
    const file = writeBundle(dir, 'search', 'search');
    fs.writeFileSync(cacheDir, 'a file where the folder should be');
    const loader = new BundleLoader(cacheDir);
    assert.equal((loader.load(file) as { answer(): string }).answer(), 'search');
    await loader.saveCaches((message) => warnings.push(message));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /could not keep the code cache/);
  });
});
