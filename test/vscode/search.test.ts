// "Desk: Search…" inside a real extension host, against the harness's emulator: one text finds a task (and a completed
// one), a Drive file, a calendar event and books, grouped by service in a fixed order with their context; Enter opens
// each where it lives (the Tasks view's row and the task's details, the Drive row and its editor, the event's details,
// the book's details); the last text comes back in the box; a service that refuses the text is named in its own row
// while the others still answer.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DeskApi } from '../../src/extension';
import type { SearchHit, SearchService } from '../../src/features/search/model';
import { EverythingPickItem, EverythingPicker } from '../../src/features/search/picker';
import { activateAndSignIn, emulatorRequest, eventually } from './support';
import { updateDurably } from '../../src/core/storage/durableMemento';

interface Created { id: string }

/** A word no demo data contains, with the catalogue's "Dune" beside it so Books answers too. */
const WORD = 'Dune';

describe('Desk: Search… in VS Code', function () {
  this.timeout(60000);
  let api: DeskApi;
  const made: { listId: string; taskId: string; doneTaskId: string; fileId: string; eventId: string } = { listId: '', taskId: '', doneTaskId: '', fileId: '', eventId: '' };

  before(async () => {
    api = await activateAndSignIn();
    const lists = await emulatorRequest<{ items: Created[] }>('GET', '/tasks/v1/users/@me/lists');
    made.listId = lists.body.items[0]?.id ?? '';
    made.taskId = (await emulatorRequest<Created>('POST', `/tasks/v1/lists/${made.listId}/tasks`, { title: 'Reading group', notes: `Bring ${WORD}, chapter three` })).body.id;
    made.doneTaskId = (await emulatorRequest<Created>('POST', `/tasks/v1/lists/${made.listId}/tasks`, { title: `Return ${WORD} to the library`, status: 'completed' })).body.id;
    made.fileId = (await emulatorRequest<Created>('POST', '/drive/v2/files', { title: `${WORD.toLowerCase()}-notes.txt`, mimeType: 'text/plain' })).body.id;
    const tomorrow = new Date(Date.now() + 86_400_000);
    const end = new Date(tomorrow.getTime() + 3_600_000);
    made.eventId = (await emulatorRequest<Created>('POST', '/calendar/v3/calendars/primary/events', { summary: `${WORD} book club`, start: { dateTime: tomorrow.toISOString() }, end: { dateTime: end.toISOString() } })).body.id;
    assert.ok(made.listId && made.taskId && made.doneTaskId && made.fileId && made.eventId, 'the test data was created');
    // Durably: an echo of another write of Desk's global state in flight could otherwise bring the last query back.
    await updateDurably(api.desk.extensionContext.globalState, 'desk.search.lastQuery', undefined);
  });

  afterEach(async () => {
    api.search.picker?.quickPick.hide();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  /** Starts the command and waits for its pick. */
  async function openPick(): Promise<{ picker: EverythingPicker; chosen: Promise<unknown> }> {
    const chosen = api.search.run({ debounceMs: 0 });
    const picker = await eventually('the search pick', () => api.search.picker);
    return { picker, chosen };
  }

  /** Waits until every service answered (or failed) for `query`. */
  async function settled(picker: EverythingPicker, query: string): Promise<readonly EverythingPickItem[]> {
    await eventually(`every service answering "${query}"`, () => {
      const state = picker.search.state;
      return state.query === query && state.groups.length === 4 && state.groups.every((group) => group.status !== 'searching') ? true : undefined;
    }, 30000);
    return picker.quickPick.items;
  }

  const separators = (items: readonly EverythingPickItem[]): string[] => items.filter((item) => item.kind === vscode.QuickPickItemKind.Separator).map((item) => item.label);
  const hit = (items: readonly EverythingPickItem[], pattern: RegExp, service: string): EverythingPickItem => {
    const found = items.find((item) => item.role === 'hit' && item.service === service && pattern.test(item.label));
    assert.ok(found, `no ${service} hit ${String(pattern)} among ${items.map((item) => `${item.service ?? '-'}:${item.label}`).join(', ')}`);
    return found;
  };
  const openDocument = (scheme: string, fragment: string): Promise<vscode.TextDocument> =>
    eventually(`a ${scheme}: document with ${fragment}`, () => vscode.workspace.textDocuments.find((document) => document.uri.scheme === scheme && decodeURIComponent(document.uri.path).includes(fragment)));

  it('groups every service\'s hits in a fixed order, with context, and Enter on a file reveals it and opens it', async () => {
    const { picker, chosen } = await openPick();
    picker.type(WORD.toLowerCase());
    const items = await settled(picker, WORD.toLowerCase());
    assert.deepEqual(separators(items), ['Tasks', 'Drive', 'Calendar', 'Books'], 'one separator per service, in order');
    const task = hit(items, /^Reading group$/, 'tasks');
    assert.match(task.detail ?? '', /chapter three/, 'a task found by its notes says them');
    assert.match(hit(items, /^Return Dune to the library$/, 'tasks').detail ?? '', /completed/, 'a completed task is marked');
    const file = hit(items, /^dune-notes\.txt$/, 'drive');
    assert.match(file.detail ?? '', /^My Drive · owner /, 'a file says its folder and owner');
    assert.equal((file.iconPath as vscode.ThemeIcon).id, 'file');
    const event = hit(items, /^Dune book club$/, 'calendar');
    // As Desk's clock writes it ("Fri 27 Nov, 18:00", the year only when not this one), then the calendar.
    assert.match(event.detail ?? '', /\d{1,2}.*\d{2}:\d{2}(, repeats)? · \S/, 'an event says its date and calendar');
    assert.match(hit(items, /^Dune$/, 'books').detail ?? '', /Frank Herbert/);
    assert.ok(items.every((item) => item.kind === vscode.QuickPickItemKind.Separator || item.alwaysShow), 'the pick does not filter the services\' answers again');

    picker.accept(file);
    await chosen;
    const selected = api.drive.treeView.selection.at(0);
    assert.equal(selected && 'item' in selected ? selected.item.id : undefined, made.fileId, 'the file is selected in the Drive tree');
    await openDocument('desk-drive', 'dune-notes.txt');
  });

  // Also after other files showed this list in the Tasks view (the full suite): see test/vscode/tasks-reveal.test.ts.
  it('puts the last text back, and Enter on a task shows its row in the Tasks view and its details', async () => {
    const { picker, chosen } = await openPick();
    assert.equal(picker.quickPick.value, WORD.toLowerCase(), 'the last text searched is pre-filled');
    const items = await settled(picker, WORD.toLowerCase());
    picker.accept(hit(items, /^Reading group$/, 'tasks'));
    await chosen;
    // The selection reaches the extension host as an event of the window: wait for it rather than read it at once.
    await eventually(`the task selected in the Tasks view (selected: ${JSON.stringify(api.tasks.view.selection.map((node) => node.id))})`, () =>
      api.tasks.view.selection.some((node) => node.kind === 'task' && node.task.id === made.taskId) ? true : undefined, 10000);
    await openDocument('desk-task', made.taskId);
  });

  it('opens an event\'s details and a book\'s details', async () => {
    let { picker, chosen } = await openPick();
    picker.accept(hit(await settled(picker, WORD.toLowerCase()), /^Dune book club$/, 'calendar'));
    await chosen;
    await openDocument('desk-calendar-event', made.eventId);

    ({ picker, chosen } = await openPick());
    picker.accept(hit(await settled(picker, WORD.toLowerCase()), /^Dune$/, 'books'));
    await chosen;
    await openDocument('desk-book', '');
  });

  it('names a service that cannot search the text, and the others still answer', async () => {
    const { picker } = await openPick();
    // Google Books refuses a q longer than 2,048 characters (400); Drive, Calendar and Tasks take it.
    const long = `${WORD.toLowerCase()} ${'x'.repeat(2100)}`;
    picker.type(long);
    const items = await settled(picker, long);
    const failed = items.find((item) => item.role === 'failed');
    assert.ok(failed, `no failure row among ${items.map((item) => item.label).join(', ')}`);
    assert.equal(failed.service, 'books');
    assert.match(failed.label, /^Books: couldn't search — .+/);
    assert.deepEqual(picker.search.state.groups.map((group) => `${group.service}:${group.status}`), ['tasks:done', 'drive:done', 'calendar:done', 'books:failed']);
    assert.equal(picker.quickPick.busy, false);
  });

  it('keeps the first row focused while groups arrive out of order (Tasks answering after Drive)', async () => {
    // Each service answers when the test says (Drive first, then Tasks, whose group is shown above Drive's).
    const answers = new Map<SearchService, (hits: readonly SearchHit[]) => void>();
    const services: readonly SearchService[] = ['tasks', 'drive', 'calendar', 'books'];
    const picker = new EverythingPicker(vscode, services.map((service) => ({ service, search: () => new Promise<readonly SearchHit[]>((resolve) => answers.set(service, resolve)) })), { debounceMs: 0 });
    const answer = (service: SearchService, hits: readonly SearchHit[]): void => answers.get(service)?.(hits);
    const focused = (): string | undefined => picker.quickPick.activeItems[0]?.label;
    try {
      picker.show();
      picker.type('plan');
      await eventually('every service asked', () => (answers.size === services.length ? true : undefined));
      answer('drive', [
        { title: 'Project plan', context: 'My Drive › Projects', target: { kind: 'file', fileId: 'f1', folder: false } },
        { title: 'Planning', context: 'Shared drives', target: { kind: 'file', fileId: 'f2', folder: true } },
      ]);
      await eventually('the Drive row focused', () => (focused() === 'Project plan' ? true : undefined));
      answer('tasks', [{ title: 'Plan the weekend trip', context: 'My Tasks', target: { kind: 'task', listId: 'l1', taskId: 't1' } }]);
      await eventually(`the new first row focused (focused: ${String(focused())})`, () => (focused() === 'Plan the weekend trip' ? true : undefined), 5000);
    } finally {
      picker.dispose();
    }
  });
});
