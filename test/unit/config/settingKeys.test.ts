// The setting-key tables (src/config/settingKeys.ts) and the manifest agree both ways: every contributed setting has
// its constant and every constant is a contributed setting.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { allSettingKeys } from '../../../src/config/settingKeys';

interface Manifest {
  contributes: { configuration: { properties: Record<string, unknown> } };
}

const root = path.resolve(__dirname, '..', '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
const contributed = Object.keys(manifest.contributes.configuration.properties);
const constants = allSettingKeys();

describe('setting keys: the constants and package.json', () => {
  it('every contributed setting has a constant', () => {
    assert.deepEqual(contributed.filter((key) => !constants.includes(key)), []);
  });

  it('every constant is a contributed setting, named once', () => {
    assert.deepEqual(constants.filter((key) => !contributed.includes(key)), []);
    assert.equal(new Set(constants).size, constants.length);
  });
});
