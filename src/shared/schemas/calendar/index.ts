/** Google Calendar API v3 resources and request bodies, shared by the client (src/api/calendar.ts) and the emulator. */
export * from './common';
export * from './events';
export * from './calendars';
export * from './acl';
export * from './settings';
