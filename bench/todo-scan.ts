// The TODOs view's scan over a generated workspace of 10,000 files holding 2,000 TODO comments (a .gitignore'd
// folder and a files.exclude'd one beside them, as in a real project), with the ripgrep VS Code bundles (the test
// build's under .vscode-test/, else Debian's rg of the same version): the first full scan (the TODO search and the
// file listing, in parallel, as the view runs them), the update after one file changes (rg on that file alone,
// then the index), and after a new file appears (its ignore check first). Targets: full ≤ 2 s, update ≤ 50 ms.
// Prints figures; asserts nothing.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { TodoIndex } from '../src/features/tasks/todo/todoIndex';
import { excludeGlobs, findRipgrep, isSearched, listSearchedFiles, ScanOptions, scanFiles, scanWorkspace, spawnRunner } from '../src/features/tasks/todo/todoScan';
import { machineLoad, ms, percentiles, runWhenMain } from './support/stats';

const FILES = 10_000;
const TODOS = 2_000;
const FOLDERS = 100;
const RUNS = 5;
const UPDATES = 30;
const repoRoot = path.resolve(__dirname, '..', '..');

function ripgrep(): string {
  const appRoot = path.join(repoRoot, '.vscode-test', 'code-server', 'node_modules', 'code-server', 'lib', 'vscode');
  const bundled = findRipgrep(appRoot, (file) => fs.existsSync(file));
  const found = bundled ?? ['/usr/bin/rg', '/usr/local/bin/rg'].find((file) => fs.existsSync(file));
  if (!found) throw new Error('no ripgrep: install code-server for the tests (npm run test:vscode) or Debian\'s ripgrep');
  return found;
}

/** 10,000 source files of ~40 lines in 100 folders; every fifth holds one TODO (a tenth of those linked). */
function generate(root: string): void {
  const filler = Array.from({ length: 40 }, (_, line) => `export const value${line} = ${line}; // a comment that is not a to-do`).join('\n');
  for (let index = 0; index < FILES; index++) {
    const folder = path.join(root, 'src', `module${String(index % FOLDERS).padStart(3, '0')}`);
    if (index < FOLDERS) fs.mkdirSync(folder, { recursive: true });
    const todo = index % (FILES / TODOS) === 0 ? `\n  // ${index % 50 === 0 ? `TODO(task:t${index})` : 'TODO'}: item ${index}\n` : '\n';
    fs.writeFileSync(path.join(folder, `file${index}.ts`), `${filler}${todo}${filler}\n`);
  }
  fs.writeFileSync(path.join(root, '.gitignore'), 'build/\n');
  for (const ignored of ['build', 'node_modules/pkg']) {
    fs.mkdirSync(path.join(root, ignored), { recursive: true });
    for (let index = 0; index < 500; index++) fs.writeFileSync(path.join(root, ignored, `gen${index}.js`), '// TODO: generated, never listed\n');
  }
}

export async function run(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-bench-todo-'));
  try {
    const started = performance.now();
    generate(root);
    const options: ScanOptions = { rgPath: ripgrep(), root, run: spawnRunner, excludes: excludeGlobs({ '**/node_modules': true }) };
    console.log(`workspace: ${FILES} files, ${TODOS} TODOs, 1,000 ignored/excluded files (generated in ${ms(performance.now() - started, 0)}) ${machineLoad()}`);
    console.log(`rg: ${options.rgPath}`);

    const index = new TodoIndex();
    const full: number[] = [];
    for (let runIndex = 0; runIndex < RUNS; runIndex++) {
      const begin = performance.now();
      const [found, searched] = await Promise.all([scanWorkspace(options), listSearchedFiles(options)]);
      index.replaceAll(found, searched);
      full.push(performance.now() - begin);
      if (found.length !== TODOS) throw new Error(`found ${found.length} TODOs, expected ${TODOS}`);
    }
    const fullStats = percentiles(full);
    console.log(`full scan (first run):       ${ms(full[0] ?? NaN, 0)}   (target ≤ 2000 ms)`);
    console.log(`full scan (${RUNS} runs):         p50 ${ms(fullStats.p50, 0)}, max ${ms(fullStats.max, 0)}`);

    const updates: number[] = [];
    for (let step = 0; step < UPDATES; step++) {
      const fileIndex = step * 7;
      const file = `src/module${String(fileIndex % FOLDERS).padStart(3, '0')}/file${fileIndex}.ts`;
      if (!fs.existsSync(path.join(root, file))) throw new Error(`${file} is not in the workspace`);
      const absolute = path.join(root, file);
      fs.appendFileSync(absolute, `// FIXME: added by update ${step}\n`);
      const begin = performance.now();
      const known = index.isSearched(file) !== false;
      const found = known ? await scanFiles(options, [file]) : [];
      index.setFile(file, found);
      updates.push(performance.now() - begin);
    }
    const updateStats = percentiles(updates);
    console.log(`one file changed (${UPDATES}x):     p50 ${ms(updateStats.p50, 1)}, p95 ${ms(updateStats.p95, 1)}, max ${ms(updateStats.max, 1)}   (target ≤ 50 ms)`);

    const created: number[] = [];
    for (let step = 0; step < 10; step++) {
      const file = `src/module${String(step).padStart(3, '0')}/new${step}.ts`;
      fs.writeFileSync(path.join(root, file), '// TODO: a new file\n');
      const begin = performance.now();
      const searched = await isSearched(options, file);
      index.setFile(file, searched ? await scanFiles(options, [file]) : []);
      created.push(performance.now() - begin);
    }
    const createdStats = percentiles(created);
    console.log(`new file (ignore check + scan, 10x): p50 ${ms(createdStats.p50, 1)}, max ${ms(createdStats.max, 1)}`);
    console.log(`index: ${index.size} TODOs in ${index.files().length} files`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

runWhenMain(module, run);
