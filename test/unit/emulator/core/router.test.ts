import * as assert from 'node:assert/strict';
import { Router } from '../../../../src/emulator/core/router';

describe('emulator router', () => {
  const router = new Router();
  const fileHandler = () => ({ json: 'file' });
  const trashHandler = () => ({ json: 'trash' });
  router.add({ id: 'drive.files.get', method: 'GET', path: '/drive/v2/files/:fileId', handle: fileHandler });
  router.add({ id: 'drive.files.emptyTrash', method: 'DELETE', path: '/drive/v2/files/trash', handle: trashHandler });
  router.add({ id: 'drive.files.delete', method: 'DELETE', path: '/drive/v2/files/:fileId', handle: fileHandler });
  router.add({ id: 'tasks.tasklists.get', method: 'GET', path: '/tasks/v1/users/@me/lists/:tasklist', handle: fileHandler, auth: false });

  it('prefers a static segment over a parameter (emptyTrash is not files.delete of "trash")', () => {
    assert.equal(router.match('DELETE', '/drive/v2/files/trash').match?.route.handle, trashHandler);
    assert.equal(router.match('DELETE', '/drive/v2/files/abc').match?.route.handle, fileHandler);
  });

  it('decodes parameters and keeps literal @me', () => {
    const found = router.match('GET', '/tasks/v1/users/@me/lists/a%2Fb%20c').match;
    assert.deepEqual(found?.params, { tasklist: 'a/b c' });
    assert.equal(found.auth, false);
  });

  it('tells an unknown path from a wrong method', () => {
    assert.deepEqual(router.match('PUT', '/drive/v2/files/abc'), { pathExists: true });
    assert.deepEqual(router.match('GET', '/drive/v2/nothing/here'), { pathExists: false });
  });

  it('does not match on a malformed escape', () => {
    assert.equal(router.match('GET', '/drive/v2/files/%E0%A4%A').match, undefined);
  });

  it('lets a literal segment win over a parameter across methods (changes/watch is not changes/:changeId)', () => {
    const literal = new Router();
    const getChange = () => ({ json: 'change' });
    const watch = () => ({ json: 'watch' });
    literal.add({ id: 'drive.changes.get', method: 'GET', path: '/drive/v2/changes/:changeId', handle: getChange });
    literal.add({ id: 'drive.changes.watch', method: 'POST', path: '/drive/v2/changes/watch', handle: watch });
    assert.equal(literal.match('POST', '/drive/v2/changes/watch').match?.route.handle, watch);
    assert.equal(literal.match('GET', '/drive/v2/changes/42').match?.route.handle, getChange);
    assert.deepEqual(literal.match('GET', '/drive/v2/changes/watch'), { pathExists: true });
    assert.deepEqual(literal.match('POST', '/drive/v2/changes/42'), { pathExists: true });
    // The file routes above: GET of the literal emptyTrash path is not files.get('trash').
    assert.deepEqual(router.match('GET', '/drive/v2/files/trash'), { pathExists: true });
  });
});

describe('emulator route table', () => {
  const list = { id: 'tasks.tasks.list', method: 'GET', path: '/tasks/v1/lists/:tasklist/tasks', handle: () => ({ json: 'list' }) } as const;
  const insert = { id: 'tasks.tasks.insert', method: 'POST', path: '/tasks/v1/lists/:tasklist/tasks', handle: () => ({ json: 'insert' }) } as const;

  it('says which discovery operation served a request, with auth on by default', () => {
    const router = new Router();
    router.addAll([list, insert]);
    const found = router.match('POST', '/tasks/v1/lists/l1/tasks').match;
    assert.equal(found?.route.id, 'tasks.tasks.insert');
    assert.equal(found.auth, true);
    assert.deepEqual(router.routes().map((route) => route.id).sort(), ['tasks.tasks.insert', 'tasks.tasks.list']);
  });

  it('refuses a second route on the same method and path, whatever its parameter names', () => {
    const router = new Router();
    router.add(list);
    assert.throws(() => { router.add({ ...list, id: 'tasks.tasks.other', path: '/tasks/v1/lists/:listId/tasks' }); }, /clashes with tasks\.tasks\.list/);
  });
});
