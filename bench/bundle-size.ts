// Size of what users download and VS Code loads: the extension bundle and the emulator bundle, as esbuild.js
// builds them for production (minified, no source maps), plus gzip as a proxy for the .vsix share.
// The build runs in memory (write: false) so dist/ is left as it was, with esbuild.js's own production options.
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const repoRoot = path.resolve(__dirname, '..', '..');

interface BuildScript {
  bundleOptions(mode: { production: boolean }): esbuild.BuildOptions[];
}
// esbuild.js is plain JavaScript at the repository root: required, not imported, so tsc leaves it alone.
const buildScript = require(path.join(repoRoot, 'esbuild.js')) as BuildScript;

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

export async function run(): Promise<void> {
  console.log('bundle size (production build: minified, no source maps):');
  for (const options of buildScript.bundleOptions({ production: true })) {
    const name = path.relative(repoRoot, options.outfile ?? '');
    const result = await esbuild.build({
      ...options,
      absWorkingDir: repoRoot,
      outfile: path.join(repoRoot, name),
      write: false,
      logLevel: 'silent',
      metafile: true,
    });
    const output = result.outputFiles.find((file) => file.path.endsWith('.js'));
    if (!output) throw new Error(`esbuild produced no ${name}`);
    const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.startsWith('node_modules/'));
    console.log(
      `  ${name.padEnd(18)} ${kib(output.contents.byteLength).padStart(10)}  gzip ${kib(gzipSync(output.contents).byteLength).padStart(9)}  (${inputs.length} project files, ${Object.keys(result.metafile.inputs).length - inputs.length} from node_modules)`,
    );
  }
}
