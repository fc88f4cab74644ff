/** ETags and the conditional headers built on them (If-Match → 412, If-None-Match → 304), for every service. */
import { randomBytes } from 'node:crypto';
import { conditionNotMet } from './errors';

/** A fresh strong etag, quoted as Google sends it. */
export function newEtag(): string {
  return `"${randomBytes(12).toString('base64url')}"`;
}

/** One etag for a collection: FNV-1a over the member etags, so it changes whenever a member changes, arrives or leaves. */
export function combinedEtag(parts: readonly string[]): string {
  let hash = 0x811c9dc5;
  for (const part of parts) {
    for (let index = 0; index < part.length; index++) {
      hash ^= part.charCodeAt(index);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    hash ^= 0x2c;
  }
  return `"${hash.toString(16).padStart(8, '0')}-${parts.length}"`;
}

function listedTags(header: string): string[] {
  return header.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
}

/** Throws Google's 412 when an If-Match header is given and names neither `*` nor the current etag. */
export function checkIfMatch(current: string, ifMatch: string | undefined, what = 'the resource'): void {
  if (ifMatch === undefined || ifMatch.trim() === '*') return;
  if (!listedTags(ifMatch).includes(current)) throw conditionNotMet(`Precondition Failed: ${what} has changed since the etag in If-Match`);
}

/** Whether an If-None-Match header matches the current etag, i.e. the client's copy is fresh (answer 304). */
export function ifNoneMatchHits(current: string, ifNoneMatch: string | undefined): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.trim() === '*' || listedTags(ifNoneMatch).includes(current);
}
