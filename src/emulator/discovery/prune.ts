/** Cuts a discovery document down to some of its methods: the others go, and so do the schemas nothing left reaches. */
import type { DiscoveryDocument, DiscoveryResource, JsonSchema } from './documents';
import { appendAll } from '../../shared/arrays';

/** A copy of `source` with only the methods whose id is in `kept`, resources left empty removed, unreached schemas removed. */
export function prunedDocument(source: DiscoveryDocument, kept: ReadonlySet<string>): DiscoveryDocument {
  const document = structuredClone(source);
  pruneMethods(document, kept);
  pruneSchemas(document);
  return document;
}

function pruneMethods(node: DiscoveryResource, kept: ReadonlySet<string>): void {
  for (const [name, method] of Object.entries(node.methods ?? {})) {
    if (!kept.has(method.id)) delete node.methods?.[name];
  }
  if (node.methods && Object.keys(node.methods).length === 0) delete node.methods;
  for (const [name, resource] of Object.entries(node.resources ?? {})) {
    pruneMethods(resource, kept);
    if (!resource.methods && !resource.resources) delete node.resources?.[name];
  }
  if (node.resources && Object.keys(node.resources).length === 0) delete node.resources;
}

function* refsIn(value: unknown): Generator<string> {
  if (Array.isArray(value)) {
    for (const item of value) yield* refsIn(item);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') yield inner;
      else yield* refsIn(inner);
    }
  }
}

/** Drops the schemas no remaining method reaches, directly or through another schema. */
function pruneSchemas(document: DiscoveryDocument): void {
  const schemas: Record<string, JsonSchema> = document.schemas ?? {};
  const reached = new Set<string>();
  const pending = [...refsIn({ resources: document.resources, parameters: document.parameters })];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (reached.has(name) || !(schemas[name] as JsonSchema | undefined)) continue;
    reached.add(name);
    appendAll(pending, refsIn(schemas[name]));
  }
  for (const name of Object.keys(schemas)) {
    if (!reached.has(name)) Reflect.deleteProperty(schemas, name);
  }
}
