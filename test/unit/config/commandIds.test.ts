// The command-id tables (src/config/commandIds.ts) and the manifest agree both ways: every contributed command has
// its constant, every constant is contributed (bar the ones said not to be), and menus name only known commands.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { allCommandIds, NOT_CONTRIBUTED } from '../../../src/config/commandIds';

interface Manifest {
  contributes: {
    commands: Array<{ command: string }>;
    menus: Record<string, Array<{ command?: string; submenu?: string }>>;
  };
}

const root = path.resolve(__dirname, '..', '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
const contributed = manifest.contributes.commands.map((entry) => entry.command);
const constants: readonly string[] = allCommandIds();

describe('command ids: the constants and package.json', () => {
  it('every contributed command has a constant', () => {
    assert.deepEqual(contributed.filter((id) => !constants.includes(id)), []);
  });

  it('every constant is contributed, except the ones registered on purpose without a manifest entry', () => {
    assert.deepEqual(constants.filter((id) => !contributed.includes(id) && !NOT_CONTRIBUTED.includes(id)), []);
    assert.deepEqual(NOT_CONTRIBUTED.filter((id) => contributed.includes(id)), []);
  });

  it('each id is constant once and contributed once', () => {
    assert.equal(new Set(constants).size, constants.length);
    assert.equal(new Set(contributed).size, contributed.length);
  });

  it('every menu entry names a contributed command', () => {
    const named = Object.entries(manifest.contributes.menus).flatMap(([menu, entries]) =>
      entries.flatMap((entry) => (entry.command ? [{ menu, command: entry.command }] : [])));
    assert.ok(named.length > 0);
    assert.deepEqual(named.filter((entry) => !contributed.includes(entry.command)), []);
  });
});
