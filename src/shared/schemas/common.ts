import { z } from 'zod';

/** RFC 3339 timestamp as Google sends it (e.g. 2026-11-22T10:00:00.000Z). */
export const rfc3339 = z.string().refine((value) => !Number.isNaN(Date.parse(value)), {
  message: 'must be an RFC 3339 timestamp',
});

/** Google sends 64-bit integers as decimal strings. */
export const int64String = z.string().regex(/^-?\d+$/, 'must be a decimal integer string');
