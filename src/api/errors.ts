import { GoogleErrorItem, googleErrorBodySchema } from '../shared/schemas/errors';
import { hasMark, markInstance } from '../shared/crossBundle';
import { english, Translate } from '../shared/l10n';

/** A Google API error answer, typed, with a message fit for a notification. */
export class GoogleApiError extends Error {
  /** Holds across feature bundles (see shared/crossBundle.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasMark(value, 'GoogleApiError');
  }

  constructor(
    readonly status: number,
    message: string,
    readonly reason: string | undefined,
    readonly errors: readonly GoogleErrorItem[],
    readonly retryAfterMs: number | undefined,
  ) {
    super(message);
    this.name = 'GoogleApiError';
    markInstance(this, 'GoogleApiError');
  }

  get isNotFound(): boolean { return this.status === 404; }
  get isConflict(): boolean { return this.status === 412 || this.reason === 'conditionNotMet'; }
  get isAuthError(): boolean { return this.status === 401; }
  get isRateLimit(): boolean { return this.status === 429 || this.reason === 'rateLimitExceeded' || this.reason === 'userRateLimitExceeded'; }

  /** One sentence for a VS Code notification: what failed, in the service's words. */
  get userMessage(): string {
    return `${describeStatus(this.status)}: ${this.message}`;
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
    const snippet = bodyText.trim().slice(0, 200) || 'no details';
    return new GoogleApiError(status, `Unexpected answer (${snippet})`, undefined, [], retryAfterMs);
  }
}

/** The response had the wrong shape: a broken server or proxy, never a crash of ours. */
export class ResponseValidationError extends Error {
  /** Holds across feature bundles (see shared/crossBundle.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasMark(value, 'ResponseValidationError');
  }

  constructor(readonly operation: string, readonly issues: string) {
    super(`The service sent an answer Desk does not understand for ${operation}: ${issues}`);
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

  constructor(readonly operation: string, override readonly cause: unknown) {
    super(`Could not reach the service for ${operation}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'NetworkError';
    markInstance(this, 'NetworkError');
  }
}

export class CancelledError extends Error {
  /** Holds across feature bundles (see shared/crossBundle.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasMark(value, 'CancelledError');
  }

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
  if (error instanceof GoogleApiError) return t('{0}: {1}', describeStatus(error.status, t), error.message);
  if (error instanceof Error) return error.message;
  return String(error);
}
