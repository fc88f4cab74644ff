import * as assert from 'node:assert/strict';
import type { Task } from '../../../../../src/shared/schemas/tasks';
import { escapeMarkdown } from '../../../../../src/core/markdown';
import { taskDescription, taskDetailsMarkdown, taskLabel, taskTooltip } from '../../../../../src/features/tasks/tree/presentation';

const TODAY = new Date(2026, 10, 25);

function task(extra: Partial<Task> = {}): Task {
  return { kind: 'tasks#task', id: 't1', etag: '"e"', title: 'Pay rent', updated: '2026-11-20T10:00:00.000Z', selfLink: 'http://x/t1', position: '1', status: 'needsAction', links: [], ...extra };
}

describe('task presentation', () => {
  it('escapes user text so a title or note can never become a link or command in a hover', () => {
    const hover = taskTooltip(task({ title: '[click](command:evil)', notes: '*bold* <b>x</b>' }), 'Home', TODAY);
    assert.ok(!hover.includes('](command:'), hover);
    assert.ok(hover.includes('\\[click\\]\\(command:evil\\)'));
    assert.ok(hover.includes('\\*bold\\* \\<b\\>x\\</b\\>'));
    assert.equal(escapeMarkdown('a_b|c'), 'a\\_b\\|c');
  });

  it('describes due dates and flags overdue open tasks only', () => {
    assert.equal(taskDescription(task({ due: '2026-11-26T00:00:00.000Z' }), TODAY), 'due tomorrow');
    assert.equal(taskDescription(task({ due: '2026-11-01T00:00:00.000Z' }), TODAY), 'overdue · 2026-11-01');
    assert.equal(taskDescription(task({ due: '2026-11-01T00:00:00.000Z', status: 'completed' }), TODAY), 'due 2026-11-01');
    assert.equal(taskDescription(task(), TODAY), undefined);
  });

  it('names untitled tasks and puts notes and dates into the details page', () => {
    assert.equal(taskLabel(task({ title: '  ' })), '(untitled task)');
    const page = taskDetailsMarkdown(task({ notes: 'line one\nline two', due: '2026-12-01T00:00:00.000Z' }), 'Home', TODAY);
    assert.match(page, /^# Pay rent/);
    assert.match(page, /\| Due \| 2026-12-01 \|/);
    assert.match(taskDetailsMarkdown(task({ due: '2026-11-26T00:00:00.000Z' }), 'Home', TODAY), /\| Due \| 2026-11-26 \(tomorrow\) \|/);
    assert.match(page, /line one {2}\nline two/);
  });
});
