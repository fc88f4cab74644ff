import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmulatorLauncher } from '../../../../src/core/backend/emulatorLauncher';

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

  it('reuses the last port when it is free and falls back to any free port when it is taken', async () => {
    const scriptPath = await script(`
      const port = process.argv[process.argv.indexOf('--port') + 1];
      if (port === '4999') { console.error('listen EADDRINUSE 127.0.0.1:4999'); process.exit(1); }
      console.log('Desk emulator listening on http://127.0.0.1:' + (port === '0' ? '40001' : port));
      setInterval(() => {}, 1000);
    `);
    const reused = new EmulatorLauncher({ scriptPath, dataDir: join(folder, 'data'), seed: 'none', preferredPort: 5001, log: (line) => logs.push(line) });
    const taken = new EmulatorLauncher({ scriptPath, dataDir: join(folder, 'data'), seed: 'none', preferredPort: 4999, log: (line) => logs.push(line) });
    try {
      assert.equal(await reused.start(), 'http://127.0.0.1:5001');
      assert.equal(await taken.start(), 'http://127.0.0.1:40001');
      assert.ok(logs.some((line) => /Port 4999 is not available.*EADDRINUSE/.test(line)));
    } finally {
      await reused.stop();
      await taken.stop();
    }
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
