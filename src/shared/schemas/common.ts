import * as z from './zod';

/** RFC 3339 timestamp as Google sends it (e.g. 2026-11-22T10:00:00.000Z). */
export const rfc3339 = z.string().check(
  z.refine((value) => !Number.isNaN(Date.parse(value)), { error: 'must be an RFC 3339 timestamp' }),
);

/** Google sends 64-bit integers as decimal strings. */
export const int64String = z.string().check(z.regex(/^-?\d+$/, 'must be a decimal integer string'));
