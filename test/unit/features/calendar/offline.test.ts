import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { GoogleApiError, isUnreachable, ServiceUnreachableError } from '../../../../src/api/errors';
import type { DeskContext } from '../../../../src/core/deskContext';
import { WriteQueue } from '../../../../src/core/offline/writeQueue';
import { CalendarOfflineWrites, clientEventId } from '../../../../src/features/calendar/offline';
import type { CalendarEvent, EventWrite } from '../../../../src/shared/schemas/calendar';
import { fakeVscode } from '../../../support/fakeVscode';
import { MapMemento } from '../../../support/memento';
import { entry } from '../../../support/fakes/calendar';

describe('Calendar new events offline', () => {
  it('are shown at once and inserted once with the id Desk chose, even when an earlier insert landed', async () => {
    const inserted = new Map<string, EventWrite>();
    let offline = true;
    let landedSilently = false;
    const api = {
      getEvent: async (): Promise<CalendarEvent> => { throw new Error('not used'); },
      patchEvent: async (): Promise<CalendarEvent> => { throw new Error('not used'); },
      deleteEvent: async (): Promise<void> => undefined,
      insertEvent: async (_calendarId: string, event: EventWrite): Promise<CalendarEvent> => {
        if (offline) throw new ServiceUnreachableError('calendar.events.insert', Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
        const id = String(event.id);
        if (inserted.has(id)) throw new GoogleApiError(409, 'The requested identifier already exists.', 'duplicate', [], undefined);
        inserted.set(id, event);
        if (landedSilently) {
          landedSilently = false;
          throw new ServiceUnreachableError('calendar.events.insert', Object.assign(new Error('reset'), { code: 'ECONNRESET' }));
        }
        return { id, summary: event.summary } as CalendarEvent;
      },
    };
    const queue = new WriteQueue({ memento: new MapMemento(), account: () => 'a', now: () => Date.now(), isOffline: isUnreachable });
    const shown: string[] = [];
    const synced: string[] = [];
    const desk = { vs: fakeVscode(), offlineQueue: queue, log: { info: () => undefined } } as unknown as Pick<DeskContext, 'vs' | 'offlineQueue' | 'log'>;
    const writes = new CalendarOfflineWrites({ desk: desk, api: () => api, store: { apply: (_id, events) => shown.push(...events.map((event) => String(event.summary))) }, onInserted: (id) => void synced.push(id) });
    const local = await writes.insertEvent(entry('me@example.com', { primary: true, summary: 'Me' }), { summary: 'Offline lunch', start: { dateTime: '2026-11-24T12:00:00Z' }, end: { dateTime: '2026-11-24T13:00:00Z' } });
    assert.match(local.id, /^[a-v0-9]{26}$/);
    assert.deepEqual(shown, ['Offline lunch']);
    writes.register();
    await queue.settled();
    assert.equal(queue.size, 1, 'still offline: it waits');
    offline = false;
    landedSilently = true;
    await queue.replay();
    assert.equal(queue.size, 1, 'the answer was lost: it waits, marked as sent');
    await queue.replay();
    assert.equal(queue.size, 0);
    assert.equal(inserted.size, 1, 'inserted once');
    assert.deepEqual(synced, ['me@example.com']);
  });

  it('chooses ids Calendar accepts (base32hex, 5 to 1024 characters)', () => {
    for (let i = 0; i < 20; i++) assert.match(clientEventId(), /^[a-v0-9]{5,1024}$/);
  });

  describe('edits and deletes', () => {
    const base = { id: 'ev1', etag: '"1"', summary: 'Lunch', status: 'confirmed', start: { dateTime: '2026-11-24T12:00:00Z' }, end: { dateTime: '2026-11-24T13:00:00Z' } } as CalendarEvent;

    /** One event on a Calendar that can be unplugged; patches honour If-Match as Calendar does. */
    function setUp(answer?: string) {
      let event: CalendarEvent | undefined = { ...base };
      let etag = 1;
      const state = { offline: true, sent: [] as string[], opened: [] as string[], asked: [] as string[] };
      const check = (): void => {
        if (state.offline) throw new ServiceUnreachableError('calendar', Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
      };
      const gone = (): GoogleApiError => new GoogleApiError(410, 'Resource has been deleted', 'deleted', [], undefined);
      const api = {
        insertEvent: async (): Promise<CalendarEvent> => { throw new Error('not used'); },
        getEvent: async (): Promise<CalendarEvent> => {
          check();
          if (!event) throw gone();
          return event;
        },
        patchEvent: async (_calendarId: string, _id: string, body: EventWrite, options: { ifMatch?: string }): Promise<CalendarEvent> => {
          check();
          if (!event) throw gone();
          if (options.ifMatch && options.ifMatch !== event.etag) throw new GoogleApiError(412, 'Precondition Failed', 'conditionNotMet', [], undefined);
          event = { ...event, ...body, etag: `"${++etag}"` } as CalendarEvent;
          state.sent.push(`patch ${JSON.stringify(body)}`);
          return event;
        },
        deleteEvent: async (_calendarId: string, _id: string, options: { ifMatch?: string }): Promise<void> => {
          check();
          if (!event) throw gone();
          if (options.ifMatch && options.ifMatch !== event.etag) throw new GoogleApiError(412, 'Precondition Failed', 'conditionNotMet', [], undefined);
          event = undefined;
          state.sent.push('delete');
        },
      };
      const vs = fakeVscode() as unknown as Record<string, unknown>;
      (vs.window as Record<string, unknown>).showWarningMessage = async (message: string, ...rest: unknown[]) => (state.asked.push(message), rest.length > 1 ? answer : undefined);
      (vs.window as Record<string, unknown>).showTextDocument = async () => undefined;
      vs.workspace = { openTextDocument: async (options: { content: string }) => (state.opened.push(options.content), { uri: options.content }) };
      vs.commands = { executeCommand: async () => undefined };
      const queue = new WriteQueue({ memento: new MapMemento(), account: () => 'a', now: () => Date.now(), isOffline: isUnreachable });
      const shown: string[] = [];
      const desk = { vs, offlineQueue: queue, log: { info: () => undefined } } as unknown as Pick<DeskContext, 'vs' | 'offlineQueue' | 'log'>;
      const writes = new CalendarOfflineWrites({ desk, api: () => api, store: { apply: (_id, events) => shown.push(...events.map((item) => `${item.summary ?? item.id} ${String(item.status)}`)) }, onInserted: () => undefined });
      writes.register();
      return { state, queue, writes, shown, changeElsewhere: (fields: Partial<CalendarEvent>) => void (event = { ...(event as CalendarEvent), ...fields, etag: `"${++etag}"` }), deleteElsewhere: () => void (event = undefined), current: () => event };
    }

    it('an edit made offline shows at once and is sent once, with the etag it was made on', async () => {
      const { state, queue, writes, shown, current } = setUp();
      await writes.patchEvent('me', base, { summary: 'Long lunch' }, 'Lunch');
      assert.deepEqual(shown, ['Long lunch confirmed']);
      await queue.settled();
      state.offline = false;
      await queue.replay();
      assert.deepEqual(state.sent, ['patch {"summary":"Long lunch"}']);
      assert.equal(current()?.summary, 'Long lunch');
      assert.equal(queue.size, 0);
    });

    it('an edit whose answer was lost is not sent twice: the event shows it already', async () => {
      const { state, queue, writes, changeElsewhere } = setUp();
      await writes.patchEvent('me', base, { summary: 'Long lunch' }, 'Lunch');
      // As if the send landed and its answer was lost.
      changeElsewhere({ summary: 'Long lunch' });
      state.offline = false;
      await queue.replay();
      assert.deepEqual(state.sent, []);
      assert.deepEqual(state.asked, []);
      assert.equal(queue.size, 0);
    });

    it('an event changed elsewhere meanwhile asks; Cancel keeps the user\'s change in an editor and sends nothing', async () => {
      const { state, queue, writes, changeElsewhere, current } = setUp(undefined);
      await writes.patchEvent('me', base, { summary: 'Long lunch' }, 'Lunch');
      changeElsewhere({ location: 'Canteen' });
      state.offline = false;
      await queue.replay();
      assert.equal(state.asked.length, 1);
      assert.deepEqual(state.sent, []);
      assert.deepEqual(state.opened.map((text) => JSON.parse(text) as unknown), [{ summary: 'Long lunch' }]);
      assert.equal(current()?.summary, 'Lunch');
      assert.equal(queue.size, 0);
    });

    it('Overwrite sends the change over the newer version', async () => {
      const { state, queue, writes, changeElsewhere, current } = setUp('Overwrite');
      await writes.patchEvent('me', base, { summary: 'Long lunch' }, 'Lunch');
      changeElsewhere({ location: 'Canteen' });
      state.offline = false;
      await queue.replay();
      assert.equal(current()?.summary, 'Long lunch');
      assert.equal(current()?.location, 'Canteen');
    });

    it('an edit of an event deleted elsewhere says so and keeps the change in an editor', async () => {
      const { state, queue, writes, deleteElsewhere } = setUp();
      await writes.patchEvent('me', base, { description: 'Bring the slides' }, 'Lunch');
      deleteElsewhere();
      state.offline = false;
      await queue.replay();
      assert.match(state.asked[0] ?? '', /deleted elsewhere/);
      assert.deepEqual(state.opened.map((text) => JSON.parse(text) as unknown), [{ description: 'Bring the slides' }]);
      assert.equal(queue.size, 0);
    });

    it('a delete made offline leaves the Agenda at once and is sent once; gone already, it is done', async () => {
      const { state, queue, writes, shown, current } = setUp();
      await writes.deleteEvent('me', base, base.id, 'Lunch');
      await writes.deleteEvent('me', base, base.id, 'Lunch');
      assert.deepEqual(shown, ['Lunch cancelled', 'Lunch cancelled']);
      state.offline = false;
      await queue.replay();
      assert.deepEqual(state.sent, ['delete']);
      assert.equal(current(), undefined);
      assert.equal(queue.size, 0);
    });
  });
});

describe('Calendar responses offline (Yes / No / Maybe)', () => {
  function setUp(stored: CalendarEvent | undefined) {
    let offline = true;
    let event = stored;
    const patches: EventWrite[] = [];
    const warnings: string[] = [];
    const unreachable = () => new ServiceUnreachableError('calendar.events', Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
    const api = {
      insertEvent: async (): Promise<CalendarEvent> => { throw new Error('not used'); },
      deleteEvent: async (): Promise<void> => undefined,
      getEvent: async (): Promise<CalendarEvent> => {
        if (offline) throw unreachable();
        if (!event) throw new GoogleApiError(404, 'Not Found', 'notFound', [], undefined);
        return event;
      },
      patchEvent: async (_calendarId: string, _eventId: string, body: EventWrite): Promise<CalendarEvent> => {
        if (offline) throw unreachable();
        patches.push(body);
        event = { ...(event as CalendarEvent), ...body } as CalendarEvent;
        return event;
      },
    };
    const vs = fakeVscode() as unknown as Record<string, unknown>;
    (vs.window as Record<string, unknown>).showWarningMessage = async (message: string) => void warnings.push(message);
    const queue = new WriteQueue({ memento: new MapMemento(), account: () => 'a', now: () => Date.now(), isOffline: isUnreachable });
    const shown: CalendarEvent[] = [];
    const desk = { vs, offlineQueue: queue, log: { info: () => undefined } } as unknown as Pick<DeskContext, 'vs' | 'offlineQueue' | 'log'> & { vs: typeof vscode };
    const writes = new CalendarOfflineWrites({ desk, api: () => api, store: { apply: (_id, events) => void shown.push(...events) }, onInserted: () => undefined });
    writes.register();
    return { writes, queue, patches, shown, warnings, goOnline: () => void (offline = false), current: () => event };
  }
  const invitation = { id: 'inv', etag: '"1"', summary: 'Roadmap', status: 'confirmed', attendees: [{ email: 'bob@example.com', organizer: true, responseStatus: 'accepted' }, { email: 'me@example.com', self: true, responseStatus: 'needsAction' }] } as CalendarEvent;

  it('shows the answer at once and sends it once when back; the same answer again sends nothing', async () => {
    const { writes, queue, patches, shown, goOnline, current } = setUp(invitation);
    await writes.respond('me@example.com', invitation, 'tentative', 'Roadmap');
    assert.equal(shown[0]?.attendees?.find((attendee) => attendee.self)?.responseStatus, 'tentative', 'the row says Maybe at once');
    assert.equal(queue.list()[0]?.kind, 'calendar.respond');
    goOnline();
    await queue.replay();
    assert.equal(queue.size, 0);
    assert.equal(patches.length, 1);
    assert.deepEqual(current()?.attendees?.map((attendee) => attendee.responseStatus), ['accepted', 'tentative'], 'the organizer\'s entry is kept as it was');
    await writes.respond('me@example.com', invitation, 'tentative', 'Roadmap');
    await queue.replay();
    assert.equal(patches.length, 1, 'already answered so: nothing sent again');
  });

  it('an event deleted meanwhile says so and ends the change', async () => {
    const { writes, queue, patches, warnings, goOnline } = setUp(undefined);
    await writes.respond('me@example.com', invitation, 'declined', 'Roadmap');
    goOnline();
    await queue.replay();
    assert.equal(queue.size, 0);
    assert.equal(patches.length, 0);
    assert.match(warnings[0] ?? '', /deleted or you are no longer invited/);
  });
});
