// The activation bundle (dist/extension.js) must stay free of what activation does not need: every window loads
// it, and VS Code counts its loading in Desk's activation time. The network half lives in dist/network.js and is
// required on first use. Builds in memory with esbuild.js's own production options.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type * as esbuild from 'esbuild';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const { build } = require(path.join(repoRoot, 'node_modules', 'esbuild')) as typeof esbuild;
const { bundleOptions } = require(path.join(repoRoot, 'esbuild.js')) as { bundleOptions: (mode: { production: boolean }) => esbuild.BuildOptions[] };

async function buildInMemory(outfile: string): Promise<{ inputs: string[]; text: string }> {
  const options = bundleOptions({ production: true }).find((candidate) => candidate.outfile === outfile);
  if (!options) throw new Error(`esbuild.js builds no ${outfile}`);
  const result = await build({ ...options, absWorkingDir: repoRoot, outfile: path.join(repoRoot, outfile), write: false, metafile: true, logLevel: 'silent' });
  const output = result.outputFiles.find((file) => file.path.endsWith('.js'));
  return { inputs: Object.keys(result.metafile.inputs), text: output?.text ?? '' };
}

describe('bundles: what activation loads', function () {
  this.timeout(60000);

  it('dist/extension.js holds no dependency and none of the HTTP, OAuth or emulator-process code', async () => {
    const { inputs, text } = await buildInMemory('dist/extension.js');
    assert.deepEqual(inputs.filter((input) => input.startsWith('node_modules/')), []);
    for (const heavy of ['src/api/http.ts', 'src/api/errors.ts', 'src/auth/oauthClient.ts', 'src/auth/loopbackServer.ts', 'src/auth/pkce.ts', 'src/core/backend/emulatorLauncher.ts', 'src/shared/schemas/zod.ts']) {
      assert.ok(!inputs.includes(heavy), `${heavy} is bundled into dist/extension.js`);
    }
    // Only the lazy require of the split bundle, and no Node module that costs time to load at activation
    // (node:fs and node:path are loaded by the extension host before any extension: the view cache reads its
    // first rows with them; node:vm, node:module and node:crypto too, which compile the feature bundles with their
    // code cache and check it, and which the extension host has loaded for itself before; node:async_hooks, Node's
    // own AsyncLocalStorage, which carries a document's account to the token of each request it makes).
    assert.deepEqual([...new Set(text.match(/require\("[^"]+"\)/g))].sort(), ['require("./network.js")', 'require("./offline.js")', 'require("node:async_hooks")', 'require("node:crypto")', 'require("node:fs")', 'require("node:module")', 'require("node:path")', 'require("node:vm")', 'require("vscode")']);
  });

  it('dist/extension.js holds none of the offline mechanism, which dist/offline.js provides', async () => {
    const offlineSources = ['src/core/offline/offline.ts', 'src/core/offline/offlineStatus.ts', 'src/core/offline/connectivity.ts', 'src/core/offline/writeQueue.ts'];
    const { inputs: activation } = await buildInMemory('dist/extension.js');
    for (const module of offlineSources) assert.ok(!activation.includes(module), `${module} is bundled into dist/extension.js`);
    const { inputs: offline } = await buildInMemory('dist/offline.js');
    for (const module of offlineSources) assert.ok(offline.includes(module), `${module} is missing from dist/offline.js`);
  });

  it('dist/network.js provides what the activation bundle requires from it', async () => {
    const { inputs } = await buildInMemory('dist/network.js');
    for (const module of ['src/api/http.ts', 'src/auth/oauthClient.ts', 'src/auth/loopbackServer.ts', 'src/core/backend/emulatorLauncher.ts']) {
      assert.ok(inputs.includes(module), `${module} is missing from dist/network.js`);
    }
  });
});
