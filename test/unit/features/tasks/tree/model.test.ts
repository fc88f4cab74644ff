import * as assert from 'node:assert/strict';
import type { Task } from '../../../../../src/shared/schemas/tasks';
import { buildTaskTree, comparePositions, flattenTree, TaskTreeEntry } from '../../../../../src/features/tasks/tree/model';

function task(id: string, position: string, extra: Partial<Task> = {}): Task {
  return {
    kind: 'tasks#task', id, etag: `"${id}"`, title: id, updated: '2026-11-20T10:00:00.000Z',
    selfLink: `http://x/${id}`, position, status: 'needsAction', links: [], ...extra,
  };
}

/** The tree as nested id arrays: easy to read in assertions. */
function shape(entries: readonly TaskTreeEntry[]): unknown[] {
  return entries.map((entry) => (entry.children.length ? [entry.task.id, shape(entry.children)] : entry.task.id));
}

describe('task tree model', () => {
  it('nests subtasks under their parents and orders siblings by position, whatever the input order', () => {
    const tasks = [
      task('b2', '00000000000000000001', { parent: 'b' }),
      task('b', '00000000000000000002'),
      task('a', '00000000000000000001'),
      task('b1', '00000000000000000000', { parent: 'b' }),
    ];
    assert.deepEqual(shape(buildTaskTree(tasks, { complete: true })), ['a', ['b', ['b1', 'b2']]]);
  });

  it('leaves out deleted and hidden (cleared) tasks', () => {
    const tasks = [task('a', '1'), task('gone', '2', { deleted: true }), task('cleared', '3', { hidden: true, status: 'completed' })];
    assert.deepEqual(shape(buildTaskTree(tasks, { complete: true })), ['a']);
  });

  it('holds back a subtask whose parent has not arrived until every page is in, then shows it at the top level', () => {
    const firstPage = [task('a', '1'), task('orphan', '0', { parent: 'later' })];
    assert.deepEqual(shape(buildTaskTree(firstPage, { complete: false })), ['a']);
    assert.deepEqual(shape(buildTaskTree(firstPage, { complete: true })), ['orphan', 'a']);
    const allPages = [...firstPage, task('later', '2')];
    assert.deepEqual(shape(buildTaskTree(allPages, { complete: true })), ['a', ['later', ['orphan']]]);
  });

  it('survives a parent cycle from a broken server and still shows every task once', () => {
    const tasks = [task('x', '1', { parent: 'y' }), task('y', '2', { parent: 'x' }), task('self', '3', { parent: 'self' })];
    const flat = flattenTree(buildTaskTree(tasks, { complete: true })).map((entry) => entry.task.id).sort();
    assert.deepEqual(flat, ['self', 'x', 'y']);
  });

  it('compares positions of unequal length as numbers', () => {
    assert.ok(comparePositions('9', '10') < 0);
    assert.ok(comparePositions('00000000000000000009', '00000000000000000010') < 0);
    assert.equal(comparePositions('5', '5'), 0);
  });

  it('flattens depth first with depths for pickers', () => {
    const tasks = [task('a', '1'), task('a1', '1', { parent: 'a' }), task('b', '2')];
    assert.deepEqual(flattenTree(buildTaskTree(tasks, { complete: true })).map((entry) => `${entry.task.id}:${entry.depth}`), ['a:0', 'a1:1', 'b:0']);
  });
});
