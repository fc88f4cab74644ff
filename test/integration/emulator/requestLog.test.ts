import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readRequestLog } from '../../../src/emulator/core/requestLog';
import { startEmulator } from '../../../src/emulator/emulator';

/**
 * The emulator's `--request-log`, which the network benchmark reads: one timed record per answered request (overlaps
 * tell parallel from sequential), nothing left in flight once answered, and never a credential in the file.
 */
describe('emulator request log (--request-log)', () => {
  it('times each request, with its status, and writes no token', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'desk-request-log-')), 'requests.jsonl');
    const emulator = await startEmulator({ seed: 'demo', latencyMs: 50, requestLog: file });
    try {
      const token = emulator.tokenFor('alice@example.com').accessToken;
      const lists = `${emulator.url}/tasks/v1/users/@me/lists`;
      // Two at once (parallel), then one after them (sequential), one of them with the token in the query.
      await Promise.all([fetch(lists, { headers: { Authorization: `Bearer ${token}` } }), fetch(`${lists}?access_token=${token}`)]);
      const missing = await fetch(`${emulator.url}/tasks/v1/lists/nope/tasks`, { headers: { Authorization: `Bearer ${token}` } });
      assert.equal(missing.status, 404);

      const { answered, inFlight } = readRequestLog(file);
      assert.equal(inFlight, 0);
      assert.deepEqual(answered.map((record) => [record.method, record.target.split('?')[0], record.status]), [
        ['GET', '/tasks/v1/users/@me/lists', 200],
        ['GET', '/tasks/v1/users/@me/lists', 200],
        ['GET', '/tasks/v1/lists/nope/tasks', 404],
      ]);
      const [first, second, last] = answered as [typeof answered[0], typeof answered[0], typeof answered[0]];
      assert.ok(first.endMs - first.startMs >= 50, 'the latency is inside the record');
      assert.ok(first.startMs < second.endMs && second.startMs < first.endMs, 'the two at once overlap');
      assert.ok(last.startMs >= Math.max(first.endMs, second.endMs), 'the one after starts after both ended');
      const text = fs.readFileSync(file, 'utf8');
      assert.ok(!text.includes(token), 'no token in the file');
      assert.match(text, /access_token=\[REDACTED\]/);
    } finally {
      await emulator.close();
    }
  });

});
