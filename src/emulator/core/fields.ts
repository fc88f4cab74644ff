/**
 * Google's partial response (the `fields` system parameter): parses a selection such as
 * `items(id,title,parents/id),nextPageToken`, checks its names against the method's response schema, and cuts a
 * JSON answer down to it, as every Google API does for every method.
 */
import type { DiscoveryDocument, JsonSchema } from '../discovery/documents';
import { ApiError } from './errors';

/** What is kept of one value: all of it, or some of its properties (each with its own selection). */
export interface FieldSelection {
  /** The whole value (a name given without sub-selection, or `*`). */
  readonly whole: boolean;
  /** Selected properties by name; `*` selects every property whole. */
  readonly properties: ReadonlyMap<string, FieldSelection>;
}

interface MutableSelection {
  whole: boolean;
  properties: Map<string, MutableSelection>;
}

const NAME = /^[A-Za-z0-9_$@.*-]+$/;

/** Google's answer to a selection it cannot read or that names a field the resource lacks. */
export function invalidFieldSelection(what: string): ApiError {
  return new ApiError(400, 'invalidParameter', `Invalid field selection ${what}`, { location: 'fields', locationType: 'parameter' });
}

/**
 * The selection a `fields` value asks for: comma-separated paths (`a/b/c`), each optionally followed by a
 * parenthesised sub-selection that applies under its last name (`items(id,title)`), `*` for every property.
 */
export function parseFieldSelection(text: string): FieldSelection {
  const root: MutableSelection = { whole: false, properties: new Map() };
  let position = 0;

  const skipSpaces = (): void => {
    while (text[position] === ' ') position++;
  };
  const readName = (): string => {
    skipSpaces();
    const start = position;
    while (position < text.length && !',/()'.includes(text[position])) position++;
    const name = text.slice(start, position).trim();
    if (!NAME.test(name) || (name.includes('*') && name !== '*')) throw invalidFieldSelection(text);
    return name;
  };
  const child = (parent: MutableSelection, name: string): MutableSelection => {
    let node = parent.properties.get(name);
    if (!node) {
      node = { whole: false, properties: new Map() };
      parent.properties.set(name, node);
    }
    return node;
  };
  const readList = (into: MutableSelection, closing: boolean): void => {
    for (;;) {
      let node = child(into, readName());
      while (text[position] === '/') {
        position++;
        node = child(node, readName());
      }
      skipSpaces();
      if (text[position] === '(') {
        position++;
        readList(node, true);
      } else {
        node.whole = true;
      }
      skipSpaces();
      if (text[position] === ',') {
        position++;
        continue;
      }
      if (closing) {
        if (text[position] !== ')') throw invalidFieldSelection(text);
        position++;
        return;
      }
      if (position !== text.length) throw invalidFieldSelection(text);
      return;
    }
  };
  readList(root, false);
  return root;
}

/** `value` with only what `selection` keeps; arrays keep every element, each cut down to the selection. */
export function selectFields(value: unknown, selection: FieldSelection): unknown {
  if (selection.whole) return value;
  if (Array.isArray(value)) return value.map((element) => selectFields(element, selection));
  if (value === null || typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  if (selection.properties.get('*')?.whole) return source;
  const kept: Record<string, unknown> = {};
  for (const [name, inner] of selection.properties) {
    if (name === '*') continue;
    if (Object.hasOwn(source, name) && source[name] !== undefined) kept[name] = selectFields(source[name], inner);
  }
  return kept;
}

/**
 * Throws Google's 400 when the selection names a property the response schema does not have. Below a map
 * (`additionalProperties`) or an untyped value any name is accepted, as its keys are data, not schema.
 */
export function checkFieldSelection(selection: FieldSelection, schema: JsonSchema | undefined, document: DiscoveryDocument, path = ''): void {
  const resolved = resolve(schema, document);
  if (!resolved) return;
  for (const [name, inner] of selection.properties) {
    if (name === '*') continue;
    const propertySchema = resolved.properties?.[name] ?? resolved.additionalProperties;
    const here = path ? `${path}/${name}` : name;
    if (!propertySchema) {
      if (resolved.properties) throw invalidFieldSelection(here);
      continue;
    }
    checkFieldSelection(inner, propertySchema, document, here);
  }
}

/** The object schema a value of `schema` has: `$ref`s followed and arrays looked through to their elements. */
function resolve(schema: JsonSchema | undefined, document: DiscoveryDocument): JsonSchema | undefined {
  let current = schema;
  for (let depth = 0; current && depth < 16; depth++) {
    if (current.$ref) current = document.schemas?.[current.$ref];
    else if (current.type === 'array') current = current.items;
    else return current;
  }
  return undefined;
}
