/** Google's discovery documents for the five services (pruned copies in documents/), and lookups of their methods by id. */
import adminDirectory from './documents/admin.directory_v1.json';
import books from './documents/books.v1.json';
import calendar from './documents/calendar.v3.json';
import drive from './documents/drive.v2.json';
import tasks from './documents/tasks.v1.json';

/** A JSON schema as discovery documents write them (a subset of JSON Schema draft 3, with `$ref` by schema id). */
export interface JsonSchema {
  id?: string;
  type?: string;
  $ref?: string;
  format?: string;
  enum?: string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema;
  items?: JsonSchema;
  readOnly?: boolean;
}

export interface DiscoveryParameter extends JsonSchema {
  location?: 'path' | 'query';
  required?: boolean;
  repeated?: boolean;
}

export interface DiscoveryMethod {
  id: string;
  path: string;
  flatPath?: string;
  httpMethod: string;
  parameters?: Record<string, DiscoveryParameter>;
  parameterOrder?: string[];
  request?: { $ref: string };
  response?: { $ref: string };
  scopes?: string[];
  supportsMediaDownload?: boolean;
  supportsMediaUpload?: boolean;
  mediaUpload?: { protocols?: Record<string, { path: string; multipart?: boolean }> };
}

export interface DiscoveryResource {
  methods?: Record<string, DiscoveryMethod>;
  resources?: Record<string, DiscoveryResource>;
}

export interface DiscoveryDocument extends DiscoveryResource {
  kind: string;
  id: string;
  name: string;
  version: string;
  revision: string;
  title: string;
  description: string;
  documentationLink?: string;
  icons?: Record<string, string>;
  rootUrl: string;
  mtlsRootUrl?: string;
  servicePath: string;
  baseUrl: string;
  basePath: string;
  batchPath: string;
  parameters?: Record<string, DiscoveryParameter>;
  auth?: { oauth2?: { scopes?: Record<string, unknown> } };
  schemas?: Record<string, JsonSchema>;
}

/** The five documents, as Google publishes them (pruned at import by scripts/import-discovery.js). */
export const DISCOVERY_DOCUMENTS: readonly DiscoveryDocument[] = [tasks, books, drive, calendar, adminDirectory] as unknown as DiscoveryDocument[];

export interface LocatedMethod {
  readonly document: DiscoveryDocument;
  readonly method: DiscoveryMethod;
}

/** Every method of a resource tree, nested resources included. */
export function* methodsOf(node: DiscoveryResource): Generator<DiscoveryMethod> {
  for (const method of Object.values(node.methods ?? {})) yield method;
  for (const resource of Object.values(node.resources ?? {})) yield* methodsOf(resource);
}

const byId = new Map<string, LocatedMethod>();
for (const document of DISCOVERY_DOCUMENTS) {
  for (const method of methodsOf(document)) byId.set(method.id, { document, method });
}

/** The discovery method with this id ('calendar.events.list'), with its document; undefined for other routes. */
export function discoveryMethod(id: string): LocatedMethod | undefined {
  return byId.get(id);
}

/** The document a method id belongs to, by the id's first segment (its API's name: 'drive', 'directory'…). */
export function documentOfApi(apiPrefix: string): DiscoveryDocument | undefined {
  return DISCOVERY_DOCUMENTS.find((document) => [...methodsOf(document)].some((method) => method.id.startsWith(`${apiPrefix}.`)));
}

/** The OAuth scopes a document's API knows (auth.oauth2.scopes). */
export function scopesOfDocument(document: DiscoveryDocument): string[] {
  return Object.keys(document.auth?.oauth2?.scopes ?? {});
}
