import * as assert from 'node:assert/strict';
import { matches, parseQuery, QuerySyntaxError, QueryTarget, requiredTerms, resolveAliases, titleHasWordPrefix, tokenize } from '../../../../src/emulator/drive/files/query';

function target(overrides: Partial<QueryTarget> = {}): QueryTarget {
  return {
    title: "Alice's plan.txt",
    mimeType: 'text/plain',
    fullText: () => "Alice's plan.txt\nthe quarterly budget",
    dates: { modifiedDate: Date.parse('2026-05-01T10:00:00Z'), createdDate: Date.parse('2026-01-01T00:00:00Z') },
    trashed: false,
    starred: true,
    hidden: false,
    parents: ['folder1', 'root-id'],
    ownerEmails: ['alice@example.com'],
    writerEmails: ['alice@example.com'],
    readerEmails: ['alice@example.com'],
    properties: [{ key: 'project', value: 'desk', visibility: 'PRIVATE' }],
    sharedWithMe: false,
    ...overrides,
  };
}

const check = (query: string, file: QueryTarget = target()): boolean => matches(parseQuery(query), file);

function syntaxError(query: string): QuerySyntaxError {
  try {
    parseQuery(query);
  } catch (error) {
    if (error instanceof QuerySyntaxError) return error;
    throw error;
  }
  assert.fail(`expected a syntax error for ${query}`);
}

describe('Drive query language', () => {
  describe('tokenizer', () => {
    it('reads quoted strings with \\\' and \\\\ escapes', () => {
      const tokens = tokenize("title = 'it\\'s a \\\\ path'");
      assert.equal(tokens[2]?.kind, 'string');
      assert.equal(tokens[2]?.text, "it's a \\ path");
    });

    it('reports an unterminated string at its opening quote', () => {
      assert.equal(syntaxError("title = 'open").position, 8);
    });

    it('rejects unknown escapes and characters with their position', () => {
      assert.equal(syntaxError("title = 'a\\nb'").position, 10);
      assert.equal(syntaxError('title = #').position, 8);
    });
  });

  describe('terms', () => {
    it('matches title and mimeType with =, != and contains (case-insensitive contains)', () => {
      assert.equal(check("title = 'Alice\\'s plan.txt'"), true);
      assert.equal(check("title = 'alice\\'s plan.txt'"), false);
      assert.equal(check("title != 'other'"), true);
      assert.equal(check("title contains 'PLAN'"), true);
      assert.equal(check("mimeType = 'text/plain'"), true);
      assert.equal(check("mimeType contains 'image/'"), false);
      assert.equal(check("fullText contains 'budget'"), true);
    });

    it('matches title contains by word prefix, as Drive does', () => {
      assert.equal(titleHasWordPrefix('HelloWorld', 'hello'), true);
      assert.equal(titleHasWordPrefix('HelloWorld', 'World'), false);
      assert.equal(titleHasWordPrefix('Hello World', 'wor'), true);
      assert.equal(titleHasWordPrefix('budget-2026.xlsx', '2026'), true);
      assert.equal(titleHasWordPrefix('report.txt', '.txt'), true);
      assert.equal(titleHasWordPrefix('report.txt', 'port'), false);
      assert.equal(titleHasWordPrefix('Übersicht', 'über'), true);
    });

    it('compares dates with every operator', () => {
      assert.equal(check("modifiedDate > '2026-04-30T00:00:00Z'"), true);
      assert.equal(check("modifiedDate >= '2026-05-01T10:00:00Z'"), true);
      assert.equal(check("modifiedDate < '2026-05-01T10:00:00Z'"), false);
      assert.equal(check("modifiedDate <= '2026-05-01T10:00:00Z'"), true);
      assert.equal(check("createdDate = '2026-01-01T00:00:00Z'"), true);
      assert.equal(check("createdDate != '2026-01-01T00:00:00Z'"), false);
      // Never viewed: no date satisfies a comparison.
      assert.equal(check("lastViewedByMeDate > '2000-01-01T00:00:00Z'"), false);
    });

    it('matches booleans, membership, properties and sharedWithMe', () => {
      assert.equal(check('starred = true'), true);
      assert.equal(check('trashed = true'), false);
      assert.equal(check('trashed != true'), true);
      assert.equal(check('hidden = FALSE'), true);
      assert.equal(check("'folder1' in parents"), true);
      assert.equal(check("'elsewhere' in parents"), false);
      assert.equal(check("'ALICE@example.com' in owners"), true);
      assert.equal(check("'bob@example.com' in writers"), false);
      assert.equal(check("properties has { key='project' and value='desk' }"), true);
      assert.equal(check("properties has { key='project' and value='desk' and visibility='PUBLIC' }"), false);
      assert.equal(check("properties has { value='desk' and key='project' and visibility='PRIVATE' }"), true);
      assert.equal(check('sharedWithMe'), false);
      assert.equal(check('sharedWithMe', target({ sharedWithMe: true })), true);
    });
  });

  describe('combinations', () => {
    it('binds not tighter than and, and tighter than or, with parentheses overriding', () => {
      assert.equal(check("title = 'x' or starred = true and trashed = false"), true);
      assert.equal(check("(title = 'x' or starred = true) and trashed = true"), false);
      assert.equal(check('not starred = true or trashed = false'), true);
      assert.equal(check('not (starred = true or trashed = false)'), false);
      assert.equal(check('not not starred = true'), true);
      assert.equal(check("title contains 'plan' AND starred = true"), true);
    });
  });

  describe('errors', () => {
    const cases: [string, number, RegExp][] = [
      ['', 0, /empty/],
      ['title', 5, /operator/],
      ["title ~ 'x'", 6, /unexpected character/],
      ["title < 'x'", 6, /not supported for 'title'/],
      ["fullText = 'x'", 9, /not supported/],
      ['starred = yes', 10, /true or false/],
      ["title = 'a' title = 'b'", 12, /expected 'and', 'or'/],
      ["(title = 'a'", 12, /expected '\)'/],
      ["title = 'a' and", 15, /search term/],
      ["'x' in", 6, /one of parents/],
      ["'x' parents", 4, /expected 'in'/],
      ["modifiedDate > '2026-13-45'", 15, /RFC 3339/],
      ["properties has { key='a' }", 26, /both key and value/],
      ["properties has { key='a' and colour='b' }", 29, /key, value or visibility/],
      ["size = '3'", 0, /unknown search field 'size'/],
    ];
    for (const [query, position, message] of cases) {
      it(`reports "${query}" at position ${position}`, () => {
        const error = syntaxError(query);
        assert.equal(error.position, position, error.message);
        assert.match(error.message, message);
        assert.match(error.message, new RegExp(`at position ${position}$`));
      });
    }

    it('refuses absurd nesting instead of overflowing the stack', () => {
      const deep = `${'('.repeat(3000)}starred = true${')'.repeat(3000)}`;
      assert.match(syntaxError(deep).message, /nested too deeply/);
    });
  });

  describe('planning helpers', () => {
    it("rewrites 'root' in parents to the user's root id", () => {
      const node = resolveAliases(parseQuery("'root' in parents and not 'root' in parents"), 'root-id');
      assert.equal(matches(node, target()), false);
      assert.equal(matches(resolveAliases(parseQuery("'root' in parents"), 'root-id'), target()), true);
    });

    it('finds terms every match must satisfy, only through and', () => {
      assert.deepEqual(requiredTerms(parseQuery("'f' in parents and title = 'a' and trashed = false")), { parentIds: ['f'], titles: ['a'], trashed: false });
      assert.deepEqual(requiredTerms(parseQuery("'f' in parents or title = 'a'")), { parentIds: [], titles: [], trashed: undefined });
      assert.deepEqual(requiredTerms(parseQuery("not 'f' in parents")), { parentIds: [], titles: [], trashed: undefined });
    });
  });
});
