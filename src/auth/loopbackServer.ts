import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { markInstance } from '../shared/crossBundle';
import { english, Translate } from '../shared/l10n';

/**
 * The redirect target of the installed-app flow: an HTTP server on 127.0.0.1 at a free port with one
 * callback path. It waits for the browser to come back with `code` and our `state`, answers the browser
 * with a short page, and resolves with the code. A callback with another state is answered 400 and
 * ignored, so a forged request can neither finish nor cancel the real sign-in.
 */
export interface LoopbackOptions {
  /** The state sent in the authorization URL; only a callback carrying it is accepted. */
  readonly expectedState: string;
  readonly callbackPath?: string;
  /** How long to wait for the browser (default 5 minutes). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Words the browser page and the errors (vscode.l10n.t). */
  readonly t?: Translate;
}

/** The browser came back with an error (the user pressed Cancel, or the server refused). */
export class AuthorizationDeniedError extends Error {
  constructor(readonly code: string, description: string | undefined, t: Translate = english) {
    super(code === 'access_denied' ? t('Sign-in was cancelled in the browser.') : t('Sign-in failed in the browser: {0} ({1})', description ?? code, code));
    this.name = 'AuthorizationDeniedError';
  }
}

export class SignInCancelledError extends Error {
  constructor(message = 'Sign-in was cancelled.') {
    super(message);
    this.name = 'SignInCancelledError';
  }
}

/**
 * The user called the sign-in off (said no to VS Code's question about opening the browser, or pressed Cancel): a cancel
 * like any other, which Desk's command wrapper does not report as an error (marked as the API layer's CancelledError).
 */
export class SignInDeclinedError extends SignInCancelledError {
  constructor(message = 'Sign-in was cancelled.') {
    super(message);
    this.name = 'SignInDeclinedError';
    markInstance(this, 'CancelledError');
  }
}

const DEFAULT_TIMEOUT_MS = 5 * 60 * 1000;

export class LoopbackServer {
  private readonly server: http.Server;
  private readonly result: Promise<string>;
  private settle!: { resolve: (code: string) => void; reject: (error: Error) => void };
  private settled = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly callbackPath: string;
  private port = 0;
  private readonly t: Translate;

  private constructor(private readonly options: LoopbackOptions) {
    this.t = options.t ?? english;
    this.callbackPath = options.callbackPath ?? '/callback';
    this.result = new Promise<string>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    // Callers may wait for the code only after opening the browser: never report an unhandled rejection meanwhile.
    this.result.catch(() => undefined);
    this.server = http.createServer((request, response) => { this.handle(request, response); });
  }

  /** Starts listening on 127.0.0.1 at a free port. */
  static async start(options: LoopbackOptions): Promise<LoopbackServer> {
    const loopback = new LoopbackServer(options);
    await loopback.listen();
    return loopback;
  }

  /** `http://127.0.0.1:<port>/callback`: the redirect URI to register in the authorization request. */
  get redirectUri(): string {
    return `http://127.0.0.1:${this.port}${this.callbackPath}`;
  }

  /** The authorization code, once the browser delivers it; rejects on denial, timeout or cancellation. */
  waitForCode(): Promise<string> {
    return this.result;
  }

  /** Stops listening and fails a pending wait as cancelled. */
  async close(): Promise<void> {
    this.fail(new SignInCancelledError(this.t('Sign-in was cancelled.')));
    await new Promise<void>((resolve) => {
      this.server.close(() => { resolve(); });
      this.server.closeAllConnections();
    });
  }

  private async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => { resolve(); });
    });
    this.port = (this.server.address() as AddressInfo).port;
    this.timer = setTimeout(() => { this.fail(new SignInCancelledError(this.t('Sign-in timed out: the browser did not come back in time.'))); }, this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const { signal } = this.options;
    if (signal) {
      if (signal.aborted) this.fail(new SignInDeclinedError(this.t('Sign-in was cancelled.')));
      else signal.addEventListener('abort', () => { this.fail(new SignInDeclinedError(this.t('Sign-in was cancelled.'))); }, { once: true });
    }
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    const t = this.t;
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== this.callbackPath) {
      reply(response, 404, t('Not found'), t('This address only receives the sign-in callback.'));
      return;
    }
    if (request.method !== 'GET') {
      response.setHeader('Allow', 'GET');
      reply(response, 405, t('Method not allowed'), t('The sign-in callback is a GET request.'));
      return;
    }
    const state = url.searchParams.get('state');
    if (state !== this.options.expectedState) {
      reply(response, 400, t('Sign-in not recognised'), t('This browser response does not belong to the sign-in in progress. Start the sign-in again from VS Code.'));
      return;
    }
    if (this.settled) {
      reply(response, 400, t('Sign-in already finished'), t('This sign-in has already been completed or cancelled. You can close this tab.'));
      return;
    }
    const error = url.searchParams.get('error');
    if (error) {
      const denied = new AuthorizationDeniedError(error, url.searchParams.get('error_description') ?? undefined, t);
      reply(response, 200, t('Sign-in cancelled'), t('{0} You can close this tab and return to VS Code.', denied.message));
      this.fail(denied);
      return;
    }
    const code = url.searchParams.get('code');
    if (!code) {
      reply(response, 400, t('Sign-in incomplete'), t('The browser response has no authorization code. Start the sign-in again from VS Code.'));
      return;
    }
    reply(response, 200, t('Signed in'), t('You are signed in. You can close this tab and return to VS Code.'));
    this.succeed(code);
  }

  private succeed(code: string): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.settle.resolve(code);
  }

  private fail(error: Error): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.settle.reject(error);
  }
}

function reply(response: http.ServerResponse, status: number, title: string, message: string): void {
  const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;display:flex;justify-content:center;padding-top:15vh;color:#202124}main{max-width:30rem;text-align:center}</style>
</head><body><main><h1>${escape(title)}</h1><p>${escape(message)}</p></main></body></html>`;
  response.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    // The callback URL carries the code: do not pass it on to any page the user opens next.
    'Referrer-Policy': 'no-referrer',
    Connection: 'close',
  });
  response.end(html);
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
