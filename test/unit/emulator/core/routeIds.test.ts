import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TokenService } from '../../../../src/emulator/identity/tokens';
import { Route, Router } from '../../../../src/emulator/core/router';
import { DEFAULT_OPTIONS, ServiceDeps } from '../../../../src/emulator/core/server';
import { SERVICE_MODULES } from '../../../../src/emulator/services';
import { MemoryStore } from '../../../../src/emulator/store/store';

/** The parts of a discovery document this test reads. */
interface DiscoveryMethod {
  id: string;
  httpMethod: string;
  path: string;
  flatPath?: string;
  mediaUpload?: { protocols?: Record<string, { path: string }> };
}
interface DiscoveryResource {
  methods?: Record<string, DiscoveryMethod>;
  resources?: Record<string, DiscoveryResource>;
}
interface DiscoveryDocument extends DiscoveryResource {
  servicePath: string;
}

/** The discovery document of each route id prefix (the API part of Google's method ids). */
const DOCUMENTS: Partial<Record<string, string>> = {
  tasks: 'tasks.v1',
  drive: 'drive.v2',
  calendar: 'calendar.v3',
  books: 'books.v1',
  directory: 'admin.directory_v1',
  admin: 'admin.directory_v1',
};

/**
 * APIs the emulator serves a little of without a stored discovery document: the Drive Labels API v2 (label
 * definitions, `drivelabels.labels.*`), whose ids and paths follow its published document, and the Discovery Service
 * itself (`discovery.apis.list`, `discovery.apis.getRest`).
 */
const UNDOCUMENTED_APIS: ReadonlySet<string> = new Set(['drivelabels', 'discovery']);

/**
 * Addresses of a documented operation that its discovery document does not list: the Directory watch's customer
 * form, which the spec's versioning table places at `/admin/directory/users/v1/watch`.
 */
const OTHER_ADDRESSES: ReadonlyMap<string, readonly string[]> = new Map([['directory.users.watch', ['POST /admin/directory/users/v1/watch']]]);

/** The stored copy in the repository when there is one, else the reference set beside the worktree. */
function loadDocument(name: string): DiscoveryDocument {
  const root = path.resolve(__dirname, '../../../../..');
  const candidates = [path.join(root, 'src/emulator/discovery/documents', `${name}.json`), path.join(root, '../shared/reference', `${name}.discovery.json`)];
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  assert.ok(found, `no discovery document ${name} (looked in ${candidates.join(', ')})`);
  return JSON.parse(fs.readFileSync(found, 'utf8')) as DiscoveryDocument;
}

function methodsOf(resource: DiscoveryResource): DiscoveryMethod[] {
  return [...Object.values(resource.methods ?? {}), ...Object.values(resource.resources ?? {}).flatMap(methodsOf)];
}

/** A path with its parameters erased: `/drive/v2/files/:fileId` and `drive/v2/files/{fileId}` are the same shape. */
function shapeOf(pattern: string): string {
  return pattern.split('/').filter(Boolean).map((segment) => (/^[:{]/.test(segment) ? ':' : segment)).join('/');
}

/** Every address of a method: its path and flat path under the service path, and its upload paths. */
function addressesOf(document: DiscoveryDocument, method: DiscoveryMethod): { shape: string; upload: boolean }[] {
  const paths = [method.path, method.flatPath].filter((value): value is string => value !== undefined);
  const uploads = Object.values(method.mediaUpload?.protocols ?? {}).map((protocol) => protocol.path);
  return [...paths.map((value) => ({ shape: shapeOf(`${document.servicePath}${value}`), upload: false })), ...uploads.map((value) => ({ shape: shapeOf(value), upload: true }))];
}

function allRoutes(): readonly Route[] {
  const store = new MemoryStore();
  const now = (): number => Date.now();
  const deps: ServiceDeps = { store, tokens: new TokenService(store, 3600, now), now, options: DEFAULT_OPTIONS };
  const router = new Router();
  for (const module of SERVICE_MODULES) module.register(router, deps);
  return router.routes();
}

describe('emulator route ids', () => {
  const routes = allRoutes();
  const documents = new Map<string, DiscoveryDocument>();
  const documentFor = (api: string): DiscoveryDocument | undefined => {
    const name = DOCUMENTS[api];
    if (name === undefined) return undefined;
    let document = documents.get(name);
    if (!document) {
      document = loadDocument(name);
      documents.set(name, document);
    }
    return document;
  };

  it('names every Google route by the discovery method it serves: same id, same HTTP method, a matching path', () => {
    const problems: string[] = [];
    for (const route of routes) {
      const api = route.id.split('.')[0];
      if (api === 'emulator' || api === 'oauth' || UNDOCUMENTED_APIS.has(api)) continue;
      const document = documentFor(api);
      if (!document) {
        problems.push(`${route.id}: no discovery document for "${api}"`);
        continue;
      }
      const method = methodsOf(document).find((candidate) => candidate.id === route.id);
      if (!method) {
        problems.push(`${route.id}: not a method of ${String(DOCUMENTS[api])}`);
        continue;
      }
      const address = `${route.method} ${route.path}`;
      if (OTHER_ADDRESSES.get(route.id)?.includes(address)) continue;
      const match = addressesOf(document, method).find((candidate) => candidate.shape === shapeOf(route.path));
      // A resumable upload session continues at the upload path it was opened on, with PUT (Google's protocol) or POST.
      const methodFits = route.method === method.httpMethod || (match?.upload === true && (route.method === 'PUT' || route.method === 'POST'));
      if (!match || !methodFits) problems.push(`${route.id}: ${address} is not ${method.httpMethod} ${method.path} (or its upload paths)`);
    }
    assert.deepEqual(problems, []);
  });

  it('has no two routes on one HTTP method and path', () => {
    const seen = new Map<string, string>();
    const clashes: string[] = [];
    for (const route of routes) {
      const key = `${route.method} ${shapeOf(route.path)}`;
      const earlier = seen.get(key);
      if (earlier !== undefined) clashes.push(`${key}: ${earlier} and ${route.id}`);
      seen.set(key, route.id);
    }
    assert.deepEqual(clashes, []);
  });
});
