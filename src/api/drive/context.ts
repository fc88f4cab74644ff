/** What every Drive resource module works with: the request pipeline and what the client learned from the server. */
import type { HttpClient } from '../http';

export interface DriveContext {
  readonly http: HttpClient;
  /** Whether changes.list honours `X-Desk-Wait` (long poll): learned from about and changes answers, undefined until then. */
  longPoll: boolean | undefined;
}

export function ifMatchHeader(etag: string | undefined): Record<string, string> {
  return etag ? { 'If-Match': etag } : {};
}
