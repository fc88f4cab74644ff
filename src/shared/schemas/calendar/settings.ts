import * as z from '../zod';

/** User settings (`calendar#setting`), colour palettes (`calendar#colors`) and free/busy queries (`calendar#freeBusy`). */

/** The setting ids Google answers, in Google's (alphabetical) order. */
export const SETTING_IDS = [
  'autoAddHangouts',
  'dateFieldOrder',
  'defaultEventLength',
  'format24HourTime',
  'hideInvitations',
  'hideWeekends',
  'locale',
  'remindOnRespondedEventsOnly',
  'showDeclinedEvents',
  'timezone',
  'useKeyboardShortcuts',
  'weekStart',
] as const;
export type SettingId = (typeof SETTING_IDS)[number];

export const settingSchema = z.object({
  kind: z.optional(z.string()),
  etag: z.optional(z.string()),
  id: z.string(),
  value: z.string(),
});
export type Setting = z.infer<typeof settingSchema>;

export const settingsPageSchema = z.object({
  kind: z.optional(z.string()),
  etag: z.optional(z.string()),
  nextPageToken: z.optional(z.string()),
  nextSyncToken: z.optional(z.string()),
  items: z._default(z.array(settingSchema), []),
});
export type SettingsPage = z.infer<typeof settingsPageSchema>;

const colorDefinitionSchema = z.object({ background: z.string(), foreground: z.string() });
export type ColorDefinition = z.infer<typeof colorDefinitionSchema>;

export const colorsSchema = z.object({
  kind: z.optional(z.string()),
  updated: z.optional(z.string()),
  calendar: z._default(z.record(z.string(), colorDefinitionSchema), {}),
  event: z._default(z.record(z.string(), colorDefinitionSchema), {}),
});
export type Colors = z.infer<typeof colorsSchema>;

/** Google's limits on a free/busy query. */
export const FREEBUSY_LIMITS = {
  calendarExpansionMax: 50,
  groupExpansionMax: 100,
  /** Google answers "The requested time range is too long." beyond about 90 days; the emulator uses exactly 90. */
  maxRangeDays: 90,
} as const;

export const freeBusyRequestInputSchema = z.object({
  timeMin: z.optional(z.nullable(z.string())),
  timeMax: z.optional(z.nullable(z.string())),
  timeZone: z.optional(z.nullable(z.string())),
  groupExpansionMax: z.optional(z.nullable(z.int().check(z.minimum(1), z.maximum(FREEBUSY_LIMITS.groupExpansionMax)))),
  calendarExpansionMax: z.optional(z.nullable(z.int().check(z.minimum(1), z.maximum(FREEBUSY_LIMITS.calendarExpansionMax)))),
  items: z.optional(z.nullable(z.array(z.object({ id: z.optional(z.nullable(z.string())) })))),
});
export type FreeBusyRequestInput = z.infer<typeof freeBusyRequestInputSchema>;

export interface FreeBusyRequest {
  timeMin: string;
  timeMax: string;
  timeZone?: string;
  groupExpansionMax?: number;
  calendarExpansionMax?: number;
  items: { id: string }[];
}

const freeBusyErrorSchema = z.object({ domain: z.optional(z.string()), reason: z.optional(z.string()) });
const timePeriodSchema = z.object({ start: z.string(), end: z.string() });

export const freeBusyResponseSchema = z.object({
  kind: z.optional(z.string()),
  timeMin: z.optional(z.string()),
  timeMax: z.optional(z.string()),
  calendars: z._default(z.record(z.string(), z.object({
    busy: z._default(z.array(timePeriodSchema), []),
    errors: z.optional(z.array(freeBusyErrorSchema)),
  })), {}),
  groups: z.optional(z.record(z.string(), z.object({
    calendars: z.optional(z.array(z.string())),
    errors: z.optional(z.array(freeBusyErrorSchema)),
  }))),
});
export type FreeBusyResponse = z.infer<typeof freeBusyResponseSchema>;
