/** How a channel and its notifications read in the Channels view: labels, the expiry countdown, tooltips and context values (no vscode). */
import type { ReceivedNotification } from '../receiver/check';
import { formatDuration } from '../renewal';
import type { ChannelRecord, WatchTarget } from '../model';
import type { Translate } from '../validation';

export type { Translate } from '../validation';

/** How moments are written (core/clock.ts's DeskClock: the user's locale and Calendar zone, 24-hour). */
export interface ChannelClock {
  time(ms: number): string;
  dateTime(ms: number): string;
}

export function targetLabel(target: WatchTarget, t: Translate): string {
  switch (target.kind) {
    case 'driveChanges':
      return t('All Drive changes');
    case 'driveFile':
      return t('Drive file {0}', target.title ?? target.fileId);
    case 'calendarEvents':
      return t('Events of calendar {0}', target.calendarId);
    case 'calendarAcl':
      return t('Sharing of calendar {0}', target.calendarId);
    case 'calendarList':
      return t('Your calendar list');
    case 'calendarSettings':
      return t('Your Calendar settings');
    case 'directoryUsers': {
      const who = target.domain ?? target.customer ?? '';
      return target.event ? t('Directory users of {0} ({1})', who, target.event) : t('Directory users of {0}', who);
    }
  }
}

/** A channel's row label: what it watches, or for a channel Desk made for itself, what it is for. */
export function channelLabel(record: Pick<ChannelRecord, 'target' | 'feed'>, t: Translate): string {
  if (record.feed === undefined) return targetLabel(record.target, t);
  return record.target.kind === 'driveChanges' ? t('Desk\'s live Drive changes') : t('{0}, for Desk', targetLabel(record.target, t));
}

/** "expires in 5h 59m · 3 messages" (the count only when the built-in receiver has seen some). */
export function channelDescription(record: ChannelRecord, now: number, t: Translate): string {
  const left = record.expiration - now;
  const expiry = left > 0 ? t('expires in {0}', formatDuration(left)) : t('expired');
  if (record.messages === 0) return expiry;
  return `${expiry} · ${record.messages === 1 ? t('1 message') : t('{0} messages', record.messages)}`;
}

export function channelTooltip(record: ChannelRecord, t: Translate, clock: ChannelClock): string {
  const lines = [
    targetLabel(record.target, t),
    ...(record.feed !== undefined ? [t('Made by Desk so its live changes arrive by push: renewed automatically, stopped with the receiver.')] : []),
    t('Channel: {0}', record.id),
    t('Resource: {0}', record.resourceId),
    ...(record.resourceUri ? [t('Resource URI: {0}', record.resourceUri)] : []),
    t('Address: {0}', record.address),
    record.token ? t('Token: set') : t('Token: none'),
    t('Expires: {0}', clock.dateTime(record.expiration)),
    ...(record.lastMessageAt ? [t('Last message: {0} at {1}', record.lastState ?? '', clock.time(record.lastMessageAt))] : []),
  ];
  return lines.join('\n');
}

/** Space-separated words for `when` clauses: `channel` plus `live` or `expired`. */
export function channelContextValue(record: ChannelRecord, now: number): string {
  return `channel ${record.expiration > now ? 'live' : 'expired'}`;
}

export function notificationLabel(notification: ReceivedNotification): string {
  return `#${notification.messageNumber} ${notification.resourceState}`;
}

export function notificationDescription(notification: ReceivedNotification, clock: ChannelClock): string {
  return clock.time(notification.receivedAt);
}

/** The receiver's status-bar hover: how many notifications arrived, and where it listens. */
export function receiverTooltip(received: number, address: string, t: Translate): string {
  return received === 1
    ? t('Desk channels: 1 notification received at {0}', address)
    : t('Desk channels: {0} notifications received at {1}', received, address);
}
