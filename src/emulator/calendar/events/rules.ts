/**
 * The checks and derivations an event body goes through before the events model stores it: patch merging, start/end
 * and time zones, reminders, colours, attendees, conference data, and the constraints of each eventType. Pure
 * functions of their inputs; failures are Google-format 400s naming the field.
 */
import { randomBytes } from 'node:crypto';
import { EVENT_TYPES, EventInput, EventType, REMINDER_MAX_OVERRIDES } from '../../../shared/schemas/calendar';
import { ApiError, invalid, required } from '../../core/errors';
import { EVENT_COLORS } from '../settings/colors';
import { DAY_MS, isValidTimeZone, parseDate, parseDateTime, utcToWall } from '../time';
import { parseRecurrence } from './recurrence';

/** Fields the model keeps outside the body (identity, state, provenance). */
type ManagedKey = 'kind' | 'etag' | 'id' | 'status' | 'iCalUID' | 'eventType' | 'sequence' | 'organizer' | 'creator' | 'recurringEventId'
  | 'originalStartTime' | 'htmlLink' | 'created' | 'updated' | 'hangoutLink' | 'attendeesOmitted' | 'locked';

/** The writable content of an event, as the client last set it (nulls removed). */
export type EventBody = Omit<EventInput, ManagedKey>;

const MANAGED_KEYS: readonly ManagedKey[] = ['kind', 'etag', 'id', 'status', 'iCalUID', 'eventType', 'sequence', 'organizer', 'creator', 'recurringEventId',
  'originalStartTime', 'htmlLink', 'created', 'updated', 'hangoutLink', 'attendeesOmitted', 'locked'];

/** When an event happens: wall midnights for all-day events, instants for timed ones. */
export interface EventTiming {
  allDay: boolean;
  startMs: number;
  endMs: number;
  /** The start's IANA zone, if the event names one (recurring timed events must). */
  zone?: string;
}

type Json = unknown;

function isPlainObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Objects that are one value (a time), replaced whole by a patch rather than merged. */
const REPLACED_WHOLE = new Set(['start', 'end']);

/** Patch semantics: given fields replace, absent ones stay, arrays replace whole, `null` clears, objects merge. */
export function mergePatch(target: Record<string, Json>, patch: Record<string, Json>, depth = 0): Record<string, Json> {
  const result: Record<string, Json> = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) Reflect.deleteProperty(result, key);
    else if (isPlainObject(value) && isPlainObject(result[key]) && !(depth === 0 && REPLACED_WHOLE.has(key))) {
      result[key] = mergePatch(result[key], value, depth + 1);
    } else result[key] = stripNulls(value);
  }
  return result;
}

function stripNulls(value: Json): Json {
  if (Array.isArray(value)) return value.map(stripNulls);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== null && item !== undefined).map(([key, item]) => [key, stripNulls(item)]));
}

/** The body part of a request (managed fields dropped, nulls removed): what `update` stores. */
export function bodyOf(input: EventInput): EventBody {
  const copy: Record<string, Json> = { ...input };
  for (const key of MANAGED_KEYS) Reflect.deleteProperty(copy, key);
  return stripNulls(copy) as EventBody;
}

export function timeRangeEmpty(location = 'end'): ApiError {
  return new ApiError(400, 'timeRangeEmpty', 'The specified time range is empty.', { domain: 'calendar', location, locationType: 'body' });
}

function parsePoint(point: EventBody['start'], which: 'start' | 'end', recurring: boolean): { allDay: boolean; ms: number; zone?: string } {
  if (!point || (!point.date && !point.dateTime)) throw required(which, 'body');
  if (point.date && point.dateTime) throw invalid(`Only one of ${which}.date and ${which}.dateTime may be set`, which, 'body');
  const zone = point.timeZone ?? undefined;
  if (zone !== undefined && !isValidTimeZone(zone)) throw invalid(`Invalid time zone definition for ${which} time.`, `${which}.timeZone`, 'body');
  if (point.date) {
    const wall = parseDate(point.date);
    if (wall === undefined) throw invalid(`Invalid ${which}.date: '${point.date}'`, `${which}.date`, 'body');
    return { allDay: true, ms: wall };
  }
  const text = point.dateTime as string;
  const hasOffset = /([Zz]|[+-]\d{2}:?\d{2})$/.test(text);
  if (recurring && zone === undefined) throw invalid(`Missing time zone definition for ${which} time.`, `${which}.timeZone`, 'body');
  // Google requires an offset in the dateTime unless timeZone names the zone.
  if (!hasOffset && zone === undefined) throw invalid(`Missing time zone definition for ${which} time.`, `${which}.timeZone`, 'body');
  const ms = parseDateTime(text, zone);
  if (ms === undefined) throw invalid(`Invalid ${which}.dateTime: '${text}'`, `${which}.dateTime`, 'body');
  return { allDay: false, ms, ...(zone !== undefined ? { zone } : {}) };
}

/** Start and end checked against each other; a recurring timed event must name its zone (Google's rule). */
export function timingOf(body: EventBody, calendarZone: string): EventTiming {
  const recurring = (body.recurrence?.length ?? 0) > 0;
  const start = parsePoint(body.start, 'start', recurring);
  const end = parsePoint(body.end, 'end', recurring);
  if (start.allDay !== end.allDay) throw invalid('The start and end must both be dates or both be date-times', 'end', 'body');
  if (end.ms < start.ms || (start.allDay && end.ms === start.ms)) throw timeRangeEmpty();
  if (recurring) {
    parseRecurrence(body.recurrence ?? [], { startWall: start.allDay ? start.ms : utcToWall(start.zone ?? calendarZone, start.ms), allDay: start.allDay, zone: start.zone ?? calendarZone });
  }
  return { allDay: start.allDay, startMs: start.ms, endMs: end.ms, ...(start.zone !== undefined ? { zone: start.zone } : {}) };
}

/** Reminders, colour and attendees: the parts of a body the schema cannot check alone. */
export function checkBody(body: EventBody): void {
  if (body.colorId !== undefined && !EVENT_COLORS[body.colorId as string]) throw invalid(`Invalid colorId: ${String(body.colorId)}`, 'colorId', 'body');
  const reminders = body.reminders;
  if (reminders?.useDefault && (reminders.overrides?.length ?? 0) > 0) {
    throw invalid('Cannot specify both default reminders and overrides at the same time.', 'reminders', 'body');
  }
  if ((reminders?.overrides?.length ?? 0) > REMINDER_MAX_OVERRIDES) throw invalid(`At most ${REMINDER_MAX_OVERRIDES} reminder overrides are allowed.`, 'reminders.overrides', 'body');
  for (const [index, attendee] of (body.attendees ?? []).entries()) {
    if (!attendee.email) throw required(`attendees[${index}].email`, 'body');
    if (!/^[^@\s]+@[^@\s]+$/.test(attendee.email)) throw invalid(`Invalid attendee email: ${attendee.email}`, `attendees[${index}].email`, 'body');
  }
}

/** The event type a request asks for, defaulting to `default`; unknown names are a 400. */
export function eventTypeOf(value: string | null | undefined): EventType {
  if (value === undefined || value === null || value === '') return 'default';
  if (!(EVENT_TYPES as readonly string[]).includes(value)) throw invalid(`Invalid event type: ${value}`, 'eventType', 'body');
  return value as EventType;
}

/**
 * The constraints Google puts on special event types. They may only be created where Google allows them (focus time,
 * out of office and working location on primary calendars; fromGmail never) and in the shape it requires.
 */
export function checkEventType(type: EventType, body: EventBody, timing: EventTiming, calendarIsPrimary: boolean): void {
  const refuse = (message: string, field = 'eventType'): never => {
    throw new ApiError(400, 'invalid', message, { location: field, locationType: 'body' });
  };
  if (type === 'fromGmail') refuse('Events of type fromGmail cannot be created through the API.');
  if (type !== 'birthday' && body.birthdayProperties) refuse('birthdayProperties can only be set on birthday events.', 'birthdayProperties');
  if (type !== 'focusTime' && body.focusTimeProperties) refuse('focusTimeProperties can only be set on focusTime events.', 'focusTimeProperties');
  if (type !== 'outOfOffice' && body.outOfOfficeProperties) refuse('outOfOfficeProperties can only be set on outOfOffice events.', 'outOfOfficeProperties');
  if (type !== 'workingLocation' && body.workingLocationProperties) refuse('workingLocationProperties can only be set on workingLocation events.', 'workingLocationProperties');
  if (type === 'birthday') {
    if (!timing.allDay || timing.endMs - timing.startMs !== DAY_MS) refuse('A birthday event must be an all-day event lasting exactly one day.', 'start');
    if (JSON.stringify(body.recurrence ?? []) !== JSON.stringify(['RRULE:FREQ=YEARLY'])) refuse('A birthday event must recur yearly: recurrence must be ["RRULE:FREQ=YEARLY"].', 'recurrence');
    if ((body.birthdayProperties?.type ?? 'birthday') !== 'birthday') refuse('Only birthday events of birthdayProperties.type "birthday" can be created.', 'birthdayProperties.type');
    if (body.transparency === 'opaque') refuse('A birthday event must be transparent.', 'transparency');
  }
  if (type === 'focusTime' || type === 'outOfOffice' || type === 'workingLocation') {
    if (!calendarIsPrimary) refuse(`Events of type ${type} can only be created on a primary calendar.`);
    if ((body.attendees?.length ?? 0) > 0) refuse(`Events of type ${type} cannot have attendees.`, 'attendees');
  }
  if ((type === 'focusTime' || type === 'outOfOffice') && timing.allDay) refuse(`Events of type ${type} cannot be all-day events.`, 'start');
  if (type === 'workingLocation') {
    const kind = body.workingLocationProperties?.type;
    if (!kind) refuse('A workingLocation event needs workingLocationProperties.type.', 'workingLocationProperties.type');
    if (!['homeOffice', 'officeLocation', 'customLocation'].includes(kind as string)) refuse(`Invalid working location type: ${String(kind)}`, 'workingLocationProperties.type');
    if (body.transparency === 'opaque') refuse('A workingLocation event must be transparent.', 'transparency');
    if (body.visibility && body.visibility !== 'public') refuse('A workingLocation event must be public.', 'visibility');
  }
}

/** Defaults Google fills in for special types (they show as available, or private, as the type implies). */
export function typeDefaults(type: EventType, body: EventBody): EventBody {
  if (type === 'birthday') return { transparency: 'transparent', visibility: 'private', birthdayProperties: { type: 'birthday' }, ...body };
  if (type === 'workingLocation') return { ...body, transparency: 'transparent', visibility: 'public' };
  if (type === 'focusTime') return { focusTimeProperties: { autoDeclineMode: 'declineNone', chatStatus: 'available' }, ...body };
  if (type === 'outOfOffice') return { outOfOfficeProperties: { autoDeclineMode: 'declineNone' }, ...body };
  return body;
}

/** A Meet code like Google's: three letters, four, three. */
function meetCode(): string {
  const letters = [...randomBytes(10)].map((byte) => String.fromCharCode(97 + (byte % 26))).join('');
  return `${letters.slice(0, 3)}-${letters.slice(3, 7)}-${letters.slice(7)}`;
}

/**
 * Conference data as Google stores it: only with conferenceDataVersion=1 (otherwise the client's conferenceData is
 * ignored and the previous one kept); a hangoutsMeet createRequest becomes a Meet conference with a video entry point.
 */
export function applyConference(body: EventBody, previous: EventBody | undefined, conferenceDataVersion: number): EventBody {
  if (conferenceDataVersion < 1) {
    const { conferenceData: _ignored, ...rest } = body;
    return previous?.conferenceData ? { ...rest, conferenceData: previous.conferenceData } : rest;
  }
  const request = body.conferenceData?.createRequest;
  if (!request || body.conferenceData?.entryPoints?.length) return body;
  const type = request.conferenceSolutionKey?.type ?? 'hangoutsMeet';
  if (type !== 'hangoutsMeet') throw invalid(`Unsupported conference solution type: ${type}`, 'conferenceData.createRequest.conferenceSolutionKey.type', 'body');
  const code = meetCode();
  return {
    ...body,
    conferenceData: {
      createRequest: { requestId: request.requestId ?? code, conferenceSolutionKey: { type }, status: { statusCode: 'success' } },
      entryPoints: [{ entryPointType: 'video', uri: `https://meet.google.com/${code}`, label: `meet.google.com/${code}` }],
      conferenceSolution: { key: { type }, name: 'Google Meet', iconUri: 'https://fonts.gstatic.com/s/i/productlogos/meet_2020q4/v6/web-512dp/logo_meet_2020q4_color_2x_web_512dp.png' },
      conferenceId: code,
    },
  };
}

/** The Meet link of a body's conference, which Google also exposes as `hangoutLink`. */
export function hangoutLinkOf(body: EventBody): string | undefined {
  const data = body.conferenceData;
  if (data?.conferenceSolution?.key?.type !== 'hangoutsMeet') return undefined;
  return data.entryPoints?.find((entry) => entry.entryPointType === 'video')?.uri ?? undefined;
}
