import * as assert from 'node:assert/strict';
import { EventStore } from '../../../../../src/features/calendar/sync/eventStore';
import type { CalendarTreeNode } from '../../../../../src/features/calendar/tree/model';
import { CalendarTreeProvider } from '../../../../../src/features/calendar/tree/treeProvider';
import { fakeVscode } from '../../../../support/fakeVscode';
import { labelText } from '../../../../support/treeItemText';
import { allDay, entry, FakeCalendarApi, timed } from '../../../../support/fakes/calendar';

const NOW = Date.parse('2026-11-23T08:00:00Z');

function provider(api: FakeCalendarApi, options: { signedIn?: boolean; showHidden?: boolean } = {}) {
  const vs = fakeVscode() as unknown as Record<string, unknown>;
  vs.Uri = { parse: (text: string) => ({ toString: () => text }) };
  let tree: CalendarTreeProvider | undefined;
  const store = new EventStore({ api: () => api, onChange: (id) => tree?.redrawCalendar(id), now: () => NOW });
  tree = new CalendarTreeProvider(vs as never, {
    api: () => api,
    store,
    timeZone: async () => 'Europe/Berlin',
    daysAhead: () => 7,
    showHidden: () => options.showHidden ?? false,
    isSignedIn: async () => options.signedIn ?? true,
    withProgress: (work) => work(),
    log: () => undefined,
    now: () => NOW,
  });
  return { tree, store };
}

describe('Calendar tree provider', () => {
  const api = () => new FakeCalendarApi(
    [entry('me@example.com', { primary: true, summary: 'Me' }), entry('team', { summary: 'Team', accessRole: 'reader', backgroundColor: '#ff0000' }), entry('old', { summary: 'Old', hidden: true }), entry('bday', { summary: 'Birthdays', selected: false })],
    {
      'me@example.com': [timed('Standup', '2026-11-23T09:30:00Z', '2026-11-23T09:45:00Z'), allDay('Offsite', '2026-11-24', '2026-11-25')],
      team: [timed('Retro', '2026-11-23T13:00:00Z', '2026-11-23T14:00:00Z')],
      bday: [allDay('Ann', '2026-11-23', '2026-11-24')],
    },
  );
  const label = (tree: CalendarTreeProvider, node: CalendarTreeNode): string => labelText(tree.getTreeItem(node).label);

  it('shows nothing while signed out, so the welcome view appears', async () => {
    assert.deepEqual(await provider(api(), { signedIn: false }).tree.getChildren(), []);
  });

  it('lists the Agenda then the calendars, hidden ones only when asked', async () => {
    const { tree } = provider(api());
    assert.deepEqual((await tree.getChildren()).map((node) => label(tree, node)), ['Agenda', 'Me', 'Team', 'Birthdays']);
    const withHidden = provider(api(), { showHidden: true }).tree;
    assert.deepEqual((await withHidden.getChildren()).map((node) => label(withHidden, node)), ['Agenda', 'Me', 'Team', 'Old', 'Birthdays']);
  });

  it('merges the selected calendars in the Agenda, by day, with the calendar in the description', async () => {
    const { tree } = provider(api());
    const [agenda] = await tree.getChildren();
    assert.ok(agenda);
    const days = await tree.getChildren(agenda);
    assert.deepEqual(days.map((node) => label(tree, node)), ['Today', 'Tomorrow']);
    const today = await tree.getChildren(days[0]);
    assert.deepEqual(today.map((node) => label(tree, node)), ['Standup', 'Retro'], 'Birthdays is not in the Agenda');
    assert.equal(tree.getTreeItem(today[1]).description, '14:00–15:00 · Team');
    assert.equal(tree.getTreeItem(today[1]).contextValue, 'event');
    assert.equal(tree.getParent(today[0]), days[0]);
    const tooltip = tree.resolveTreeItem(tree.getTreeItem(today[0]), today[0]).tooltip as { value: string };
    assert.match(tooltip.value, /\*\*Standup\*\*/);
    assert.match(tooltip.value, /Calendar: Me/);
  });

  it('shows a calendar on its own, and a retry row when its events cannot be loaded', async () => {
    const fake = api();
    const { tree } = provider(fake);
    const roots = await tree.getChildren();
    const me = roots.find((node) => label(tree, node) === 'Me');
    assert.ok(me);
    assert.deepEqual((await tree.getChildren(me)).map((node) => label(tree, node)), ['Today', 'Tomorrow']);
    const team = roots.find((node) => label(tree, node) === 'Team');
    fake.listEvents = async () => { throw new Error('offline'); };
    const rows = await tree.getChildren(team);
    assert.equal(rows[0]?.kind, 'message');
    assert.match(label(tree, rows[0]), /Could not load the events of Team: offline/);
    assert.equal((tree.getTreeItem(rows[0] as CalendarTreeNode).command as { command: string }).command, 'desk.calendar.refresh');
  });
});
