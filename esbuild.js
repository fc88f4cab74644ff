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
  // The extension's bundles share the split modules; the emulator is a stand-alone program.
  const bundle = (entry, outfile, extra = {}) => ({ ...base, ...extra, entryPoints: [entry], outfile, plugins: [...base.plugins, splitModules(outfile)] });
  // Each feature in a bundle of its own (dist/features/<name>.js), loaded by extension.js after activation.
  const features = fs.readdirSync(path.join(__dirname, 'src', 'features'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  return [
    bundle('src/extension.ts', 'dist/extension.js'),
    ...SPLIT_MODULES.map((split) => bundle(split.entry, split.bundle)),
    ...features.map((name) => bundle(`src/features/${name}/index.ts`, `dist/features/${name}.js`)),
    { ...base, entryPoints: ['src/emulator/main.ts'], outfile: 'dist/emulator.js', banner: { js: '#!/usr/bin/env node' } },
  ];
}

/**
 * Modules that activation must not load, each built into a bundle of its own: in every other bundle an import of
 * one of its `sources` becomes a `require` of that bundle file. The code requires them only inside functions
 * (src/core/lazyModules.ts, the auth provider's oauthFlow()), so dist/extension.js neither contains nor loads
 * them until the first API call, sign-in or emulator start. `entry` re-exports every one of `sources`.
 */
const SPLIT_MODULES = [
  // node-fetch, zod, http, crypto, child_process: the HTTP pipeline, the OAuth flow and the emulator launcher.
  { entry: 'src/core/backend/network.ts', bundle: 'dist/network.js', sources: ['src/core/backend/network.ts', 'src/auth/oauthFlow.ts'] },
  // The offline mechanism: built on the first request or a macrotask after activation (core/offline/offline.ts).
  { entry: 'src/core/offline/offline.ts', bundle: 'dist/offline.js', sources: ['src/core/offline/offline.ts', 'src/core/offline/offlineStatus.ts', 'src/core/offline/connectivity.ts', 'src/core/offline/writeQueue.ts'] },
];

/** @returns {import('esbuild').Plugin} the split for a bundle written to `outfile` (a path relative to this folder). */
function splitModules(outfile) {
  const splits = SPLIT_MODULES.filter((split) => split.bundle !== outfile).map((split) => ({
    sources: new Set(split.sources.map((source) => path.join(__dirname, source))),
    // Relative to the bundle that requires it, as Node resolves a require() from a file in dist/ or dist/features/.
    request: `./${path.relative(path.dirname(outfile), split.bundle).split(path.sep).join('/')}`.replace(/^\.\/\.\.\//, '../'),
  }));
  return {
    name: 'split-modules',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const base = path.resolve(args.resolveDir, args.path);
        const candidates = [base, `${base}.ts`, path.join(base, 'index.ts')];
        const split = splits.find((candidate) => candidates.some((file) => candidate.sources.has(file)));
        return split ? { path: split.request, external: true } : undefined;
      });
    },
  };
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
