import * as assert from 'node:assert/strict';
import { AccessTooltips } from '../../../../../src/features/drive/sharing/accessTooltip';
import type { SharingApi } from '../../../../../src/features/drive/sharing/port';
import type { DriveItem } from '../../../../../src/features/drive/port';
import type { PermissionList } from '../../../../../src/shared/schemas/drive/permissions';
import { english as t } from '../../../../../src/shared/l10n';

/** A permissions.list that counts its calls and answers what the test sets. */
function fakeApi(answer: () => PermissionList | Error): { api: Pick<SharingApi, 'listPermissions'>; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    api: {
      async listPermissions(fileId) {
        calls.push(fileId);
        const result = answer();
        if (result instanceof Error) throw result;
        return result;
      },
    },
  };
}

describe('Drive access tooltips', () => {
  const file: DriveItem = { id: 'f1', title: 'plan.md', etag: '"v1"' };
  const list: PermissionList = { items: [{ id: '1', type: 'user', role: 'owner', name: 'Alice' }, { id: 'anyoneWithLink', type: 'anyone', role: 'reader', withLink: true }] };

  it('asks Drive once per file version: a hover again is free, a new etag asks again', async () => {
    const { api, calls } = fakeApi(() => list);
    const tooltips = new AccessTooltips(() => api, t);
    assert.deepEqual(await tooltips.describe(file), ['Who has access: Alice (Owner)', 'Anyone with the link can view']);
    await tooltips.describe(file);
    assert.deepEqual(calls, ['f1']);
    await tooltips.describe({ ...file, etag: '"v2"' });
    assert.deepEqual(calls, ['f1', 'f1']);
    tooltips.reset();
    await tooltips.describe({ ...file, etag: '"v2"' });
    assert.equal(calls.length, 3, 'reset forgets');
  });

  it('falls back to what the file says when Drive will not list its permissions, and tries again next time', async () => {
    let fail = true;
    const { api, calls } = fakeApi(() => (fail ? new Error('403') : list));
    const logged: string[] = [];
    const tooltips = new AccessTooltips(() => api, t, (message) => logged.push(message));
    const shared: DriveItem = { ...file, ownedByMe: false, sharingUser: { displayName: 'Bob' } };
    assert.deepEqual(await tooltips.describe(shared), ['Shared with you by Bob']);
    assert.equal(logged.length, 1);
    fail = false;
    assert.deepEqual(await tooltips.describe(shared), ['Who has access: Alice (Owner)', 'Anyone with the link can view', 'Shared with you by Bob']);
    assert.equal(calls.length, 2);
  });
});
