/** A batch of changed paths applied to the TODO index: the same index as a full scan, with a few rg runs per batch. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyBatch, BatchEntry, BatchHost } from '../../../../../src/features/tasks/todo/todoBatch';
import { TodoIndex } from '../../../../../src/features/tasks/todo/todoIndex';
import { findTodos } from '../../../../../src/features/tasks/todo/todoParser';
import { chunkFiles, excludeGlobs, listSearchedFiles, RgRunner, ScanOptions, scanWorkspace, spawnRunner } from '../../../../../src/features/tasks/todo/todoScan';

const SYSTEM_RG = ['/usr/bin/rg', '/usr/local/bin/rg'].find((candidate) => fs.existsSync(candidate));

describe('TODO batch updates (no vscode)', () => {
  it('splits a long file list into rg runs under the command-line limit, every file once and in order', () => {
    const files = Array.from({ length: 1000 }, (_, index) => `src/folder${index % 7}/file${index}.ts`);
    const chunks = chunkFiles(files, 2000);
    assert.ok(chunks.length > 1);
    for (const chunk of chunks) assert.ok(chunk.reduce((sum, file) => sum + file.length + 1, 0) <= 2000);
    assert.deepEqual(chunks.flat(), files);
    assert.deepEqual(chunkFiles(['x'.repeat(50)], 10), [['x'.repeat(50)]], 'a name longer than the limit runs alone');
    assert.deepEqual(chunkFiles([]), []);
  });

  (SYSTEM_RG ? describe : describe.skip)('with the real rg', () => {
    let root = '';
    let runs: string[][] = [];
    let options: ScanOptions;
    let dirty = new Map<string, string>();
    const folder = 'workspace';
    const write = (file: string, text: string): void => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    };
    const entry = (relative: string): BatchEntry<string> => ({ folder, relative, key: relative, path: path.join(root, relative) });
    const host = (): BatchHost<string> => ({
      options: () => options,
      keyOf: (_folder, relative) => relative,
      kindOf: (file) => (!fs.existsSync(file) ? 'missing' : fs.statSync(file).isDirectory() ? 'directory' : 'file'),
      dirtyTexts: () => new Map([...dirty].map(([key, text]) => [key, () => text])),
      todosInText: (key, text) => findTodos(text).map(({ line, todo }) => ({ file: key, line, todo })),
    });
    /** The index as a full scan builds it, in a comparable form. */
    const shape = (index: TodoIndex): string[] => index.all().map((item) => `${item.file}:${item.line + 1}:${item.todo.text}`).sort();
    const fullScan = async (): Promise<TodoIndex> => {
      const index = new TodoIndex();
      const [found, searched] = await Promise.all([scanWorkspace(options), listSearchedFiles(options)]);
      index.replaceAll(found, searched);
      return index;
    };

    beforeEach(() => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-todo-batch-'));
      runs = [];
      dirty = new Map();
      const counting: RgRunner = (rgPath, args, cwd) => {
        runs.push([...args]);
        return spawnRunner(rgPath, args, cwd);
      };
      options = { rgPath: SYSTEM_RG as string, root, run: counting, excludes: excludeGlobs({ '**/node_modules': true }) };
      write('.gitignore', 'build/\n*.log\n');
      write('src/a.ts', '// TODO: a\n');
      write('src/old/gone.ts', '// TODO: in a folder deleted later\n');
      write('src/old/deep/gone.ts', '// FIXME: deeper\n');
      write('src/keep.ts', '// TODO: kept\n');
    });
    afterEach(() => { fs.rmSync(root, { recursive: true, force: true }); });

    it('leaves the index as a full scan finds it: new, ignored, excluded, deleted, new folders, unsaved text', async () => {
      const index = await fullScan();
      runs = [];
      // A branch switch: files appear (some ignored or excluded), a folder goes, a new folder arrives whole.
      write('src/new.ts', '// TODO: new file\n');
      write('build/out.ts', '// TODO: ignored by .gitignore\n');
      write('debug.log', '# TODO: ignored log\n');
      write('node_modules/x/i.js', '// TODO: excluded\n');
      write('lib/inner/made.ts', '// TODO: made inside a new folder\n');
      write('src/a.ts', 'no more to-dos\n');
      fs.rmSync(path.join(root, 'src/old'), { recursive: true });
      dirty.set('src/keep.ts', '// TODO: unsaved text\n');
      const batch = ['src/new.ts', 'build/out.ts', 'debug.log', 'node_modules/x/i.js', 'lib', 'src/a.ts', 'src/old', 'src/keep.ts'].map(entry);
      assert.equal(await applyBatch(index, batch, host()), true);
      assert.deepEqual(shape(index), ['lib/inner/made.ts:1:made inside a new folder', 'src/keep.ts:1:unsaved text', 'src/new.ts:1:new file']);
      // Apart from the unsaved text, what a fresh full scan finds.
      dirty.clear();
      assert.equal(await applyBatch(index, [entry('src/keep.ts')], host()), true);
      assert.deepEqual(shape(index), shape(await fullScan()));
    });

    it('checks 300 new files with one listing of the folder and one search, not two walks per file', async () => {
      const index = await fullScan();
      runs = [];
      const created = Array.from({ length: 300 }, (_, file) => `src/new${file % 10}/file${file}.ts`);
      for (const file of created) write(file, `// TODO: ${file}\n`);
      assert.equal(await applyBatch(index, created.map(entry), host()), true);
      assert.equal(index.size, 4 + 300);
      const listings = runs.filter((args) => args.includes('--files')).length;
      assert.equal(listings, 1, 'one listing of the searched files');
      assert.equal(runs.length, 2, runs.map((args) => args.slice(-3).join(' ')).join('\n'));
    });

    it('lists the folder and searches the files at once (a branch switch waits for the longer run, not both)', async () => {
      const index = await fullScan();
      let inFlight = 0;
      let mostAtOnce = 0;
      options = {
        ...options,
        run: async (rgPath, args, cwd) => {
          mostAtOnce = Math.max(mostAtOnce, ++inFlight);
          try {
            return await spawnRunner(rgPath, args, cwd);
          } finally {
            inFlight--;
          }
        },
      };
      write('src/fresh.ts', '// TODO: fresh\n');
      write('build/ignored.ts', '// TODO: ignored by .gitignore\n');
      assert.equal(await applyBatch(index, [entry('src/fresh.ts'), entry('build/ignored.ts'), entry('src/a.ts')], host()), true);
      assert.equal(mostAtOnce, 2, 'the listing and the search overlap');
      assert.deepEqual(shape(index), shape(await fullScan()), 'an ignored file searched meanwhile is still left out');
    });

    it('does not list the folder for files the last scan searched, and forgets nothing it did not touch', async () => {
      const index = await fullScan();
      runs = [];
      write('src/a.ts', '// TODO: a again\n// HACK: two\n');
      assert.equal(await applyBatch(index, [entry('src/a.ts')], host()), true);
      assert.equal(runs.length, 1);
      assert.ok(!runs.some((args) => args.includes('--files')));
      assert.deepEqual(shape(index), shape(await fullScan()));
      assert.equal(await applyBatch(index, [entry('src/a.ts')], host()), false, 'the same TODOs again: nothing changed');
    });
  });
});
