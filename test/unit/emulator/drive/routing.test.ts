import * as assert from 'node:assert/strict';
import type { DriveService } from '../../../../src/emulator/drive/service';
import { driveRouteKit } from '../../../../src/emulator/drive/routing';

describe('Drive route kit', () => {
  it('removes content a mutation left behind only after the metadata change is durable', async () => {
    const events: string[] = [];
    let durable: () => void = () => undefined;
    const service = {
      flush: () => new Promise<void>((resolve) => {
        events.push('flush started');
        durable = () => {
          events.push('flush done');
          resolve();
        };
      }),
      blobs: { remove: async (blobId: string) => void events.push(`remove ${blobId}`) },
    } as unknown as DriveService;
    const freeing = driveRouteKit(service).freeBlobs(['old-content']);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(events, ['flush started'], 'nothing removed while the metadata is not yet durable');
    durable();
    await freeing;
    assert.deepEqual(events, ['flush started', 'flush done', 'remove old-content']);
  });
});
