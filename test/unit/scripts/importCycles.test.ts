// No import cycles across folders (issue 30): the graph of src/'s relative imports (type-only ones too: they tie the
// layers as much as any), read with TypeScript's own pre-processor, folded onto folders: each top folder of src
// (api, auth, config, core, shared; core's rooms count as core, whose top, DeskContext, every room is handed), each
// feature and each folder of the emulator. A cycle between two of them means neither can be read, tested or moved
// without the other.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as typescript from 'typescript';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const srcRoot = path.join(repoRoot, 'src');
const ts = require(path.join(repoRoot, 'node_modules', 'typescript')) as typeof typescript;

/**
 * The folder a file counts in: src/<top>, or src/features/<name> and src/emulator/<name>; with `coreRooms`, a room of
 * core counts as src/core/<room> (the top of core stays `core`).
 */
function folderOf(file: string, coreRooms: boolean): string {
  const parts = path.relative(srcRoot, path.dirname(file)).split(path.sep).filter((part) => part !== '');
  if (parts.length === 0) return '.';
  const twoDeep = parts[0] === 'features' || parts[0] === 'emulator' || (coreRooms && parts[0] === 'core');
  return twoDeep ? parts.slice(0, 2).join('/') : parts[0];
}

/** Folder → folder → one import that makes the edge (for the message). */
function folderGraph(coreRooms = false): Map<string, Map<string, string>> {
  const files = fs.readdirSync(srcRoot, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts')).map((name) => path.join(srcRoot, name));
  const graph = new Map<string, Map<string, string>>();
  for (const file of files) {
    const from = folderOf(file, coreRooms);
    for (const reference of ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!reference.fileName.startsWith('.')) continue;
      const base = path.resolve(path.dirname(file), reference.fileName);
      const target = [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => fs.existsSync(candidate));
      if (target === undefined) continue;
      const to = folderOf(target, coreRooms);
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

  it('has no cycle between folders', () => {
    assert.deepEqual(cycles.map((cycle) => `${cycle.join(', ')}:\n  ${describeCycle(cycle)}`), []);
  });

  it('keeps the emulator in layers: the server reads the data below it, the routes that serve OAuth and discovery are above it', () => {
    for (const below of ['emulator/identity', 'emulator/store', 'emulator/discovery']) {
      assert.ok(graph.get('emulator/core')?.has(below), `emulator/core imports ${below}`);
      assert.equal(graph.get(below)?.has('emulator/core') ?? false, false, `${below} does not import emulator/core`);
    }
    for (const above of ['emulator/auth', 'emulator/discoveryApi', 'emulator/persistence']) assert.ok(graph.get(above)?.has('emulator/core'), `${above} imports emulator/core`);
  });

  it('has no cycle between the rooms of core (its top, where DeskContext is, is left out: every room is handed it)', () => {
    const rooms = folderGraph(true);
    rooms.delete('core');
    for (const edges of rooms.values()) edges.delete('core');
    assert.ok(rooms.get('core/offline')?.has('core/accounts'), 'the rooms are in the graph');
    assert.deepEqual(cyclesOf(rooms).map((cycle) => cycle.join(', ')), []);
  });
});
