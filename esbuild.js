// Builds the two bundles: the extension (vscode external) and the stand-alone emulator.
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

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
    plugins: [nodeUrlInsteadOfWhatwgUrl, embedBooksCatalogue],
  };
  // Each feature in a bundle of its own (dist/features/<name>.js), loaded by extension.js after activation.
  const features = fs.readdirSync(path.join(__dirname, 'src', 'features'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  return [
    { ...base, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js' },
    ...features.map((name) => ({ ...base, entryPoints: [`src/features/${name}/index.ts`], outfile: `dist/features/${name}.js` })),
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

/**
 * The Books emulator's catalogue travels inside dist/emulator.js as a string: src/emulator/books/embeddedCatalogue.ts
 * is replaced by the text of data/catalogue.jsonl, so the CLI and the packaged extension (which ships only the
 * bundles) need no extra file. Compiled by tsc the module stays `undefined` and the file is read from disk.
 * @type {import('esbuild').Plugin}
 */
const embedBooksCatalogue = {
  name: 'embed-books-catalogue',
  setup(build) {
    const catalogue = path.join(__dirname, 'src', 'emulator', 'books', 'data', 'catalogue.jsonl');
    build.onLoad({ filter: /[\\/]emulator[\\/]books[\\/]embeddedCatalogue\.ts$/ }, () => {
      const text = fs.existsSync(catalogue) ? fs.readFileSync(catalogue, 'utf8') : undefined;
      return { contents: `export const EMBEDDED_CATALOGUE = ${JSON.stringify(text)};`, loader: 'js', watchFiles: [catalogue] };
    });
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
