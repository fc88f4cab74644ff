import * as assert from 'node:assert/strict';
import {
  applyLineEdit, doneEdit, findLinkedTodos, findTodos, linkLine, markerEdit, minimalEdit, normalizeKeywords, parseTodo, relocateTodo, removalEdit,
  sourceNotes, sourceOf, taskTitleFor, unlinkEdit, withoutSource, withSource,
} from '../../../../../src/features/tasks/todo/todoParser';

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

describe('TODO comments (parser): languages, trigger words, unlink, clean-up, source', () => {
  describe('one comment syntax per language', () => {
    const cases: Array<[string, string]> = [
      ['TypeScript', '  const x = 1; // TODO: type this'],
      ['JavaScript', '/** TODO: document the options */'],
      ['Go', '\t// TODO: type this'],
      ['Rust', '//! TODO: type this'],
      ['C', '/* TODO: type this */'],
      ['C++', 'int x; // TODO: type this'],
      ['Java', '   * TODO: type this'],
      ['C#', '/// TODO: type this'],
      ['CSS', '.a { color: red; } /* TODO: type this */'],
      ['Python', 'x = 1  # TODO: type this'],
      ['Ruby', '# TODO: type this'],
      ['Shell', 'echo hi # TODO: type this'],
      ['YAML', 'key: value # TODO: type this'],
      ['TOML', '# TODO: type this'],
      ['Dockerfile', '# TODO: type this'],
      ['SQL', 'SELECT 1; -- TODO: type this'],
      ['Lua', '-- TODO: type this'],
      ['Haskell', '{- TODO: type this -}'],
      ['HTML', '<p>x</p> <!-- TODO: type this -->'],
      ['Markdown', '<!-- TODO: type this -->'],
      ['Lisp', ';; TODO: type this'],
      ['INI', '; TODO: type this'],
      ['LaTeX', '% TODO: type this'],
      ['Erlang', '%% TODO: type this'],
      ['OCaml', '(* TODO: type this *)'],
      ['PHP', '$x = 1; # TODO: type this'],
    ];
    for (const [language, line] of cases) {
      it(language, () => {
        const todo = parseTodo(line);
        assert.ok(todo, `no TODO in ${line}`);
        assert.equal(todo.text, language === 'JavaScript' ? 'document the options' : 'type this');
        assert.equal(line.slice(todo.start, todo.start + 4), 'TODO');
        // The opener is where the comment starts.
        assert.ok(line.slice(todo.commentStart).startsWith(todo.opener), `${todo.opener} at ${todo.commentStart}`);
      });
    }
  });

  it('takes configured trigger words, and drops words that cannot be one', () => {
    assert.deepEqual(normalizeKeywords(['HACK', 'XXX', 'not a word', 42, '']), ['HACK', 'XXX']);
    assert.deepEqual(normalizeKeywords([]), ['TODO', 'FIXME']);
    assert.deepEqual(normalizeKeywords('TODO'), ['TODO', 'FIXME']);
    assert.equal(parseTodo('// HACK: later', ['HACK'])?.keyword, 'HACK');
    assert.equal(parseTodo('// TODO: later', ['HACK']), undefined);
    assert.equal(linkLine('# XXX(bob) fix', 'k1', ['XXX']), '# XXX(bob, task:k1): fix');
    assert.deepEqual(findTodos('a\n// HACK: one\n// TODO: two\n', ['HACK']).map(({ line, todo }) => [line, todo.text]), [[1, 'one']]);
    assert.deepEqual(findLinkedTodos('// HACK(task:z9): x', 100, ['HACK']).map((item) => item.taskId), ['z9']);
  });

  it('unlinks: the marker goes, other tags and the text stay', () => {
    const cases: Array<[string, string]> = [
      ['// TODO(task:a1): ship it', '// TODO: ship it'],
      ['# FIXME(alice, task:a1) ship', '# FIXME(alice) ship'],
      ['<!-- TODO(task:a1): translate -->', '<!-- TODO: translate -->'],
    ];
    for (const [line, expected] of cases) {
      const todo = parseTodo(line);
      assert.ok(todo);
      const edit = unlinkEdit(todo);
      assert.ok(edit);
      assert.equal(applyLineEdit(line, edit), expected);
    }
    const plain = parseTodo('// TODO: x');
    assert.ok(plain);
    assert.equal(unlinkEdit(plain), undefined);
  });

  it('marks a finished TODO DONE, which is then no TODO any more', () => {
    const line = '  // TODO(alice, task:a1): ship it';
    const todo = parseTodo(line);
    assert.ok(todo);
    const done = applyLineEdit(line, doneEdit(todo));
    assert.equal(done, '  // DONE(alice, task:a1): ship it');
    assert.equal(parseTodo(done), undefined);
  });

  it('removes a finished comment: its line when alone, the trailing comment otherwise, never half a block', () => {
    const removed = (line: string): string | undefined => {
      const todo = parseTodo(line);
      assert.ok(todo, line);
      const edit = removalEdit(line, todo);
      if (!edit) return undefined;
      return edit.kind === 'line' ? '<line>' : line.slice(0, edit.start) + line.slice(edit.end);
    };
    assert.equal(removed('    // TODO(task:a): x'), '<line>');
    assert.equal(removed('   * TODO(task:a): inside a block'), '<line>');
    assert.equal(removed('<!-- TODO(task:a): x -->'), '<line>');
    assert.equal(removed('foo(); // TODO(task:a): x'), 'foo();');
    assert.equal(removed('x = 1   # FIXME(task:a) y'), 'x = 1');
    assert.equal(removed('/* TODO(task:a) */ foo();'), 'foo();');
    assert.equal(removed('/* TODO(task:a): the block goes on'), undefined);
  });

  it('writes and reads the Source line of a task made from a TODO', () => {
    const notes = sourceNotes('src/a.ts', 'file:///w/src/a.ts#L3');
    assert.equal(notes, 'Source: src/a.ts\nfile:///w/src/a.ts#L3');
    assert.deepEqual(sourceOf(notes), { path: 'src/a.ts', line: undefined });
    assert.deepEqual(sourceOf('x\nSource: lib/b.py:12\n'), { path: 'lib/b.py', line: 12 });
    assert.equal(sourceOf('From src/a.ts:2'), undefined);
    assert.equal(sourceOf(undefined), undefined);
    assert.equal(withSource(notes, 'src/moved.ts'), 'Source: src/moved.ts\nfile:///w/src/a.ts#L3');
    assert.equal(withSource('hand-written', 'src/a.ts'), 'Source: src/a.ts\nhand-written');
  });

  it('finds a TODO again after lines moved, and edits only what changed on the line', () => {
    const lines = ['a', 'b', '// TODO: here', 'c'];
    assert.equal(relocateTodo((line) => lines[line] ?? '', lines.length, 0, (todo) => todo.text === 'here'), 2);
    assert.equal(relocateTodo((line) => lines[line] ?? '', lines.length, 0, (todo) => todo.text === 'gone'), undefined);
    assert.deepEqual(minimalEdit('// TODO: x', '// TODO(task:q): x'), { start: 7, end: 7, text: '(task:q)' });
  });
  it('the hover over the TODO leaves out the Source line and its machine path, keeping the user\'s own notes', () => {
    const notes = `${sourceNotes('src/a.ts:12', 'file:///tmp/desk-ui-todo-B6StIX/src/a.ts#L12')}\nAsk **Bob** first`;
    assert.equal(withoutSource(notes), 'Ask **Bob** first');
    assert.equal(withoutSource(sourceNotes('src/a.ts:12', 'file:///tmp/x/a.ts#L12')), undefined);
    assert.equal(withoutSource('Just notes'), 'Just notes');
  });
});

describe('TODO markers naming their account (several accounts signed in)', () => {
  it('writes the account after the id, and reads it back; other tags stay', () => {
    const line = linkLine('// TODO(alice): fix the parser', 'abc123', undefined, 'bob@example.com');
    assert.equal(line, '// TODO(alice, task:abc123/bob@example.com): fix the parser');
    const todo = parseTodo(line);
    assert.equal(todo?.taskId, 'abc123');
    assert.equal(todo.taskAccount, 'bob@example.com');
    assert.deepEqual(todo.tags, ['alice']);
    assert.equal(todo.text, 'fix the parser');
  });

  it('reads an old marker (no account) as it always did: the first or only account\'s', () => {
    const todo = parseTodo('# TODO(task:abc123): old one');
    assert.equal(todo?.taskId, 'abc123');
    assert.equal(todo.taskAccount, undefined);
    assert.equal(linkLine('# TODO: new one', 'abc123'), '# TODO(task:abc123): new one', 'one account: no account written');
  });

  it('finds a marker with an account by its id (the workspace search looks for task:<id>), and unlinks it whole', () => {
    const text = 'a\n// TODO(task:abc123/Bob@Example.com): x\n';
    const found = findLinkedTodos(text).at(0);
    assert.equal(found?.taskId, 'abc123');
    assert.equal(found.todo.taskAccount, 'bob@example.com', 'read lower-case');
    assert.ok(text.includes('task:abc123'));
    const line = '// TODO(task:abc123/bob@example.com): x';
    const todo = parseTodo(line);
    const edit = todo ? unlinkEdit(todo) : undefined;
    assert.equal(edit ? applyLineEdit(line, edit) : line, '// TODO: x');
  });

  it('keeps a malformed account as a plain tag, linking nothing', () => {
    const todo = parseTodo('// TODO(task:abc123/not-an-address): x');
    assert.equal(todo?.taskId, undefined);
    assert.deepEqual(todo?.tags, ['task:abc123/not-an-address']);
    assert.throws(() => linkLine('// TODO: x', 'abc123', undefined, 'nobody'), /not an account/);
  });
});
