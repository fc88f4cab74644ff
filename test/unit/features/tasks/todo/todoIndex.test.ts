import * as assert from 'node:assert/strict';
import { buildTodoTree, byFile, TodoIndex, unlinkedTodosOf } from '../../../../../src/features/tasks/todo/todoIndex';
import { parseTodo } from '../../../../../src/features/tasks/todo/todoParser';
import type { FoundTodo } from '../../../../../src/features/tasks/todo/todoScan';

function found(file: string, line: number, text: string): FoundTodo {
  const todo = parseTodo(text);
  assert.ok(todo, text);
  return { file, line, todo };
}

describe('TODOs view model (no vscode)', () => {
  const all = [
    found('src/b.ts', 4, '// TODO: b2'),
    found('src/b.ts', 1, '// TODO: b1'),
    found('README.md', 3, '<!-- TODO(task:t1): docs -->'),
    found('src/a.ts', 9, '// FIXME(task:t2): a linked'),
    found('src/a.ts', 2, '// TODO: a1'),
    found('src/a.ts', 5, '// TODO: a1'),
  ];

  it('groups by section (not tracked first), then file by path, then line; ids stable and unique', () => {
    const tree = buildTodoTree(all);
    assert.deepEqual(tree.map((section) => [section.section, section.count]), [['unlinked', 4], ['linked', 2]]);
    assert.deepEqual(tree[0]?.files.map((file) => [file.file, file.items.map((item) => item.found.line)]), [['src/a.ts', [2, 5]], ['src/b.ts', [1, 4]]]);
    assert.deepEqual(tree[1]?.files.map((file) => file.file), ['README.md', 'src/a.ts']);
    const ids = tree.flatMap((section) => section.files.flatMap((file) => file.items.map((item) => item.id)));
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(ids.includes('todo/src/a.ts/task/t2'));
    // Moving lines keeps the ids.
    const moved = buildTodoTree(all.map((item) => ({ ...item, line: item.line + 10 })));
    assert.deepEqual(moved.flatMap((section) => section.files.flatMap((file) => file.items.map((item) => item.id))), ids);
    // Every node knows its parent (reveal).
    const item = tree.at(0)?.files.at(0)?.items.at(0);
    assert.equal(item?.parent.parent, tree[0]);
  });

  it('updates one file at a time and says whether anything changed', () => {
    const index = new TodoIndex();
    index.replaceAll(all, ['src/a.ts', 'src/b.ts', 'README.md', 'src/empty.ts']);
    assert.equal(index.size, 6);
    assert.equal(index.setFile('src/b.ts', [found('src/b.ts', 1, '// TODO: b1'), found('src/b.ts', 4, '// TODO: b2')]), false);
    assert.equal(index.setFile('src/b.ts', [found('src/b.ts', 1, '// TODO: b1')]), true);
    assert.equal(index.setFile('src/b.ts', []), true);
    assert.deepEqual(index.files().sort(), ['README.md', 'src/a.ts']);
    assert.equal(index.isSearched('src/empty.ts'), true);
    assert.equal(index.isSearched('src/new.ts'), false);
    assert.equal(index.removeFile('src/a.ts'), true);
    assert.deepEqual(index.linked().map((item) => item.todo.taskId), ['t1']);
  });

  it('collects the unlinked TODOs of a selection (a file row = all of its TODOs), once each', () => {
    const tree = buildTodoTree(all);
    const unlinked = tree[0];
    assert.ok(unlinked);
    const fileA = unlinked.files[0];
    assert.ok(fileA);
    const picked = unlinkedTodosOf([fileA, fileA.items[0], tree[1]]);
    assert.deepEqual(picked.map((item) => `${item.file}:${item.line}`), ['src/a.ts:2', 'src/a.ts:5']);
    assert.equal(unlinkedTodosOf([unlinked]).length, 4);
    assert.deepEqual([...byFile(picked).keys()], ['src/a.ts']);
  });
});
