import * as assert from 'node:assert/strict';
import { ServiceUnreachableError } from '../../../../../src/api/errors';
import type { ViewSnapshotStore } from '../../../../../src/core/storage/viewCache';
import { EventStore } from '../../../../../src/features/calendar/sync/eventStore';
import type { CalendarTreeNode } from '../../../../../src/features/calendar/tree/model';
import type { AgendaSnapshot } from '../../../../../src/features/calendar/tree/snapshot';
import { CalendarTreeProvider } from '../../../../../src/features/calendar/tree/treeProvider';
import { fakeVscode } from '../../../../support/fakeVscode';
import { labelText } from '../../../../support/treeItemText';
import { entry, FakeCalendarApi, timed } from '../../../../support/fakes/calendar';

const NOW = Date.parse('2026-11-23T08:00:00Z');
const offline = (): never => {
  throw new ServiceUnreachableError('calendar.events.list', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8089'), { code: 'ECONNREFUSED' }));
};

function provider(api: FakeCalendarApi, cache?: ViewSnapshotStore<AgendaSnapshot>) {
  const vs = fakeVscode() as unknown as Record<string, unknown>;
  vs.Uri = { parse: (text: string) => ({ toString: () => text }) };
  let tree: CalendarTreeProvider | undefined;
  const store = new EventStore({ api: () => api, onChange: (id) => tree?.redrawCalendar(id), now: () => NOW });
  tree = new CalendarTreeProvider(vs as never, {
    api: () => api,
    store,
    timeZone: async () => 'Europe/Berlin',
    daysAhead: () => 7,
    showHidden: () => false,
    isSignedIn: async () => true,
    withProgress: (work) => work(),
    log: () => undefined,
    now: () => NOW,
    ...(cache ? { cache } : {}),
  });
  const rootRefreshes: number[] = [];
  tree.onDidChangeTreeData((node) => {
    if (node === undefined) rootRefreshes.push(1);
  });
  return { tree, store, rootRefreshes };
}

const label = (tree: CalendarTreeProvider, node: CalendarTreeNode): string => labelText(tree.getTreeItem(node).label);
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));

function calendarApi(): FakeCalendarApi {
  return new FakeCalendarApi([entry('me@example.com', { primary: true, summary: 'Me' }), entry('team', { summary: 'Team' })], {
    'me@example.com': [timed('Standup', '2026-11-23T09:30:00Z', '2026-11-23T09:45:00Z')],
    team: [timed('Retro', '2026-11-23T13:00:00Z', '2026-11-23T14:00:00Z')],
  });
}

function snapshotStore(snapshot: AgendaSnapshot): ViewSnapshotStore<AgendaSnapshot> {
  return { read: async () => snapshot, write: async () => undefined };
}

describe('Calendar tree offline, and the Agenda after a reload', () => {
  it('an Agenda whose fresh rows arrive before VS Code asks for its rows is not left "refreshing…" with none (collapse, reload, New Event, expand)', async () => {
    const api = calendarApi();
    const cached: AgendaSnapshot = { calendars: api.entries, timeZone: 'Europe/Berlin', events: [{ calendarId: 'me@example.com', event: timed('Cached standup', '2026-11-23T09:30:00Z', '2026-11-23T09:45:00Z') }] };
    const { tree, rootRefreshes } = provider(api, snapshotStore(cached));
    // New Event from the palette read the calendars while the view was collapsed: they are loaded already.
    await tree.calendars();
    // Expand: VS Code asks for the root rows (the cached ones, "refreshing…") ...
    const roots = await tree.getChildren();
    assert.equal(tree.getTreeItem(tree.agenda).description, 'refreshing…');
    // ... and the fresh rows come before it asks for the Agenda's rows.
    await settle();
    assert.equal(rootRefreshes.length, 0, 'no root refresh between the root rows and the Agenda\'s: VS Code would find no "1/agenda"');
    const agendaRows = await tree.getChildren(roots[0]);
    assert.ok(agendaRows.length > 0);
    await settle();
    assert.equal(rootRefreshes.length, 1, 'the fresh rows are asked for once the Agenda\'s rows were given');
    assert.equal(tree.getTreeItem(tree.agenda).description, 'next 7 days');
    const days = await tree.getChildren(tree.agenda);
    assert.deepEqual((await tree.getChildren(days[0])).map((node) => label(tree, node)), ['Standup', 'Retro']);
  });

  it('offline, the calendars and the Agenda keep their rows, and a calendar never loaded says "Not available offline"', async () => {
    const api = calendarApi();
    const { tree } = provider(api);
    const roots = await tree.getChildren();
    const agendaDays = await tree.getChildren(roots[0]);
    assert.equal(agendaDays.length, 1);
    api.allCalendarListEntries = () => offline();
    api.listEvents = async () => offline();
    tree.refreshAll();
    const offlineRoots = await tree.getChildren();
    assert.deepEqual(offlineRoots.map((node) => label(tree, node)), ['Agenda', 'Me', 'Team']);
    const days = await tree.getChildren(tree.agenda);
    assert.deepEqual((await tree.getChildren(days[0])).map((node) => label(tree, node)), ['Standup', 'Retro'], 'the events loaded this session stay');
    for (const node of [...offlineRoots, ...days]) assert.notEqual(tree.getTreeItem(node).contextValue, 'message-error');
  });

  it('offline after a reload, the cached Agenda shows; nothing cached says "Not available offline" once', async () => {
    const api = calendarApi();
    api.allCalendarListEntries = () => offline();
    api.listEvents = async () => offline();
    const cached: AgendaSnapshot = { calendars: api.entries, timeZone: 'Europe/Berlin', events: [{ calendarId: 'team', event: timed('Retro', '2026-11-23T13:00:00Z', '2026-11-23T14:00:00Z') }] };
    const { tree } = provider(api, snapshotStore(cached));
    await tree.getChildren();
    await settle();
    const roots = await tree.getChildren();
    assert.deepEqual(roots.map((node) => label(tree, node)), ['Agenda', 'Me', 'Team']);
    const days = await tree.getChildren(tree.agenda);
    assert.deepEqual((await tree.getChildren(days[0])).map((node) => label(tree, node)), ['Retro']);
    const me = roots.find((node) => label(tree, node) === 'Me');
    const rows = await tree.getChildren(me);
    assert.deepEqual(rows.map((node) => label(tree, node)), ['Not available offline']);
    assert.notEqual(tree.getTreeItem(rows[0]).contextValue, 'message-error');

    const empty = provider(api).tree;
    assert.deepEqual((await empty.getChildren()).map((node) => label(empty, node)), ['Not available offline']);
  });
});
