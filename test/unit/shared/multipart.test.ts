import * as assert from 'node:assert/strict';
import { readMultipartParts } from '../../../src/shared/multipart';

const BOUNDARY = 'part_boundary';

/** A multipart body of `contents`, each part with a Content-Type header, its lines ending in `eol`. */
function bodyOf(contents: readonly Buffer[], eol: string): Buffer {
  const pieces: Buffer[] = [];
  for (const content of contents) pieces.push(Buffer.from(`--${BOUNDARY}${eol}Content-Type: application/octet-stream${eol}${eol}`, 'latin1'), content, Buffer.from(eol, 'latin1'));
  pieces.push(Buffer.from(`--${BOUNDARY}--${eol}`, 'latin1'));
  return Buffer.concat(pieces);
}

describe('the multipart reader (batch bodies and uploads)', () => {
  // Contents with CR and LF bytes of their own, and one part larger than the reader's first look at the body.
  const contents = [Buffer.from('first\r\nline\nend'), Buffer.from(Array.from({ length: 20_000 }, (_unused, index) => index % 251)), Buffer.alloc(0)];

  for (const [label, eol] of [['CRLF', '\r\n'], ['bare LF (Python\'s email package)', '\n']] as const) {
    it(`reads every part of a body with ${label} line ends, its content byte for byte, however large the one chunk it arrives in`, async () => {
      const parts = await readMultipartParts(bodyOf(contents, eol), BOUNDARY);
      assert.equal(parts.length, contents.length);
      parts.forEach((part, index) => {
        assert.equal(part.headers['content-type'], 'application/octet-stream');
        assert.ok(part.body.equals(contents[index]), `part ${index}`);
      });
    });
  }

  it('refuses a body whose closing delimiter is missing', async () => {
    const cut = bodyOf(contents, '\r\n').subarray(0, -`--${BOUNDARY}--\r\n`.length - 10);
    await assert.rejects(readMultipartParts(cut, BOUNDARY));
  });
});
