// Names quoted in messages: a 2000-character title must not fill the notification and push out what it says.
import * as assert from 'node:assert/strict';
import { MESSAGE_NAME_LENGTH, nameInMessage } from '../../../../src/core/text/names';

describe('names in messages', () => {
  it('quotes a short name whole and cuts a long one to its first characters and "…"', () => {
    assert.equal(nameInMessage('Team offsite'), 'Team offsite');
    assert.equal(nameInMessage('x'.repeat(MESSAGE_NAME_LENGTH)), 'x'.repeat(MESSAGE_NAME_LENGTH));
    const cut = nameInMessage('Quarterly planning '.repeat(100));
    assert.equal(Array.from(cut).length <= MESSAGE_NAME_LENGTH, true, cut);
    assert.match(cut, /^Quarterly planning Quarterly planning .*\S…$/);
  });

  it('never splits a character made of two code units (an emoji)', () => {
    const cut = nameInMessage(`${'a'.repeat(58)}🎉🎉🎉`);
    assert.equal(cut, `${'a'.repeat(58)}🎉…`);
    assert.doesNotMatch(cut, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/, 'no lone surrogate');
  });
});
