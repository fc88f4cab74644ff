/**
 * Scopes per method, as Google's discovery documents list them: a generated matrix (every method the emulator
 * serves × every scope of its API: allowed iff listed), the issue's cases by name, and what drive.file and
 * drive.appdata reach inside Drive (the app's own files; the empty application data folder).
 */
import * as assert from 'node:assert/strict';
import { DISCOVERY_DOCUMENTS, methodsOf, scopesOfDocument } from '../../../../src/emulator/discovery/documents';
import { startEmulator, RunningEmulator } from '../../../../src/emulator/emulator';
import { findUser } from '../../../../src/emulator/identity/users';
import { scopesFor } from '../../../../src/emulator/core/scopes';

const AUTH = 'https://www.googleapis.com/auth/';

interface Answer { status: number; reason: string | undefined; json: Record<string, unknown> }

describe('emulator: scopes per method, from the discovery documents', function () {
  let emulator: RunningEmulator;
  const tokens = new Map<string, string>();
  const alice = findUser('alice@example.com');

  /** A token for alice carrying only `scopes`, issued to the OAuth client `app`. */
  const tokenWith = (scopes: readonly string[], app = 'matrix.apps.emulator'): string => {
    const key = `${app} ${scopes.join(' ')}`;
    let token = tokens.get(key);
    if (!token) {
      token = emulator.deps.tokens.issue(alice?.id as string, app, [...scopes]).accessToken;
      tokens.set(key, token);
    }
    return token;
  };
  const call = async (token: string, method: string, path: string, body?: unknown): Promise<Answer> => {
    const response = await fetch(`${emulator.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    let json: Record<string, unknown> = {};
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      // media and HTML bodies: no reason to read
    }
    const error = json.error as { errors?: { reason?: string }[] } | undefined;
    return { status: response.status, reason: error?.errors?.[0]?.reason, json };
  };
  const denied = (answer: Answer): boolean => answer.status === 403 && answer.reason === 'insufficientPermissions';

  before(async () => {
    emulator = await startEmulator({ seed: 'demo' });
  });
  after(async () => emulator.close());

  describe('every method × every scope of its API', () => {
    const served = new Set<string>();
    before(() => {
      for (const route of emulator.routes()) served.add(route.id);
    });
    for (const document of DISCOVERY_DOCUMENTS) {
      const scopes = scopesOfDocument(document);
      for (const method of methodsOf(document)) {
        it(`${method.id}: allowed by exactly ${(method.scopes ?? []).map((scope) => scope.replace(AUTH, '')).join(', ')}`, async function () {
          if (!served.has(method.id)) this.skip();
          const path = `/${document.servicePath}${method.path.replace(/\{\+?([^}]+)\}/g, (_whole, name: string) => `matrix-${name}`)}`;
          const body = ['POST', 'PUT', 'PATCH'].includes(method.httpMethod) ? {} : undefined;
          const wrong: string[] = [];
          for (const scope of scopes) {
            const answer = await call(tokenWith([scope]), method.httpMethod, path, body);
            const listed = (method.scopes ?? []).includes(scope);
            if (listed === denied(answer) || answer.status >= 500) wrong.push(`${scope.replace(AUTH, '')}: ${answer.status} ${answer.reason ?? ''} (${listed ? 'listed' : 'not listed'})`);
          }
          assert.deepEqual(wrong, [], `${method.httpMethod} ${path}`);
        });
      }
    }
  });

  it('asks a scope of every authenticated route but the emulator\'s own and OAuth\'s (an id missing from the documents would need none)', () => {
    const unchecked = emulator.routes()
      .filter((route) => route.auth !== false && !/^(emulator|oauth)\./.test(route.id) && !scopesFor(route.id, route.method, new URLSearchParams())?.length)
      .map((route) => `${route.id} (${route.method} ${route.path})`);
    assert.deepEqual(unchecked, []);
  });

  describe('the cases the security review found', () => {
    const calendar = (name: string): string => tokenWith([`${AUTH}${name}`], 'calendar-review.apps.emulator');

    it('calendar.events can work with events, but cannot insert ACL rules, create or delete calendars', async () => {
      const events = calendar('calendar.events');
      assert.equal((await call(events, 'GET', '/calendar/v3/calendars/primary/events')).status, 200);
      assert.ok(denied(await call(events, 'POST', '/calendar/v3/calendars/primary/acl', { role: 'reader', scope: { type: 'user', value: 'bob@example.com' } })));
      assert.ok(denied(await call(events, 'POST', '/calendar/v3/calendars', { summary: 'Not allowed' })));
      const own = await call(tokenWith([`${AUTH}calendar`]), 'POST', '/calendar/v3/calendars', { summary: 'Scoped' });
      assert.equal(own.status, 200);
      assert.ok(denied(await call(events, 'DELETE', `/calendar/v3/calendars/${encodeURIComponent(String(own.json.id))}`)));
    });

    it('calendar.settings.readonly reads settings, not events or ACLs; calendar.events.readonly cannot list ACLs', async () => {
      const settings = calendar('calendar.settings.readonly');
      assert.equal((await call(settings, 'GET', '/calendar/v3/users/me/settings')).status, 200);
      assert.ok(denied(await call(settings, 'GET', '/calendar/v3/calendars/primary/events')));
      assert.ok(denied(await call(settings, 'GET', '/calendar/v3/calendars/primary/acl')));
      assert.ok(denied(await call(calendar('calendar.events.readonly'), 'GET', '/calendar/v3/calendars/primary/acl')));
    });
  });

  describe('calendar.app.created and calendar.events.owned within Calendar', () => {
    const event = { summary: 'Scoped', start: { dateTime: '2026-03-02T09:00:00Z' }, end: { dateTime: '2026-03-02T10:00:00Z' } };
    const eventsOf = (calendarId: string): string => `/calendar/v3/calendars/${encodeURIComponent(calendarId)}/events`;

    it('calendar.app.created reaches the calendars the app created and their events, and no other calendar', async () => {
      const app = tokenWith([`${AUTH}calendar.app.created`], 'app-created.apps.emulator');
      const created = await call(app, 'POST', '/calendar/v3/calendars', { summary: 'Made by the app' });
      assert.equal(created.status, 200);
      const mine = String(created.json.id);
      assert.equal((await call(app, 'GET', `/calendar/v3/calendars/${encodeURIComponent(mine)}`)).status, 200);
      assert.equal((await call(app, 'POST', eventsOf(mine), event)).status, 200);
      assert.equal((await call(app, 'GET', eventsOf(mine))).status, 200);
      assert.equal((await call(app, 'PATCH', `/calendar/v3/users/me/calendarList/${encodeURIComponent(mine)}`, { colorId: '3' })).status, 200);
      // The user's primary calendar, and a calendar the user made with another app, are out of its reach.
      assert.ok(denied(await call(app, 'GET', eventsOf('primary'))));
      assert.ok(denied(await call(app, 'POST', eventsOf('primary'), event)));
      const others = await call(tokenWith([`${AUTH}calendar`], 'another.apps.emulator'), 'POST', '/calendar/v3/calendars', { summary: 'Made elsewhere' });
      const elsewhere = String(others.json.id);
      assert.ok(denied(await call(app, 'GET', `/calendar/v3/calendars/${encodeURIComponent(elsewhere)}`)));
      assert.ok(denied(await call(app, 'GET', eventsOf(elsewhere))));
      assert.ok(denied(await call(app, 'DELETE', `/calendar/v3/calendars/${encodeURIComponent(elsewhere)}`)));
      // Another app with the same scope does not reach this app's calendar.
      assert.ok(denied(await call(tokenWith([`${AUTH}calendar.app.created`], 'third.apps.emulator'), 'GET', eventsOf(mine))));
      // An unknown calendar is still "not found".
      assert.equal((await call(app, 'GET', eventsOf('nobody-made-this@group.calendar.google.com'))).status, 404);
    });

    it('calendar.events.owned (and .readonly) reach the events of calendars the user owns, not of calendars shared with them', async () => {
      const bob = findUser('bob@example.com');
      const bobs = emulator.deps.tokens.issue(bob?.id as string, 'bob.apps.emulator', [`${AUTH}calendar`]).accessToken;
      assert.equal((await call(bobs, 'POST', '/calendar/v3/calendars/primary/acl', { role: 'writer', scope: { type: 'user', value: 'alice@example.com' } })).status, 200);
      const owned = tokenWith([`${AUTH}calendar.events.owned`], 'events-owned.apps.emulator');
      assert.equal((await call(owned, 'GET', eventsOf('primary'))).status, 200);
      const inserted = await call(owned, 'POST', eventsOf('primary'), event);
      assert.equal(inserted.status, 200);
      assert.ok(denied(await call(owned, 'GET', eventsOf('bob@example.com'))), 'alice writes bob\'s calendar, but does not own it');
      assert.ok(denied(await call(owned, 'POST', eventsOf('bob@example.com'), event)));
      // A move needs the destination owned too.
      assert.ok(denied(await call(owned, 'POST', `${eventsOf('primary')}/${String(inserted.json.id)}/move?destination=bob%40example.com`)));
      const readonly = tokenWith([`${AUTH}calendar.events.owned.readonly`], 'events-owned.apps.emulator');
      assert.equal((await call(readonly, 'GET', eventsOf('primary'))).status, 200);
      assert.ok(denied(await call(readonly, 'GET', eventsOf('bob@example.com'))));
      // The full events scope still reaches the shared calendar.
      assert.equal((await call(tokenWith([`${AUTH}calendar.events`]), 'GET', eventsOf('bob@example.com'))).status, 200);
    });
  });

  describe('drive.file and drive.appdata within Drive', () => {
    let othersFile: string;
    before(async () => {
      const created = await call(tokenWith([`${AUTH}drive`], 'another.apps.emulator'), 'POST', '/drive/v2/files', { title: 'not the app\'s.txt', mimeType: 'text/plain' });
      assert.equal(created.status, 200);
      othersFile = String(created.json.id);
    });

    it('drive.file reaches the files the app created, and nothing else: reads, shares, revisions and listings', async () => {
      const app = tokenWith([`${AUTH}drive.file`], 'drive-file.apps.emulator');
      const mine = await call(app, 'POST', '/drive/v2/files', { title: 'app-made.txt', mimeType: 'text/plain' });
      assert.equal(mine.status, 200);
      const mineId = String(mine.json.id);
      assert.equal((await call(app, 'GET', `/drive/v2/files/${mineId}`)).status, 200);
      assert.equal((await call(app, 'POST', `/drive/v2/files/${mineId}/permissions`, { role: 'reader', type: 'user', value: 'bob@example.com' })).status, 200);
      assert.equal((await call(app, 'GET', `/drive/v2/files/${mineId}/revisions`)).status, 200);

      for (const [method, path, body] of [
        ['GET', `/drive/v2/files/${othersFile}`, undefined],
        ['POST', `/drive/v2/files/${othersFile}/permissions`, { role: 'reader', type: 'anyone' }],
        ['GET', `/drive/v2/files/${othersFile}/revisions`, undefined],
        ['GET', `/drive/v2/files/${othersFile}/comments`, undefined],
        ['PATCH', `/drive/v2/files/${othersFile}`, { title: 'taken over' }],
      ] as const) {
        const answer = await call(app, method, path, body);
        assert.equal(answer.status, 404, `${method} ${path}: ${JSON.stringify(answer.json)}`);
      }
      const listed = await call(app, 'GET', '/drive/v2/files?maxResults=1000');
      assert.deepEqual((listed.json.items as { id: string }[]).map((item) => item.id), [mineId], 'the listing holds only the app\'s file');
      // The same user with the full scope sees both: the limit is the token's, not the files'.
      const full = await call(tokenWith([`${AUTH}drive`], 'drive-file.apps.emulator'), 'GET', `/drive/v2/files/${othersFile}`);
      assert.equal(full.status, 200);
      // Another app with drive.file does not reach this app's file.
      assert.equal((await call(tokenWith([`${AUTH}drive.file`], 'third.apps.emulator'), 'GET', `/drive/v2/files/${mineId}`)).status, 404);
    });

    it('drive.metadata and drive.metadata.readonly read metadata but never bytes: every route that answers content refuses them', async () => {
      const owner = tokenWith([`${AUTH}drive`]);
      const upload = await fetch(`${emulator.url}/upload/drive/v2/files?uploadType=media`, { method: 'POST', headers: { Authorization: `Bearer ${owner}`, 'Content-Type': 'text/plain' }, body: 'secret bytes' });
      const fileId = ((await upload.json()) as { id: string }).id;
      const revisionId = String(((await call(owner, 'GET', `/drive/v2/files/${fileId}/revisions`)).json.items as { id: string }[]).at(0)?.id);
      const doc = await call(owner, 'POST', '/drive/v2/files', { title: 'notes', mimeType: 'application/vnd.google-apps.document' });
      const docId = String(doc.json.id);
      const docRevision = String(((await call(owner, 'GET', `/drive/v2/files/${docId}/revisions`)).json.items as { id: string }[]).at(0)?.id);
      const content = [
        `/drive/v2/files/${fileId}?alt=media`,
        `/drive/v2/files/${fileId}?alt=media&source=web`,
        `/drive/v2/files/${fileId}?alt=media&revisionId=${revisionId}`,
        `/drive/v2/files/${fileId}/revisions/${revisionId}?alt=media`,
        `/drive/v2/files/${docId}/export?mimeType=text/plain`,
        `/drive/v2/files/${docId}/revisions/${docRevision}/export?mimeType=text/plain`,
      ];
      for (const scope of ['drive.metadata', 'drive.metadata.readonly']) {
        const metadataOnly = tokenWith([`${AUTH}${scope}`]);
        assert.equal((await call(metadataOnly, 'GET', `/drive/v2/files/${fileId}`)).status, 200, `${scope} reads metadata`);
        assert.equal((await call(metadataOnly, 'GET', `/drive/v2/files/${fileId}/revisions/${revisionId}`)).status, 200, `${scope} reads a revision's metadata`);
        for (const path of content) {
          const answer = await call(metadataOnly, 'GET', path);
          assert.ok(denied(answer), `${scope} GET ${path}: ${answer.status} ${JSON.stringify(answer.json)}`);
        }
      }
      for (const path of content) assert.equal((await call(tokenWith([`${AUTH}drive.readonly`]), 'GET', path)).status, 200, `drive.readonly GET ${path}`);
    });

    it('drive.appdata reaches only the application data folder: no file, share, comment or shared drive of the user', async () => {
      const app = tokenWith([`${AUTH}drive.appdata`], 'appdata.apps.emulator');
      assert.equal((await call(app, 'GET', `/drive/v2/files/${othersFile}`)).status, 404);
      assert.equal((await call(app, 'GET', `/drive/v2/files/${othersFile}/revisions`)).status, 404);
      assert.ok(denied(await call(app, 'POST', `/drive/v2/files/${othersFile}/permissions`, { role: 'reader', type: 'anyone' })));
      assert.ok(denied(await call(app, 'GET', `/drive/v2/files/${othersFile}/comments`)));
      assert.ok(denied(await call(app, 'GET', '/drive/v2/drives')));
      const spaces = await call(app, 'GET', '/drive/v2/files');
      assert.equal(spaces.status, 403);
      assert.equal(spaces.reason, 'insufficientScopes');
      const appData = await call(app, 'GET', '/drive/v2/files?spaces=appDataFolder');
      assert.equal(appData.status, 200);
      assert.deepEqual(appData.json.items, []);
    });
  });
});
