/** The built-in HTTPS receiver: listens on 127.0.0.1 with a certificate the backend trusts, answers each notification as checkNotification decides, and reports the accepted ones (no vscode). */
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { checkNotification, KnownChannel, ReceivedNotification } from './check';

export interface ReceiverOptions {
  readonly cert: string;
  readonly key: string;
  readonly lookup: (channelId: string) => KnownChannel | undefined;
  readonly onNotification: (notification: ReceivedNotification) => void;
  /** A refused request (wrong token, unknown channel), for the log. */
  readonly onRefused?: (status: number, reason: string) => void;
  /** The server failed or closed while running (not through stop()): it receives nothing any more. */
  readonly onFailed?: (error: Error) => void;
  readonly host?: string;
  readonly port?: number;
  readonly now?: () => number;
}

/** Notification bodies are small JSON documents; anything larger is refused. */
const MAX_BODY_BYTES = 64 * 1024;
export const RECEIVER_PATH = '/desk/notifications';

export class ChannelReceiver {
  private server: https.Server | undefined;
  private addressValue: string | undefined;

  constructor(private readonly options: ReceiverOptions) {}

  /** The address channels deliver to, once listening. */
  get address(): string | undefined {
    return this.addressValue;
  }

  get running(): boolean {
    return this.server !== undefined;
  }

  async start(): Promise<string> {
    if (this.addressValue) return this.addressValue;
    const host = this.options.host ?? '127.0.0.1';
    const server = https.createServer({ cert: this.options.cert, key: this.options.key }, (request, response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      request.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          response.writeHead(413).end();
          request.destroy();
          return;
        }
        chunks.push(chunk);
      });
      request.on('end', () => {
        if (response.headersSent) return;
        const body = Buffer.concat(chunks).toString('utf8');
        const path = (request.url ?? '').split('?')[0];
        const result = path === RECEIVER_PATH
          ? checkNotification(request.method, request.headers, body, this.options.lookup, (this.options.now ?? Date.now)())
          : { status: 404 as const, reason: `no receiver at ${path.slice(0, 100)}` };
        response.writeHead(result.status, { 'Content-Length': '0' }).end();
        if (result.status === 200) this.options.onNotification(result.notification);
        else this.options.onRefused?.(result.status, result.reason);
      });
      request.on('error', () => response.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    server.on('error', (error) => { this.failed(server, error); });
    server.on('close', () => { this.failed(server, new Error('the receiver closed')); });
    const { port } = server.address() as AddressInfo;
    this.addressValue = `https://${host}:${port}${RECEIVER_PATH}`;
    return this.addressValue;
  }

  private failed(server: https.Server, error: Error): void {
    if (this.server !== server) return;
    this.server = undefined;
    this.addressValue = undefined;
    server.close();
    this.options.onFailed?.(error);
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.addressValue = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => { resolve(); }));
  }
}
