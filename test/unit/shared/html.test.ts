import * as assert from 'node:assert/strict';
import { withoutTags } from '../../../src/shared/html';
import { htmlToText } from '../../../src/features/books/tree/presentation';

describe('shared/html: dropping tags from text a service sends', () => {
  it('gives what the one-regex form gives, on any mix of tags, stray brackets and text', () => {
    const pieces = ['<', '>', '<b>', '</p>', 'a', ' ', '<br/>', '<<', '>>', 'x<y', '&amp;', '\n'];
    let seed = 7;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let sample = 0; sample < 2000; sample++) {
      const text = Array.from({ length: next() % 12 }, () => pieces[next() % pieces.length]).join('');
      assert.equal(withoutTags(text), text.replace(/<[^>]*>/g, ''), JSON.stringify(text));
    }
  });

  it('takes a description of a million stray "<" in its stride (the regex form rescanned the rest from each)', () => {
    const hostile = `${'<'.repeat(1_000_000)}the end`;
    assert.equal(withoutTags(hostile), hostile);
    assert.equal(htmlToText(`<p>Dune</p>${'<'.repeat(1_000_000)}`).length, 'Dune'.length + 2 + 1_000_000);
  });
});
