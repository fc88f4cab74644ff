import * as assert from 'node:assert/strict';
import type { DeskContext } from '../../../../src/core/deskContext';
import { refuseOffline } from '../../../../src/core/offline/offlineRefusal';
import { fakeVscode } from '../../../support/fakeVscode';

describe('Actions that affect other people, offline', () => {
  function setUp(online: boolean) {
    const vs = fakeVscode() as unknown as Record<string, unknown>;
    const warnings: string[] = [];
    (vs.window as Record<string, unknown>).showWarningMessage = async (message: string) => void warnings.push(message);
    const desk = { vs, connectivity: { online } } as unknown as Pick<DeskContext, 'vs' | 'connectivity'>;
    const sent: string[] = [];
    const table = refuseOffline(desk, {
      'desk.drive.share': (email?: string): unknown => void sent.push(`share with ${String(email)}`),
      'desk.drive.rename': (): unknown => void sent.push('rename'),
    }, ['desk.drive.share']);
    return { table, sent, warnings };
  }

  it('are refused up front with a clear message: nothing is sent, nothing is kept', async () => {
    const { table, sent, warnings } = setUp(false);
    assert.equal(table['desk.drive.share']('bob@example.com'), undefined);
    assert.deepEqual(sent, []);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /offline: this affects other people, so it is not kept for later/);
    assert.doesNotMatch(warnings[0] ?? '', /https?:|\?|ECONN/);
    // Changes of the user's own files still run (and are kept by their feature when Drive cannot be reached).
    table['desk.drive.rename']();
    assert.deepEqual(sent, ['rename']);
  });

  it('run as before when online', () => {
    const { table, sent, warnings } = setUp(true);
    table['desk.drive.share']('bob@example.com');
    assert.deepEqual(sent, ['share with bob@example.com']);
    assert.deepEqual(warnings, []);
  });
});
