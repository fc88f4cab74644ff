// Requests and round trips per view action, over HTTP against the emulator with Desk's own clients and the views'
// vscode-free models: independent requests must go out together (one round trip), not wait on each other.
import * as assert from 'node:assert/strict';
import { CalendarClient } from '../../../src/api/calendar';
import { HttpClient } from '../../../src/api/http';
import { TasksClient } from '../../../src/api/tasks';
import { startEmulator, RunningEmulator } from '../../../src/emulator/emulator';
import { DueTaskStore } from '../../../src/features/calendar/agenda/dueTaskStore';
import type { CalendarApi } from '../../../src/features/calendar/port';
import { EventStore } from '../../../src/features/calendar/sync/eventStore';
import type { CalendarTreeNode } from '../../../src/features/calendar/tree/model';
import { CalendarTreeProvider } from '../../../src/features/calendar/tree/treeProvider';
import { fakeVscode } from '../../support/fakeVscode';
import { RequestWaves } from '../../support/requestWaves';

function httpFor(emulator: RunningEmulator, waves: RequestWaves, email = 'alice@example.com'): HttpClient {
  const token = emulator.tokenFor(email).accessToken;
  return new HttpClient({ rootUrl: () => emulator.url, token: async () => token, fetch: waves.fetch });
}

describe('round trips per view action, against the emulator', function () {
  this.timeout(20000);
  let emulator: RunningEmulator;
  let waves: RequestWaves;

  beforeEach(async () => {
    emulator = await startEmulator({ port: 0, seed: 'demo' });
    waves = new RequestWaves();
  });
  afterEach(() => emulator.close());

  it('Calendar: the calendars, the zone, the Agenda events and the due tasks in two round trips', async () => {
    const http = httpFor(emulator, waves);
    const calendarApi = new CalendarClient(http);
    const tasksApi = new TasksClient(http);
    let tree: CalendarTreeProvider | undefined;
    const store = new EventStore({ api: () => calendarApi, onChange: (id) => tree?.redrawCalendar(id) });
    const dueTasks = new DueTaskStore({ api: () => tasksApi, showCompleted: () => false, onChange: () => undefined });
    let zone: Promise<string> | undefined;
    const vs = fakeVscode() as unknown as Record<string, unknown>;
    vs.Uri = { parse: (text: string) => ({ toString: () => text }) };
    tree = new CalendarTreeProvider(vs as never, {
      api: () => calendarApi as unknown as CalendarApi,
      store,
      timeZone: () => (zone ??= calendarApi.getSetting('timezone').then((setting) => setting.value)),
      daysAhead: () => 7,
      showHidden: () => false,
      isSignedIn: async () => true,
      withProgress: (work) => work(),
      log: () => undefined,
      dueTasks: { store: dueTasks, enabled: () => true, showCompleted: () => false },
    });
    const [agenda] = await tree.getChildren();
    await tree.getChildren(agenda as CalendarTreeNode);
    const paths = waves.requests.map((request) => request.target.split('?')[0]);
    assert.ok(paths.some((path) => path?.endsWith('/calendarList')) && paths.some((path) => path?.endsWith('/events')) && paths.some((path) => path?.startsWith('/tasks/v1/lists/')), waves.describe());
    // calendarList ‖ settings ‖ tasklists, then events ‖ tasks: nothing of Tasks waits for Calendar.
    assert.equal(waves.roundTrips, 2, waves.describe());
  });
});
