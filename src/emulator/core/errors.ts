import { GoogleErrorBody, GoogleErrorItem, statusForCode } from '../../shared/schemas/errors';

export interface ApiErrorDetail {
  domain?: string;
  location?: string;
  /** 'parameter', 'header', 'body', or another of Google's. */
  locationType?: string;
}

/**
 * An error the emulator answers in Google's format. Models throw these; the server turns them into
 * `{"error":{code,message,errors:[{domain,reason,message}],status}}`. Anything else thrown is a bug and
 * becomes a 500 backendError without leaking internals.
 */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly detail: ApiErrorDetail = {},
    readonly headers: Record<string, string> = {},
    /** Google's `error.details` (e.g. an ErrorInfo with the machine-readable reason). */
    readonly details: readonly Record<string, unknown>[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): GoogleErrorBody {
    const item: GoogleErrorItem = {
      domain: this.detail.domain ?? 'global',
      reason: this.reason,
      message: this.message,
    };
    if (this.detail.location) {
      item.location = this.detail.location;
      item.locationType = this.detail.locationType ?? 'parameter';
    }
    const body: GoogleErrorBody = { error: { code: this.code, message: this.message, errors: [item], status: statusForCode(this.code) } };
    return this.details.length > 0 ? { error: { ...body.error, details: [...this.details] } } : body;
  }
}

export const notFound = (message: string): ApiError => new ApiError(404, 'notFound', message);
export const invalid = (message: string, location?: string, locationType = 'parameter'): ApiError =>
  new ApiError(400, 'invalid', message, location ? { location, locationType } : {});
export const required = (what: string, locationType = 'parameter'): ApiError =>
  new ApiError(400, 'required', `Required parameter: ${what}`, { location: what, locationType });
export const badRequest = (message: string): ApiError => new ApiError(400, 'badRequest', message);
export const forbidden = (message: string, reason = 'forbidden'): ApiError => new ApiError(403, reason, message);
export const conditionNotMet = (message = 'Precondition Failed'): ApiError =>
  new ApiError(412, 'conditionNotMet', message, { location: 'If-Match', locationType: 'header' });
export const authError = (message = 'Invalid Credentials'): ApiError =>
  new ApiError(401, 'authError', message, { location: 'Authorization', locationType: 'header' }, {
    'WWW-Authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"',
  });
export const backendError = (message = 'Backend Error'): ApiError => new ApiError(500, 'backendError', message);

/**
 * The longest request target (path and query) served: longer ones are answered 414, as Google's front ends answer
 * an over-long URL. Google publishes no number; 16 KiB is the emulator's bound, the size Node reads a request's
 * head in (a request whose headers, not its URL, overflow that is answered 431).
 */
export const MAX_REQUEST_TARGET_BYTES = 16 * 1024;

/** Google's words for a URL it will not read. */
export function uriTooLong(): ApiError {
  return new ApiError(414, 'badRequest', `The requested URL is too large to process: the emulator reads at most ${MAX_REQUEST_TARGET_BYTES} bytes of path and query.`);
}
