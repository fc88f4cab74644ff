/** Calendar settings and the colour palette as the API returns them. */
import { CALENDAR_COLORS, COLORS_UPDATED, EVENT_COLORS } from './colors';
import type { SettingValue } from './model';

export function renderSetting(setting: SettingValue): Record<string, unknown> {
  return { kind: 'calendar#setting', etag: setting.etag, id: setting.id, value: setting.value };
}

export function renderColors(): Record<string, unknown> {
  return { kind: 'calendar#colors', updated: COLORS_UPDATED, calendar: CALENDAR_COLORS, event: EVENT_COLORS };
}
