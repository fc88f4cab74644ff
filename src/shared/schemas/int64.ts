/**
 * Google's int64 in JSON: the discovery documents declare every int64 `type: string, format: int64`, and Google
 * sends a string of digits ("1796493894846"). Responses are read tolerantly (a number, as older emulators answered
 * and some hand-written servers do, is read as well), each to the form its readers use.
 */
import * as z from './zod';

const INT64_DIGITS = /^-?\d{1,19}$/;

const int64Wire = z.union([z.string().check(z.regex(INT64_DIGITS, 'must be an int64 (a string of digits)')), z.number().check(z.int())]);

/** An int64 kept as its decimal digits (sizes, versions, change ids: compared or shown, never added up here). */
export const int64String = z.pipe(int64Wire, z.transform((value: string | number): string => String(value)));

/** An int64 read as a number (epoch milliseconds such as a channel's `expiration`, well inside 2^53). */
export const int64Number = z.pipe(int64Wire, z.transform((value: string | number): number => Number(value)));
