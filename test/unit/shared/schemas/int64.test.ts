/** Desk's client reads Google's int64 strings (and numbers) where it reads sizes, versions, change ids and channel expirations. */
import * as assert from 'node:assert/strict';
import { channelSchema } from '../../../../src/shared/schemas/channels';
import { aboutSchema, changeSchema, driveFileSchema } from '../../../../src/shared/schemas/drive/files';
import { revisionSchema } from '../../../../src/shared/schemas/drive/revisions';

describe('int64 in responses (string as Google sends it, or a number)', () => {
  it('reads a channel expiration of either form as epoch milliseconds', () => {
    assert.equal(channelSchema.parse({ id: 'c', resourceId: 'r', expiration: '1796493894846' }).expiration, 1796493894846);
    assert.equal(channelSchema.parse({ id: 'c', resourceId: 'r', expiration: 1796493894846 }).expiration, 1796493894846);
    assert.throws(() => channelSchema.parse({ id: 'c', resourceId: 'r', expiration: 'soon' }));
  });

  it('reads Drive sizes, versions, quotas and change ids of either form as their digits', () => {
    assert.deepEqual(driveFileSchema.parse({ id: 'f', fileSize: 12, version: '7', quotaBytesUsed: 12 }), { id: 'f', fileSize: '12', version: '7', quotaBytesUsed: '12' });
    assert.equal(aboutSchema.parse({ largestChangeId: 41, quotaBytesTotal: '16106127360' }).largestChangeId, '41');
    assert.equal(changeSchema.parse({ id: 42 }).id, '42');
    assert.equal(revisionSchema.parse({ id: '1', fileSize: '9007199254740993' }).fileSize, '9007199254740993', 'beyond 2^53 kept exact');
    assert.throws(() => driveFileSchema.parse({ id: 'f', fileSize: '12 bytes' }));
  });
});
