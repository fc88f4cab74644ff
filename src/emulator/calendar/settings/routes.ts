/** HTTP ↔ model for settings.* (get, list, watch), colors.get and channels.stop. */
import { SMALL_PAGE } from '../../../shared/schemas/calendar';
import { ifNoneMatchHits } from '../../core/etag';
import type { Router } from '../../core/router';
import { BASE, ifNoneMatchOf, NOT_MODIFIED, param, userOf, watched } from '../http';
import type { CalendarService } from '../service';
import { CALENDAR_COLORS, COLORS_UPDATED, EVENT_COLORS } from './colors';
import type { SettingValue } from './model';

const SETTINGS = `${BASE}/users/me/settings`;

const renderSetting = (setting: SettingValue): Record<string, unknown> => ({ kind: 'calendar#setting', etag: setting.etag, id: setting.id, value: setting.value });

export function registerSettingsRoutes(router: Router, service: CalendarService): void {
  router.get(SETTINGS, (context) => {
    const syncToken = param(context, 'syncToken');
    const pageToken = param(context, 'pageToken');
    const page = service.settings.list(userOf(context).id, {
      maxResults: context.query.integer('maxResults', SMALL_PAGE) as number,
      ...(syncToken !== undefined ? { syncToken } : {}),
      ...(pageToken !== undefined ? { pageToken } : {}),
    });
    return {
      json: {
        kind: 'calendar#settings',
        etag: page.etag,
        ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
        ...(page.nextSyncToken ? { nextSyncToken: page.nextSyncToken } : {}),
        items: page.items.map(renderSetting),
      },
    };
  });
  router.get(`${SETTINGS}/:setting`, (context) => {
    const setting = service.settings.get(userOf(context).id, context.params.setting as string);
    if (ifNoneMatchHits(setting.etag, ifNoneMatchOf(context))) return NOT_MODIFIED;
    return { json: renderSetting(setting) };
  });
  router.post(`${SETTINGS}/watch`, async (context) => {
    const user = userOf(context);
    return { json: await service.channels.watchFrom(context, watched(context, `settings/${user.id}`, '/users/me/settings')) };
  });
  router.get(`${BASE}/colors`, (context) => {
    userOf(context);
    return { json: { kind: 'calendar#colors', updated: COLORS_UPDATED, calendar: CALENDAR_COLORS, event: EVENT_COLORS } };
  });
  router.post(`${BASE}/channels/stop`, async (context) => {
    await service.channels.stopFrom(context, 'calendar');
    return { status: 204, empty: true };
  });
}
