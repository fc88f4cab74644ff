/**
 * Drive's live changes by push vs by polling (printed, never asserted): latency from another client's insert to the
 * change poller reporting it and the status-bar text being ready, through the extension's own pure parts — DriveClient,
 * ChangePoller (the sync engine), ChangeLog, and for push the Channels feature's built-in HTTPS receiver with a
 * changes.watch channel (certificate from the emulator's CA). Modes:
 *  - push: the receiver's notification triggers the fetch; the timer keeps one safety-net poll per `pushMs`;
 *  - long poll: the emulator-only held changes.list of a focused, active window;
 *  - polling every 3 s: what a focused, active window does against Google.
 * Plus the requests per hour each mode makes while nothing changes (from the schedule).
 */
import { performance } from 'node:perf_hooks';
import { ChannelsClient } from '../src/api/channels';
import { DriveClient } from '../src/api/drive';
import { HttpClient } from '../src/api/http';
import { DEFAULT_SCHEDULE, TokenStore } from '../src/core/sync/poller';
import { ChannelReceiver } from '../src/features/channels/receiver/server';
import { ChangeLog } from '../src/features/drive/changes/changeLog';
import { ChangePoller, ChangeSource } from '../src/features/drive/changes/poller';
import { changeSourceFor, isInvalidPageToken } from '../src/features/drive/driveAdapter';
import { channelRegistryFor } from '../src/emulator/core/channels';
import { startEmulator } from '../src/emulator/emulator';
import { machineLoad, ms as milliseconds, percentiles, runWhenMain } from './support/stats';

const ms = (value: number): string => milliseconds(value, 1);
type Mode = 'push' | 'long poll' | 'polling every 3 s';
const MODES: readonly Mode[] = ['push', 'long poll', 'polling every 3 s'];

export async function run(): Promise<void> {
  const emulator = await startEmulator({ port: 0, seed: 'demo' });
  const registry = channelRegistryFor(emulator.deps);
  const certificate = registry.certificateAuthority().issue({ hosts: ['127.0.0.1'] });
  const token = emulator.tokenFor('alice@example.com').accessToken;
  const http = new HttpClient({ rootUrl: () => emulator.url, token: async () => token });
  const other = new DriveClient(new HttpClient({ rootUrl: () => emulator.url, token: async () => token }));
  try {
    console.log(`drive push ${machineLoad()}`);
    console.log('latency from another client\'s insert to the status-bar text (focused, active window; memory store)');
    console.log('mode                 | samples | p50      | p95      | max       | requests per change (run)');
    for (const mode of MODES) {
      const real = changeSourceFor(new DriveClient(http));
      // Against Google (and in push mode, where the poller never holds a request) the long-poll announcement is hidden.
      const source: ChangeSource = mode === 'long poll' ? real : {
        startToken: (signal) => real.startToken(signal),
        listPage: async (request) => ({ ...(await real.listPage({ pageToken: request.pageToken, signal: request.signal })), longPollAvailable: false }),
      };
      const values = new Map<string, string>();
      const tokens: TokenStore = { get: (key) => values.get(key), set: (key, value) => { if (value === undefined) values.delete(key); else values.set(key, value); } };
      const log = new ChangeLog();
      const waiting = new Map<string, (at: number) => void>();
      const poller = new ChangePoller({
        source,
        tokens,
        tokenKey: 'bench',
        onChanges: (outcome) => {
          const news = log.add(outcome.changes);
          // What the status bar shows (ChangesStatusBar.update reads exactly this).
          log.statusText();
          const now = performance.now();
          for (const entry of news) waiting.get(entry.title)?.(now);
          log.markSeen();
        },
        isInvalidToken: isInvalidPageToken,
      });
      let receiver: ChannelReceiver | undefined;
      const channelId = `bench-drive-push-${Date.now()}`;
      if (mode === 'push') {
        receiver = new ChannelReceiver({
          cert: certificate.cert,
          key: certificate.key,
          lookup: (id) => (id === channelId ? { token: 'bench-token' } : undefined),
          onNotification: (notification) => {
            // As the Channels feature does: the first message proves the path (push works), each change triggers a fetch.
            poller.setPushActive(true);
            if (notification.resourceState !== 'sync') poller.pushNotified();
          },
        });
        const address = await receiver.start();
        await new ChannelsClient({ drive: http, calendar: http, directory: http }).watchDriveChanges({ id: channelId, type: 'web_hook', address, token: 'bench-token' });
      }
      poller.setSignedIn(true);
      poller.start();
      const samples: number[] = [];
      let requests = 0;
      try {
        while (!values.get('bench') || poller.polls < 2 || (mode === 'push' && !poller.pushed)) await new Promise((resolve) => setTimeout(resolve, 20));
        const count = mode === 'polling every 3 s' ? 12 : 40;
        const before = poller.requestCount;
        for (let sample = 0; sample < count; sample++) {
          poller.noteActivity();
          // Changes land at random moments relative to the poll schedule.
          await new Promise((resolve) => setTimeout(resolve, mode === 'polling every 3 s' ? Math.random() * DEFAULT_SCHEDULE.activeMs : 20 + Math.random() * 30));
          const title = `bench-${mode.slice(0, 4)}-${sample}`;
          const noticed = new Promise<number>((resolve) => waiting.set(title, resolve));
          const started = performance.now();
          await other.insertFile({ title, mimeType: 'text/plain', parents: [{ id: 'root' }] });
          samples.push((await noticed) - started);
        }
        requests = (poller.requestCount - before) / count;
      } finally {
        poller.stop();
        await receiver?.stop();
      }
      const { p50, p95, max } = percentiles(samples);
      console.log(`${mode.padEnd(20)} | ${String(samples.length).padStart(7)} | ${ms(p50).padEnd(8)} | ${ms(p95).padEnd(8)} | ${ms(max).padEnd(9)} | ${requests.toFixed(1)}`);
    }
    const s = DEFAULT_SCHEDULE;
    console.log('requests per hour while nothing changes (from the schedule):');
    console.log(`  push: ${(3_600_000 / s.pushMs).toFixed(0)} (one safety-net poll every ${s.pushMs / 60_000} min, plus one per notification)`);
    console.log(`  long poll, focused and active: about ${(3_600 / s.longPollSeconds).toFixed(0)} held requests`);
    console.log(`  polling, focused and active: ${(3_600_000 / s.activeMs).toFixed(0)}; idle or unfocused: ${(3_600_000 / s.maxIdleMs).toFixed(0)} once backed off to ${s.maxIdleMs / 60_000} min`);
    console.log(`  → by polling a change waits half the interval on average: ${(s.activeMs / 2000).toFixed(1)} s active, up to ${(s.maxIdleMs / 2000).toFixed(0)} s idle or unfocused; by push, the p50 above whatever the window does`);
  } finally {
    await emulator.close();
  }
}

runWhenMain(module, run);
