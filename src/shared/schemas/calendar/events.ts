import * as z from '../zod';
import { echoedReadOnlyFields, eventDateTimeSchema, eventReminderInputSchema, eventReminderSchema, personSchema } from './common';

/** Calendar events (`calendar#event`) and their list envelope (`calendar#events`), plus the event request body. */

const stringMap = z.record(z.string(), z.string());

export const attendeeSchema = z.object({
  id: z.optional(z.nullable(z.string())),
  email: z.optional(z.nullable(z.string())),
  displayName: z.optional(z.nullable(z.string())),
  organizer: z.optional(z.nullable(z.boolean())),
  self: z.optional(z.nullable(z.boolean())),
  resource: z.optional(z.nullable(z.boolean())),
  optional: z.optional(z.nullable(z.boolean())),
  responseStatus: z.optional(z.nullable(z.string())),
  comment: z.optional(z.nullable(z.string())),
  additionalGuests: z.optional(z.nullable(z.number())),
});
export type Attendee = z.infer<typeof attendeeSchema>;

export const conferenceDataSchema = z.object({
  conferenceId: z.optional(z.nullable(z.string())),
  conferenceSolution: z.optional(z.nullable(z.object({
    key: z.optional(z.nullable(z.object({ type: z.optional(z.nullable(z.string())) }))),
    name: z.optional(z.nullable(z.string())),
    iconUri: z.optional(z.nullable(z.string())),
  }))),
  createRequest: z.optional(z.nullable(z.object({
    requestId: z.optional(z.nullable(z.string())),
    conferenceSolutionKey: z.optional(z.nullable(z.object({ type: z.optional(z.nullable(z.string())) }))),
    status: z.optional(z.nullable(z.object({ statusCode: z.optional(z.nullable(z.string())) }))),
  }))),
  entryPoints: z.optional(z.nullable(z.array(z.object({
    entryPointType: z.optional(z.nullable(z.string())),
    uri: z.optional(z.nullable(z.string())),
    label: z.optional(z.nullable(z.string())),
    pin: z.optional(z.nullable(z.string())),
    accessCode: z.optional(z.nullable(z.string())),
    meetingCode: z.optional(z.nullable(z.string())),
    passcode: z.optional(z.nullable(z.string())),
    password: z.optional(z.nullable(z.string())),
    regionCode: z.optional(z.nullable(z.string())),
    entryPointFeatures: z.optional(z.nullable(z.array(z.string()))),
  })))),
  notes: z.optional(z.nullable(z.string())),
  signature: z.optional(z.nullable(z.string())),
});
export type ConferenceData = z.infer<typeof conferenceDataSchema>;

const remindersSchema = z.object({
  useDefault: z.optional(z.nullable(z.boolean())),
  overrides: z.optional(z.nullable(z.array(eventReminderSchema))),
});

const extendedPropertiesSchema = z.object({
  private: z.optional(z.nullable(stringMap)),
  shared: z.optional(z.nullable(stringMap)),
});

const attachmentSchema = z.object({
  fileUrl: z.optional(z.nullable(z.string())),
  title: z.optional(z.nullable(z.string())),
  mimeType: z.optional(z.nullable(z.string())),
  iconLink: z.optional(z.nullable(z.string())),
  fileId: z.optional(z.nullable(z.string())),
});

const sourceSchema = z.object({ url: z.optional(z.nullable(z.string())), title: z.optional(z.nullable(z.string())) });

/**
 * Bounds of an event body's open-ended parts. Extended properties follow Google's published limits (keys of at
 * most 44 characters, values of at most 1024, 300 properties and 32 kB of keys and values per event; Google drops
 * or truncates what exceeds them silently, the emulator answers 400 instead). Google publishes none for attendees
 * and source: these are the emulator's bounds (an address of at most 254 characters as RFC 5321 allows, 1000 guests).
 */
export const EVENT_LIMITS = {
  propertyKey: 44,
  propertyValue: 1024,
  properties: 300,
  propertyBytes: 32 * 1024,
  attendees: 1000,
  attendeeEmail: 254,
  attendeeDisplayName: 1024,
  attendeeComment: 8192,
  sourceUrl: 2048,
  sourceTitle: 1024,
} as const;

const attendeeInputSchema = z.object({
  ...attendeeSchema.shape,
  email: z.optional(z.nullable(z.string().check(z.maxLength(EVENT_LIMITS.attendeeEmail)))),
  displayName: z.optional(z.nullable(z.string().check(z.maxLength(EVENT_LIMITS.attendeeDisplayName)))),
  comment: z.optional(z.nullable(z.string().check(z.maxLength(EVENT_LIMITS.attendeeComment)))),
  additionalGuests: z.optional(z.nullable(z.int().check(z.minimum(0), z.maximum(EVENT_LIMITS.attendees)))),
});

const utf8 = new TextEncoder();
const propertyMapInput = z.record(z.string().check(z.maxLength(EVENT_LIMITS.propertyKey)), z.string().check(z.maxLength(EVENT_LIMITS.propertyValue)));

const extendedPropertiesInputSchema = z.object({
  private: z.optional(z.nullable(propertyMapInput)),
  shared: z.optional(z.nullable(propertyMapInput)),
}).check(z.refine((properties) => {
  const entries = [...Object.entries(properties.private ?? {}), ...Object.entries(properties.shared ?? {})];
  const bytes = entries.reduce((total, [key, value]) => total + utf8.encode(key).length + utf8.encode(value).length, 0);
  return entries.length <= EVENT_LIMITS.properties && bytes <= EVENT_LIMITS.propertyBytes;
}, { error: `an event may have at most ${EVENT_LIMITS.properties} extended properties of at most ${EVENT_LIMITS.propertyBytes} bytes of keys and values in all` }));

const sourceInputSchema = z.object({
  url: z.optional(z.nullable(z.string().check(
    z.maxLength(EVENT_LIMITS.sourceUrl),
    z.refine((value) => /^https?:\/\/[^\s]+$/i.test(value), { error: 'must be an http:// or https:// URL' }),
  ))),
  title: z.optional(z.nullable(z.string().check(z.maxLength(EVENT_LIMITS.sourceTitle)))),
});

const focusTimePropertiesSchema = z.object({
  autoDeclineMode: z.optional(z.nullable(z.string())),
  declineMessage: z.optional(z.nullable(z.string())),
  chatStatus: z.optional(z.nullable(z.string())),
});
const outOfOfficePropertiesSchema = z.object({
  autoDeclineMode: z.optional(z.nullable(z.string())),
  declineMessage: z.optional(z.nullable(z.string())),
});
const workingLocationPropertiesSchema = z.object({
  type: z.optional(z.nullable(z.string())),
  homeOffice: z.optional(z.nullable(z.unknown())),
  customLocation: z.optional(z.nullable(z.object({ label: z.optional(z.nullable(z.string())) }))),
  officeLocation: z.optional(z.nullable(z.object({
    buildingId: z.optional(z.nullable(z.string())),
    floorId: z.optional(z.nullable(z.string())),
    floorSectionId: z.optional(z.nullable(z.string())),
    deskId: z.optional(z.nullable(z.string())),
    label: z.optional(z.nullable(z.string())),
  }))),
});
const birthdayPropertiesSchema = z.object({
  type: z.optional(z.nullable(z.string())),
  contact: z.optional(z.nullable(z.string())),
  customTypeName: z.optional(z.nullable(z.string())),
});

/** The event as Google answers it. Cancelled events may carry little more than id and status. */
export const eventSchema = z.object({
  kind: z.optional(z.string()),
  id: z.string(),
  etag: z.optional(z.string()),
  status: z.optional(z.string()),
  htmlLink: z.optional(z.string()),
  created: z.optional(z.string()),
  updated: z.optional(z.string()),
  summary: z.optional(z.string()),
  description: z.optional(z.string()),
  location: z.optional(z.string()),
  colorId: z.optional(z.string()),
  creator: z.optional(personSchema),
  organizer: z.optional(personSchema),
  start: z.optional(eventDateTimeSchema),
  end: z.optional(eventDateTimeSchema),
  endTimeUnspecified: z.optional(z.boolean()),
  recurrence: z.optional(z.array(z.string())),
  recurringEventId: z.optional(z.string()),
  originalStartTime: z.optional(eventDateTimeSchema),
  transparency: z.optional(z.string()),
  visibility: z.optional(z.string()),
  iCalUID: z.optional(z.string()),
  sequence: z.optional(z.number()),
  attendees: z.optional(z.array(attendeeSchema)),
  attendeesOmitted: z.optional(z.boolean()),
  hangoutLink: z.optional(z.string()),
  conferenceData: z.optional(conferenceDataSchema),
  anyoneCanAddSelf: z.optional(z.boolean()),
  guestsCanInviteOthers: z.optional(z.boolean()),
  guestsCanModify: z.optional(z.boolean()),
  guestsCanSeeOtherGuests: z.optional(z.boolean()),
  privateCopy: z.optional(z.boolean()),
  locked: z.optional(z.boolean()),
  reminders: z.optional(remindersSchema),
  extendedProperties: z.optional(extendedPropertiesSchema),
  attachments: z.optional(z.array(attachmentSchema)),
  source: z.optional(sourceSchema),
  eventType: z.optional(z.string()),
  focusTimeProperties: z.optional(focusTimePropertiesSchema),
  outOfOfficeProperties: z.optional(outOfOfficePropertiesSchema),
  workingLocationProperties: z.optional(workingLocationPropertiesSchema),
  birthdayProperties: z.optional(birthdayPropertiesSchema),
});
export type CalendarEvent = z.infer<typeof eventSchema>;

export const eventsPageSchema = z.object({
  kind: z.optional(z.string()),
  etag: z.optional(z.string()),
  summary: z.optional(z.string()),
  description: z.optional(z.string()),
  updated: z.optional(z.string()),
  timeZone: z.optional(z.string()),
  accessRole: z.optional(z.string()),
  defaultReminders: z.optional(z.array(eventReminderSchema)),
  nextPageToken: z.optional(z.string()),
  nextSyncToken: z.optional(z.string()),
  items: z._default(z.array(eventSchema), []),
});
export type EventsPage = z.infer<typeof eventsPageSchema>;

// ---- Request body

/**
 * The writable event fields, type-checked. `null` clears a field on patch. Read-only fields (created, updated,
 * htmlLink, creator, hangoutLink, ...) are accepted so a fetched event can be sent back whole, and ignored.
 */
export const eventInputSchema = z.object({
  ...echoedReadOnlyFields,
  id: z.optional(z.nullable(z.string())),
  status: z.optional(z.nullable(z.enum(['confirmed', 'tentative', 'cancelled']))),
  htmlLink: z.optional(z.nullable(z.string())),
  created: z.optional(z.nullable(z.string())),
  updated: z.optional(z.nullable(z.string())),
  creator: z.optional(z.nullable(personSchema)),
  hangoutLink: z.optional(z.nullable(z.string())),
  recurringEventId: z.optional(z.nullable(z.string())),
  originalStartTime: z.optional(z.nullable(eventDateTimeSchema)),
  attendeesOmitted: z.optional(z.nullable(z.boolean())),
  locked: z.optional(z.nullable(z.boolean())),
  summary: z.optional(z.nullable(z.string().check(z.maxLength(8192)))),
  description: z.optional(z.nullable(z.string().check(z.maxLength(8192)))),
  location: z.optional(z.nullable(z.string().check(z.maxLength(8192)))),
  colorId: z.optional(z.nullable(z.string())),
  organizer: z.optional(z.nullable(personSchema)),
  start: z.optional(z.nullable(eventDateTimeSchema)),
  end: z.optional(z.nullable(eventDateTimeSchema)),
  endTimeUnspecified: z.optional(z.nullable(z.boolean())),
  recurrence: z.optional(z.nullable(z.array(z.string()))),
  transparency: z.optional(z.nullable(z.enum(['opaque', 'transparent']))),
  visibility: z.optional(z.nullable(z.enum(['default', 'public', 'private', 'confidential']))),
  iCalUID: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(1024)))),
  sequence: z.optional(z.nullable(z.int().check(z.minimum(0)))),
  attendees: z.optional(z.nullable(z.array(attendeeInputSchema).check(z.maxLength(EVENT_LIMITS.attendees)))),
  conferenceData: z.optional(z.nullable(conferenceDataSchema)),
  anyoneCanAddSelf: z.optional(z.nullable(z.boolean())),
  guestsCanInviteOthers: z.optional(z.nullable(z.boolean())),
  guestsCanModify: z.optional(z.nullable(z.boolean())),
  guestsCanSeeOtherGuests: z.optional(z.nullable(z.boolean())),
  privateCopy: z.optional(z.nullable(z.boolean())),
  reminders: z.optional(z.nullable(z.object({
    useDefault: z.optional(z.nullable(z.boolean())),
    overrides: z.optional(z.nullable(z.array(eventReminderInputSchema))),
  }))),
  extendedProperties: z.optional(z.nullable(extendedPropertiesInputSchema)),
  attachments: z.optional(z.nullable(z.array(attachmentSchema).check(z.maxLength(25)))),
  source: z.optional(z.nullable(sourceInputSchema)),
  eventType: z.optional(z.nullable(z.string())),
  focusTimeProperties: z.optional(z.nullable(focusTimePropertiesSchema)),
  outOfOfficeProperties: z.optional(z.nullable(outOfOfficePropertiesSchema)),
  workingLocationProperties: z.optional(z.nullable(workingLocationPropertiesSchema)),
  birthdayProperties: z.optional(z.nullable(birthdayPropertiesSchema)),
  gadget: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  eventLabelId: z.optional(z.nullable(z.string())),
});
export type EventInput = z.infer<typeof eventInputSchema>;

/** The event fields a client writes (the request body of insert, update, patch and import). */
export type EventWrite = Partial<Omit<EventInput, 'kind' | 'etag' | 'htmlLink' | 'created' | 'updated' | 'creator' | 'hangoutLink' | 'attendeesOmitted' | 'locked'>>;
