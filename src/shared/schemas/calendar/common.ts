import * as z from '../zod';

/**
 * Calendar API v3 pieces shared by several resources (times, reminders, roles, people, channels) and the API's
 * constants. Policy as in `../drive.ts`: response schemas (`<resource>Schema`) tolerate what Google omits and strip
 * unknown fields; input schemas (`<resource>InputSchema`) type-check every field so the emulator answers junk with a
 * 400 naming it, and accept (then ignore) the read-only fields the official client echoes back on update.
 */

export const ACCESS_ROLES = ['none', 'freeBusyReader', 'reader', 'writerWithoutPrivateAccess', 'writer', 'owner'] as const;
export type AccessRole = (typeof ACCESS_ROLES)[number];
export const accessRoleSchema = z.enum(ACCESS_ROLES);

export const EVENT_TYPES = ['default', 'birthday', 'focusTime', 'fromGmail', 'outOfOffice', 'workingLocation'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const REMINDER_METHODS = ['email', 'popup'] as const;
/** Reminder minutes run from 0 to four weeks. */
export const REMINDER_MAX_MINUTES = 40_320;
/** Google accepts at most five reminder overrides per event or calendar. */
export const REMINDER_MAX_OVERRIDES = 5;

/** Page sizes: events.list / instances default 250, max 2500; calendarList / acl / settings default 100, max 250. */
export const EVENTS_PAGE = { default: 250, min: 1, max: 2500 } as const;
export const SMALL_PAGE = { default: 100, min: 1, max: 250 } as const;

/** Event ids a client may choose: base32hex characters, 5 to 1024 of them. */
export const EVENT_ID_PATTERN = /^[a-v0-9]{5,1024}$/;

/** A start or end: `date` for all-day events, `dateTime` (+ optional IANA `timeZone`) otherwise. */
export const eventDateTimeSchema = z.object({
  date: z.optional(z.nullable(z.string())),
  dateTime: z.optional(z.nullable(z.string())),
  timeZone: z.optional(z.nullable(z.string())),
});
export type EventDateTime = z.infer<typeof eventDateTimeSchema>;

export const eventReminderSchema = z.object({
  method: z.optional(z.nullable(z.string())),
  minutes: z.optional(z.nullable(z.number())),
});
export type EventReminder = z.infer<typeof eventReminderSchema>;

/** A reminder as a request carries it: method and minutes are both required and range-checked. */
export const eventReminderInputSchema = z.object({
  method: z.enum(REMINDER_METHODS),
  minutes: z.int().check(z.minimum(0), z.maximum(REMINDER_MAX_MINUTES)),
});
export type EventReminderInput = z.infer<typeof eventReminderInputSchema>;

/** The organizer or creator of an event. */
export const personSchema = z.object({
  id: z.optional(z.nullable(z.string())),
  email: z.optional(z.nullable(z.string())),
  displayName: z.optional(z.nullable(z.string())),
  self: z.optional(z.nullable(z.boolean())),
});
export type Person = z.infer<typeof personSchema>;

/** Google's `api#channel`, as a watch answers it: the one schema every service's watch shares. */
export { channelSchema } from '../channels';
export type { Channel } from '../channels';

/** What a client sends to watch: `{id, type: 'web_hook', address, token?, expiration?, params?}`. */
export interface ChannelRequest {
  id: string;
  type: 'web_hook';
  address: string;
  token?: string;
  /** Unix ms, as a string or number. */
  expiration?: string | number;
  params?: Record<string, string>;
}

/** Read-only fields the official client echoes back on update: type-checked (junk is a 400) and otherwise ignored. */
export const echoedReadOnlyFields = {
  kind: z.optional(z.nullable(z.string())),
  etag: z.optional(z.nullable(z.string())),
};
