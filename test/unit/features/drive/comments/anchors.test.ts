import * as assert from 'node:assert/strict';
import { excerpt, lineAnchor, MAX_QUOTE_LENGTH, parseAnchor, placeComment, quoteContext, quoteOf } from '../../../../../src/features/drive/comments/anchors';

const TEXT = '## Architecture\n\nOne vertical slice per service.\nSchemas first.\nThen the client.\n';

describe('Drive comment anchors', () => {
  it('writes a line anchor Drive stores as an opaque string and reads it back (lines counted from 1 in the JSON)', () => {
    const anchor = lineAnchor({ start: 2, end: 3 }, 6);
    assert.deepEqual(JSON.parse(anchor), { r: 'head', a: [{ line: { n: 3, l: 2, ml: 6 } }] });
    assert.deepEqual(parseAnchor(anchor), { kind: 'line', start: 2, count: 2 });
    assert.deepEqual(placeComment({ anchor }, TEXT), { start: 2, end: 3, via: 'anchor' });
  });

  it("reads Google's documented forms: several regions (the first counts), txt offsets, single quotes and trailing commas", () => {
    assert.deepEqual(parseAnchor('{"r":"head","a":[{"line":{"n":12,"l":3}},{"line":{"n":18,"l":1}}]}'), { kind: 'line', start: 11, count: 3 });
    assert.deepEqual(parseAnchor("{'r': 'REV', 'a': [{'line': {'n': 12, 'l': 3,}}]}"), { kind: 'line', start: 11, count: 3 });
    assert.deepEqual(parseAnchor('{"r":"head","a":[{"rect":{"x":1}},{"txt":{"o":17,"l":5,"ml":80}}]}'), { kind: 'txt', offset: 17, length: 5 });
    // A txt region lands on the line holding its offset: offset 17 is the start of line 2 (0-based).
    assert.deepEqual(placeComment({ anchor: '{"a":[{"txt":{"o":17,"l":5}}]}' }, TEXT), { start: 2, end: 2, via: 'anchor' });
  });

  it('treats what is not an anchor Desk can place as no anchor', () => {
    for (const anchor of [undefined, '', 'kix.abc123', '{"r":"head"}', '{"a":[{"line":{"n":0}}]}', '{"a":[{"line":{"n":"x"}}]}', '[1,2]', '{"a":[{"page":{"p":1}}]}']) {
      assert.equal(parseAnchor(anchor), undefined, String(anchor));
    }
  });

  it('an unreadable or out-of-range anchor falls back to the quoted text, else to the top of the file', () => {
    const context = { type: 'text/plain', value: 'Schemas first.' };
    assert.deepEqual(placeComment({ anchor: 'kix.abc', context }, TEXT), { start: 3, end: 3, via: 'quote' });
    assert.deepEqual(placeComment({ anchor: lineAnchor({ start: 40, end: 40 }, 41), context }, TEXT), { start: 3, end: 3, via: 'quote' });
    assert.deepEqual(placeComment({ anchor: 'kix.abc', context: { value: 'not in the file' } }, TEXT), { start: 0, end: 0, via: 'top' });
    assert.deepEqual(placeComment({}, TEXT), { start: 0, end: 0, via: 'top' });
  });

  it('follows the quoted text when lines were inserted above it since the comment was made', () => {
    const anchor = lineAnchor({ start: 3, end: 3 }, 6);
    const context = quoteContext('Schemas first.');
    const edited = `Intro\nMore intro\n${TEXT}`;
    assert.deepEqual(placeComment({ anchor, context }, edited), { start: 5, end: 5, via: 'quote' });
    // Where the anchor still holds the text, the anchor wins, even if the text also appears elsewhere.
    const twice = 'Schemas first.\nx\nx\nSchemas first.\n';
    assert.deepEqual(placeComment({ anchor: lineAnchor({ start: 3, end: 3 }, 5), context }, twice), { start: 3, end: 3, via: 'anchor' });
    // Of several places, the one nearest the anchor.
    const many = 'Schemas first.\na\nb\nc\nd\nSchemas first.\ne\n';
    assert.deepEqual(placeComment({ anchor: lineAnchor({ start: 6, end: 6 }, 8), context }, many), { start: 5, end: 5, via: 'quote' });
  });

  it('keeps the anchor when its quoted text is gone (the lines are the best guess left), clamped to the file', () => {
    const anchor = lineAnchor({ start: 3, end: 9 }, 10);
    assert.deepEqual(placeComment({ anchor, context: { value: 'deleted sentence' } }, TEXT), { start: 3, end: 5, via: 'anchor' });
  });

  it('finds multi-line quotes across CRLF line breaks, and HTML contexts as Google Docs sends them', () => {
    const crlf = TEXT.replace(/\n/g, '\r\n');
    assert.deepEqual(placeComment({ context: { value: 'Schemas first.\nThen the client.' } }, crlf), { start: 3, end: 4, via: 'quote' });
    assert.equal(quoteOf({ type: 'text/html', value: 'Fish &amp; chips<br>&lt;b&gt; &#39;x&#x27; <b>bold</b>' }), "Fish & chips\n<b> 'x' bold");
    assert.deepEqual(placeComment({ context: { type: 'text/html', value: 'One vertical slice per <i>service</i>.' } }, TEXT), { start: 2, end: 2, via: 'quote' });
    assert.equal(quoteOf({ type: 'text/plain', value: '  \n ' }), undefined);
    assert.equal(quoteOf(undefined), undefined);
  });

  it('keeps a quote short enough to store, and excerpts on one line', () => {
    assert.equal(quoteContext('x'.repeat(MAX_QUOTE_LENGTH + 50)).value.length, MAX_QUOTE_LENGTH);
    assert.equal(quoteContext('abc').type, 'text/plain');
    assert.equal(excerpt('  one\n two   three  ', 60), 'one two three');
    assert.equal(excerpt('abcdefghij', 5), 'abcd…');
  });
});
