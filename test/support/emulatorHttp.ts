/** Raw HTTP against a running emulator, for tests that check status codes, headers and Google's error bodies. */
import * as assert from 'node:assert/strict';
import type { RunningEmulator } from '../../src/emulator/emulator';
import { googleErrorBodySchema, GoogleErrorBody } from '../../src/shared/schemas/errors';

export interface HttpCallOptions {
  /** Sent as JSON with Content-Type application/json. */
  json?: unknown;
  /** Sent verbatim (malformed JSON, media) with `contentType` (default application/json for strings, octet-stream for bytes). */
  body?: Buffer | string;
  contentType?: string;
  headers?: Record<string, string>;
  /** The bearer token; null sends no Authorization header; undefined uses the default token. */
  token?: string | null;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  bytes: Buffer;
  /** The parsed body, or undefined when it is empty or not JSON. */
  json: unknown;
}

export type EmulatorCall = (method: string, path: string, options?: HttpCallOptions) => Promise<HttpAnswer>;

/** A `call` bound to one emulator, sending `defaultToken()` unless a call names another (or null). */
export function emulatorHttp(emulator: RunningEmulator, defaultToken: () => string | null): EmulatorCall {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    const token = options.token === undefined ? defaultToken() : options.token;
    if (token !== null) headers.Authorization = `Bearer ${token}`;
    let body: Buffer | string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['Content-Type'] = 'application/json';
    } else if (options.body !== undefined) {
      body = options.body;
      headers['Content-Type'] = options.contentType ?? (typeof body === 'string' ? 'application/json' : 'application/octet-stream');
    }
    const response = await fetch(`${emulator.url}${path}`, { method, headers, body, redirect: 'manual' });
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = bytes.toString('utf8');
    let json: unknown;
    try {
      json = text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, bytes, json };
  };
}

/** Asserts a Google-format error with this status (and reason), and returns its `error` object. */
export async function expectGoogleError(answer: HttpAnswer | Promise<HttpAnswer>, status: number, reason?: string): Promise<GoogleErrorBody['error']> {
  const { status: actual, text, json } = await answer;
  assert.equal(actual, status, text);
  const body = googleErrorBodySchema.parse(json);
  assert.equal(body.error.code, status);
  if (reason !== undefined) assert.equal(body.error.errors?.[0]?.reason, reason);
  return body.error;
}
