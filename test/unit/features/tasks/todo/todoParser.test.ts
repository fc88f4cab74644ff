import * as assert from 'node:assert/strict';
import { applyLineEdit, findLinkedTodos, linkLine, markerEdit, parseTodo, taskTitleFor } from '../../../../../src/features/tasks/todo/todoParser';

describe('TODO comments → tasks (parser)', () => {
  describe('finds TODO and FIXME in the comment styles of common languages', () => {
    const cases: Array<[string, string, string]> = [
      ['// TODO: handle the empty list', 'TODO', 'handle the empty list'],
      ['    const x = 1; // FIXME: off by one', 'FIXME', 'off by one'],
      ['# TODO: retry on 503', 'TODO', 'retry on 503'],
      ['    value = 2  # TODO use the cache', 'TODO', 'use the cache'],
      ['-- TODO: index on updated', 'TODO', 'index on updated'],
      ['/* TODO: drop this shim */', 'TODO', 'drop this shim'],
      [' * FIXME: the docs are wrong', 'FIXME', 'the docs are wrong'],
      ['<!-- TODO: translate -->', 'TODO', 'translate'],
      ['; TODO: tune the timeout', 'TODO', 'tune the timeout'],
      ['% TODO: cite the paper', 'TODO', 'cite the paper'],
      ['/// TODO: doc comment', 'TODO', 'doc comment'],
      ['//TODO:no spaces', 'TODO', 'no spaces'],
    ];
    for (const [line, keyword, text] of cases) {
      it(JSON.stringify(line), () => {
        const todo = parseTodo(line);
        assert.ok(todo, 'no TODO found');
        assert.equal(todo.keyword, keyword);
        assert.equal(todo.text, text);
        assert.equal(todo.taskId, undefined);
        assert.equal(line.slice(todo.start, todo.start + keyword.length), keyword);
        assert.equal(line.slice(todo.textStart, todo.textEnd), text);
      });
    }
  });

  it('ignores lines where TODO is not the first word of a comment, or not in a comment', () => {
    for (const line of [
      'const TODO = 1;',
      '// see the TODO list in the README',
      'fetch("http://example.com/TODO")',
      'i-- TODO',
      'let todoItems = []; // todo lowercase is not a keyword',
      '// TODOS: plural is a word',
      'x = a * TODO',
      '',
    ]) {
      assert.equal(parseTodo(line), undefined, line);
    }
  });

  it('reads owner tags and the task marker in the parentheses', () => {
    const owned = parseTodo('// TODO(alice): ship it');
    assert.deepEqual([owned?.tags, owned?.taskId, owned?.text], [['alice'], undefined, 'ship it']);
    const linked = parseTodo('# FIXME(alice, task:Ab-9_z): ship it');
    assert.deepEqual([linked?.tags, linked?.taskId, linked?.text], [['alice'], 'Ab-9_z', 'ship it']);
    const onlyMarker = parseTodo('<!-- TODO(task:k3y): translate -->');
    assert.deepEqual([onlyMarker?.tags, onlyMarker?.taskId, onlyMarker?.text], [[], 'k3y', 'translate']);
  });

  it('does not take a malformed marker for a task id', () => {
    const todo = parseTodo('// TODO(task:has space): x');
    assert.equal(todo?.taskId, undefined);
    assert.deepEqual(todo?.tags, ['task:has space']);
  });

  describe('marker round trip: the linked line parses back to the same text and the task id', () => {
    const lines = [
      '// TODO: handle the empty list',
      '    x = 1  # TODO use the cache',
      '-- FIXME: index on updated',
      '/* TODO: drop this shim */',
      '<!-- TODO: translate -->',
      '// TODO(alice): ship it',
      '// TODO',
    ];
    for (const line of lines) {
      it(JSON.stringify(line), () => {
        const before = parseTodo(line);
        assert.ok(before);
        const linked = linkLine(line, 'T1_x-9');
        const after = parseTodo(linked);
        assert.ok(after, `the linked line no longer parses: ${linked}`);
        assert.equal(after.taskId, 'T1_x-9');
        assert.equal(after.text, before.text);
        assert.deepEqual(after.tags, before.tags);
        assert.equal(after.keyword, before.keyword);
        // Linking twice changes nothing.
        assert.equal(linkLine(linked, 'other'), linked);
      });
    }
  });

  it('writes the marker where the keyword is and keeps the rest of the line', () => {
    assert.equal(linkLine('    foo(); // TODO: later', 'abc'), '    foo(); // TODO(task:abc): later');
    assert.equal(linkLine('# TODO fix it', 'abc'), '# TODO(task:abc): fix it');
    assert.equal(linkLine('/* FIXME(bob) */', 'abc'), '/* FIXME(bob, task:abc) */');
    assert.equal(linkLine('<!-- TODO: a -->', 'abc'), '<!-- TODO(task:abc): a -->');
    const todo = parseTodo('// TODO: x');
    assert.ok(todo);
    assert.equal(applyLineEdit('// TODO: x', markerEdit(todo, 'q')), '// TODO(task:q): x');
    assert.throws(() => markerEdit(todo, 'bad id'), /not a task id/);
  });

  it('finds every linked TODO of a document, with its line', () => {
    const text = ['line zero', '// TODO(task:a1): one', 'x = 1 # TODO: unlinked', '\t/* FIXME(task:b2) two */', '// TODO(task:): empty id'].join('\r\n');
    assert.deepEqual(findLinkedTodos(text).map(({ line, taskId }) => [line, taskId]), [[1, 'a1'], [3, 'b2']]);
  });

  it('titles a task with the TODO text, or with the place when the TODO says nothing; long text is cut', () => {
    const empty = parseTodo('// TODO');
    assert.ok(empty);
    assert.equal(taskTitleFor(empty, 'src/a.ts:3'), 'TODO at src/a.ts:3');
    const long = parseTodo(`// FIXME: ${'y'.repeat(2000)}`);
    assert.ok(long);
    assert.equal(taskTitleFor(long, 'p').length, 1024);
  });
});
