import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmulatorLauncher } from '../../../src/core/emulatorLauncher';

/**
 * The launcher against small stand-in scripts (the real emulator has its own tests): it must read the URL
 * from the first line, pass the data folder and seed, report an early exit with the script's error output,
 * and stop the process.
 */
describe('embedded emulator launcher', () => {
  let folder: string;
  const logs: string[] = [];

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'desk-launcher-'));
    logs.length = 0;
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  async function script(source: string): Promise<string> {
    const file = join(folder, 'fake-emulator.js');
    await writeFile(file, source);
    return file;
  }

  it('starts once, reads the URL from the first line and passes port 0, the data folder and the seed', async () => {
    const scriptPath = await script(`
      const args = process.argv.slice(2);
      require('fs').writeFileSync(${JSON.stringify(join(folder, 'args.json'))}, JSON.stringify(args));
      console.log('Desk emulator listening on http://127.0.0.1:43210');
      setInterval(() => {}, 1000);
    `);
    const launcher = new EmulatorLauncher({ scriptPath, dataDir: join(folder, 'data'), seed: 'demo', log: (line) => logs.push(line) });
    try {
      const [first, second] = await Promise.all([launcher.start(), launcher.start()]);
      assert.equal(first, 'http://127.0.0.1:43210');
      assert.equal(second, first);
      assert.equal(launcher.runningUrl, first);
      const args = JSON.parse(await readFile(join(folder, 'args.json'), 'utf8')) as string[];
      assert.deepEqual(args, ['--port', '0', '--data-dir', join(folder, 'data'), '--seed', 'demo']);
    } finally {
      await launcher.stop();
    }
    assert.equal(launcher.runningUrl, undefined);
  });

  it('reports an emulator that exits before it is ready, with its error output', async () => {
    const scriptPath = await script(`console.error('port already in use'); process.exit(3);`);
    const launcher = new EmulatorLauncher({ scriptPath, dataDir: join(folder, 'data'), seed: 'none', log: (line) => logs.push(line) });
    await assert.rejects(launcher.start(), /exited before it was ready.*port already in use/s);
  });

  it('tells listeners when a running emulator dies on its own, but not when stopped', async () => {
    const scriptPath = await script(`console.log('Desk emulator listening on http://127.0.0.1:1'); setTimeout(() => process.exit(7), 200);`);
    const launcher = new EmulatorLauncher({ scriptPath, dataDir: join(folder, 'data'), seed: 'none', log: (line) => logs.push(line) });
    const exited = new Promise<number | null>((resolve) => launcher.onUnexpectedExit(resolve));
    await launcher.start();
    assert.equal(await exited, 7);
    assert.equal(launcher.runningUrl, undefined);
  });
});
