// What a Drive file is, as its hover and details page say it: words a reader knows, not the MIME type.
import * as assert from 'node:assert/strict';
import { kindLabel } from '../../../../../src/features/drive/tree/presentation';

describe('Drive file kinds in words', () => {
  it('names common types in words and keeps an unknown type as it is', () => {
    assert.equal(kindLabel('text/plain'), 'Plain text');
    assert.equal(kindLabel('text/markdown'), 'Markdown');
    assert.equal(kindLabel('image/png'), 'PNG image');
    assert.equal(kindLabel('image/svg+xml'), 'SVG image');
    assert.equal(kindLabel('application/pdf'), 'PDF document');
    assert.equal(kindLabel('application/vnd.google-apps.folder'), 'Folder');
    assert.equal(kindLabel('application/vnd.google-apps.document'), 'Google Doc');
    assert.equal(kindLabel(undefined), 'File');
    assert.equal(kindLabel('application/x-custom'), 'application/x-custom');
  });
});
