import * as z from '../../shared/schemas/zod';
import { ApiError, invalid } from './errors';

/** Typed, validated readers for query parameters; bad values are 400 `invalid` naming the parameter. */
export class QueryParams {
  constructor(private readonly search: URLSearchParams) {}

  has(name: string): boolean {
    return this.search.has(name);
  }

  string(name: string, maxLength = 8192): string | undefined {
    const value = this.search.get(name);
    if (value === null) return undefined;
    if (value.length > maxLength) throw invalid(`Invalid value for ${name}: too long`, name);
    return value;
  }

  all(name: string): string[] {
    return this.search.getAll(name);
  }

  integer(name: string, options: { min?: number; max?: number; default?: number } = {}): number | undefined {
    const raw = this.search.get(name);
    if (raw === null || raw === '') return options.default;
    if (!/^-?\d+$/.test(raw)) throw invalid(`Invalid value '${raw}'. Values must match the following regular expression: '-?\\d+'`, name);
    const value = Number(raw);
    if (options.min !== undefined && value < options.min) throw invalid(`Invalid value '${raw}'. Values must be within the range: [${options.min}, ${options.max ?? 'inf'}]`, name);
    if (options.max !== undefined && value > options.max) throw invalid(`Invalid value '${raw}'. Values must be within the range: [${options.min ?? '-inf'}, ${options.max}]`, name);
    return value;
  }

  boolean(name: string, defaultValue: boolean): boolean {
    const raw = this.search.get(name);
    if (raw === null || raw === '') return defaultValue;
    if (raw === 'true') return true;
    if (raw === 'false') return false;
    throw invalid(`Invalid value '${raw}'. Values must be one of: true, false`, name);
  }

  enumValue<T extends string>(name: string, allowed: readonly T[], defaultValue?: T): T | undefined {
    const raw = this.search.get(name);
    if (raw === null || raw === '') return defaultValue;
    if (!(allowed as readonly string[]).includes(raw)) {
      throw invalid(`Invalid value '${raw}' for ${name}. Allowed values: ${allowed.join(', ')}`, name);
    }
    return raw as T;
  }

  /** RFC 3339 timestamp → epoch milliseconds. */
  timestamp(name: string): number | undefined {
    const raw = this.search.get(name);
    if (raw === null || raw === '') return undefined;
    const value = Date.parse(raw);
    if (!/^\d{4}-\d{2}-\d{2}/.test(raw) || Number.isNaN(value)) throw invalid(`Invalid value for ${name}: '${raw}' is not an RFC 3339 timestamp`, name);
    return value;
  }
}

/** Validates a parsed JSON body with a zod schema; the first issue becomes a 400 naming the field. */
export function parseBody<T>(schema: z.ZodMiniType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues.at(0);
  const path = issue?.path.map(String).join('.') ?? '';
  const words = issue ? issueInWords(issue, valueAt(body, issue.path)) : 'invalid';
  const message = path ? `Invalid value at '${path}': ${words}` : `Invalid request body: ${words}`;
  throw new ApiError(400, 'invalid', message, path ? { location: path, locationType: 'body' } : {});
}

/**
 * A validation issue as Google words one ("at most 1024 characters"), not in zod's words ("Too big: expected string
 * to have <=1024 characters"), which reach the user through the client's error message. A schema's own message
 * (a refinement's) is kept.
 */
export function issueInWords(issue: z.core.$ZodIssue, value: unknown): string {
  switch (issue.code) {
    case 'too_big':
    case 'too_small': {
      const most = issue.code === 'too_big';
      const bound = Number(most ? issue.maximum : issue.minimum);
      const strict = issue.inclusive === false;
      // A count: "less than 5" is "at most 4".
      const limit = strict ? bound + (most ? -1 : 1) : bound;
      if (issue.origin === 'string') return !most && bound === 1 ? 'must not be empty' : `${most ? 'at most' : 'at least'} ${limit} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${most ? 'at most' : 'at least'} ${limit} items`;
      return `${most ? (strict ? 'less than' : 'at most') : (strict ? 'more than' : 'at least')} ${bound}`;
    }
    case 'invalid_type':
      return value === undefined ? 'required' : `expected ${issue.expected === 'object' || issue.expected === 'array' ? 'an' : 'a'} ${issue.expected}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'regex' ? 'not in the expected format' : `not a valid ${issue.format}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `'${key}'`).join(', ')}`;
    case 'custom':
      return issue.message;
    default:
      return 'invalid value';
  }
}

/** What the body holds at an issue's path (undefined when a step is missing). */
function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let value = body;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
