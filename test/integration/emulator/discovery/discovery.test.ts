/**
 * The emulator's Discovery Service: the directory list and each API's REST description in Google's format, pointing
 * at the emulator's own address, listing exactly the methods it serves, each of which a client that builds its
 * URLs from the document (as Google's Python client and gapi do) reaches at the right route.
 */
import * as assert from 'node:assert/strict';
import { DiscoveryDocument, DiscoveryMethod, methodsOf } from '../../../../src/emulator/discovery/documents';
import { startEmulator, RunningEmulator } from '../../../../src/emulator/emulator';
import { Router } from '../../../../src/emulator/core/router';

const APIS = [['tasks', 'v1'], ['books', 'v1'], ['drive', 'v2'], ['calendar', 'v3'], ['admin', 'directory_v1']] as const;
/** Route ids outside the five documents: the emulator's own routes, OAuth, this service, and the Drive Labels API. */
const OWN_ROUTE = /^(emulator|oauth|discovery|drivelabels)\./;

/** A URL the way discovery-based clients expand a method's path template (`{name}` and reserved `{+name}`). */
function expand(template: string): string {
  return template.replace(/\{\+?([^}]+)\}/g, (_whole, name: string) => encodeURIComponent(`sample-${name}`));
}

async function getJson(url: string): Promise<{ status: number; json: Record<string, unknown>; contentType: string | null }> {
  const response = await fetch(url);
  return { status: response.status, json: (await response.json()) as Record<string, unknown>, contentType: response.headers.get('content-type') };
}

describe('emulator: discovery documents', function () {
  let emulator: RunningEmulator;
  let router: Router;
  const documents = new Map<string, DiscoveryDocument>();

  before(async () => {
    emulator = await startEmulator();
    router = new Router();
    router.addAll(emulator.routes());
    for (const [api, version] of APIS) {
      const answer = await getJson(`${emulator.url}/discovery/v1/apis/${api}/${version}/rest`);
      assert.equal(answer.status, 200, `${api} ${version}: ${JSON.stringify(answer.json)}`);
      documents.set(api, answer.json as unknown as DiscoveryDocument);
    }
  });
  after(async () => emulator.close());

  it('lists the five APIs in Google\'s directory format, without a token', async () => {
    const { status, json } = await getJson(`${emulator.url}/discovery/v1/apis`);
    assert.equal(status, 200);
    assert.equal(json.kind, 'discovery#directoryList');
    assert.equal(json.discoveryVersion, 'v1');
    const items = json.items as Array<Record<string, unknown>>;
    assert.deepEqual(items.map((item) => item.id).sort(), ['admin:directory_v1', 'books:v1', 'calendar:v3', 'drive:v2', 'tasks:v1']);
    for (const item of items) {
      assert.equal(item.kind, 'discovery#directoryItem');
      assert.equal(item.preferred, true);
      assert.equal(item.discoveryRestUrl, `${emulator.url}/discovery/v1/apis/${String(item.name)}/${String(item.version)}/rest`);
      // The listed address serves the document.
      assert.equal((await getJson(item.discoveryRestUrl)).status, 200);
    }
    const calendarOnly = await getJson(`${emulator.url}/discovery/v1/apis?name=calendar&preferred=true`);
    assert.deepEqual((calendarOnly.json.items as Array<{ id: string }>).map((item) => item.id), ['calendar:v3']);
  });

  it('points rootUrl, baseUrl, mtlsRootUrl and batchPath at the emulator, whatever Host the client sent', async () => {
    const response = await fetch(`${emulator.url}/discovery/v1/apis/calendar/v3/rest`, { headers: { Host: 'evil.example' } });
    const calendar = (await response.json()) as DiscoveryDocument;
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(calendar.kind, 'discovery#restDescription');
    assert.equal(calendar.rootUrl, `${emulator.url}/`);
    assert.equal(calendar.mtlsRootUrl, `${emulator.url}/`);
    assert.equal(calendar.baseUrl, `${emulator.url}/calendar/v3/`);
    assert.equal(calendar.batchPath, 'batch/calendar/v3');
    assert.equal(calendar.revision, '20260519', 'Google\'s revision of the imported document');
    for (const document of documents.values()) {
      assert.equal(document.rootUrl, `${emulator.url}/`);
      assert.equal(document.baseUrl, `${emulator.url}/${document.servicePath}`);
    }
  });

  it('serves Google\'s per-API form /$discovery/rest?version=, where the version names one API here', async () => {
    const calendar = await getJson(`${emulator.url}/$discovery/rest?version=v3`);
    assert.equal(calendar.status, 200);
    assert.equal(calendar.json.id, 'calendar:v3');
    assert.equal(calendar.json.rootUrl, `${emulator.url}/`);
    assert.equal((await getJson(`${emulator.url}/$discovery/rest?version=directory_v1`)).json.id, 'admin:directory_v1');
    assert.equal((await getJson(`${emulator.url}/$discovery/rest?version=v1`)).status, 400, 'Tasks and Books are both v1 on this one host');
    assert.equal((await getJson(`${emulator.url}/$discovery/rest?version=v1&api=books`)).json.id, 'books:v1');
    assert.equal((await getJson(`${emulator.url}/$discovery/rest?version=v9`)).status, 404);
  });

  it('answers Google\'s 404 for an API or version it does not serve', async () => {
    const { status, json } = await getJson(`${emulator.url}/discovery/v1/apis/drive/v3/rest`);
    assert.equal(status, 404);
    assert.equal((json.error as { code: number }).code, 404);
  });

  it('lists exactly the methods the emulator has a route for, and every one reaches that route at its path and method', () => {
    const served = new Set<string>();
    for (const [api, document] of documents) {
      const methods = [...methodsOf(document)];
      assert.ok(methods.length > 0, `${api} serves some methods`);
      for (const method of methods) {
        served.add(method.id);
        const target = new URL(expand(method.path), document.baseUrl);
        const found = router.match(method.httpMethod, target.pathname).match;
        assert.equal(found?.route.id, method.id, `${method.id}: ${method.httpMethod} ${target.pathname}`);
        for (const uploadPath of uploadPaths(document, method)) {
          const upload = router.match(method.httpMethod, new URL(expand(uploadPath), document.rootUrl).pathname).match;
          assert.equal(upload?.route.id, method.id, `${method.id} upload: ${method.httpMethod} ${uploadPath}`);
        }
      }
      // Every schema a method names is in the document; none is left that nothing names.
      const text = JSON.stringify({ resources: document.resources, schemas: document.schemas });
      for (const ref of text.matchAll(/"\$ref":"([^"]+)"/g)) assert.ok(document.schemas?.[ref[1]], `${api}: schema ${ref[1]} is served`);
      for (const name of Object.keys(document.schemas ?? {})) assert.ok(text.includes(`"$ref":"${name}"`), `${api}: schema ${name} is reachable`);
    }
    const unserved = emulator.routes().map((route) => route.id).filter((id) => !OWN_ROUTE.test(id) && !served.has(id));
    assert.deepEqual([...new Set(unserved)], [], 'every API route is in its discovery document (rerun scripts/import-discovery.js after adding one)');
  });

  it('leaves out the methods the emulator does not implement, so a client fails at build time instead of with a 404', () => {
    const books = documents.get('books') as DiscoveryDocument;
    const admin = documents.get('admin') as DiscoveryDocument;
    const ids = (document: DiscoveryDocument): string[] => [...methodsOf(document)].map((method) => method.id);
    assert.ok(ids(books).includes('books.mylibrary.bookshelves.addVolume'));
    assert.ok(!ids(books).includes('books.cloudloading.addBook'));
    assert.ok(!ids(admin).includes('directory.groups.list'));
    assert.equal(books.schemas?.['BooksCloudloadingResource'], undefined, 'schemas only cut methods used are pruned');
  });
});

/** The paths a client uploads media to: Python's `rootUrl + upload/ + servicePath + path`, and the document's own protocol paths. */
function uploadPaths(document: DiscoveryDocument, method: DiscoveryMethod): string[] {
  if (!method.mediaUpload) return [];
  const simple = method.mediaUpload.protocols?.['simple']?.path;
  return [`upload/${document.servicePath}${method.path}`, ...(simple ? [simple.replace(/^\//, '')] : [])];
}
