// The manual's Packaging and Google sections (docs/manual.md) must not go stale: the package's contents and sizes are printed by
// `npm run package` (scripts/package.js), and the README names every bundle esbuild.js builds and every scope Desk asks for.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SCOPES } from '../../../src/config/scopes';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const { bundleOptions } = require(path.join(repoRoot, 'esbuild.js')) as { bundleOptions: (mode: { production: boolean }) => Array<{ outfile?: string }> };
const { contentsReport } = require(path.join(repoRoot, 'scripts', 'package.js')) as { contentsReport: (files: Array<{ path: string; size: number }>, vsix: string, bytes: number) => string[] };

function readmeSection(title: string): string {
  const readme = fs.readFileSync(path.join(repoRoot, 'docs', 'manual.md'), 'utf8');
  const start = readme.indexOf(`\n${title}\n`);
  assert.ok(start >= 0, `docs/manual.md has no "${title}"`);
  const level = /^#+/.exec(title)?.[0] ?? '##';
  const next = readme.slice(start + title.length + 2).search(new RegExp(`\\n#{1,${level.length}} `));
  return next < 0 ? readme.slice(start) : readme.slice(start, start + title.length + 2 + next);
}

describe('packaging and the manual', () => {
  it('npm run package prints each file with its size, biggest first, the total and the .vsix size', () => {
    const lines = contentsReport([{ path: 'README.md', size: 2048 }, { path: 'dist/extension.js', size: 40960 }], 'desk-1.0.0.vsix', 30720);
    assert.deepEqual(lines, ['40.0 KiB  dist/extension.js', ' 2.0 KiB  README.md', '2 files, 42.0 KiB unpacked', 'packaged desk-1.0.0.vsix (30.0 KiB)']);
  });

  it('the Packaging section quotes no size (the build prints it) and names every bundle esbuild.js builds', () => {
    const section = readmeSection('## Packaging');
    assert.doesNotMatch(section, /\d+(?:\.\d+)?\s?(?:KB|KiB|MB|bytes)\b/);
    assert.match(section, /prints every file/);
    for (const outfile of bundleOptions({ production: true }).map((options) => options.outfile ?? '')) {
      const named = section.includes(`\`${outfile}\``) || (/^dist\/features\/[a-z]+\.js$/.test(outfile) && section.includes('`dist/features/*.js`') && section.includes(path.basename(outfile, '.js')));
      assert.ok(named, `the manual's Packaging does not name ${outfile}`);
    }
  });

  it('"Using your Google account" lists every scope Desk asks for', () => {
    const section = readmeSection('### Using your Google account');
    for (const scope of Object.values(SCOPES).flat()) assert.ok(section.includes(`\`${scope}\``), `the manual does not list ${scope}`);
  });
});
