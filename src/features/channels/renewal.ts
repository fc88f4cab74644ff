/** When channels are renewed: a new channel is made a little before the old one expires, so the two overlap (no vscode). */
import type { ChannelRecord } from './model';

/** How long before expiry a channel is renewed: a tenth of its life, at most 5 minutes, at least 5 seconds. */
export function renewalLeadMs(record: Pick<ChannelRecord, 'created' | 'expiration'>): number {
  const life = Math.max(0, record.expiration - record.created);
  return Math.max(5_000, Math.min(5 * 60_000, Math.floor(life / 10)));
}

export interface RenewalPlan {
  /** Live channels whose renewal time has come. */
  readonly due: ChannelRecord[];
  /** Channels past their expiration: they cannot be renewed with an overlap any more. */
  readonly expired: ChannelRecord[];
  /** The next moment a channel becomes due (epoch ms), if any. */
  readonly nextAt: number | undefined;
}

/** Which channels to renew now and when to look again. */
export function planRenewals(records: readonly ChannelRecord[], now: number): RenewalPlan {
  const due: ChannelRecord[] = [];
  const expired: ChannelRecord[] = [];
  let nextAt: number | undefined;
  for (const record of records) {
    if (record.expiration <= now) {
      expired.push(record);
      continue;
    }
    const at = record.expiration - renewalLeadMs(record);
    if (at <= now) due.push(record);
    else nextAt = nextAt === undefined ? at : Math.min(nextAt, at);
  }
  return { due, expired, nextAt };
}

/** "5h 59m", "12m 5s", "42s": the time left, coarse when far, to the second when near. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  if (minutes > 0) return `${minutes}m ${rest}s`;
  return `${rest}s`;
}

/** How often the countdowns need redrawing: every second when one is under two minutes, else every 30 seconds. */
export function countdownIntervalMs(records: readonly ChannelRecord[], now: number): number {
  return records.some((record) => record.expiration > now && record.expiration - now < 120_000) ? 1000 : 30_000;
}
