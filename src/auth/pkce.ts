import { createHash, randomBytes } from 'node:crypto';

/**
 * Proof Key for Code Exchange (RFC 7636) with the S256 method, and the `state` value that ties a
 * browser callback to the sign-in that started it. No vscode import: unit-tested against the RFC's vectors.
 */
export interface PkcePair {
  readonly verifier: string;
  readonly challenge: string;
  readonly method: 'S256';
}

const VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;

/** 32 random bytes as base64url: a 43-character verifier, the RFC's recommended strength. */
export function createVerifier(): string {
  return randomBytes(32).toString('base64url');
}

/** BASE64URL(SHA256(ASCII(verifier))), RFC 7636 §4.2. */
export function challengeS256(verifier: string): string {
  if (!VERIFIER_PATTERN.test(verifier)) {
    throw new Error('A PKCE code verifier must be 43 to 128 characters of [A-Z a-z 0-9 - . _ ~]');
  }
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function createPkcePair(): PkcePair {
  const verifier = createVerifier();
  return { verifier, challenge: challengeS256(verifier), method: 'S256' };
}

/** An unguessable value the browser must bring back, so a forged callback cannot complete our sign-in. */
export function createState(): string {
  return randomBytes(24).toString('base64url');
}
