import * as assert from 'node:assert/strict';
import { affectedLists, planDrop, TaskRef } from '../../../../../src/features/tasks/tree/dropPlan';

const ref = (listId: string, taskId: string, ...ancestors: string[]): TaskRef => ({ listId, taskId, ancestors });

describe('drag and drop → tasks.move', () => {
  it('dropping on a task of another branch makes a subtask at the first position', () => {
    assert.deepEqual(planDrop([ref('L', 'a')], { kind: 'task', ref: ref('L', 'b1', 'b') }), [{ tasklist: 'L', task: 'a', parent: 'b1' }]);
  });

  it('dropping on a sibling reorders: right after that sibling, same parent', () => {
    assert.deepEqual(planDrop([ref('L', 'a')], { kind: 'task', ref: ref('L', 'c') }), [{ tasklist: 'L', task: 'a', previous: 'c' }]);
    assert.deepEqual(planDrop([ref('L', 'x', 'p')], { kind: 'task', ref: ref('L', 'y', 'p') }), [{ tasklist: 'L', task: 'x', parent: 'p', previous: 'y' }]);
  });

  it('dropping a subtask on its own parent moves it to the top of its siblings', () => {
    assert.deepEqual(planDrop([ref('L', 'x', 'p')], { kind: 'task', ref: ref('L', 'p') }), [{ tasklist: 'L', task: 'x', parent: 'p' }]);
  });

  it('dropping on a list moves to its top level, across lists with destinationTasklist', () => {
    assert.deepEqual(planDrop([ref('L', 'x', 'p')], { kind: 'list', listId: 'L' }), [{ tasklist: 'L', task: 'x' }]);
    assert.deepEqual(planDrop([ref('L', 'x')], { kind: 'list', listId: 'M' }), [{ tasklist: 'L', task: 'x', destinationTasklist: 'M' }]);
    assert.deepEqual(planDrop([ref('L', 'x')], { kind: 'task', ref: ref('M', 'y') }), [{ tasklist: 'L', task: 'x', parent: 'y', destinationTasklist: 'M' }]);
  });

  it('refuses to put a task under itself or its own subtask', () => {
    assert.deepEqual(planDrop([ref('L', 'a')], { kind: 'task', ref: ref('L', 'a') }), []);
    assert.deepEqual(planDrop([ref('L', 'a')], { kind: 'task', ref: ref('L', 'a2', 'a1', 'a') }), []);
  });

  it('moves several tasks in dragged order and lets subtasks travel with a dragged parent', () => {
    const moves = planDrop([ref('L', 'a'), ref('L', 'a1', 'a'), ref('L', 'b')], { kind: 'list', listId: 'M' });
    assert.deepEqual(moves, [
      { tasklist: 'L', task: 'a', destinationTasklist: 'M' },
      { tasklist: 'L', task: 'b', previous: 'a', destinationTasklist: 'M' },
    ]);
    assert.deepEqual(affectedLists(moves), ['L', 'M']);
  });
});
