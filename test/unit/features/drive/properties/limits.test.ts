import * as assert from 'node:assert/strict';
import { countProblem, keyProblem, MAX_PROPERTY_BYTES, sortProperties, utf8Length, valueProblem, visibilityOf } from '../../../../../src/features/drive/properties/limits';
import { english as t } from '../../../../../src/shared/l10n';

describe('Drive custom property limits', () => {
  it('counts key and value together, in UTF-8 bytes, against 124', () => {
    assert.equal(MAX_PROPERTY_BYTES, 124);
    assert.equal(valueProblem('k', 'v'.repeat(123), t), undefined);
    assert.equal(valueProblem('k', 'v'.repeat(124), t), 'Key and value are 125 bytes long together; Drive allows 124 (UTF-8).');
    assert.equal(utf8Length('é€😀'), 2 + 3 + 4);
    // 41 three-byte characters are 123 bytes: with a one-letter key, the limit exactly.
    assert.equal(valueProblem('k', '€'.repeat(41), t), undefined);
    assert.match(valueProblem('kk', '€'.repeat(41), t) ?? '', /125 bytes/);
  });

  it('wants a key without surrounding spaces that leaves room within the limit', () => {
    assert.equal(keyProblem('', t), 'Enter a key.');
    assert.equal(keyProblem(' project', t), 'A key cannot start or end with spaces.');
    assert.equal(keyProblem('project', t), undefined);
    assert.match(keyProblem('k'.repeat(125), t) ?? '', /125 bytes long/);
  });

  it('allows 30 public, 30 private and 100 in all; replacing an existing key always fits', () => {
    const publics = Array.from({ length: 30 }, (_, index) => ({ key: `p${index}`, visibility: 'PUBLIC' }));
    assert.equal(countProblem(publics, 'new', 'PUBLIC', t), 'A file may have at most 30 public properties.');
    assert.equal(countProblem(publics, 'p3', 'PUBLIC', t), undefined);
    assert.equal(countProblem(publics, 'new', 'PRIVATE', t), undefined);
    const privates = Array.from({ length: 30 }, (_, index) => ({ key: `q${index}` }));
    assert.equal(countProblem(privates, 'new', 'PRIVATE', t), 'A file may have at most 30 private properties per app.', 'no visibility means PRIVATE');
    const many = Array.from({ length: 100 }, (_, index) => ({ key: `r${index}`, visibility: index % 2 ? 'PUBLIC' : 'OTHER' }));
    assert.equal(countProblem(many, 'new', 'PUBLIC', t), 'A file may have at most 100 properties.');
  });

  it('lists by key, public first', () => {
    assert.deepEqual(sortProperties([{ key: 'b' }, { key: 'a', visibility: 'PRIVATE' }, { key: 'a', visibility: 'PUBLIC' }]).map((property) => `${property.key}:${visibilityOf(property)}`), ['a:PUBLIC', 'a:PRIVATE', 'b:PRIVATE']);
  });
});
