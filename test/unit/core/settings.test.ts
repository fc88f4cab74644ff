import * as assert from 'node:assert/strict';
import { chooseBackend, ConfigurationReader, readDeskSettings } from '../../../src/core/settings';

function config(values: Record<string, unknown>): ConfigurationReader {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- ConfigurationReader's get<T>, whose T the caller names
  return { get: <T>(section: string): T | undefined => values[section] as T | undefined };
}

describe('settings and backend choice', () => {
  it('auto picks the embedded emulator when no Google client id is set', () => {
    assert.deepEqual(chooseBackend(readDeskSettings(config({}))), { kind: 'emulator', url: undefined, seed: 'demo' });
  });

  it('auto picks Google once a client id is configured', () => {
    const choice = chooseBackend(readDeskSettings(config({ 'desk.google.clientId': 'abc.apps.googleusercontent.com' })));
    assert.deepEqual(choice, { kind: 'google', clientId: 'abc.apps.googleusercontent.com' });
  });

  it('an explicit emulator choice uses the configured URL without its trailing slash', () => {
    const choice = chooseBackend(readDeskSettings(config({ 'desk.backend': 'emulator', 'desk.emulator.url': 'http://127.0.0.1:9000/', 'desk.google.clientId': 'x', 'desk.emulator.seed': 'none' })));
    assert.deepEqual(choice, { kind: 'emulator', url: 'http://127.0.0.1:9000', seed: 'none' });
  });

  it('falls back to defaults for values of the wrong type or range', () => {
    const settings = readDeskSettings(config({
      'desk.backend': 'mainframe',
      'desk.emulator.url': 'not a url',
      'desk.emulator.seed': 42,
      'desk.tasks.showCompleted': 'yes',
      'desk.tasks.pageSize': 5000,
    }));
    assert.equal(settings.backend, 'auto');
    assert.equal(settings.emulatorUrl, undefined);
    assert.equal(settings.emulatorSeed, 'demo');
    assert.equal(settings.tasksShowCompleted, true);
    assert.equal(settings.tasksPageSize, 100);
    assert.equal(readDeskSettings(config({ 'desk.tasks.pageSize': 20, 'desk.tasks.showCompleted': false })).tasksPageSize, 20);
  });
});
