/**
 * Counts the requests an action sends and the round trips on its critical path, deterministically: the client's
 * fetch is wrapped so that answers are held back and handed out together, one "flight" at a time, once the client
 * has sent everything it would send before hearing back (nothing more is sent over several turns of the event
 * loop). Requests sent in the same flight share a round trip; one that waited for an answer goes in the next. This
 * is how a network with a long latency orders them, without any timing, so the figures hold on a busy machine.
 */
import { Readable } from 'node:stream';
import nodeFetch, { Response } from 'node-fetch';
import type { FetchFunction } from '../../src/api/http';

export interface SentRequest {
  readonly method: string;
  /** Path and query, without the origin. */
  readonly target: string;
  /** The round trip it went out in (1 for the first flight). */
  readonly wave: number;
}

/** Turns of the event loop without a new request after which the client is taken to be waiting for answers. */
const QUIET_TURNS = 20;

export class RequestWaves {
  private readonly sent: SentRequest[] = [];
  private flights = 0;
  /** Requests sent whose answer has not yet come back from the server. */
  private unanswered = 0;
  private readonly held: (() => void)[] = [];
  private releasing = false;

  constructor(private readonly inner: FetchFunction = (url, init) => nodeFetch(url, init)) {}

  /** The fetch to hand to HttpClient. */
  readonly fetch: FetchFunction = async (url, init) => {
    const parsed = new URL(url);
    this.sent.push({ method: init?.method ?? 'GET', target: `${parsed.pathname}${parsed.search}`, wave: this.flights + 1 });
    this.unanswered++;
    let body: Buffer;
    let response: Response;
    try {
      response = await this.inner(url, init);
      body = Buffer.from(await response.arrayBuffer());
    } finally {
      this.unanswered--;
    }
    await new Promise<void>((resolve) => {
      this.held.push(resolve);
      void this.releaseWhenQuiet();
    });
    // A stream, as node-fetch gives (a Buffer body would be handed out as the Buffer itself).
    return new Response(response.status === 204 || response.status === 304 ? undefined : Readable.from([body]), { status: response.status, statusText: response.statusText, headers: response.headers, url: response.url });
  };

  /** Resolves once the client has sent everything it would send now (requests started in the background included). */
  async quiet(): Promise<void> {
    let seen = this.sent.length;
    for (let quiet = 0; quiet < QUIET_TURNS; quiet++) {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.sent.length !== seen) {
        seen = this.sent.length;
        quiet = -1;
      }
    }
  }

  /** Forgets what was sent so far: the next action is counted on its own. */
  reset(): void {
    this.sent.length = 0;
    this.flights = 0;
  }

  get requests(): readonly SentRequest[] {
    return this.sent;
  }

  /** Round trips on the critical path: the last flight any request went out in. */
  get roundTrips(): number {
    return this.sent.reduce((deepest, request) => Math.max(deepest, request.wave), 0);
  }

  /** "N requests, M round trips: GET /path (1), …" for assertion messages and the report. */
  describe(): string {
    return `${this.sent.length} requests, ${this.roundTrips} round trips: ${this.sent.map((request) => `${request.method} ${request.target.split('?')[0]} (${request.wave})`).join(', ')}`;
  }

  /** Hands out every held answer at once when every request sent has its answer and nothing new was sent meanwhile. */
  private async releaseWhenQuiet(): Promise<void> {
    if (this.releasing) return;
    this.releasing = true;
    try {
      let seen = this.sent.length;
      for (let quiet = 0; quiet < QUIET_TURNS; quiet++) {
        await new Promise((resolve) => setImmediate(resolve));
        if (this.sent.length !== seen || this.unanswered > 0) {
          seen = this.sent.length;
          quiet = -1;
        }
      }
      this.flights++;
      for (const release of this.held.splice(0)) release();
    } finally {
      this.releasing = false;
    }
    if (this.held.length > 0) void this.releaseWhenQuiet();
  }
}
