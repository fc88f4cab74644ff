// No import cycles across folders (issue 30): the graph of src/'s relative imports (type-only ones too: they tie the
// layers as much as any), read with TypeScript's own pre-processor, folded onto folders: each top folder of src
// (api, auth, config, core, shared), each feature and each folder of the emulator. A cycle between two of them
// means neither can be read, tested or moved without the other.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as typescript from 'typescript';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const srcRoot = path.join(repoRoot, 'src');
const ts = require(path.join(repoRoot, 'node_modules', 'typescript')) as typeof typescript;

/**
 * Cycles known when the test was written, each with why it stays for now; the test fails on any other cycle, and on
 * a known one that is gone (take it out of this list).
 */
const KNOWN_CYCLES: readonly { readonly folders: readonly string[]; readonly why: string }[] = [
  {
    folders: ['emulator/auth', 'emulator/core', 'emulator/discovery', 'emulator/store'],
    why: 'the emulator\'s server (core) reads users, the store and the discovery documents, which use its errors, router and JSON helpers: the "core rooms" step of issue 30 untangles it',
  },
];

/** The folder a file counts in: src/<top>, or src/features/<name> and src/emulator/<name>. */
function folderOf(file: string): string {
  const parts = path.relative(srcRoot, path.dirname(file)).split(path.sep).filter((part) => part !== '');
  if (parts.length === 0) return '.';
  return parts[0] === 'features' || parts[0] === 'emulator' ? parts.slice(0, 2).join('/') : (parts[0]);
}

/** Folder → folder → one import that makes the edge (for the message). */
function folderGraph(): Map<string, Map<string, string>> {
  const files = fs.readdirSync(srcRoot, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts')).map((name) => path.join(srcRoot, name));
  const graph = new Map<string, Map<string, string>>();
  for (const file of files) {
    const from = folderOf(file);
    for (const reference of ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!reference.fileName.startsWith('.')) continue;
      const base = path.resolve(path.dirname(file), reference.fileName);
      const target = [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => fs.existsSync(candidate));
      if (target === undefined) continue;
      const to = folderOf(target);
      if (to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      graph.set(from, edges);
      if (!edges.has(to)) edges.set(to, `${path.relative(srcRoot, file)} → ${path.relative(srcRoot, target)}`);
    }
  }
  return graph;
}

/** The strongly connected components of more than one folder (Tarjan), each sorted. */
function cyclesOf(graph: Map<string, Map<string, string>>): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (folder: string): void => {
    order.set(folder, order.size);
    low.set(folder, order.get(folder) as number);
    stack.push(folder);
    onStack.add(folder);
    for (const next of graph.get(folder)?.keys() ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(folder, Math.min(low.get(folder) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(folder, Math.min(low.get(folder) as number, order.get(next) as number));
      }
    }
    if (low.get(folder) !== order.get(folder)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== folder);
    if (component.length > 1) found.push(component.sort());
  };
  for (const folder of graph.keys()) if (!order.has(folder)) visit(folder);
  return found;
}

describe('import cycles across folders', () => {
  const graph = folderGraph();
  const cycles = cyclesOf(graph);
  const describeCycle = (cycle: readonly string[]): string =>
    cycle.flatMap((from) => [...(graph.get(from) ?? new Map<string, string>())].filter(([to]) => cycle.includes(to)).map(([to, example]) => `${from} → ${to} (${example})`)).join('\n  ');

  it('reads the import graph (the auth and core folders are in it)', () => {
    assert.ok(graph.get('core')?.has('auth'), 'core imports auth');
  });

  it('has no cycle between folders but the known ones', () => {
    const known = new Set(KNOWN_CYCLES.map((cycle) => [...cycle.folders].sort().join(' ')));
    const unknown = cycles.filter((cycle) => !known.has(cycle.join(' ')));
    assert.deepEqual(unknown.map((cycle) => `${cycle.join(', ')}:\n  ${describeCycle(cycle)}`), []);
  });

  it('lists no known cycle that is gone', () => {
    const present = new Set(cycles.map((cycle) => cycle.join(' ')));
    assert.deepEqual(KNOWN_CYCLES.filter((cycle) => !present.has([...cycle.folders].sort().join(' '))).map((cycle) => cycle.folders.join(', ')), []);
  });
});
