/** HTTP ↔ model for settings.* (get, list, watch), colors.get and channels.stop. */
import { SMALL_PAGE } from '../../../shared/schemas/calendar';
import { ifNoneMatchHits } from '../../core/etag';
import type { Route } from '../../core/router';
import { BASE, ifNoneMatchOf, NOT_MODIFIED, param, userOf, watched } from '../routing';
import type { CalendarService } from '../service';
import { renderColors, renderSetting } from './render';
import { renderCollection } from '../render';

const SETTINGS = `${BASE}/users/me/settings`;

export function settingsRoutes(service: CalendarService): readonly Route[] {
  return [
    {
      id: 'calendar.settings.list', method: 'GET', path: SETTINGS,
      handle: (context) => {
        const syncToken = param(context, 'syncToken');
        const pageToken = param(context, 'pageToken');
        const page = service.settings.list(userOf(context).id, {
          maxResults: context.query.integer('maxResults', SMALL_PAGE),
          ...(syncToken !== undefined ? { syncToken } : {}),
          ...(pageToken !== undefined ? { pageToken } : {}),
        });
        return { json: renderCollection('calendar#settings', page, renderSetting) };
      },
    },
    {
      id: 'calendar.settings.get', method: 'GET', path: `${SETTINGS}/:setting`,
      handle: (context) => {
        const setting = service.settings.get(userOf(context).id, context.params.setting);
        if (ifNoneMatchHits(setting.etag, ifNoneMatchOf(context))) return NOT_MODIFIED;
        return { json: renderSetting(setting) };
      },
    },
    {
      id: 'calendar.settings.watch', method: 'POST', path: `${SETTINGS}/watch`,
      handle: async (context) => {
        const user = userOf(context);
        return { json: await service.channels.watchFrom(context, watched(context, `settings/${user.id}`, '/users/me/settings')) };
      },
    },
    {
      id: 'calendar.colors.get', method: 'GET', path: `${BASE}/colors`,
      handle: (context) => {
        userOf(context);
        return { json: renderColors() };
      },
    },
    {
      id: 'calendar.channels.stop', method: 'POST', path: `${BASE}/channels/stop`,
      handle: async (context) => {
        await service.channels.stopFrom(context, 'calendar');
        return { status: 204, empty: true };
      },
    },
  ];
}
