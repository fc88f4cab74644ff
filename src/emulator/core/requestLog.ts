/**
 * The emulator's timed request log (`--request-log FILE`, off by default): one JSON line per answered HTTP request
 * with its method, redacted target, status and start/end times, so a benchmark can tell which requests overlapped
 * (parallel) and which waited on another (round trips). Tokens and codes never reach the file.
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

/** The clock of the log: epoch milliseconds, finer than Date.now(), comparable across processes of one machine. */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

export class RequestLog {
  constructor(private readonly file: string) {
    fs.writeFileSync(file, '');
  }

  /**
   * Appends one record. Synchronous on purpose: the line is on disk before the client has read the answer, so a
   * reader that saw the answer's effect finds the record.
   */
  write(record: { method: string; target: string; status: number; startMs: number; endMs: number }): void {
    const line: RequestRecord = { ...record, target: redactTarget(record.target) };
    fs.appendFileSync(this.file, `${JSON.stringify(line)}\n`);
  }
}

/** The records of a log file (lines cut short by a concurrent write are skipped). */
export function readRequestLog(file: string): RequestRecord[] {
  const records: RequestRecord[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      records.push(JSON.parse(line) as RequestRecord);
    } catch {
      // a partial last line
    }
  }
  return records;
}
