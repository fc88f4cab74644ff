import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  escapeGlob, excludeGlobs, findMarker, findRipgrep, isSearched, listSearchedFiles, parseRgOutput, RgRunner, ripgrepCandidates, ScanOptions, scanFiles,
  scanWorkspace, spawnRunner, todoSearchArgs,
} from '../../../../../src/features/tasks/todo/todoScan';

/** Debian's rg (the same 13.0.0 VS Code bundles) when installed; the tests that run rg for real skip without it. */
const SYSTEM_RG = ['/usr/bin/rg', '/usr/local/bin/rg'].find((candidate) => fs.existsSync(candidate));

describe('TODO scanner (ripgrep, no vscode)', () => {
  it('finds VS Code\'s bundled rg in the current layout first, then the asar and old-name ones; never elsewhere', () => {
    const appRoot = '/opt/code/resources/app';
    const candidates = ripgrepCandidates(appRoot, 'linux');
    assert.equal(candidates[0], '/opt/code/resources/app/node_modules/@vscode/ripgrep/bin/rg');
    assert.ok(candidates.includes('/opt/code/resources/app/node_modules.asar.unpacked/@vscode/ripgrep/bin/rg'));
    assert.ok(ripgrepCandidates(appRoot, 'win32')[0]?.endsWith('rg.exe'));
    const present = '/opt/code/resources/app/node_modules.asar.unpacked/@vscode/ripgrep/bin/rg';
    assert.equal(findRipgrep(appRoot, (file) => file === present, 'linux'), present);
    assert.equal(findRipgrep(appRoot, () => false, 'linux'), undefined);
  });

  it('turns files.exclude and search.exclude into rg globs (true only; .git always)', () => {
    assert.deepEqual(excludeGlobs({ '**/node_modules': true, '**/*.js': { when: '$(basename).ts' }, 'out/': true, './dist': true }, { '**/bower_components': true, '**/off': false }),
      ['**/.git', '**/node_modules', 'out', 'dist', '**/bower_components']);
    assert.equal(escapeGlob('a[1]/b*.ts'), 'a\\[1\\]/b\\*.ts');
  });

  it('asks rg for NUL-separated paths, .gitignore without git, the exclusions and the trigger words', () => {
    const args = todoSearchArgs({ rgPath: 'rg', root: '/w', run: async () => ({ stdout: '', code: 1 }), keywords: ['TODO', 'HACK'], excludes: ['**/node_modules'] }, ['a.ts']);
    for (const flag of ['--null', '--no-require-git', '--hidden', '--line-number', '--no-config']) assert.ok(args.includes(flag), flag);
    assert.deepEqual(args.slice(args.indexOf('--glob'), args.indexOf('--glob') + 2), ['--glob', '!**/node_modules']);
    assert.equal(args[args.indexOf('--regexp') + 1], '\\b(?:TODO|HACK)\\b');
    assert.deepEqual(args.slice(-2), ['--', 'a.ts']);
  });

  it('reads rg output, dropping prose and keeping odd paths whole', () => {
    const output = ['src/a:b.ts\u00003:  // TODO: colon in the path', 'src/b.ts\u00007:const TODO = 1;', './c.py\u000012:# FIXME(task:k1) fix\r', ''].join('\n');
    assert.deepEqual(parseRgOutput(output).map((found) => [found.file, found.line, found.todo.text, found.todo.taskId]), [
      ['src/a:b.ts', 2, 'colon in the path', undefined],
      ['c.py', 11, 'fix', 'k1'],
    ]);
  });

  it('passes the runner the rg path and folder; exit 1 is "nothing", 2 keeps what was found, worse throws', async () => {
    const calls: Array<[string, string]> = [];
    const answers = [{ stdout: '', code: 1 }, { stdout: 'a.ts\u00001:// TODO: x\n', code: 2 }, { stdout: '', code: 101 }];
    const run: RgRunner = async (rgPath, _args, cwd) => {
      calls.push([rgPath, cwd]);
      return answers.shift() ?? { stdout: '', code: 1 };
    };
    const options: ScanOptions = { rgPath: '/x/rg', root: '/w', run };
    assert.deepEqual(await scanWorkspace(options), []);
    assert.equal((await scanWorkspace(options)).length, 1);
    await assert.rejects(scanWorkspace(options), /exited with 101/);
    assert.deepEqual(calls[0], ['/x/rg', '/w']);
    assert.deepEqual(await scanFiles(options, []), [], 'no files: no rg run');
    assert.equal(calls.length, 3);
  });

  (SYSTEM_RG ? describe : describe.skip)('with the real rg', () => {
    let root = '';
    let options: ScanOptions;
    before(() => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-todo-scan-'));
      const write = (file: string, text: string): void => {
        fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        fs.writeFileSync(path.join(root, file), text);
      };
      write('.gitignore', 'build/\n*.log\n');
      write('src/a.ts', 'x\n// TODO: one\n// FIXME(task:abc): two\n// see the TODO list\n');
      write('src/b.py', '# TODO three\n');
      write('src/c.ts', '// TODO(task:abcd): longer id\n');
      write('build/out.ts', '// TODO: ignored by .gitignore\n');
      write('debug.log', '# TODO: ignored log\n');
      write('node_modules/x/i.js', '// TODO: excluded by files.exclude\n');
      write('.hidden/h.sh', '# TODO: hidden folders count\n');
      options = { rgPath: SYSTEM_RG as string, root, run: spawnRunner, excludes: excludeGlobs({ '**/node_modules': true }) };
    });
    after(() => { fs.rmSync(root, { recursive: true, force: true }); });

    it('scans the folder: .gitignore (no git repository) and the exclusions respected', async () => {
      const found = (await scanWorkspace(options)).map((item) => `${item.file}:${item.line + 1}:${item.todo.text}`).sort();
      assert.deepEqual(found, ['.hidden/h.sh:1:hidden folders count', 'src/a.ts:2:one', 'src/a.ts:3:two', 'src/b.py:1:three', 'src/c.ts:1:longer id']);
      const files = (await listSearchedFiles(options)).sort();
      assert.ok(files.includes('src/a.ts') && files.includes('.gitignore'));
      assert.ok(!files.some((file) => file.startsWith('build/') || file.startsWith('node_modules/') || file.endsWith('.log')), files.join(','));
    });

    it('re-scans only named files, and tells a new ignored file from a searched one', async () => {
      assert.deepEqual((await scanFiles(options, ['src/b.py'])).map((item) => item.file), ['src/b.py']);
      assert.equal(await isSearched(options, 'src/a.ts'), true);
      assert.equal(await isSearched(options, 'build/out.ts'), false);
      assert.equal(await isSearched(options, 'node_modules/x/i.js'), false);
      assert.equal(await isSearched(options, 'debug.log'), false);
    });

    it('finds a marker by its exact task id', async () => {
      assert.deepEqual((await findMarker(options, 'abc')).map((item) => [item.file, item.line]), [['src/a.ts', 2]]);
      assert.deepEqual((await findMarker(options, 'abcd')).map((item) => item.file), ['src/c.ts']);
      assert.deepEqual(await findMarker(options, 'nope'), []);
    });
  });
});
