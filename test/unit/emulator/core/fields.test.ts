import * as assert from 'node:assert/strict';
import { discoveryMethod } from '../../../../src/emulator/discovery/documents';
import { checkFieldSelection, parseFieldSelection, selectFields } from '../../../../src/emulator/core/fields';
import { ApiError } from '../../../../src/emulator/core/errors';

const listing = {
  kind: 'drive#fileList',
  etag: '"e"',
  nextPageToken: 'next',
  items: [
    { kind: 'drive#file', id: 'a', title: 'A', mimeType: 'text/plain', parents: [{ id: 'root', isRoot: true }], labels: { starred: true, trashed: false } },
    { kind: 'drive#file', id: 'b', title: 'B', mimeType: 'text/plain', parents: [], labels: { starred: false, trashed: false } },
  ],
};

function refusal(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  assert.fail('expected a 400 invalid field selection');
}

describe("emulator's partial response (fields=)", () => {
  it('keeps the named properties of each array element and the top-level names', () => {
    const cut = selectFields(listing, parseFieldSelection('items(id,title),nextPageToken'));
    assert.deepEqual(cut, { nextPageToken: 'next', items: [{ id: 'a', title: 'A' }, { id: 'b', title: 'B' }] });
  });

  it('reads paths (items/id), nested parentheses and * like Google', () => {
    assert.deepEqual(selectFields(listing, parseFieldSelection('items/id')), { items: [{ id: 'a' }, { id: 'b' }] });
    assert.deepEqual(selectFields(listing, parseFieldSelection('items(id,parents(id),labels/starred)')), {
      items: [{ id: 'a', parents: [{ id: 'root' }], labels: { starred: true } }, { id: 'b', parents: [], labels: { starred: false } }],
    });
    assert.deepEqual(selectFields(listing, parseFieldSelection('items(*)')), { items: listing.items });
    assert.deepEqual(selectFields(listing, parseFieldSelection('*')), listing);
    assert.deepEqual(selectFields(listing, parseFieldSelection(' kind , items( id ) ')), { kind: 'drive#fileList', items: [{ id: 'a' }, { id: 'b' }] });
  });

  it('omits properties the answer does not have instead of inventing them', () => {
    assert.deepEqual(selectFields({ id: 'x' }, parseFieldSelection('id,description')), { id: 'x' });
  });

  it('refuses malformed selections with a 400 naming the fields parameter', () => {
    for (const bad of ['items(id', 'items)', 'items()', 'a,,b', '', 'items(id))', 'it*ms', 'a b']) {
      const error = refusal(() => parseFieldSelection(bad));
      assert.equal(error.code, 400, bad);
      assert.equal(error.reason, 'invalidParameter');
      assert.equal(error.detail.location, 'fields');
    }
  });

  it("refuses a name the method's response schema lacks, and accepts any key below a map", () => {
    const located = discoveryMethod('drive.files.list');
    assert.ok(located?.method.response);
    const check = (text: string): void => { checkFieldSelection(parseFieldSelection(text), located.method.response, located.document); };
    check('items(id,title,mimeType,parents/id,labels(starred,trashed)),nextPageToken');
    check('items/exportLinks/anything');
    check('*,items(*)');
    const error = refusal(() => { check('items(id,colour)'); });
    assert.equal(error.message, 'Invalid field selection items/colour');
    assert.equal(refusal(() => { check('nextToken'); }).message, 'Invalid field selection nextToken');
  });
});
