import { GoogleErrorItem, googleErrorBodySchema } from '../shared/schemas/errors';
import { hasMark, markInstance } from '../shared/crossBundle';
import { english, Translate } from '../shared/l10n';

/**
 * Desk's own words for an error, kept as data in the API layer (which never imports vscode): `wording(english)` is the
 * error's message (for logs), `errorMessage(error, t)` words it in the display language.
 */
export type Wording = (t: Translate) => string;

/** An API the OAuth client's Cloud project has not enabled (Google's 403 accessNotConfigured / SERVICE_DISABLED). */
export interface DisabledService {
  /** e.g. calendar-json.googleapis.com */
  readonly service: string;
  /** e.g. Google Calendar API */
  readonly title: string;
  /** The Cloud console page that enables it for the project. */
  readonly activationUrl: string;
}

/** The disabled API an error body names: its ErrorInfo (reason SERVICE_DISABLED), else the link in an accessNotConfigured message. */
export function disabledServiceOf(reason: string | undefined, message: string, details: readonly Record<string, unknown>[]): DisabledService | undefined {
  for (const detail of details) {
    const metadata = detail.metadata;
    if (detail.reason !== 'SERVICE_DISABLED' || typeof metadata !== 'object' || metadata === null) continue;
    const { service, serviceTitle, activationUrl } = metadata as Record<string, unknown>;
    if (typeof service !== 'string') continue;
    const url = typeof activationUrl === 'string' && activationUrl.startsWith('https://') ? activationUrl : `https://console.cloud.google.com/apis/library/${service}`;
    return { service, title: typeof serviceTitle === 'string' ? serviceTitle : service, activationUrl: url };
  }
  if (reason !== 'accessNotConfigured') return undefined;
  const link = /https:\/\/console\.(?:developers|cloud)\.google\.com\/apis\/api\/([a-z0-9.-]+)\/\S*?(?=\s|$)/.exec(message);
  const title = /^(?:Access Not Configured\. )?(.+?) has not been used in project/.exec(message)?.[1];
  if (!link?.[1]) return undefined;
  return { service: link[1], title: title ?? link[1], activationUrl: link[0] };
}

/** A Google API error answer, typed, with a message fit for a notification. */
export class GoogleApiError extends Error {
  /** Holds across feature bundles (see shared/crossBundle.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasMark(value, 'GoogleApiError');
  }

  /** Set when the message is Desk's (a broken answer, an upload that stalled), not the service's. */
  readonly wording: Wording | undefined;
  /** Set when the API is not enabled in the OAuth client's Cloud project: the message says which, the link enables it. */
  disabledService: DisabledService | undefined;

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
      const disabled = disabledServiceOf(errors[0]?.reason, error.message, error.details ?? []);
      if (disabled) {
        const apiError = new GoogleApiError(status, (t) => t('{0} is not enabled in the Google Cloud project of your OAuth client. Enable it there, wait a minute, then try again.', disabled.title), errors[0]?.reason, errors, retryAfterMs);
        apiError.disabledService = disabled;
        return apiError;
      }
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

/**
 * The service could not be reached at all (refused, no such host, timed out, connection reset before an answer, or
 * a gateway's 502/503/504 with no answer of Google's): Desk is offline. Views keep their rows and writes wait in the
 * queue; nothing about the request itself was wrong. `status` is the gateway's, undefined for a network failure.
 */
export class ServiceUnreachableError extends NetworkError {
  /** Holds across feature bundles (see shared/crossBundle.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasMark(value, 'ServiceUnreachableError');
  }

  override readonly wording: Wording;

  /** The request never left (refused, no such host): it cannot have taken effect. */
  get notSent(): boolean {
    const code = (this.cause as { code?: unknown } | undefined)?.code;
    return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
  }

  constructor(operation: string, cause: unknown, readonly status?: number) {
    super(operation, cause);
    this.wording = (t) => t('Cannot reach the service: Desk is offline');
    this.message = this.wording(english);
    this.name = 'ServiceUnreachableError';
    markInstance(this, 'ServiceUnreachableError');
  }
}

/** Whether an error means "offline" (see ServiceUnreachableError), across bundles. */
export function isUnreachable(error: unknown): boolean {
  return error instanceof ServiceUnreachableError;
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

/** The API to enable when the error is Google's "not enabled in your project" (works across bundles: a plain property). */
export function disabledServiceOfError(error: unknown): DisabledService | undefined {
  return error instanceof GoogleApiError ? error.disabledService : undefined;
}

/** A message for any error the API layer can throw, for notifications; `t` (vscode.l10n.t) words the status. */
export function errorMessage(error: unknown, t: Translate = english): string {
  return sanitizeMessage(rawErrorMessage(error, t));
}

/** Network codes as words: what a user can read in place of ECONNREFUSED. */
const NETWORK_CODE_WORDS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENETDOWN: 'network down',
  EPIPE: 'connection closed',
  ECONNABORTED: 'connection closed',
};

/**
 * The one place user-visible error text is cleaned: no URL (with its query string and field mask), no host:port,
 * no raw network code. Messages of node-fetch name the request's URL; Google's own messages rarely a link.
 */
export function sanitizeMessage(text: string): string {
  return text
    // "request to http://host/path?fields=… failed, reason: connect ECONNREFUSED 127.0.0.1:8089"
    .replace(/request to \S+ failed, reason:\s*/gi, '')
    .replace(/\b(?:https?|wss?):\/\/[^\s"'<>)]+/gi, 'the service')
    .replace(/(?:^|[\s(])[?&]?(?:fields|pageToken|q)=[^\s]+/g, '')
    .replace(/\b(?:connect |read |write )?(E[A-Z_]{3,})\b(?:\s+\[?[0-9a-f.:]+\]?(?::\d+)?)?/g, (match, code: string) => NETWORK_CODE_WORDS[code] ?? match)
    .replace(/\s{2,}/g, ' ')
    .trim();
}

function rawErrorMessage(error: unknown, t: Translate): string {
  if (error instanceof GoogleApiError) {
    const text = error.wording ? error.wording(t) : error.message;
    // Status 0: Desk could not read a successful answer, there is no HTTP failure to name; a disabled API is said in full.
    if (error.status === 0 || error.disabledService) return text;
    const status = describeStatus(error.status, t);
    // Google's message is often the status itself ("Not Found"): say it once, not "Not found: Not Found".
    const same = [status, describeStatus(error.status)].some((words) => words.toLowerCase() === text.trim().toLowerCase());
    return same || text.trim() === '' ? status : t('{0}: {1}', status, text);
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
