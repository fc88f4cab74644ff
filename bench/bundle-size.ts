// Size of what users download and VS Code loads: the extension bundle and the emulator bundle, as esbuild.js
// builds them for production (minified, no source maps), plus gzip as a proxy for the .vsix share.
// The build runs in memory (write: false) so dist/ is left as it was; the options mirror esbuild.js.
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const repoRoot = path.resolve(__dirname, '..', '..');

const BUNDLES = [
  { name: 'dist/extension.js', entry: 'src/extension.ts' },
  { name: 'dist/emulator.js', entry: 'src/emulator/main.ts' },
];

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

export async function run(): Promise<void> {
  console.log('bundle size (production build: minified, no source maps):');
  for (const bundle of BUNDLES) {
    const result = await esbuild.build({
      absWorkingDir: repoRoot,
      entryPoints: [bundle.entry],
      outfile: path.join(repoRoot, bundle.name),
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      minify: true,
      sourcemap: false,
      external: ['vscode'],
      write: false,
      logLevel: 'silent',
      metafile: true,
    });
    const output = result.outputFiles.find((file) => file.path.endsWith('.js'));
    if (!output) throw new Error(`esbuild produced no ${bundle.name}`);
    const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.startsWith('node_modules/'));
    console.log(
      `  ${bundle.name.padEnd(18)} ${kib(output.contents.byteLength).padStart(10)}  gzip ${kib(gzipSync(output.contents).byteLength).padStart(9)}  (${inputs.length} project files, ${Object.keys(result.metafile.inputs).length - inputs.length} from node_modules)`,
    );
  }
}
