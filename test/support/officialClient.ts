import * as assert from 'node:assert/strict';
import type { RunningEmulator } from '../../src/emulator/emulator';

/** Options that point an official @googleapis/* client at the emulator, signed in as `email` (omit it for none). */
export interface OfficialClientOptions {
  rootUrl: string;
  headers?: { Authorization: string };
  retry: false;
}

export function officialClientOptions(emulator: RunningEmulator, email?: string): OfficialClientOptions {
  // No auth client: a bearer header on every call, and the emulator as the root. No retries: a test wants the first answer.
  const rootUrl = `${emulator.url}/`;
  if (email === undefined) return { rootUrl, retry: false };
  return { rootUrl, headers: { Authorization: `Bearer ${emulator.tokenFor(email).accessToken}` }, retry: false };
}

/** The HTTP status of a rejection from the official client (a GaxiosError), whatever its version's shape. */
export function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, response, code } = error as { status?: unknown; response?: { status?: unknown }; code?: unknown };
  if (typeof status === 'number') return status;
  if (typeof response?.status === 'number') return response.status;
  if (typeof code === 'number') return code;
  if (typeof code === 'string' && /^\d+$/.test(code)) return Number(code);
  return undefined;
}

export async function rejectsWith(promise: Promise<unknown>, status: number): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.equal(statusOf(error), status, String(error));
    return true;
  });
}
