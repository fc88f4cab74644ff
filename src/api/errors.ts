import { GoogleErrorItem, googleErrorBodySchema } from '../shared/schemas/errors';
import { hasMark, markInstance } from '../shared/crossBundle';
import { english, Translate } from '../shared/l10n';

/**
 * Desk's own words for an error, kept as data in the API layer (which never imports vscode): `wording(english)` is the
 * error's message (for logs), `errorMessage(error, t)` words it in the display language.
 */
export type Wording = (t: Translate) => string;

/** A Google API error answer, typed, with a message fit for a notification. */
export class GoogleApiError extends Error {
  /** Holds across feature bundles (see shared/crossBundle.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasMark(value, 'GoogleApiError');
  }

  /** Set when the message is Desk's (a broken answer, an upload that stalled), not the service's. */
  readonly wording: Wording | undefined;

  /** `message`: the service's own text, or Desk's words for what went wrong. */
  constructor(
    readonly status: number,
    message: string | Wording,
    readonly reason: string | undefined,
    readonly errors: readonly GoogleErrorItem[],
    readonly retryAfterMs: number | undefined,
  ) {
    super(typeof message === 'string' ? message : message(english));
    this.wording = typeof message === 'string' ? undefined : message;
    this.name = 'GoogleApiError';
    markInstance(this, 'GoogleApiError');
  }

  get isNotFound(): boolean { return this.status === 404; }
  get isConflict(): boolean { return this.status === 412 || this.reason === 'conditionNotMet'; }
  get isAuthError(): boolean { return this.status === 401; }
  get isRateLimit(): boolean { return this.status === 429 || this.reason === 'rateLimitExceeded' || this.reason === 'userRateLimitExceeded'; }

  /** One sentence for a notification, in English: what failed, in the service's words (`errorMessage(error, t)` translates). */
  get userMessage(): string {
    return errorMessage(this);
  }

  /** Builds the error from a response body (Google's format, or anything else a proxy may answer). */
  static fromResponse(status: number, bodyText: string, retryAfterMs?: number): GoogleApiError {
    let parsed: unknown;
    try {
      parsed = JSON.parse(bodyText);
    } catch {
      parsed = undefined;
    }
    const result = googleErrorBodySchema.safeParse(parsed);
    if (result.success) {
      const { error } = result.data;
      const errors = error.errors ?? [];
      return new GoogleApiError(status, error.message, errors[0]?.reason, errors, retryAfterMs);
    }
    const snippet = bodyText.trim().slice(0, 200);
    return new GoogleApiError(status, (t) => (snippet ? t('Unexpected answer ({0})', snippet) : t('Unexpected answer (no details)')), undefined, [], retryAfterMs);
  }
}

/** The response had the wrong shape: a broken server or proxy, never a crash of ours. */
export class ResponseValidationError extends Error {
  readonly issues: string;

  /** Holds across feature bundles (see shared/crossBundle.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasMark(value, 'ResponseValidationError');
  }

  readonly wording: Wording;

  /** `issues`: what zod found (data), or Desk's words for it. */
  constructor(readonly operation: string, issues: string | Wording) {
    const wording: Wording = (t) => t('The service sent an answer Desk does not understand for {0}: {1}', operation, typeof issues === 'string' ? issues : issues(t));
    super(wording(english));
    this.wording = wording;
    this.issues = typeof issues === 'string' ? issues : issues(english);
    this.name = 'ResponseValidationError';
    markInstance(this, 'ResponseValidationError');
  }
}

/** The network failed (DNS, refused, reset) after every retry. */
export class NetworkError extends Error {
  /** Holds across feature bundles (see shared/crossBundle.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasMark(value, 'NetworkError');
  }

  readonly wording: Wording;

  constructor(readonly operation: string, override readonly cause: unknown) {
    const wording: Wording = (t) => t('Could not reach the service for {0}: {1}', operation, cause instanceof Error ? cause.message : String(cause));
    super(wording(english));
    this.wording = wording;
    this.name = 'NetworkError';
    markInstance(this, 'NetworkError');
  }
}

export class CancelledError extends Error {
  /** Holds across feature bundles (see shared/crossBundle.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasMark(value, 'CancelledError');
  }

  readonly wording: Wording = (t) => t('Cancelled');

  constructor() {
    super('Cancelled');
    this.name = 'CancelledError';
    markInstance(this, 'CancelledError');
  }
}

function describeStatus(status: number, t: Translate = english): string {
  switch (status) {
    case 400: return t('Invalid request');
    case 401: return t('Not signed in');
    case 403: return t('Not allowed');
    case 404: return t('Not found');
    case 409: return t('Conflict');
    case 410: return t('Gone');
    case 412: return t('Changed elsewhere');
    case 429: return t('Too many requests');
    default: return status >= 500 ? t('Service error') : t('HTTP {0}', status);
  }
}

/** A message for any error the API layer can throw, for notifications; `t` (vscode.l10n.t) words the status. */
export function errorMessage(error: unknown, t: Translate = english): string {
  if (error instanceof GoogleApiError) {
    const text = error.wording ? error.wording(t) : error.message;
    // Status 0: Desk could not read a successful answer, there is no HTTP failure to name.
    return error.status === 0 ? text : t('{0}: {1}', describeStatus(error.status, t), text);
  }
  const wording = wordingOf(error);
  if (wording) return wording(t);
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The Wording of the API's errors (instanceof does not hold across bundles for every class; the property does). */
function wordingOf(error: unknown): Wording | undefined {
  if (!(error instanceof Error) || !('wording' in error)) return undefined;
  const wording: unknown = error.wording;
  return typeof wording === 'function' ? (wording as Wording) : undefined;
}
