/** Google Calendar's fixed colour palettes (`colors.get`): 24 calendar colours and 11 event colours, ids "1"…. */
import type { ColorDefinition } from '../../../shared/schemas/calendar';

const FOREGROUND = '#1d1d1d';

const CALENDAR_BACKGROUNDS = [
  '#ac725e', '#d06b64', '#f83a22', '#fa573c', '#ff7537', '#ffad46', '#42d692', '#16a765', '#7bd148', '#b3dc6c', '#fbe983', '#fad165',
  '#92e1c0', '#9fe1e7', '#9fc6e7', '#4986e7', '#9a9cff', '#b99aff', '#c2c2c2', '#cabdbf', '#cca6ac', '#f691b2', '#cd74e6', '#a47ae2',
];

const EVENT_BACKGROUNDS = ['#a4bdfc', '#7ae7bf', '#dbadff', '#ff887c', '#fbd75b', '#ffb878', '#46d6db', '#e1e1e1', '#5484ed', '#51b749', '#dc2127'];

function palette(backgrounds: readonly string[]): Record<string, ColorDefinition> {
  return Object.fromEntries(backgrounds.map((background, index) => [String(index + 1), { background, foreground: FOREGROUND }]));
}

export const CALENDAR_COLORS: Readonly<Partial<Record<string, ColorDefinition>>> = palette(CALENDAR_BACKGROUNDS);
export const EVENT_COLORS: Readonly<Partial<Record<string, ColorDefinition>>> = palette(EVENT_BACKGROUNDS);
/** When Google last changed the palettes; colors.get reports it as `updated`. */
export const COLORS_UPDATED = '2012-02-14T00:00:00.000Z';

/** The calendar colour id whose background is `background` (case-insensitive), if the palette has one. */
export function calendarColorIdFor(background: string): string | undefined {
  const wanted = background.toLowerCase();
  return Object.entries(CALENDAR_COLORS).find(([, color]) => color?.background === wanted)?.[0];
}
