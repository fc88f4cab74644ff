/** A channel receiver for tests: an HTTPS server on loopback with a certificate from the emulator's CA (or any given one), recording every message. */
import type { IncomingHttpHeaders } from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { IssuedCertificate } from '../../../../src/emulator/core/certificates';
import { channelRegistryFor } from '../../../../src/emulator/core/channels';
import type { RunningEmulator } from '../../../../src/emulator/emulator';

export interface ReceivedMessage {
  headers: IncomingHttpHeaders;
  channelId: string;
  number: number;
  state: string;
  body: string;
  /** The parsed body, when there is one. */
  json: unknown;
  /** The status the receiver answered. */
  status: number;
  /** performance.now() at arrival. */
  at: number;
}

export class Receiver {
  /** Every request, whatever was answered. */
  readonly requests: ReceivedMessage[] = [];
  /** The status to answer for a request (default 200 for all). */
  respond: (message: ReceivedMessage) => number = () => 200;
  private waiters: (() => void)[] = [];

  private constructor(private server: https.Server, public port: number, private readonly certificate: IssuedCertificate) {}

  /** A receiver with `certificate` on 127.0.0.1 (port 0 picks a free one). */
  static async start(certificate: IssuedCertificate, port = 0): Promise<Receiver> {
    const server = https.createServer({ cert: certificate.cert, key: certificate.key });
    const receiver = new Receiver(server, 0, certificate);
    return receiver.listen(server, port);
  }

  /** A receiver whose certificate comes from the emulator's own CA, for 127.0.0.1. */
  static async forEmulator(emulator: RunningEmulator): Promise<Receiver> {
    return Receiver.start(channelRegistryFor(emulator.deps).certificateAuthority().issue({ hosts: ['127.0.0.1'] }));
  }

  get url(): string {
    return `https://127.0.0.1:${this.port}/notify`;
  }

  /** Messages answered with a success status, in arrival order. */
  get delivered(): ReceivedMessage[] {
    return this.requests.filter((message) => [200, 201, 202, 204, 102].includes(message.status));
  }

  forChannel(channelId: string): ReceivedMessage[] {
    return this.delivered.filter((message) => message.channelId === channelId);
  }

  /** Resolves once `predicate` holds over the requests (checked after each one), or rejects after `timeoutMs`. */
  async waitFor(predicate: (receiver: Receiver) => boolean, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`receiver: condition not met in ${timeoutMs} ms; got ${JSON.stringify(this.requests.map((m) => [m.channelId, m.number, m.state, m.status]))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits until the channel has `count` delivered messages. */
  async waitForChannel(channelId: string, count: number, timeoutMs = 5000): Promise<ReceivedMessage[]> {
    await this.waitFor(() => this.forChannel(channelId).length >= count, timeoutMs);
    return this.forChannel(channelId);
  }

  /** Stops accepting connections (the receiver is down) until `restart`. */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => { resolve(); });
      this.server.closeAllConnections();
    });
  }

  /** Listens again on the same port with the same certificate. */
  async restart(): Promise<void> {
    const server = https.createServer({ cert: this.certificate.cert, key: this.certificate.key });
    await this.listen(server, this.port);
  }

  private async listen(server: https.Server, port: number): Promise<Receiver> {
    this.server = server;
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = body ? (JSON.parse(body) as unknown) : undefined;
        } catch {
          json = undefined;
        }
        const header = (name: string): string => String(request.headers[name] ?? '');
        const message: ReceivedMessage = {
          headers: request.headers,
          channelId: header('x-svc-channel-id'),
          number: Number(header('x-svc-message-number')),
          state: header('x-svc-resource-state'),
          body,
          json,
          status: 0,
          at: performance.now(),
        };
        message.status = this.respond(message);
        this.requests.push(message);
        response.writeHead(message.status);
        response.end();
        const waiters = this.waiters;
        this.waiters = [];
        for (const wake of waiters) wake();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => { resolve(); });
    });
    this.port = (server.address() as AddressInfo).port;
    return this;
  }
}
