/**
 * A user's Calendar settings (read-only through the API): Google's twelve ids with their defaults, the time zone
 * per demo user (alice Berlin, bob New York, carol Tokyo, so tests meet three offsets), paging and sync tokens.
 */
import { SETTING_IDS, SettingId, SMALL_PAGE } from '../../../shared/schemas/calendar';
import { findUser } from '../../identity/users';
import { notFound } from '../../core/errors';
import { combinedEtag } from '../../core/etag';
import { offsetPage } from '../../core/paging';
import type { CalendarService } from '../service';
import { decodeSyncToken, encodeSyncToken } from '../sync';

export interface SettingValue {
  id: SettingId;
  value: string;
  etag: string;
}

const DEFAULTS: Readonly<Record<SettingId, string>> = {
  autoAddHangouts: 'false',
  dateFieldOrder: 'MDY',
  defaultEventLength: '60',
  format24HourTime: 'false',
  hideInvitations: 'false',
  hideWeekends: 'false',
  locale: 'en',
  remindOnRespondedEventsOnly: 'false',
  showDeclinedEvents: 'true',
  timezone: 'UTC',
  useKeyboardShortcuts: 'true',
  weekStart: '0',
};

export interface SettingsPageResult {
  items: SettingValue[];
  etag: string;
  nextPageToken?: string;
  nextSyncToken?: string;
}

export class SettingsModel {
  constructor(private readonly service: CalendarService) {}

  /** All settings of a user, in Google's order. Values never change through the API, so etags derive from them. */
  all(userId: string): SettingValue[] {
    const zone = findUser(userId)?.timeZone;
    return SETTING_IDS.map((id) => {
      const value = id === 'timezone' ? zone ?? DEFAULTS.timezone : DEFAULTS[id];
      return { id, value, etag: combinedEtag([id, value]) };
    });
  }

  get(userId: string, id: string): SettingValue {
    const found = this.all(userId).find((setting) => setting.id === id);
    if (!found) throw notFound('Not Found');
    return found;
  }

  timeZoneOf(userId: string): string {
    return this.get(userId, 'timezone').value;
  }

  list(userId: string, options: { maxResults?: number; pageToken?: string; syncToken?: string }): SettingsPageResult {
    const scope = `settings:${userId}`;
    const all = this.all(userId);
    const etag = combinedEtag(all.map((setting) => setting.etag));
    // Settings cannot change through the API: an incremental sync has nothing new to report.
    const source = options.syncToken !== undefined
      ? (decodeSyncToken(options.syncToken, scope, 0, this.service.currentSeq()), [])
      : all;
    const page = offsetPage(source, {
      scope: `${scope}:${options.syncToken ?? ''}`,
      maxResults: options.maxResults ?? SMALL_PAGE.default,
      ...(options.pageToken !== undefined ? { pageToken: options.pageToken } : {}),
    });
    return {
      items: page.items,
      etag,
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : { nextSyncToken: encodeSyncToken(scope, this.service.currentSeq()) }),
    };
  }
}
