import * as assert from 'node:assert/strict';
import type { Task } from '../../../../../src/shared/schemas/tasks';
import { escapeMarkdown } from '../../../../../src/core/text/markdown';
import { formatDay } from '../../../../../src/core/text/clock';
import { listTooltip, renameListPrompt, taskDescription, taskDetailsMarkdown, taskLabel, taskTooltip } from '../../../../../src/features/tasks/tree/presentation';

const TODAY = new Date(2026, 10, 25);

function task(extra: Partial<Task> = {}): Task {
  return { kind: 'tasks#task', id: 't1', etag: '"e"', title: 'Pay rent', updated: '2026-11-20T10:00:00.000Z', selfLink: 'http://x/t1', position: '1', status: 'needsAction', links: [], ...extra };
}

describe('task presentation', () => {
  it('escapes the title, and renders the notes\' markdown in the hover without any link or HTML that could act', () => {
    const hover = taskTooltip(task({ title: '[click](command:evil)', notes: 'Take the **trains**\n- tickets\n[x](command:evil) [y]( <command:evil> ) <b>x</b>\n[z]: command:evil' }), 'Home', TODAY);
    assert.ok(hover.includes('\\[click\\]\\(command:evil\\)'));
    assert.ok(hover.includes('Take the **trains**  \n- tickets  \n'), hover);
    assert.ok(!/[^\\]\]\(\s*<?\s*command:/.test(hover), hover);
    assert.ok(!/^\s*\[[^\]]*\]:\s*command:/m.test(hover), hover);
    assert.ok(hover.includes('\\<b>x\\</b>'), hover);
    assert.equal(escapeMarkdown('a_b|c'), 'a\\_b\\|c');
  });

  it('describes due dates date first and short, and flags overdue open tasks only', () => {
    assert.equal(taskDescription(task({ due: '2026-11-26T00:00:00.000Z' }), TODAY, undefined, 'en-GB'), 'tomorrow');
    assert.equal(taskDescription(task({ due: '2026-11-27T00:00:00.000Z' }), TODAY, undefined, 'en-GB'), 'Fri');
    assert.equal(taskDescription(task({ due: '2026-12-02T00:00:00.000Z' }), TODAY, undefined, 'en-GB'), '2 Dec');
    assert.equal(taskDescription(task({ due: '2026-12-24T00:00:00.000Z' }), TODAY, undefined, 'en-GB'), '24 Dec');
    assert.equal(taskDescription(task({ due: '2027-01-05T00:00:00.000Z' }), TODAY, undefined, 'en-GB'), '5 Jan 2027');
    assert.equal(taskDescription(task({ due: '2026-11-01T00:00:00.000Z' }), TODAY, undefined, 'en-GB'), '1 Nov · overdue');
    assert.equal(taskDescription(task({ due: '2026-11-01T00:00:00.000Z', status: 'completed' }), TODAY, undefined, 'en-GB'), '1 Nov');
    assert.equal(taskDescription(task(), TODAY), undefined);
    // The locale orders and names the parts; the words stay short in any of them.
    assert.equal(taskDescription(task({ due: '2026-12-24T00:00:00.000Z' }), TODAY, undefined, 'en-US'), 'Dec 24');
    // What fits the default side bar beside a task title: a dozen characters at most.
    for (const due of ['2026-11-28', '2026-12-31', '2027-09-30']) assert.ok((taskDescription(task({ due: `${due}T00:00:00.000Z` }), TODAY, undefined, 'en-GB') ?? '').length <= 12, due);
  });

  it('writes the completed and updated days and the rename prompt\'s "last changed" as Desk\'s clock writes a day, never ISO', () => {
    const done = task({ status: 'completed', completed: '2026-11-24T10:00:00.000Z' });
    const list = { kind: 'tasks#taskList', id: 'l1', etag: '"e"', title: 'Home', updated: '2026-11-20T10:00:00.000Z', selfLink: 'http://x/l1' } as const;
    // The extension passes its clock's day (the user's zone and locale); British English here.
    const day = (ms: number): string => formatDay(ms, 'Europe/London', 'en-GB', TODAY.getTime());
    assert.match(taskTooltip(done, 'Home', TODAY, undefined, day), /^Completed Tue,? 24 Nov · in Home$/m);
    assert.match(listTooltip(list, 2, undefined, day), /Updated Fri,? 20 Nov/);
    assert.match(renameListPrompt(list, undefined, day), /^New name of "Home" \(last changed Fri,? 20 Nov\)$/);
    // A 1024-character title (the most Tasks allows) is quoted cut: the prompt stays one line.
    assert.ok(renameListPrompt({ ...list, title: 'Chores '.repeat(146) }, undefined, day).length < 120);
    // Without a clock (UTC, the runtime's locale) the day is still words, never ISO.
    assert.ok(!/\d{4}-\d{2}-\d{2}/.test(taskTooltip(done, 'Home', TODAY) + listTooltip(list, 2) + renameListPrompt(list)));
  });

  it('names untitled tasks and puts notes and dates into the details page', () => {
    assert.equal(taskLabel(task({ title: '  ' })), '(untitled task)');
    const page = taskDetailsMarkdown(task({ notes: 'line one\nline two', due: '2026-12-01T00:00:00.000Z' }), 'Home', TODAY, undefined, undefined, 'en-GB');
    assert.match(page, /^# Pay rent/);
    // The due date as Desk's clock writes a day, after "tomorrow" when it is: never the ISO date.
    assert.match(page, /\| Due \| Tue,? 1 Dec \|/);
    assert.match(taskDetailsMarkdown(task({ due: '2026-11-26T00:00:00.000Z' }), 'Home', TODAY, undefined, undefined, 'en-GB'), /\| Due \| tomorrow \(Thu,? 26 Nov\) \|/);
    assert.match(taskTooltip(task({ due: '2027-01-05T00:00:00.000Z' }), 'Home', TODAY, undefined, undefined, 'en-GB'), /^Due Tue,? 5 Jan 2027$/m);
    assert.match(page, /line one {2}\nline two/);
    assert.match(page, /\| Subtask of \| — \|/);
  });

  it('names a subtask\'s parent on the details page by its title, never by its id', () => {
    const subtask = task({ parent: 'MTA3NjQ4NTc0OTk3' });
    assert.match(taskDetailsMarkdown(subtask, 'Home', TODAY, undefined, undefined, 'en-GB', 'Plan the weekend trip'), /\| Subtask of \| Plan the weekend trip \|/);
    const unread = taskDetailsMarkdown(subtask, 'Home', TODAY, undefined, undefined, 'en-GB');
    assert.doesNotMatch(unread, /MTA3NjQ4NTc0OTk3/);
    assert.match(unread, /\| Subtask of \| another task of the list \|/);
  });
});
