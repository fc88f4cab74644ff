#!/usr/bin/env node
// Imports Google's discovery documents (../shared/reference/*.discovery.json, or the folder given as the first
// argument) into src/emulator/discovery/documents/, pruned to what the emulator serves: only the methods it has a
// route for, only the schemas those methods still reach, and without the prose (`description`, `enumDescriptions`
// below the top level: 60% of the text, read by people and docstring generators, never by a client's calls). The revision of each
// source document is kept in the file (`revision`) and listed in documents/README.md. Run it again after adding a
// route for a method that was left out (the discovery unit test says when): `node scripts/import-discovery.js`.
'use strict';

const esbuild = require('esbuild');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '..');
const OUT_DIR = path.join(repoRoot, 'src', 'emulator', 'discovery', 'documents');
const SOURCES = ['tasks.v1', 'books.v1', 'drive.v2', 'calendar.v3', 'admin.directory_v1'];

/** The emulator's route table (every module registered on one router, as the server does, without listening) and its pruning. */
async function emulatorModules() {
  const bundle = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'desk-discovery-')), 'routes.js');
  await esbuild.build({
    stdin: {
      contents: `
        import { Router } from './src/emulator/core/router';
        import { SERVICE_MODULES } from './src/emulator/services';
        import { MemoryStore } from './src/emulator/store/store';
        import { TokenService } from './src/emulator/identity/tokens';
        import { DEFAULT_OPTIONS } from './src/emulator/core/server';
        export { prunedDocument } from './src/emulator/discovery/prune';
        export function routes() {
          const store = new MemoryStore();
          const now = () => Date.now();
          const deps = { store, tokens: new TokenService(store, 3600, now), now, options: DEFAULT_OPTIONS };
          const router = new Router();
          for (const module of SERVICE_MODULES) module.register(router, deps);
          // Until every route is named, a method also counts when the router answers its path (with sample values).
          const named = typeof router.routes === 'function' ? router.routes().map((route) => route.id) : [];
          const answers = (method, path) => router.match(method, '/' + path.replace(/\{\+?[^}]+\}/g, 'x-sample')).match !== undefined;
          return { named, answers };
        }`,
      resolveDir: repoRoot,
      loader: 'ts',
    },
    outfile: bundle,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'silent',
  });
  return require(bundle);
}

/** Every method of a document, nested resources included. */
function* methodsOf(node) {
  for (const method of Object.values(node.methods ?? {})) yield method;
  for (const resource of Object.values(node.resources ?? {})) yield* methodsOf(resource);
}

/** The document without its prose below the top level (the API's own description stays). */
function withoutProse(value, depth = 0) {
  if (Array.isArray(value)) return value.map((item) => withoutProse(item, depth + 1));
  if (!value || typeof value !== 'object') return value;
  const kept = {};
  for (const [key, inner] of Object.entries(value)) {
    if (depth > 0 && (key === 'enumDescriptions' || (key === 'description' && typeof inner === 'string'))) continue;
    kept[key] = withoutProse(inner, depth + 1);
  }
  return kept;
}

async function main() {
  const sourceDir = path.resolve(process.argv[2] ?? path.join(repoRoot, '..', 'shared', 'reference'));
  const { routes, prunedDocument } = await emulatorModules();
  const { named, answers } = routes();
  const implemented = new Set(named);
  const fullyNamed = named.length > 0 && !named.some((id) => id.startsWith('unnamed.'));
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const rows = [];
  for (const name of SOURCES) {
    const original = JSON.parse(fs.readFileSync(path.join(sourceDir, `${name}.discovery.json`), 'utf8'));
    const before = [...methodsOf(original)].length;
    if (!fullyNamed) {
      for (const method of methodsOf(original)) if (answers(method.httpMethod, `${original.servicePath}${method.path}`)) implemented.add(method.id);
    }
    const document = prunedDocument(original, implemented);
    const kept = [...methodsOf(document)].length;
    const text = `${JSON.stringify(withoutProse(document))}\n`;
    fs.writeFileSync(path.join(OUT_DIR, `${name}.json`), text);
    rows.push(`| ${document.id} | ${document.revision} | ${kept} of ${before} | ${Object.keys(document.schemas ?? {}).length} | ${(text.length / 1024).toFixed(1)} KiB |`);
    console.log(`${name}: revision ${document.revision}, ${kept} of ${before} methods, ${(text.length / 1024).toFixed(1)} KiB`);
  }
  fs.writeFileSync(path.join(OUT_DIR, 'README.md'), [
    '# Discovery documents the emulator serves',
    '',
    "Google's own documents (from `../shared/reference/`), pruned by `node scripts/import-discovery.js` to the methods",
    'the emulator has a route for and the schemas they reach, without the prose below the top level (descriptions).',
    'Do not edit by hand: run the script again.',
    '',
    '| API | revision | methods kept | schemas | size |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n'));
}

main().then(() => process.exit(0), (error) => {
  console.error(error);
  process.exit(1);
});
