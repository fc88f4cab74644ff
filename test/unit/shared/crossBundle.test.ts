import * as assert from 'node:assert/strict';

type ErrorsModule = typeof import('../../../src/api/errors');
type ProviderErrors = Pick<typeof import('../../../src/auth/provider'), 'NotSignedInError' | 'SessionExpiredError'>;

/** A second copy of a module, as a separately bundled feature would carry it. */
function freshCopy(relative: string): unknown {
  const resolved = require.resolve(relative);
  const saved = require.cache[resolved];
  Reflect.deleteProperty(require.cache, resolved);
  try {
    return require(resolved);
  } finally {
    if (saved) require.cache[resolved] = saved;
  }
}

describe('errors across bundles', () => {
  it('answers instanceof for an error made by another copy of its class, and only for its own kind', () => {
    const mine = require('../../../src/api/errors') as ErrorsModule;
    const theirs = freshCopy('../../../src/api/errors') as ErrorsModule;
    assert.notEqual(mine.CancelledError, theirs.CancelledError, 'two copies of the module');
    const cancelled = new theirs.CancelledError();
    assert.ok(cancelled instanceof mine.CancelledError);
    assert.ok(cancelled instanceof Error);
    assert.equal(cancelled instanceof mine.GoogleApiError, false);
    const notFound = new theirs.GoogleApiError(404, 'gone', 'notFound', [], undefined);
    assert.ok(notFound instanceof mine.GoogleApiError);
    assert.equal(notFound instanceof mine.NetworkError, false);
    assert.equal({ name: 'GoogleApiError' } instanceof mine.GoogleApiError, false, 'a look-alike object is not one');
  });

  it('keeps subclasses apart: a SessionExpiredError is a NotSignedInError, not the other way round', () => {
    const mine = require('../../../src/auth/provider') as ProviderErrors;
    const theirs = freshCopy('../../../src/auth/provider') as ProviderErrors;
    const expired = new theirs.SessionExpiredError('alice@example.com');
    assert.ok(expired instanceof mine.NotSignedInError);
    assert.ok(expired instanceof mine.SessionExpiredError);
    assert.equal(new theirs.NotSignedInError() instanceof mine.SessionExpiredError, false);
  });
});
