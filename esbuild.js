// Builds the two bundles: the extension (vscode external) and the stand-alone emulator.
const esbuild = require('esbuild');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** The two bundles' options for a build mode; bench/bundle-size.ts measures exactly these. */
function bundleOptions({ production: minified }) {
  const base = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: !minified,
    minify: minified,
    logLevel: 'info',
    // Nothing native may be bundled: both bundles run on VS Code's own Node.
    external: ['vscode'],
    plugins: [nodeUrlInsteadOfWhatwgUrl],
  };
  return [
    { ...base, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js' },
    { ...base, entryPoints: ['src/emulator/main.ts'], outfile: 'dist/emulator.js', banner: { js: '#!/usr/bin/env node' } },
  ];
}

/**
 * node-fetch v2 takes `URL` from Node's own `url` module and falls back to the `whatwg-url` package only on
 * Node versions older than 10. That fallback drags 280 KB of Unicode tables (tr46) into the bundle, so it
 * is replaced by Node's URL.
 * @type {import('esbuild').Plugin}
 */
const nodeUrlInsteadOfWhatwgUrl = {
  name: 'node-url-instead-of-whatwg-url',
  setup(build) {
    build.onResolve({ filter: /^whatwg-url$/ }, () => ({ path: 'whatwg-url', namespace: 'node-url' }));
    build.onLoad({ filter: /.*/, namespace: 'node-url' }, () => ({ contents: 'module.exports = { URL: require("url").URL };', loader: 'js' }));
  },
};

const builds = bundleOptions({ production });

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

module.exports = { bundleOptions };

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
