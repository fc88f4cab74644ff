/** How a channel and its notifications read in the Channels view: labels, the expiry countdown, hovers in words and context values (no vscode). */
import { escapeMarkdown } from '../../../core/text/markdown';
import type { ReceivedNotification } from '../receiver/check';
import { formatDuration } from '../renewal';
import type { ChannelRecord, WatchTarget } from '../model';
import { directoryEventWords } from '../validation';
import type { Translate } from '../validation';

export type { Translate } from '../validation';

/** How moments are written (core/text/clock.ts's DeskClock: the user's locale and Calendar zone, 24-hour). */
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

/** What a channel watches, as a sentence for its hover: "Changes to your Drive", "Events of your primary calendar". */
export function watchedInWords(target: WatchTarget, t: Translate): string {
  switch (target.kind) {
    case 'driveChanges':
      return t('Changes to your Drive');
    case 'driveFile':
      return target.title !== undefined ? t('Changes to “{0}” in your Drive', target.title) : t('Changes to a file in your Drive');
    case 'calendarEvents':
      return target.calendarId === 'primary' ? t('Events of your primary calendar') : t('Events of calendar {0}', target.calendarId);
    case 'calendarAcl':
      return target.calendarId === 'primary' ? t('Who your primary calendar is shared with') : t('Who calendar {0} is shared with', target.calendarId);
    case 'calendarList':
      return t('Changes to your list of calendars');
    case 'calendarSettings':
      return t('Changes to your Calendar settings');
    case 'directoryUsers':
      if (target.domain !== undefined) return t('Directory users of {0}', target.domain);
      return target.customer === undefined || target.customer === 'my_customer' ? t('Directory users of your organization') : t('Directory users of customer {0}', target.customer);
  }
}

/**
 * A channel's hover (markdown), in words: what is watched, where the notifications go, when the channel expires and
 * what arrived; the ids a developer looks for come last, in small print. `receiverAddress` is the built-in receiver's
 * while it runs.
 */
export function channelTooltip(record: ChannelRecord, t: Translate, clock: ChannelClock, now: number, receiverAddress?: string): string {
  const { target } = record;
  const when = (ms: number): string => escapeMarkdown(clock.dateTime(ms));
  const lastAt = when(record.lastMessageAt ?? record.created);
  const lines = [
    ...(target.kind === 'directoryUsers' && target.event ? [t('Only when: {0}', escapeMarkdown(directoryEventWords(target.event, t)))] : []),
    ...(record.feed !== undefined ? [t('Made by Desk so its live changes arrive by push: renewed automatically, stopped with the receiver.')] : []),
    receiverAddress !== undefined && record.address === receiverAddress ? t('Notifications go to Desk\'s built-in receiver.') : t('Notifications go to {0}', codeSpan(record.address)),
    ...(record.token ? [t('Each notification carries your token.')] : []),
    record.expiration > now ? t('Expires {0}.', when(record.expiration)) : t('Expired {0}.', when(record.expiration)),
    record.messages === 0 ? t('No notification has reached Desk yet.') : record.messages === 1 ? t('1 notification arrived, at {0}.', lastAt) : t('{0} notifications arrived, the last at {1}.', record.messages, lastAt),
  ];
  const ids = [
    t('channel {0}', codeSpan(record.id)),
    t('resource {0}', codeSpan(record.resourceId)),
    ...(target.kind === 'driveFile' ? [t('file {0}', codeSpan(target.fileId))] : []),
    ...(record.resourceUri ? [codeSpan(record.resourceUri)] : []),
  ];
  // The words first; what a developer copies after a rule, in small print (the hover allows that much HTML).
  return [`**${escapeMarkdown(watchedInWords(target, t))}**`, '', lines.join('  \n'), '', '---', '', `<small>${ids.join(' · ')}</small>`].join('\n');
}

/** An id as code (shown as it is, whatever its characters). */
function codeSpan(text: string): string {
  return `\`${text.replace(/`/g, '')}\``;
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
