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
  const issue = result.error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  const message = path ? `Invalid value at '${path}': ${issue?.message ?? 'invalid'}` : `Invalid request body: ${issue?.message ?? 'invalid'}`;
  throw new ApiError(400, 'invalid', message, path ? { location: path, locationType: 'body' } : {});
}
