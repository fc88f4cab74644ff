// Entry of the extension-host suite: VS Code loads this module (extensionTestsPath) and awaits run(). It is the
// same contract @vscode/test-electron uses, so the suite also runs on a desktop VS Code where that is available.
// Our harness (scripts/vscode/run-extension-tests.js) decides pass/fail from the workbench's exit hook AND the
// JSON result file written here, because neither the server's nor the extension host's exit code is reliable.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

/** What run() records for the harness, at the path in DESK_TEST_RESULT. */
export interface SuiteResult {
  passed: number;
  failed: number;
  pending: number;
  failures: { title: string; error: string }[];
  durationMs: number;
}

function testFiles(dir: string): string[] {
  // Several substrings, comma-separated ("offline,search"): files that follow one another in the full suite run together.
  const wanted = process.env.DESK_TEST_GREP_FILE?.split(',').map((part) => part.trim()).filter((part) => part !== '');
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.js'))
    .filter((name) => wanted === undefined || wanted.length === 0 || wanted.some((part) => name.includes(part)))
    .sort()
    .map((name) => path.join(dir, name));
}

function writeResult(result: SuiteResult): void {
  const target = process.env.DESK_TEST_RESULT;
  if (target) fs.writeFileSync(target, JSON.stringify(result, null, 2));
}

export function run(): Promise<void> {
  const started = Date.now();
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 20000, reporter: 'spec' });
  if (process.env.DESK_TEST_GREP) mocha.grep(process.env.DESK_TEST_GREP);
  for (const file of testFiles(__dirname)) mocha.addFile(file);
  const result: SuiteResult = { passed: 0, failed: 0, pending: 0, failures: [], durationMs: 0 };
  return new Promise<void>((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        result.durationMs = Date.now() - started;
        writeResult(result);
        if (failures > 0) reject(new Error(`${failures} test(s) failed`));
        else resolve();
      });
      runner.on('pass', () => result.passed++);
      runner.on('pending', () => result.pending++);
      runner.on('fail', (test, error: unknown) => {
        result.failed++;
        result.failures.push({ title: test.fullTitle(), error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      });
    } catch (error) {
      // A test file that throws while loading is a failure too, not a silent empty run.
      result.failed++;
      result.failures.push({ title: 'loading the suite', error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      writeResult(result);
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
