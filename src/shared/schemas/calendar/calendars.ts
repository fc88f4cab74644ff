import * as z from '../zod';
import { echoedReadOnlyFields, eventReminderInputSchema, eventReminderSchema } from './common';

/** Calendars (`calendar#calendar`) and the user's calendar list (`calendar#calendarListEntry`, `calendar#calendarList`). */

const conferencePropertiesSchema = z.object({
  allowedConferenceSolutionTypes: z.optional(z.nullable(z.array(z.string()))),
});

export const calendarSchema = z.object({
  kind: z.optional(z.string()),
  etag: z.optional(z.string()),
  id: z.string(),
  summary: z.optional(z.string()),
  description: z.optional(z.string()),
  location: z.optional(z.string()),
  timeZone: z.optional(z.string()),
  dataOwner: z.optional(z.string()),
  conferenceProperties: z.optional(conferencePropertiesSchema),
});
export type Calendar = z.infer<typeof calendarSchema>;

export const calendarInputSchema = z.object({
  ...echoedReadOnlyFields,
  id: z.optional(z.nullable(z.string())),
  dataOwner: z.optional(z.nullable(z.string())),
  autoAcceptInvitations: z.optional(z.nullable(z.boolean())),
  summary: z.optional(z.nullable(z.string().check(z.maxLength(1024)))),
  description: z.optional(z.nullable(z.string().check(z.maxLength(8192)))),
  location: z.optional(z.nullable(z.string().check(z.maxLength(1024)))),
  timeZone: z.optional(z.nullable(z.string())),
  conferenceProperties: z.optional(z.nullable(conferencePropertiesSchema)),
});
export type CalendarInput = z.infer<typeof calendarInputSchema>;
export type CalendarWrite = Partial<Pick<CalendarInput, 'summary' | 'description' | 'location' | 'timeZone' | 'conferenceProperties'>>;

export const NOTIFICATION_TYPES = ['eventCreation', 'eventChange', 'eventCancellation', 'eventResponse', 'agenda'] as const;

const notificationSettingsSchema = z.object({
  notifications: z.optional(z.nullable(z.array(z.object({
    type: z.optional(z.nullable(z.string())),
    method: z.optional(z.nullable(z.string())),
  })))),
});

export const calendarListEntrySchema = z.object({
  kind: z.optional(z.string()),
  etag: z.optional(z.string()),
  id: z.string(),
  summary: z.optional(z.string()),
  description: z.optional(z.string()),
  location: z.optional(z.string()),
  timeZone: z.optional(z.string()),
  summaryOverride: z.optional(z.string()),
  colorId: z.optional(z.string()),
  backgroundColor: z.optional(z.string()),
  foregroundColor: z.optional(z.string()),
  hidden: z.optional(z.boolean()),
  selected: z.optional(z.boolean()),
  accessRole: z.optional(z.string()),
  defaultReminders: z.optional(z.array(eventReminderSchema)),
  notificationSettings: z.optional(notificationSettingsSchema),
  primary: z.optional(z.boolean()),
  deleted: z.optional(z.boolean()),
  dataOwner: z.optional(z.string()),
  conferenceProperties: z.optional(conferencePropertiesSchema),
});
export type CalendarListEntry = z.infer<typeof calendarListEntrySchema>;

export const calendarListPageSchema = z.object({
  kind: z.optional(z.string()),
  etag: z.optional(z.string()),
  nextPageToken: z.optional(z.string()),
  nextSyncToken: z.optional(z.string()),
  items: z._default(z.array(calendarListEntrySchema), []),
});
export type CalendarListPage = z.infer<typeof calendarListPageSchema>;

const rgbColor = z.string().check(z.regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour in the form #rrggbb'));

/** The writable entry fields; summary, timeZone and the like belong to the calendar and are only echoed. */
export const calendarListEntryInputSchema = z.object({
  ...echoedReadOnlyFields,
  id: z.optional(z.nullable(z.string())),
  summary: z.optional(z.nullable(z.string())),
  description: z.optional(z.nullable(z.string())),
  location: z.optional(z.nullable(z.string())),
  timeZone: z.optional(z.nullable(z.string())),
  accessRole: z.optional(z.nullable(z.string())),
  primary: z.optional(z.nullable(z.boolean())),
  deleted: z.optional(z.nullable(z.boolean())),
  dataOwner: z.optional(z.nullable(z.string())),
  autoAcceptInvitations: z.optional(z.nullable(z.boolean())),
  conferenceProperties: z.optional(z.nullable(conferencePropertiesSchema)),
  summaryOverride: z.optional(z.nullable(z.string().check(z.maxLength(1024)))),
  colorId: z.optional(z.nullable(z.string())),
  backgroundColor: z.optional(z.nullable(rgbColor)),
  foregroundColor: z.optional(z.nullable(rgbColor)),
  hidden: z.optional(z.nullable(z.boolean())),
  selected: z.optional(z.nullable(z.boolean())),
  defaultReminders: z.optional(z.nullable(z.array(eventReminderInputSchema))),
  notificationSettings: z.optional(z.nullable(z.object({
    notifications: z.optional(z.nullable(z.array(z.object({
      type: z.enum(NOTIFICATION_TYPES),
      method: z.enum(['email']),
    })))),
  }))),
});
export type CalendarListEntryInput = z.infer<typeof calendarListEntryInputSchema>;
export type CalendarListEntryWrite = Partial<Pick<CalendarListEntryInput, 'id' | 'summaryOverride' | 'colorId' | 'backgroundColor' | 'foregroundColor' | 'hidden' | 'selected' | 'defaultReminders' | 'notificationSettings'>>;
