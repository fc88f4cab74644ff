/**
 * The emulator's timed request log (`--request-log FILE`, off by default): two JSON lines per HTTP request (its
 * arrival, then its status and end time), its target redacted, so a benchmark can tell which requests overlapped
 * (parallel), which waited on another (round trips) and whether any is still in flight. No token or code is written.
 */
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { redactTarget } from './log';

/** One answered request; times are milliseconds since the Unix epoch, with sub-millisecond precision. */
export interface RequestRecord {
  readonly method: string;
  /** Path and query, credentials redacted. */
  readonly target: string;
  readonly status: number;
  readonly startMs: number;
  readonly endMs: number;
}

/** A line of the file: a request's arrival (no status, no end yet), then the same id once answered. */
interface LogLine {
  readonly id: number;
  readonly method: string;
  readonly target: string;
  readonly startMs: number;
  readonly status?: number;
  readonly endMs?: number;
}

/** The clock of the log: epoch milliseconds, finer than Date.now(), comparable across processes of one machine. */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

export class RequestLog {
  private nextId = 1;

  constructor(private readonly file: string) {
    fs.writeFileSync(file, '');
  }

  /**
   * Records an arrival (so a reader knows a request is in flight) and returns what records its answer. Synchronous
   * appends on purpose: the answer's line is on disk before the client has read the answer, so a reader that saw
   * its effect finds it.
   */
  arrived(method: string, target: string): (status: number) => void {
    const arrival = { id: this.nextId++, method, target: redactTarget(target), startMs: epochMs() };
    this.append(arrival);
    return (status) => { this.append({ ...arrival, status, endMs: epochMs() }); };
  }

  private append(line: LogLine): void {
    fs.appendFileSync(this.file, `${JSON.stringify(line)}\n`);
  }
}

export interface RequestActivity {
  /** The answered requests. */
  readonly answered: RequestRecord[];
  /** Requests that arrived and have no answer yet. */
  readonly inFlight: number;
  /** The latest arrival or answer (0 without any). */
  readonly lastActivityMs: number;
}

/** What a log file holds now (a line cut short by a concurrent write is skipped). */
export function readRequestLog(file: string): RequestActivity {
  const arrivals = new Map<number, LogLine>();
  const answered: RequestRecord[] = [];
  let lastActivityMs = 0;
  for (const text of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!text.trim()) continue;
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      continue; // a partial last line
    }
    lastActivityMs = Math.max(lastActivityMs, line.endMs ?? line.startMs);
    if (line.endMs === undefined || line.status === undefined) {
      arrivals.set(line.id, line);
      continue;
    }
    arrivals.delete(line.id);
    answered.push({ method: line.method, target: line.target, status: line.status, startMs: line.startMs, endMs: line.endMs });
  }
  return { answered, inFlight: arrivals.size, lastActivityMs };
}
