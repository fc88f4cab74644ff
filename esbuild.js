// Builds the two bundles: the extension (vscode external) and the stand-alone emulator.
const esbuild = require('esbuild');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
  // Nothing native may be bundled: both bundles run on VS Code's own Node.
  external: ['vscode'],
};

const builds = [
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js' },
  {
    ...common,
    entryPoints: ['src/emulator/main.ts'],
    outfile: 'dist/emulator.js',
    banner: { js: '#!/usr/bin/env node' },
  },
];

async function main() {
  if (watch) {
    for (const options of builds) {
      const context = await esbuild.context(options);
      await context.watch();
    }
    return;
  }
  await Promise.all(builds.map((options) => esbuild.build(options)));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
