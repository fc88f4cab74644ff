import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { channelRegistryFor } from '../src/emulator/core/channels';
import { directoryModule } from '../src/emulator/directory';
import { startEmulator } from '../src/emulator/emulator';
import { machineLoad, ms, runWhenMain } from './support/stats';

/**
 * Channel delivery figures (printed, never asserted), memory store, real HTTPS on loopback to a receiver whose
 * certificate comes from the emulator's CA:
 *  1. change → receiver latency: from sending a users.patch to the `update` message arriving, one channel (p50, p99).
 *  2. fan-out: one change delivered to 1,000 channels on the same resource (time until the last arrives).
 * Targets from the issue: p50 ≤ 20 ms; 1,000 channels ≤ 2 s.
 */

const SAMPLES = 200;
const FAN_OUT = 1000;

function p50p99(samples: readonly number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (share: number): number => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? NaN;
  return `p50 ${ms(at(0.5))}, p99 ${ms(at(0.99))}`;
}

export async function run(): Promise<void> {
  const emulator = await startEmulator({ port: 0 }, [directoryModule]);
  const registry = channelRegistryFor(emulator.deps);
  const certificate = registry.certificateAuthority().issue({ hosts: ['127.0.0.1'] });
  let onMessage: (channelId: string, state: string) => void = () => undefined;
  const receiver = https.createServer({ cert: certificate.cert, key: certificate.key, keepAliveTimeout: 60_000 }, (request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200);
      response.end();
      onMessage(String(request.headers['x-svc-channel-id']), String(request.headers['x-svc-resource-state']));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => { resolve(); }));
  const address = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/notify`;
  const token = emulator.tokenFor('alice@example.com').accessToken;
  const call = async (method: string, path: string, body: unknown): Promise<void> => {
    const response = await fetch(`${emulator.url}${path}`, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  };
  const watch = (id: string): Promise<void> => call('POST', '/admin/directory/v1/users/watch?domain=example.com&event=update', { id, type: 'web_hook', address });
  const settled = async (): Promise<void> => {
    while (registry.delivery.pending() > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  try {
    console.log(`channels ${machineLoad()}`);

    await watch('latency');
    await settled();
    const latencies: number[] = [];
    for (let index = 0; index < SAMPLES; index++) {
      const arrived = new Promise<void>((resolve) => {
        onMessage = (channelId, state) => {
          if (channelId === 'latency' && state === 'update') resolve();
        };
      });
      const started = performance.now();
      await Promise.all([call('PATCH', '/admin/directory/v1/users/bob@example.com', { name: { givenName: `Bob${index}` } }), arrived]);
      latencies.push(performance.now() - started);
    }
    console.log(`change → receiver, 1 channel (${SAMPLES} changes): ${p50p99(latencies)}`);
    await call('POST', '/admin/directory_v1/channels/stop', { id: 'latency', resourceId: registry.get('latency')?.resourceId });

    const watchStarted = performance.now();
    for (let batch = 0; batch < FAN_OUT; batch += 50) {
      await Promise.all(Array.from({ length: Math.min(50, FAN_OUT - batch) }, (_, offset) => watch(`fan-${batch + offset}`)));
    }
    await settled();
    console.log(`${FAN_OUT} watches (TLS certificate check each) and their sync messages: ${ms(performance.now() - watchStarted, 0)}`);
    for (let round = 0; round < 3; round++) {
      let received = 0;
      const allArrived = new Promise<void>((resolve) => {
        onMessage = (channelId, state) => {
          if (channelId.startsWith('fan-') && state === 'update' && ++received === FAN_OUT) resolve();
        };
      });
      const started = performance.now();
      await Promise.all([call('PATCH', '/admin/directory/v1/users/carol@example.com', { name: { givenName: `Carol${round}` } }), allArrived]);
      console.log(`one change → ${FAN_OUT} channels, round ${round + 1}: last message after ${ms(performance.now() - started, 0)}`);
    }
  } finally {
    await emulator.close();
    await new Promise<void>((resolve) => {
      receiver.close(() => { resolve(); });
      receiver.closeAllConnections();
    });
  }
}

runWhenMain(module, run);
