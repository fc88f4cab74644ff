import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { driveServiceFor } from '../../../../src/emulator/drive/service';
import { EmulatorUser, findUser } from '../../../../src/emulator/identity/users';
import { startEmulator, RunningEmulator } from '../../../../src/emulator/emulator';
import { googleErrorBodySchema } from '../../../../src/shared/schemas/errors';
import {
  changeListSchema,
  childListSchema,
  DriveFile,
  driveFileSchema,
  fileListSchema,
  FOLDER_MIME_TYPE,
  GOOGLE_DOC_MIME_TYPE,
  GOOGLE_SHEET_MIME_TYPE,
  parentListSchema,
} from '../../../../src/shared/schemas/drive';
import { emulatorHttp, HttpAnswer, HttpCallOptions } from '../../../support/emulatorHttp';

type CallOptions = HttpCallOptions & { as?: string };

const md5 = (data: Buffer | string): string => createHash('md5').update(data).digest('hex');

describe('Drive v2 emulator over HTTP', function () {
  this.timeout(20000);
  let emulator: RunningEmulator;
  const tokens = new Map<string, string>();

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    for (const email of ['alice@example.com', 'bob@example.com', 'carol@example.com']) tokens.set(email, emulator.tokenFor(email).accessToken);
  });
  after(() => emulator.close());

  /** A request as one of the demo users (alice unless `as` names another). */
  const call = (method: string, path: string, options: CallOptions = {}): Promise<HttpAnswer> =>
    emulatorHttp(emulator, () => tokens.get(options.as ?? 'alice@example.com') ?? null)(method, path, {
      ...options,
      // Content here is media unless a test says otherwise.
      ...(options.body !== undefined ? { contentType: options.contentType ?? 'application/octet-stream' } : {}),
    });

  const ok = async (method: string, path: string, options: CallOptions = {}): Promise<HttpAnswer> => {
    const result = await call(method, path, options);
    assert.ok(result.status >= 200 && result.status < 300, `${method} ${path} → ${result.status} ${result.text}`);
    return result;
  };
  const fileOf = (result: HttpAnswer): DriveFile => driveFileSchema.parse(result.json);
  const errorOf = (result: HttpAnswer) => googleErrorBodySchema.parse(result.json).error;
  const q = (query: string): string => encodeURIComponent(query);

  async function folder(title: string, parentId = 'root', as?: string): Promise<DriveFile> {
    return fileOf(await ok('POST', '/drive/v2/files', { json: { title, mimeType: FOLDER_MIME_TYPE, parents: [{ id: parentId }] }, as }));
  }

  async function textFile(title: string, content: string, parentId = 'root', extra: Record<string, unknown> = {}, as?: string): Promise<DriveFile> {
    const boundary = 'test_boundary_42';
    const body = `--${boundary}\r\nContent-Type: application/json\r\n\r\n${JSON.stringify({ title, parents: [{ id: parentId }], ...extra })}\r\n--${boundary}\r\nContent-Type: text/plain\r\n\r\n${content}\r\n--${boundary}--\r\n`;
    return fileOf(await ok('POST', '/upload/drive/v2/files?uploadType=multipart', { body, contentType: `multipart/related; boundary=${boundary}`, as }));
  }

  async function titles(query: string, extra = ''): Promise<string[]> {
    const list = fileListSchema.parse((await ok('GET', `/drive/v2/files?q=${q(query)}${extra}`)).json);
    return list.items.map((item) => item.title ?? '').sort();
  }

  describe('files and folders', () => {
    it('creates a folder and a file in it, with the File resource fields', async () => {
      const projects = await folder('Projects');
      const root = fileOf(await ok('GET', '/drive/v2/files/root'));
      assert.equal(root.mimeType, FOLDER_MIME_TYPE);
      assert.deepEqual(root.parents, []);
      assert.equal(projects.parents?.[0]?.id, root.id);
      assert.equal(projects.parents.at(0)?.isRoot, true);
      assert.equal(projects.parents.at(0)?.kind, 'drive#parentReference');

      const file = await textFile('notes.tar.gz', 'hello', projects.id, { description: 'a note', properties: [{ key: 'color', value: 'blue' }] });
      assert.equal(file.kind, 'drive#file');
      assert.equal(file.title, 'notes.tar.gz');
      assert.equal(file.description, 'a note');
      assert.equal(file.mimeType, 'text/plain');
      assert.equal(file.fileSize, '5');
      assert.equal(file.md5Checksum, md5('hello'));
      assert.equal(file.quotaBytesUsed, '5');
      assert.equal(file.fileExtension, 'gz');
      assert.equal(file.fullFileExtension, 'tar.gz');
      assert.equal(file.parents?.[0]?.id, projects.id);
      assert.equal(file.parents.at(0)?.isRoot, false);
      assert.equal(file.owners?.[0]?.emailAddress, 'alice@example.com');
      assert.deepEqual(file.ownerNames, ['Alice Demo']);
      assert.equal(file.lastModifyingUserName, 'Alice Demo');
      assert.equal(file.labels?.trashed, false);
      assert.equal(file.explicitlyTrashed, false);
      assert.equal(file.editable, true);
      assert.equal(file.userPermission?.role, 'owner');
      assert.ok(file.etag?.startsWith('"'));
      assert.match(file.version ?? '', /^\d+$/);
      assert.ok(file.selfLink?.endsWith(`/drive/v2/files/${file.id}`));
      assert.ok(file.downloadUrl?.includes('alt=media'));
      assert.equal(file.properties?.[0]?.key, 'color');
      assert.equal(file.properties.at(0)?.visibility, 'PRIVATE');
      assert.ok(file.createdDate && !Number.isNaN(Date.parse(file.createdDate)));
      assert.ok(file.headRevisionId);
      assert.equal(file.exportLinks, undefined);
      // The browser links work without a token and show nothing of the file's content.
      const icon = await fetch(file.iconLink as string);
      assert.equal(icon.status, 200);
      assert.equal(icon.headers.get('content-type'), 'image/svg+xml');
      const page = await fetch(file.alternateLink as string);
      assert.equal(page.status, 200);
      assert.ok(!(await page.text()).includes('notes.tar.gz'));
    });

    it('inserts a file without content as an empty file named Untitled', async () => {
      const file = fileOf(await ok('POST', '/drive/v2/files', { json: {} }));
      assert.equal(file.title, 'Untitled');
      const content = await ok('GET', `/drive/v2/files/${file.id}?alt=media`);
      assert.equal(content.bytes.length, 0);
    });

    it('answers bad input with 400 naming the field, never a 500', async () => {
      const badTitle = await call('POST', '/drive/v2/files', { json: { title: 42 } });
      assert.equal(badTitle.status, 400);
      assert.equal(errorOf(badTitle).errors?.[0]?.location, 'title');
      const badParent = await call('POST', '/drive/v2/files', { json: { parents: [{ id: 'no-such-folder' }] } });
      assert.equal(badParent.status, 404);
      const badJson = await call('POST', '/drive/v2/files', { body: '{"title":', contentType: 'application/json' });
      assert.equal(badJson.status, 400);
      const badMax = await call('GET', '/drive/v2/files?maxResults=lots');
      assert.equal(badMax.status, 400);
      assert.equal(errorOf(badMax).errors?.[0]?.location, 'maxResults');
      const badCorpora = await call('GET', '/drive/v2/files?corpora=everything');
      assert.equal(badCorpora.status, 400);
      const badSpaces = await call('GET', '/drive/v2/files?spaces=photos');
      assert.equal(badSpaces.status, 400);
      const badOrder = await call('GET', '/drive/v2/files?orderBy=size');
      assert.equal(badOrder.status, 400);
      assert.equal(errorOf(badOrder).errors?.[0]?.location, 'orderBy');
    });

    it('copies, touches and generates ids', async () => {
      const original = await textFile('copy-me.txt', 'same bytes');
      const copy = fileOf(await ok('POST', `/drive/v2/files/${original.id}/copy`, { json: { title: 'copied.txt' } }));
      assert.notEqual(copy.id, original.id);
      assert.equal(copy.title, 'copied.txt');
      assert.equal(copy.md5Checksum, original.md5Checksum);
      assert.equal((await ok('GET', `/drive/v2/files/${copy.id}?alt=media`)).text, 'same bytes');

      const touched = fileOf(await ok('POST', `/drive/v2/files/${original.id}/touch`));
      assert.ok(Number(touched.version) > Number(original.version));
      assert.notEqual(touched.etag, original.etag);
      assert.ok(Date.parse(touched.modifiedDate ?? '') >= Date.parse(original.modifiedDate ?? ''));

      const generated = (await ok('GET', '/drive/v2/files/generateIds?maxResults=3')).json as { kind: string; ids: string[] };
      assert.equal(generated.kind, 'drive#generatedIds');
      assert.equal(generated.ids.length, 3);
      const withId = fileOf(await ok('POST', '/drive/v2/files', { json: { id: generated.ids[0], title: 'chosen id' } }));
      assert.equal(withId.id, generated.ids[0]);
      assert.equal((await call('POST', '/drive/v2/files', { json: { id: generated.ids[0] } })).status, 409);
      assert.equal((await call('GET', '/drive/v2/files/generateIds?maxResults=1001')).status, 400);
    });

    it('keeps users apart: another user\'s file is 404 File not found', async () => {
      const secret = await textFile('secret.txt', 'alice only');
      for (const [method, path] of [['GET', `/drive/v2/files/${secret.id}`], ['GET', `/drive/v2/files/${secret.id}?alt=media`], ['PATCH', `/drive/v2/files/${secret.id}`], ['DELETE', `/drive/v2/files/${secret.id}`], ['POST', `/drive/v2/files/${secret.id}/trash`]] as const) {
        const result = await call(method, path, { as: 'bob@example.com', ...(method === 'PATCH' ? { json: { title: 'x' } } : {}) });
        assert.equal(result.status, 404, `${method} ${path}`);
        assert.equal(errorOf(result).message, `File not found: ${secret.id}`);
        assert.equal(errorOf(result).errors?.[0]?.reason, 'notFound');
      }
      const bobList = fileListSchema.parse((await ok('GET', '/drive/v2/files', { as: 'bob@example.com' })).json);
      assert.ok(!bobList.items.some((item) => item.id === secret.id));
      // Bob cannot put his file in Alice's folder either.
      const aliceFolder = await folder('alice-private');
      assert.equal((await call('POST', '/drive/v2/files', { as: 'bob@example.com', json: { parents: [{ id: aliceFolder.id }] } })).status, 404);
      const bobRoot = fileOf(await ok('GET', '/drive/v2/files/root', { as: 'bob@example.com' }));
      assert.equal(bobRoot.owners?.[0]?.emailAddress, 'bob@example.com');
      assert.notEqual(bobRoot.id, fileOf(await ok('GET', '/drive/v2/files/root')).id);
    });
  });

  describe('files.list and the query language', () => {
    let box: DriveFile;
    before(async () => {
      box = await folder('QueryBox');
      await textFile("Alice's report.txt", 'quarterly numbers', box.id, { labels: { starred: true }, description: 'budget summary' });
      await textFile('back\\slash.txt', 'x', box.id);
      await textFile('plan.md', 'plan', box.id, { properties: [{ key: 'project', value: 'desk', visibility: 'PUBLIC' }] });
      const hidden = await textFile('old.txt', 'old', box.id);
      await ok('POST', `/drive/v2/files/${hidden.id}/trash`);
      await folder('Sub', box.id);
    });

    it('filters by parent, title, mimeType, starred, trashed, properties, owners, dates', async () => {
      const inBox = `'${box.id}' in parents`;
      assert.deepEqual(await titles(inBox), ["Alice's report.txt", 'Sub', 'back\\slash.txt', 'old.txt', 'plan.md']);
      assert.deepEqual(await titles(`${inBox} and trashed = false`), ["Alice's report.txt", 'Sub', 'back\\slash.txt', 'plan.md']);
      assert.deepEqual(await titles(`${inBox} and trashed = true`), ['old.txt']);
      assert.deepEqual(await titles(`${inBox} and title contains 'REPORT'`), ["Alice's report.txt"]);
      assert.deepEqual(await titles(`${inBox} and title = 'Alice\\'s report.txt'`), ["Alice's report.txt"]);
      assert.deepEqual(await titles(`${inBox} and title = 'back\\\\slash.txt'`), ['back\\slash.txt']);
      assert.deepEqual(await titles(`${inBox} and title != 'plan.md' and trashed = false and mimeType != '${FOLDER_MIME_TYPE}'`), ["Alice's report.txt", 'back\\slash.txt']);
      assert.deepEqual(await titles(`${inBox} and mimeType = '${FOLDER_MIME_TYPE}'`), ['Sub']);
      assert.deepEqual(await titles(`${inBox} and starred = true`), ["Alice's report.txt"]);
      assert.deepEqual(await titles(`${inBox} and fullText contains 'budget'`), ["Alice's report.txt"]);
      // fullText searches content too.
      assert.deepEqual(await titles(`${inBox} and fullText contains 'QUARTERLY numbers'`), ["Alice's report.txt"]);
      assert.deepEqual(await titles(`${inBox} and properties has { key='project' and value='desk' and visibility='PUBLIC' }`), ['plan.md']);
      assert.deepEqual(await titles(`${inBox} and properties has { key='project' and value='desk' and visibility='PRIVATE' }`), []);
      assert.deepEqual(await titles(`${inBox} and 'alice@example.com' in owners and title = 'plan.md'`), ['plan.md']);
      assert.deepEqual(await titles(`${inBox} and 'bob@example.com' in owners`), []);
      assert.deepEqual(await titles(`${inBox} and sharedWithMe`), []);
      assert.deepEqual(await titles(`${inBox} and modifiedDate > '2000-01-01T00:00:00Z' and title = 'plan.md'`), ['plan.md']);
      assert.deepEqual(await titles(`${inBox} and createdDate < '2000-01-01T00:00:00'`), []);
      assert.deepEqual(await titles(`${inBox} and (title = 'plan.md' or title = 'Sub') and not trashed = true`), ['Sub', 'plan.md']);
      assert.deepEqual(await titles(`${inBox} and not (title contains '.txt' or title contains '.md')`), ['Sub']);
    });

    it('returns trashed files too unless the query excludes them', async () => {
      const all = await titles(`'${box.id}' in parents`);
      assert.ok(all.includes('old.txt'));
    });

    it('rejects a malformed query with 400 invalid, location q, and the position', async () => {
      for (const [query, position] of [
        ["title = 'open", 8],
        ['title contains', 14],
        ["title ~ 'x'", 6],
        ["starred = maybe", 10],
        ["(title = 'a'", 12],
        ["'x' in friends", 7],
        ["modifiedDate > 'yesterday'", 15],
        ["colour = 'red'", 0],
      ] as const) {
        const result = await call('GET', `/drive/v2/files?q=${q(query)}`);
        assert.equal(result.status, 400, query);
        const error = errorOf(result);
        assert.equal(error.errors?.[0]?.reason, 'invalid');
        assert.equal(error.errors.at(0)?.location, 'q');
        assert.match(error.message, new RegExp(`position ${position}\\b`), `${query}: ${error.message}`);
      }
    });

    it('orders (folders first, title, desc) and pages with stable opaque tokens', async () => {
      const ordered = fileListSchema.parse((await ok('GET', `/drive/v2/files?q=${q(`'${box.id}' in parents`)}&orderBy=folder,title`)).json).items.map((item) => item.title);
      assert.equal(ordered[0], 'Sub');
      const descending = fileListSchema.parse((await ok('GET', `/drive/v2/files?q=${q(`'${box.id}' in parents`)}&orderBy=title desc`)).json).items.map((item) => item.title);
      assert.deepEqual(descending, [...descending].sort((a, b) => ((a ?? '').toLowerCase() < (b ?? '').toLowerCase() ? 1 : -1)));

      const seen: string[] = [];
      let pageToken: string | undefined;
      let pages = 0;
      do {
        const list = fileListSchema.parse((await ok('GET', `/drive/v2/files?q=${q(`'${box.id}' in parents`)}&orderBy=title&maxResults=2${pageToken ? `&pageToken=${q(pageToken)}` : ''}`)).json);
        seen.push(...list.items.map((item) => item.title ?? ''));
        pageToken = list.nextPageToken;
        pages++;
        // A new file sorting before the cursor must not shift later pages.
        if (pages === 1) await textFile('aaa-first.txt', 'x', box.id);
      } while (pageToken);
      assert.equal(pages, 3);
      assert.deepEqual(seen, ["Alice's report.txt", 'back\\slash.txt', 'old.txt', 'plan.md', 'Sub']);

      const first = fileListSchema.parse((await ok('GET', `/drive/v2/files?q=${q(`'${box.id}' in parents`)}&maxResults=1`)).json);
      assert.ok(first.nextPageToken);
      // The token continues the query that issued it, as on Google: another q sent with it is not a 400.
      const sameQuery = fileListSchema.parse((await ok('GET', `/drive/v2/files?q=${q(`'${box.id}' in parents`)}&maxResults=1&pageToken=${q(first.nextPageToken)}`)).json);
      const otherQuery = fileListSchema.parse((await ok('GET', `/drive/v2/files?q=${q('starred = true')}&maxResults=1&pageToken=${q(first.nextPageToken)}`)).json);
      assert.deepEqual(otherQuery.items.map((file) => file.id), sameQuery.items.map((file) => file.id));
      assert.equal((await call('GET', '/drive/v2/files?pageToken=garbage')).status, 400);
    });

    it('pages 100 files by default and at most 1000', async () => {
      const crowd = await folder('Crowd');
      // Filled through the model: this test is about paging, not inserts.
      const alice = findUser('alice@example.com') as EmulatorUser;
      for (let index = 0; index < 101; index++) driveServiceFor(emulator.deps).model.insert(alice, { title: `c${index}`, parents: [{ id: crowd.id }] });
      const byDefault = fileListSchema.parse((await ok('GET', `/drive/v2/files?q=${q(`'${crowd.id}' in parents`)}`)).json);
      assert.equal(byDefault.items.length, 100);
      assert.ok(byDefault.nextPageToken);
      assert.ok(byDefault.nextLink?.includes('pageToken='));
      const huge = fileListSchema.parse((await ok('GET', `/drive/v2/files?q=${q(`'${crowd.id}' in parents`)}&maxResults=5000`)).json);
      assert.equal(huge.items.length, 101);
      assert.equal(huge.nextPageToken, undefined);
      assert.equal((await call('GET', '/drive/v2/files?maxResults=-1')).status, 400);
    });

    it('lists children of a folder with q and paging', async () => {
      const children = childListSchema.parse((await ok('GET', `/drive/v2/files/${box.id}/children?q=${q('trashed = false')}&maxResults=2`)).json);
      assert.equal(children.items.length, 2);
      assert.equal(children.items[0]?.kind, 'drive#childReference');
      assert.ok(children.nextPageToken);
      const rest = childListSchema.parse((await ok('GET', `/drive/v2/files/${box.id}/children?q=${q('trashed = false')}&maxResults=100&pageToken=${q(children.nextPageToken)}`)).json);
      assert.equal(children.items.length + rest.items.length, 5);
      assert.equal(rest.nextPageToken, undefined);
    });
  });

  describe('ETags', () => {
    it('fails stale If-Match with 412 and answers a current If-None-Match with 304', async () => {
      const file = await textFile('etag.txt', 'v1');
      const stale = file.etag as string;
      const patched = fileOf(await ok('PATCH', `/drive/v2/files/${file.id}`, { json: { title: 'etag2.txt' }, headers: { 'If-Match': stale } }));
      assert.notEqual(patched.etag, stale);
      for (const [method, path, json] of [['PATCH', `/drive/v2/files/${file.id}`, { title: 'x' }], ['PUT', `/drive/v2/files/${file.id}`, { title: 'x' }], ['DELETE', `/drive/v2/files/${file.id}`, undefined], ['POST', `/drive/v2/files/${file.id}/trash`, undefined]] as const) {
        const result = await call(method, path, { json, headers: { 'If-Match': stale } });
        assert.equal(result.status, 412, `${method} ${path}`);
        assert.equal(errorOf(result).errors?.[0]?.reason, 'conditionNotMet');
      }
      assert.equal(fileOf(await ok('GET', `/drive/v2/files/${file.id}`)).title, 'etag2.txt');
      const notModified = await call('GET', `/drive/v2/files/${file.id}`, { headers: { 'If-None-Match': patched.etag as string } });
      assert.equal(notModified.status, 304);
      assert.equal((await call('GET', `/drive/v2/files/${file.id}`, { headers: { 'If-None-Match': stale } })).status, 200);
      await ok('DELETE', `/drive/v2/files/${file.id}`, { headers: { 'If-Match': patched.etag as string } });
    });
  });

  describe('trash, delete and several parents', () => {
    it('trashes a folder with its contents, restores them, and keeps what was trashed on its own', async () => {
      const top = await folder('TrashTop');
      const inner = await folder('Inner', top.id);
      const a = await textFile('a.txt', 'a', top.id);
      const b = await textFile('b.txt', 'b', inner.id);
      const own = await textFile('own.txt', 'own', inner.id);
      await ok('POST', `/drive/v2/files/${own.id}/trash`);
      const trashed = fileOf(await ok('POST', `/drive/v2/files/${top.id}/trash`));
      assert.equal(trashed.labels?.trashed, true);
      assert.equal(trashed.explicitlyTrashed, true);
      for (const id of [inner.id, a.id, b.id]) {
        const child = fileOf(await ok('GET', `/drive/v2/files/${id}`));
        assert.equal(child.labels?.trashed, true);
        assert.equal(child.explicitlyTrashed, false);
      }
      assert.equal(fileOf(await ok('GET', `/drive/v2/files/${own.id}`)).explicitlyTrashed, true);

      const restored = fileOf(await ok('POST', `/drive/v2/files/${top.id}/untrash`));
      assert.equal(restored.labels?.trashed, false);
      for (const id of [inner.id, a.id, b.id]) assert.equal(fileOf(await ok('GET', `/drive/v2/files/${id}`)).labels?.trashed, false);
      assert.equal(fileOf(await ok('GET', `/drive/v2/files/${own.id}`)).labels?.trashed, true);
    });

    it('empties the trash for good and frees the quota', async () => {
      const doomed = await textFile('doomed.txt', 'x'.repeat(1000));
      const aboutBefore = (await ok('GET', '/drive/v2/about')).json as { quotaBytesUsed: string; quotaBytesUsedInTrash: string };
      await ok('POST', `/drive/v2/files/${doomed.id}/trash`);
      const aboutTrashed = (await ok('GET', '/drive/v2/about')).json as { quotaBytesUsed: string; quotaBytesUsedInTrash: string };
      assert.ok(Number(aboutTrashed.quotaBytesUsedInTrash) >= 1000);
      const emptied = await call('DELETE', '/drive/v2/files/trash');
      assert.equal(emptied.status, 204);
      assert.equal((await call('GET', `/drive/v2/files/${doomed.id}`)).status, 404);
      const remaining = fileListSchema.parse((await ok('GET', `/drive/v2/files?q=${q('trashed = true')}`)).json);
      assert.equal(remaining.items.length, 0);
      const aboutAfter = (await ok('GET', '/drive/v2/about')).json as { quotaBytesUsed: string; quotaBytesUsedInTrash: string };
      assert.equal(aboutAfter.quotaBytesUsedInTrash, '0');
      assert.ok(Number(aboutAfter.quotaBytesUsed) <= Number(aboutBefore.quotaBytesUsed) - 1000);
    });

    it('files a file in several folders, lists it in each, and refuses cycles', async () => {
      const left = await folder('Left');
      const right = await folder('Right');
      const shared = await textFile('both.txt', 'both', left.id);
      const reference = (await ok('POST', `/drive/v2/files/${right.id}/children`, { json: { id: shared.id } })).json as { id: string; kind: string };
      assert.equal(reference.id, shared.id);
      assert.equal(reference.kind, 'drive#childReference');
      const parents = parentListSchema.parse((await ok('GET', `/drive/v2/files/${shared.id}/parents`)).json);
      assert.deepEqual(parents.items.map((item) => item.id).sort(), [left.id, right.id].sort());
      assert.equal((await ok('GET', `/drive/v2/files/${shared.id}/parents/${right.id}`)).status, 200);
      assert.equal((await ok('GET', `/drive/v2/files/${right.id}/children/${shared.id}`)).status, 200);
      assert.deepEqual(await titles(`'${left.id}' in parents`), ['both.txt']);
      assert.deepEqual(await titles(`'${right.id}' in parents`), ['both.txt']);

      await ok('DELETE', `/drive/v2/files/${shared.id}/parents/${left.id}`);
      assert.deepEqual(await titles(`'${left.id}' in parents`), []);
      assert.equal((await call('GET', `/drive/v2/files/${left.id}/children/${shared.id}`)).status, 404);
      await ok('POST', `/drive/v2/files/${shared.id}/parents`, { json: { id: left.id } });

      const inner = await folder('InnerLeft', left.id);
      const cycle = await call('POST', `/drive/v2/files/${left.id}/parents`, { json: { id: inner.id } });
      assert.equal(cycle.status, 400);
      const self = await call('PATCH', `/drive/v2/files/${left.id}?addParents=${left.id}`, { json: {} });
      assert.equal(self.status, 400);
      const notFolder = await call('POST', `/drive/v2/files/${inner.id}/parents`, { json: { id: shared.id } });
      assert.equal(notFolder.status, 400);

      // Moving with addParents/removeParents.
      const moved = fileOf(await ok('PATCH', `/drive/v2/files/${shared.id}?removeParents=${left.id},${right.id}&addParents=${inner.id}`, { json: {} }));
      assert.deepEqual(moved.parents?.map((parent) => parent.id), [inner.id]);
    });

    it('deletes a folder with its descendants, but a child with another parent survives', async () => {
      const top = await folder('DeleteTop');
      const keep = await folder('Keep');
      const inside = await textFile('inside.txt', 'x', top.id);
      const deep = await folder('Deep', top.id);
      const deeper = await textFile('deeper.txt', 'x', deep.id);
      const survivor = await textFile('survivor.txt', 'x', top.id);
      await ok('POST', `/drive/v2/files/${survivor.id}/parents`, { json: { id: keep.id } });
      assert.equal((await call('DELETE', `/drive/v2/files/${top.id}`)).status, 204);
      for (const id of [top.id, inside.id, deep.id, deeper.id]) assert.equal((await call('GET', `/drive/v2/files/${id}`)).status, 404);
      const left = fileOf(await ok('GET', `/drive/v2/files/${survivor.id}`));
      assert.deepEqual(left.parents?.map((parent) => parent.id), [keep.id]);
      assert.equal((await call('DELETE', '/drive/v2/files/root')).status, 403);
    });
  });

  describe('uploads and downloads', () => {
    it('uploads with uploadType=media and downloads the same bytes (also by range)', async () => {
      const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, index) => index % 251));
      const file = fileOf(await ok('POST', '/upload/drive/v2/files?uploadType=media', { body: bytes, contentType: 'application/x-demo' }));
      assert.equal(file.mimeType, 'application/x-demo');
      assert.equal(file.fileSize, String(bytes.length));
      assert.equal(file.md5Checksum, md5(bytes));
      const download = await ok('GET', `/drive/v2/files/${file.id}?alt=media`);
      assert.ok(download.bytes.equals(bytes));
      assert.equal(download.headers.get('content-type'), 'application/x-demo');
      const part = await call('GET', `/drive/v2/files/${file.id}?alt=media`, { headers: { Range: 'bytes=10-19' } });
      assert.equal(part.status, 206);
      assert.ok(part.bytes.equals(bytes.subarray(10, 20)));
    });

    it('uploads multipart (metadata + media) and updates content keeping md5, size, version and revision consistent', async () => {
      const file = await textFile('multi.txt', 'first version');
      assert.equal(file.title, 'multi.txt');
      const updated = fileOf(await ok('PUT', `/upload/drive/v2/files/${file.id}?uploadType=media`, { body: 'second, longer version', contentType: 'text/plain' }));
      assert.equal(updated.fileSize, String('second, longer version'.length));
      assert.equal(updated.md5Checksum, md5('second, longer version'));
      assert.ok(Number(updated.version) > Number(file.version));
      assert.notEqual(updated.headRevisionId, file.headRevisionId);
      assert.notEqual(updated.etag, file.etag);
      assert.equal((await ok('GET', `/drive/v2/files/${file.id}?alt=media`)).text, 'second, longer version');
      assert.equal(updated.title, 'multi.txt');
    });

    it('refuses media on the metadata path and malformed multipart bodies, leaving no stray content', async () => {
      const blobDir = driveServiceFor(emulator.deps).blobs.dir;
      const storedBefore = fs.readdirSync(blobDir).length;
      const media = await call('POST', '/drive/v2/files', { body: 'raw bytes', contentType: 'text/plain' });
      assert.equal(media.status, 400);
      const mediaUpdate = await call('PUT', '/drive/v2/files/root', { body: 'raw', contentType: 'text/plain' });
      assert.equal(mediaUpdate.status, 400);
      const noType = await call('POST', '/upload/drive/v2/files', { body: 'x', contentType: 'text/plain' });
      assert.equal(noType.status, 400);
      const badType = await call('POST', '/upload/drive/v2/files?uploadType=chunky', { body: 'x', contentType: 'text/plain' });
      assert.equal(badType.status, 400);
      const onePart = await call('POST', '/upload/drive/v2/files?uploadType=multipart', { body: '--b\r\nContent-Type: application/json\r\n\r\n{}\r\n--b--\r\n', contentType: 'multipart/related; boundary=b' });
      assert.equal(onePart.status, 400);
      const badMetadata = await call('POST', '/upload/drive/v2/files?uploadType=multipart', { body: '--b\r\nContent-Type: application/json\r\n\r\n{nope\r\n--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--\r\n', contentType: 'multipart/related; boundary=b' });
      assert.equal(badMetadata.status, 400);
      const truncated = await call('POST', '/upload/drive/v2/files?uploadType=multipart', { body: '--b\r\nContent-Type: application/json\r\n\r\n{}\r\n--b\r\nContent-Type: text/plain\r\n\r\nno end', contentType: 'multipart/related; boundary=b' });
      assert.equal(truncated.status, 400);
      const bigBadMetadata = await call('POST', '/upload/drive/v2/files?uploadType=multipart', { body: Buffer.concat([Buffer.from('--b\r\nContent-Type: application/json\r\n\r\n{"title": 7}\r\n--b\r\nContent-Type: text/plain\r\n\r\n'), Buffer.alloc(2 * 1024 * 1024, 65), Buffer.from('\r\n--b--\r\n')]), contentType: 'multipart/related; boundary=b' });
      assert.equal(bigBadMetadata.status, 400);
      assert.equal(errorOf(bigBadMetadata).errors?.[0]?.location, 'title');
      assert.equal(fs.readdirSync(blobDir).length, storedBefore, 'no blob kept from failed uploads');
      assert.deepEqual(fs.readdirSync(path.join(blobDir, 'uploads')), []);
    });

    it('runs a resumable upload: 308 with Range, status queries, an interrupted chunk, and the final file', async () => {
      const chunk = 256 * 1024;
      const content = Buffer.alloc(chunk * 3 + 1000);
      for (let index = 0; index < content.length; index++) content[index] = (index * 7) % 256;
      const start = await ok('POST', '/upload/drive/v2/files?uploadType=resumable', {
        json: { title: 'big.bin' },
        headers: { 'X-Upload-Content-Type': 'application/x-big', 'X-Upload-Content-Length': String(content.length) },
      });
      const location = start.headers.get('location');
      assert.ok(location?.includes('upload_id='));
      const sessionPath = new URL(location as string).pathname + new URL(location as string).search;
      const put = (range: string, body: Buffer): Promise<HttpAnswer> => call('PUT', sessionPath, { body, contentType: 'application/x-big', headers: { 'Content-Range': range } });

      const nothingYet = await put(`bytes */${content.length}`, Buffer.alloc(0));
      assert.equal(nothingYet.status, 308);
      assert.equal(nothingYet.headers.get('range'), null);

      const first = await put(`bytes 0-${chunk - 1}/${content.length}`, content.subarray(0, chunk));
      assert.equal(first.status, 308);
      assert.equal(first.headers.get('range'), `bytes=0-${chunk - 1}`);

      // The second chunk dies half-way: the connection closes after 100,000 bytes.
      await interruptedPut(sessionPath, `bytes ${chunk}-${2 * chunk - 1}/${content.length}`, content.subarray(chunk, chunk + 100_000));
      const status = await put(`bytes */${content.length}`, Buffer.alloc(0));
      assert.equal(status.status, 308);
      const held = Number(/bytes=0-(\d+)/.exec(status.headers.get('range') ?? '')?.[1]) + 1;
      assert.equal(held, chunk + 100_000, 'the bytes that arrived before the connection died are kept');

      // A chunk starting past what the server holds is refused; resuming from the Range works.
      assert.equal((await put(`bytes ${held + 10}-${held + 20}/${content.length}`, Buffer.alloc(11))).status, 400);
      const resumed = await put(`bytes ${held}-${3 * chunk - 1}/${content.length}`, content.subarray(held, 3 * chunk));
      assert.equal(resumed.status, 308);
      assert.equal(resumed.headers.get('range'), `bytes=0-${3 * chunk - 1}`);
      const last = await put(`bytes ${3 * chunk}-${content.length - 1}/${content.length}`, content.subarray(3 * chunk));
      assert.equal(last.status, 200);
      const file = fileOf(last);
      assert.equal(file.title, 'big.bin');
      assert.equal(file.mimeType, 'application/x-big');
      assert.equal(file.fileSize, String(content.length));
      assert.equal(file.md5Checksum, md5(content));
      assert.ok((await ok('GET', `/drive/v2/files/${file.id}?alt=media`)).bytes.equals(content));
      // The finished session answers the file again.
      assert.equal(fileOf(await put(`bytes */${content.length}`, Buffer.alloc(0))).id, file.id);
      assert.equal((await call('PUT', sessionPath, { as: 'bob@example.com', body: Buffer.alloc(0), headers: { 'Content-Range': 'bytes */*' } })).status, 404);
    });

    it('lets a new request on a session supersede a chunk that stalled without closing its connection', async () => {
      const content = Buffer.alloc(300_000, 9);
      const start = await ok('POST', '/upload/drive/v2/files?uploadType=resumable', { json: { title: 'stalled.bin' }, headers: { 'X-Upload-Content-Length': String(content.length) } });
      const location = new URL(start.headers.get('location') as string);
      const sessionPath = location.pathname + location.search;
      const stalled = await stalledPut(sessionPath, `bytes 0-${content.length - 1}/${content.length}`, content.subarray(0, 50_000));
      const status = await call('PUT', sessionPath, { body: Buffer.alloc(0), headers: { 'Content-Range': `bytes */${content.length}` } });
      assert.equal(status.status, 308);
      assert.equal(status.headers.get('range'), 'bytes=0-49999');
      stalled.destroy();
      const rest = await call('PUT', sessionPath, { body: content.subarray(50_000), headers: { 'Content-Range': `bytes 50000-${content.length - 1}/${content.length}` } });
      assert.equal(rest.status, 200);
      assert.equal(fileOf(rest).md5Checksum, md5(content));
    });

    /** Sends part of a chunk and leaves the connection open (a client that hung). */
    async function stalledPut(path: string, range: string, partial: Buffer): Promise<http.ClientRequest> {
      const url = new URL(`${emulator.url}${path}`);
      const request = http.request({
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: 'PUT',
        headers: { Authorization: `Bearer ${String(tokens.get('alice@example.com'))}`, 'Content-Range': range, 'Content-Length': String(300_000) },
      });
      request.on('error', () => undefined);
      await new Promise<void>((resolve) => request.write(partial, () => { resolve(); }));
      await partHolds(path, partial.length);
      return request;
    }

    /** Waits until the server has stored `bytes` of the session's upload (no fixed sleeps: machines differ). */
    async function partHolds(sessionPath: string, bytes: number): Promise<void> {
      const uploadId = new URL(`${emulator.url}${sessionPath}`).searchParams.get('upload_id') as string;
      const blobs = driveServiceFor(emulator.deps).blobs;
      for (let attempt = 0; attempt < 1000 && (await blobs.partSize(uploadId)) < bytes; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
    }

    async function interruptedPut(path: string, range: string, partial: Buffer): Promise<void> {
      const url = new URL(`${emulator.url}${path}`);
      await new Promise<void>((resolve) => {
        const request = http.request({
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method: 'PUT',
          headers: { Authorization: `Bearer ${String(tokens.get('alice@example.com'))}`, 'Content-Range': range, 'Content-Length': String(256 * 1024), 'Content-Type': 'application/x-big' },
        });
        request.on('error', () => { resolve(); });
        request.write(partial, () => {
          void partHolds(path, Number(/bytes (\d+)-/.exec(range)?.[1]) + partial.length).then(() => {
            request.destroy();
            resolve();
          });
        });
      });
    }

    it('refuses to download folders and native documents', async () => {
      const doc = fileOf(await ok('POST', '/drive/v2/files', { json: { title: 'Doc', mimeType: GOOGLE_DOC_MIME_TYPE } }));
      const result = await call('GET', `/drive/v2/files/${doc.id}?alt=media`);
      assert.equal(result.status, 403);
      assert.equal(errorOf(result).errors?.[0]?.reason, 'fileNotDownloadable');
      const box = await folder('NoDownload');
      assert.equal((await call('GET', `/drive/v2/files/${box.id}?alt=media`)).status, 403);
    });
  });

  describe('native documents and export', () => {
    it('converts uploads to a Doc and a Sheet and exports them to the announced formats', async () => {
      const doc = fileOf(await ok('POST', '/upload/drive/v2/files?uploadType=media&convert=true', { body: 'Line one\nLine <two>', contentType: 'text/plain' }));
      assert.equal(doc.mimeType, GOOGLE_DOC_MIME_TYPE);
      assert.equal(doc.fileSize, undefined);
      assert.equal(doc.md5Checksum, undefined);
      assert.equal(doc.downloadUrl, undefined);
      assert.ok(doc.exportLinks?.['text/plain']?.includes(`/drive/v2/files/${doc.id}/export?mimeType=text%2Fplain`));
      assert.equal((await ok('GET', `/drive/v2/files/${doc.id}/export?mimeType=text/plain`)).text, 'Line one\nLine <two>');
      const html = await ok('GET', `/drive/v2/files/${doc.id}/export?mimeType=${q('text/html')}`);
      assert.match(html.headers.get('content-type') ?? '', /^text\/html/);
      assert.ok(html.text.includes('<p>Line &lt;two&gt;</p>'));

      const boundary = 'sheet_boundary';
      const body = `--${boundary}\r\nContent-Type: application/json\r\n\r\n${JSON.stringify({ title: 'Budget', mimeType: GOOGLE_SHEET_MIME_TYPE })}\r\n--${boundary}\r\nContent-Type: text/csv\r\n\r\nItem,Cost\nTea,3\r\n--${boundary}--\r\n`;
      const sheet = fileOf(await ok('POST', '/upload/drive/v2/files?uploadType=multipart', { body, contentType: `multipart/related; boundary=${boundary}` }));
      assert.equal(sheet.mimeType, GOOGLE_SHEET_MIME_TYPE);
      assert.equal((await ok('GET', `/drive/v2/files/${sheet.id}/export?mimeType=text/csv`)).text, 'Item,Cost\nTea,3');
      assert.equal((await ok('GET', `/drive/v2/files/${sheet.id}/export?mimeType=text/tab-separated-values`)).text, 'Item\tCost\nTea\t3');

      const unsupported = await call('GET', `/drive/v2/files/${doc.id}/export?mimeType=application/pdf`);
      assert.equal(unsupported.status, 400);
      assert.equal(errorOf(unsupported).errors?.[0]?.reason, 'badRequest');
      const binary = await textFile('plain.txt', 'x');
      const notExportable = await call('GET', `/drive/v2/files/${binary.id}/export?mimeType=text/plain`);
      // Drive v2 answers 400 badRequest here (v3's answer is 403 fileNotExportable).
      assert.equal(notExportable.status, 400);
      assert.equal(errorOf(notExportable).errors?.[0]?.reason, 'badRequest');
      assert.match(errorOf(notExportable).message, /Docs Editors/);
      assert.equal((await call('GET', `/drive/v2/files/${doc.id}/export`)).status, 400);

      const about = (await ok('GET', '/drive/v2/about')).json as { exportFormats: { source: string; targets: string[] }[]; importFormats: { source: string; targets: string[] }[] };
      const docFormats = about.exportFormats.find((format) => format.source === GOOGLE_DOC_MIME_TYPE);
      assert.ok(docFormats?.targets.includes('text/plain') && docFormats.targets.includes('text/html'));
      assert.ok(about.exportFormats.find((format) => format.source === GOOGLE_SHEET_MIME_TYPE)?.targets.includes('text/csv'));
      assert.ok(about.importFormats.some((format) => format.source === 'text/csv'));
    });

    it('keeps a Doc native when its content is updated', async () => {
      const doc = fileOf(await ok('POST', '/drive/v2/files', { json: { title: 'Living doc', mimeType: GOOGLE_DOC_MIME_TYPE } }));
      assert.equal((await ok('GET', `/drive/v2/files/${doc.id}/export?mimeType=text/plain`)).text, '');
      const updated = fileOf(await ok('PUT', `/upload/drive/v2/files/${doc.id}?uploadType=media`, { body: '<p>Hello</p>', contentType: 'text/html' }));
      assert.equal(updated.mimeType, GOOGLE_DOC_MIME_TYPE);
      assert.equal((await ok('GET', `/drive/v2/files/${doc.id}/export?mimeType=text/plain`)).text, 'Hello');
    });
  });

  describe('changes', () => {
    it('records every kind of operation, coalesced per file, with paging and tokens', async () => {
      const start = (await ok('GET', '/drive/v2/changes/startPageToken', { as: 'carol@example.com' })).json as { kind: string; startPageToken: string };
      assert.equal(start.kind, 'drive#startPageToken');
      assert.match(start.startPageToken, /^\d+$/);
      const as = 'carol@example.com';
      const created = await folder('Changes', 'root', as);
      const other = await folder('Other', 'root', as);
      const file = await textFile('c.txt', 'c', created.id, {}, as);
      const trashed = await textFile('t.txt', 't', 'root', {}, as);
      const deleted = await textFile('d.txt', 'd', 'root', {}, as);
      await ok('PATCH', `/drive/v2/files/${file.id}?addParents=${other.id}&removeParents=${created.id}`, { json: { title: 'moved.txt' }, as });
      await ok('POST', `/drive/v2/files/${trashed.id}/trash`, { as });
      await ok('DELETE', `/drive/v2/files/${deleted.id}`, { as });
      // Another user's activity is not in carol's feed.
      await textFile('alice-noise.txt', 'x');

      const list = changeListSchema.parse((await ok('GET', `/drive/v2/changes?pageToken=${start.startPageToken}`, { as })).json);
      assert.equal(list.kind, 'drive#changeList');
      assert.equal(list.nextPageToken, undefined);
      assert.ok(list.newStartPageToken);
      const byFile = new Map(list.items.map((item) => [item.fileId, item]));
      assert.equal(list.items.length, byFile.size, 'one change per file');
      assert.deepEqual([...byFile.keys()].sort(), [created.id, other.id, file.id, trashed.id, deleted.id].sort());
      assert.equal(byFile.get(file.id)?.file?.title, 'moved.txt');
      assert.deepEqual(byFile.get(file.id)?.file?.parents?.map((parent) => parent.id), [other.id]);
      assert.equal(byFile.get(trashed.id)?.file?.labels?.trashed, true);
      assert.equal(byFile.get(deleted.id)?.deleted, true);
      assert.equal(byFile.get(deleted.id)?.file, undefined);
      assert.equal(byFile.get(created.id)?.kind, 'drive#change');
      assert.equal(byFile.get(created.id)?.changeType, 'file');
      const ids = list.items.map((item) => Number(item.id));
      assert.deepEqual(ids, [...ids].sort((a, b) => a - b));

      const withoutDeleted = changeListSchema.parse((await ok('GET', `/drive/v2/changes?pageToken=${start.startPageToken}&includeDeleted=false`, { as })).json);
      assert.ok(!withoutDeleted.items.some((item) => item.deleted));

      // Page by page with maxResults=2: the same changes, tokens only between pages.
      const paged: string[] = [];
      let token: string | undefined = start.startPageToken;
      let newStart: string | undefined;
      while (token) {
        const page = changeListSchema.parse((await ok('GET', `/drive/v2/changes?pageToken=${token}&maxResults=2`, { as })).json);
        paged.push(...page.items.map((item) => item.id));
        if (page.nextPageToken) assert.equal(page.newStartPageToken, undefined);
        token = page.nextPageToken;
        newStart = page.newStartPageToken;
      }
      assert.deepEqual(paged, list.items.map((item) => item.id));
      assert.equal(newStart, list.newStartPageToken);

      // Nothing new since the new start token; an untrash shows up next.
      const empty = changeListSchema.parse((await ok('GET', `/drive/v2/changes?pageToken=${newStart}`, { as })).json);
      assert.equal(empty.items.length, 0);
      await ok('POST', `/drive/v2/files/${trashed.id}/untrash`, { as });
      const next = changeListSchema.parse((await ok('GET', `/drive/v2/changes?pageToken=${newStart}`, { as })).json);
      assert.deepEqual(next.items.map((item) => [item.fileId, item.file?.labels?.trashed]), [[trashed.id, false]]);

      const single = (await ok('GET', `/drive/v2/changes/${next.items[0]?.id}`, { as })).json as { fileId: string };
      assert.equal(single.fileId, trashed.id);
      assert.equal((await call('GET', `/drive/v2/changes/${next.items[0]?.id}`)).status, 404);

      for (const bad of ['abc', '0', '999999999999']) {
        const result = await call('GET', `/drive/v2/changes?pageToken=${bad}`, { as });
        assert.equal(result.status, 400, bad);
        assert.equal(errorOf(result).errors?.[0]?.location, 'pageToken');
      }
    });

    it('holds an empty changes.list with X-Desk-Wait until a change arrives (long poll), and announces it', async () => {
      const as = 'bob@example.com';
      const start = (await ok('GET', '/drive/v2/changes/startPageToken', { as }));
      assert.equal(start.headers.get('x-desk-long-poll'), '1');
      const token = (start.json as { startPageToken: string }).startPageToken;
      const about = (await ok('GET', '/drive/v2/about', { as })).json as { deskLongPoll?: boolean };
      assert.equal(about.deskLongPoll, true);

      const held = call('GET', `/drive/v2/changes?pageToken=${token}`, { as, headers: { 'X-Desk-Wait': '30' } });
      let settled = false;
      void held.then(() => {
        settled = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 150));
      assert.equal(settled, false, 'the request is held while nothing changed');
      const made = await folder('Wake up', 'root', as);
      const result = changeListSchema.parse((await held).json);
      assert.deepEqual(result.items.map((item) => item.fileId), [made.id]);

      const badWait = await call('GET', `/drive/v2/changes?pageToken=${token}`, { as, headers: { 'X-Desk-Wait': '600' } });
      assert.equal(badWait.status, 400);
    });
  });

  describe('about and apps', () => {
    it('describes the user, the root folder and the quota', async () => {
      const about = (await ok('GET', '/drive/v2/about')).json as Record<string, unknown> & { user: { emailAddress: string } };
      const root = fileOf(await ok('GET', '/drive/v2/files/root'));
      assert.equal(about.kind, 'drive#about');
      assert.equal(about.rootFolderId, root.id);
      assert.equal(about.user.emailAddress, 'alice@example.com');
      assert.equal(about.name, 'Alice Demo');
      assert.match(String(about.quotaBytesUsed), /^\d+$/);
      assert.match(String(about.largestChangeId), /^\d+$/);
      assert.ok(Array.isArray(about.maxUploadSizes));
      assert.ok(typeof about.etag === 'string');
    });

    it('lists the demo apps and gets one', async () => {
      const list = (await ok('GET', '/drive/v2/apps')).json as { kind: string; items: { id: string; kind: string }[] };
      assert.equal(list.kind, 'drive#appList');
      assert.ok(list.items.length >= 2);
      const app = (await ok('GET', `/drive/v2/apps/${list.items[0]?.id}`)).json as { id: string; kind: string };
      assert.equal(app.kind, 'drive#app');
      assert.equal((await call('GET', '/drive/v2/apps/nope')).status, 404);
    });
  });
});
