import * as assert from 'node:assert/strict';
import { CommentsApi, CommentStore } from '../../../../../src/features/drive/comments/store';
import type { CommentList, DriveComment } from '../../../../../src/shared/schemas/drive/comments';

/** A comments.list that pages `comments` two at a time and counts its calls. */
function fakeApi(comments: DriveComment[]): CommentsApi & { calls: number } {
  const api = {
    calls: 0,
    async listComments(_fileId: string, options: { pageToken?: string } = {}): Promise<CommentList> {
      api.calls++;
      const start = Number(options.pageToken ?? 0);
      const items = comments.slice(start, start + 2);
      return { items, ...(start + 2 < comments.length ? { nextPageToken: String(start + 2) } : {}) };
    },
  };
  return api as unknown as CommentsApi & { calls: number };
}

const comment = (commentId: string, extra: Partial<DriveComment> = {}): DriveComment => ({ commentId, content: commentId, status: 'open', replies: [], ...extra });

describe('Drive comment store', () => {
  it('a list asked for before Desk changed a comment does not undo the change: Drive is asked again', async () => {
    // Drive's side: the comment is resolved, then reopened by Desk while a reload (the change feed's) is on its way.
    let onDrive: DriveComment[] = [comment('a', { status: 'resolved' })];
    const answers: Array<() => void> = [];
    let calls = 0;
    const api = {
      async listComments(): Promise<CommentList> {
        calls++;
        const items = onDrive;
        await new Promise<void>((resolve) => answers.push(resolve));
        return { items };
      },
    } as unknown as CommentsApi;
    const store = new CommentStore(() => api);
    const first = store.load('f', 0);
    answers.shift()?.();
    await first;
    const heard: string[] = [];
    store.onDidChange(() => heard.push(store.find('f', 'a')?.status ?? '-'));
    const reload = store.load('f', 0); // holds the resolved comment
    await new Promise((resolve) => setImmediate(resolve));
    onDrive = [comment('a', { status: 'open' })];
    store.addReply('f', 'a', { replyId: 'r1', verb: 'reopen' });
    answers.shift()?.();
    await reload;
    assert.equal(store.find('f', 'a')?.status, 'open', 'the older list undid the reopen');
    while (calls < 3) await new Promise((resolve) => setImmediate(resolve));
    answers.shift()?.();
    while (store.find('f', 'a')?.replies?.length !== 0) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(store.find('f', 'a')?.status, 'open');
    assert.deepEqual(heard, ['open', 'open'], 'never shown resolved again');
  });

  it('loads every page, leaves out deleted comments, and reuses the list while it is fresh', async () => {
    let now = 1000;
    const api = fakeApi([comment('a'), comment('b', { deleted: true }), comment('c'), comment('d')]);
    const store = new CommentStore(() => api, () => now);
    assert.deepEqual((await store.load('f')).map((entry) => entry.commentId), ['a', 'c', 'd']);
    assert.equal(api.calls, 2);
    await store.load('f');
    assert.equal(api.calls, 2, 'a fresh copy is reused');
    now += 60_000;
    await store.load('f');
    assert.equal(api.calls, 4, 'a stale copy is reloaded');
    await store.load('f', 0);
    assert.equal(api.calls, 6, 'maxAge 0 always asks Drive');
  });

  it('tells listeners about changes, and about reloads only when they bring something new', async () => {
    const comments = [comment('a')];
    const store = new CommentStore(() => fakeApi(comments));
    const heard: string[] = [];
    store.onDidChange((fileId) => heard.push(fileId));
    await store.load('f');
    await store.load('f', 0);
    assert.deepEqual(heard, [], 'the first load and an unchanged reload are news to nobody');
    comments.push(comment('b'));
    await store.load('f', 0);
    assert.deepEqual(heard, ['f']);
  });

  it('a resolve or reopen reply sets the status; edits and deletes replace or drop the reply; deleting drops the comment', async () => {
    const store = new CommentStore(() => fakeApi([comment('a'), comment('b')]));
    await store.load('f');
    store.addReply('f', 'a', { replyId: 'r1', content: 'done', verb: 'resolve' });
    assert.equal(store.find('f', 'a')?.status, 'resolved');
    assert.deepEqual(store.find('f', 'a')?.replies?.map((reply) => reply.replyId), ['r1']);
    store.addReply('f', 'a', { replyId: 'r2', verb: 'reopen' });
    assert.equal(store.find('f', 'a')?.status, 'open');
    store.replaceReply('f', 'a', 'r1', { replyId: 'r1', content: 'really done' });
    assert.equal(store.find('f', 'a')?.replies?.[0]?.content, 'really done');
    store.replaceReply('f', 'a', 'r1', undefined);
    assert.deepEqual(store.find('f', 'a')?.replies?.map((reply) => reply.replyId), ['r2']);
    store.upsert('f', comment('c'));
    store.remove('f', 'b');
    assert.deepEqual(store.cached('f')?.map((entry) => entry.commentId), ['a', 'c']);
  });

  it('a load that was under way when the user signed out does not fill the cache afterwards', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const api = fakeApi([comment('a')]);
    const slow = { ...api, listComments: async (...args: Parameters<CommentsApi['listComments']>) => { await gate; return api.listComments(...args); } } as CommentsApi;
    const store = new CommentStore(() => slow);
    const loading = store.load('f');
    store.reset();
    release();
    await loading;
    assert.equal(store.cached('f'), undefined);
  });
});
