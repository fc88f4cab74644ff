import * as assert from 'node:assert/strict';
import type { GaxiosOptionsPrepared, GaxiosPromise } from 'gaxios';
import { Router } from '../../src/emulator/core/router';
import type { RunningEmulator } from '../../src/emulator/emulator';
import { answerProblems, documentedExtensions } from './discoverySchemas';

type Adapter = <T = unknown>(options: GaxiosOptionsPrepared, defaultAdapter: (options: GaxiosOptionsPrepared) => GaxiosPromise<T>) => GaxiosPromise<T>;

/** Options that point an official @googleapis/* client at the emulator, signed in as `email` (omit it for none). */
export interface OfficialClientOptions {
  rootUrl: string;
  headers?: { Authorization: string };
  retry: false;
  /** Checks every JSON answer against the method's response schema in Google's discovery document. */
  adapter: Adapter;
}

export function officialClientOptions(emulator: RunningEmulator, email?: string): OfficialClientOptions {
  // No auth client: a bearer header on every call, and the emulator as the root. No retries: a test wants the first answer.
  const rootUrl = `${emulator.url}/`;
  const adapter = schemaCheckingAdapter(emulator);
  if (email === undefined) return { rootUrl, retry: false, adapter };
  return { rootUrl, headers: { Authorization: `Bearer ${emulator.tokenFor(email).accessToken}` }, retry: false, adapter };
}

/**
 * A gaxios adapter that lets each call through and then checks a successful JSON answer against the response
 * schema of the method its route serves: a mismatch rejects the call, naming every wrong property.
 */
export function schemaCheckingAdapter(emulator: RunningEmulator): Adapter {
  const router = new Router();
  router.addAll(emulator.routes());
  const extensions = documentedExtensions();
  return async <T>(options: GaxiosOptionsPrepared, defaultAdapter: (options: GaxiosOptionsPrepared) => GaxiosPromise<T>): GaxiosPromise<T> => {
    const response = await defaultAdapter(options);
    const url = new URL(options.url);
    const isJson = /^application\/json/.test(response.headers.get('content-type') ?? '');
    if (response.status < 200 || response.status >= 300 || !isJson || url.searchParams.get('alt') === 'media') return response;
    const route = router.match((options.method ?? 'GET').toUpperCase(), url.pathname).match?.route;
    const problems = route ? answerProblems(route.id, response.data, extensions) : [];
    if (problems.length > 0) {
      throw new Error(`${route?.id ?? '?'} answered outside Google's schema (${options.method ?? 'GET'} ${url.pathname}):\n  ${problems.slice(0, 20).join('\n  ')}${problems.length > 20 ? `\n  …and ${problems.length - 20} more` : ''}`);
    }
    return response;
  };
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
