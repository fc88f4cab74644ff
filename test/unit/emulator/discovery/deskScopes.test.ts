/**
 * Desk's own scope requests against Google's discovery documents: every operation Desk's API layer calls (each
 * request names its discovery method in `operation`) is allowed by a scope Desk asks for before making it.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DESK_SCOPES, SCOPES } from '../../../../src/config/scopes';
import { scopesFor } from '../../../../src/emulator/core/scopes';
import { discoveryMethod } from '../../../../src/emulator/discovery/documents';

// out/test/unit/emulator/discovery → the repository root.
const API_DIR = path.resolve(__dirname, '../../../../../src/api');

/** Operation names that are not discovery ids as written: Tasks drops its API name; a revision's export is a download of the revision. */
function discoveryIdOf(operation: string): { id: string; media: boolean } {
  const media = /\(media/.test(operation);
  let id = operation.replace(/\s*\(.*\)$/, '');
  if (/^(tasklists|tasks)\./.test(id)) id = `tasks.${id}`;
  if (id === 'drive.revisions.export') return { id: 'drive.revisions.get', media: true };
  return { id, media };
}

/** The scopes Desk holds when it makes a call of this API: sign-in's, plus the directory or labels scope asked for on first use. */
function scopesDeskAsksFor(id: string): readonly string[] {
  if (/^(directory|admin)\./.test(id)) return [...DESK_SCOPES, ...SCOPES.directory];
  if (id.startsWith('drivelabels.')) return [...DESK_SCOPES, ...SCOPES.driveLabels];
  return DESK_SCOPES;
}

function operationsCalled(): Set<string> {
  const operations = new Set<string>();
  for (const name of fs.readdirSync(API_DIR, { recursive: true, encoding: 'utf8' })) {
    if (!name.endsWith('.ts')) continue;
    const text = fs.readFileSync(path.join(API_DIR, name), 'utf8');
    for (const found of text.matchAll(/operation: (?:request\.fileId \? )?'([^']+)'(?: : '([^']+)')?/g)) {
      operations.add(found[1]);
      if (found[2]) operations.add(found[2]);
    }
  }
  return operations;
}

describe('Desk\'s scope requests cover every operation it calls', () => {
  it('finds the operations of the API layer', () => {
    const operations = operationsCalled();
    assert.ok(operations.size > 100, `${operations.size} operations`);
    for (const operation of operations) {
      const { id } = discoveryIdOf(operation);
      assert.ok(discoveryMethod(id) || id.startsWith('drivelabels.'), `${operation} names a discovery method`);
    }
  });

  it('asks for a scope the discovery document lists for each', () => {
    const uncovered: string[] = [];
    for (const operation of operationsCalled()) {
      const { id, media } = discoveryIdOf(operation);
      const method = discoveryMethod(id)?.method.httpMethod ?? 'GET';
      const needed = scopesFor(id, method, new URLSearchParams(media ? { alt: 'media' } : {})) ?? [];
      const held = scopesDeskAsksFor(id);
      if (!needed.some((scope) => held.includes(scope))) uncovered.push(`${operation} needs one of ${needed.join(' ')}`);
    }
    assert.deepEqual(uncovered, []);
  });
});
