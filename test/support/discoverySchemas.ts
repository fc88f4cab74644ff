/**
 * Checks the emulator's JSON answers against the response schema Google's discovery document gives the method:
 * property names, types, enums and formats (date-time, date, int64 as a string…). A property the schema does not
 * list is a failure unless the README lists it as a deliberate extension (a listed property that Google's schema has
 * is one the emulator deliberately answers otherwise).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { discoveryMethod, DiscoveryDocument, JsonSchema } from '../../src/emulator/discovery/documents';

// out/test/support → the repository root.
const README = path.resolve(__dirname, '../../../docs/emulator.md');
const EXTENSIONS_HEADING = /^#+ Deliberate extensions to Google's schemas/m;

/**
 * The extensions the README lists, as `Schema.property` (`drive:File.foo` when a schema name is ambiguous): the
 * backticked names opening each bullet of the section "Deliberate extensions to Google's schemas".
 */
export function documentedExtensions(readme = fs.readFileSync(README, 'utf8')): Set<string> {
  const start = readme.search(EXTENSIONS_HEADING);
  if (start < 0) return new Set();
  const section = readme.slice(start).split(/\n(?=#)/)[0] ?? '';
  const names = [...section.matchAll(/^- `([^`]+)`/gm)].map((found) => found[1]);
  return new Set(names);
}

const INT64 = /^-?\d+$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const BYTE = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** What is wrong with `value` for `schema` (empty when it conforms), each problem with its JSON path. */
export function schemaProblems(document: DiscoveryDocument, schema: JsonSchema, value: unknown, at: string, extensions: ReadonlySet<string>): string[] {
  if (schema.$ref !== undefined) {
    const named = document.schemas?.[schema.$ref];
    if (!named) return [`${at}: schema ${schema.$ref} is not in ${document.id}`];
    return schemaProblems(document, named, value, at, extensions);
  }
  if (value === null) return [`${at}: null (Google leaves a property out instead)`];
  const kind = schema.type ?? 'any';
  switch (kind) {
    case 'any':
      return [];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${at}: ${JSON.stringify(value)} is not a boolean`];
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? [] : [`${at}: ${JSON.stringify(value)} is not an integer`];
    case 'number':
      return typeof value === 'number' ? [] : [`${at}: ${JSON.stringify(value)} is not a number`];
    case 'string':
      return stringProblems(schema, value, at);
    case 'array':
      if (!Array.isArray(value)) return [`${at}: ${JSON.stringify(value)} is not an array`];
      return value.flatMap((item, index) => schemaProblems(document, schema.items ?? {}, item, `${at}[${index}]`, extensions));
    case 'object':
      return objectProblems(document, schema, value, at, extensions);
    default:
      return [`${at}: unknown schema type ${kind}`];
  }
}

function stringProblems(schema: JsonSchema, value: unknown, at: string): string[] {
  if (typeof value !== 'string') return [`${at}: ${JSON.stringify(value)} is not a string${schema.format ? ` (${schema.format})` : ''}`];
  if (schema.enum && !schema.enum.includes(value)) return [`${at}: "${value}" is not one of ${schema.enum.join(', ')}`];
  const format = schema.format;
  if ((format === 'int64' || format === 'uint64') && !INT64.test(value)) return [`${at}: "${value}" is not an ${format} string`];
  if (format === 'date-time' && !DATE_TIME.test(value)) return [`${at}: "${value}" is not an RFC 3339 date-time`];
  if (format === 'date' && !DATE.test(value)) return [`${at}: "${value}" is not a date (YYYY-MM-DD)`];
  if (format === 'byte' && !BYTE.test(value)) return [`${at}: "${value.slice(0, 40)}" is not base64`];
  return [];
}

function objectProblems(document: DiscoveryDocument, schema: JsonSchema, value: unknown, at: string, extensions: ReadonlySet<string>): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${at}: ${JSON.stringify(value)} is not an object`];
  const problems: string[] = [];
  const api = document.name;
  for (const [key, inner] of Object.entries(value)) {
    const name = `${schema.id ?? at}.${key}`;
    // A listed property is the emulator's own (or deliberately differs, as the spec says): not checked further.
    if (extensions.has(name) || extensions.has(`${api}:${name}`)) continue;
    const property = schema.properties?.[key] ?? schema.additionalProperties;
    if (property) problems.push(...schemaProblems(document, property, inner, `${at}.${key}`, extensions));
    else problems.push(`${at}.${key}: not in Google's ${schema.id ?? 'schema'} (nor a documented extension)`);
  }
  return problems;
}

/** The problems of a method's JSON answer (by discovery id), or [] when the method has no response schema. */
export function answerProblems(methodId: string, body: unknown, extensions: ReadonlySet<string>): string[] {
  const located = discoveryMethod(methodId);
  const response = located?.method.response;
  if (!located || !response) return [];
  return schemaProblems(located.document, response, body, response.$ref, extensions);
}
