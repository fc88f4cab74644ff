import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { GoogleApiError, isUnreachable, ServiceUnreachableError } from '../../../../src/api/errors';
import type { DeskContext } from '../../../../src/core/deskContext';
import { WriteQueue } from '../../../../src/core/sync/writeQueue';
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
    const writes = new CalendarOfflineWrites({ desk: desk as Pick<DeskContext, 'vs' | 'offlineQueue' | 'log'> & { vs: typeof vscode }, api: () => api, store: { apply: (_id, events) => shown.push(...events.map((event) => String(event.summary))) }, onInserted: (id) => void synced.push(id) });
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
});
