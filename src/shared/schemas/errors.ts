import * as z from './zod';

/** One entry of Google's `error.errors[]` list. */
export const googleErrorItemSchema = z.object({
  domain: z.optional(z.string()),
  reason: z.optional(z.string()),
  message: z.optional(z.string()),
  location: z.optional(z.string()),
  locationType: z.optional(z.string()),
});

/** The error body every Google JSON API (and our emulator) answers with. */
export const googleErrorBodySchema = z.object({
  error: z.object({
    code: z.number(),
    message: z.string(),
    errors: z.optional(z.array(googleErrorItemSchema)),
    status: z.optional(z.string()),
    /** Typed detail objects (ErrorInfo with a reason such as ACCESS_TOKEN_SCOPE_INSUFFICIENT, …). */
    details: z.optional(z.array(z.record(z.string(), z.unknown()))),
  }),
});

export type GoogleErrorItem = z.infer<typeof googleErrorItemSchema>;
export type GoogleErrorBody = z.infer<typeof googleErrorBodySchema>;

/** Canonical gRPC-style status names Google puts in `error.status`, by HTTP code. */
export function statusForCode(code: number): string {
  switch (code) {
    case 400: return 'INVALID_ARGUMENT';
    case 401: return 'UNAUTHENTICATED';
    case 403: return 'PERMISSION_DENIED';
    case 404: return 'NOT_FOUND';
    case 409: return 'ALREADY_EXISTS';
    case 410: return 'ABORTED';
    case 412: return 'FAILED_PRECONDITION';
    case 413: return 'OUT_OF_RANGE';
    case 429: return 'RESOURCE_EXHAUSTED';
    case 501: return 'UNIMPLEMENTED';
    case 503: return 'UNAVAILABLE';
    default: return code >= 500 ? 'INTERNAL' : 'UNKNOWN';
  }
}
