import * as assert from 'node:assert/strict';
import { challengeS256, createPkcePair, createState, createVerifier } from '../../../src/auth/pkce';

describe('auth/pkce', () => {
  it('computes the S256 challenge of RFC 7636 appendix B', () => {
    assert.equal(challengeS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'), 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('creates verifiers of 43 unreserved characters, different every time', () => {
    const verifiers = new Set(Array.from({ length: 50 }, () => createVerifier()));
    assert.equal(verifiers.size, 50);
    for (const verifier of verifiers) assert.match(verifier, /^[A-Za-z0-9\-._~]{43}$/);
  });

  it('pairs a verifier with its own challenge', () => {
    const pair = createPkcePair();
    assert.equal(pair.method, 'S256');
    assert.equal(pair.challenge, challengeS256(pair.verifier));
    assert.match(pair.challenge, /^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses verifiers the RFC does not allow', () => {
    assert.throws(() => challengeS256('too-short'), /43 to 128/);
    assert.throws(() => challengeS256('a'.repeat(129)), /43 to 128/);
    assert.throws(() => challengeS256(`${'a'.repeat(42)}+`), /43 to 128/);
    assert.doesNotThrow(() => challengeS256('a'.repeat(128)));
  });

  it('creates unguessable, URL-safe states', () => {
    const first = createState();
    assert.notEqual(first, createState());
    assert.match(first, /^[A-Za-z0-9_-]{32,}$/);
  });
});
