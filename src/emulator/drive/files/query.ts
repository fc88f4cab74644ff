/**
 * The Drive v2 search language of `files.list?q=` and `children.list?q=`: a tokenizer, a recursive-descent
 * parser producing a small AST, and an evaluator over a file view. Pure (no store, no HTTP), so it is unit
 * tested on its own. Malformed input throws QuerySyntaxError with the 0-based position where parsing failed.
 *
 *   query   := or
 *   or      := and ('or' and)*
 *   and     := not ('and' not)*
 *   not     := 'not' not | primary
 *   primary := '(' query ')' | 'sharedWithMe' | STRING 'in' collection | field op value
 *            | 'properties' 'has' '{' 'key' '=' STRING 'and' 'value' '=' STRING ['and' 'visibility' '=' STRING] '}'
 */

export class QuerySyntaxError extends Error {
  constructor(readonly reason: string, readonly position: number) {
    super(`Invalid query: ${reason} at position ${position}`);
    this.name = 'QuerySyntaxError';
  }
}

export type ComparisonOperator = '=' | '!=' | '<' | '<=' | '>' | '>=' | 'contains';
export type StringField = 'title' | 'fullText' | 'mimeType';
export type DateField = 'modifiedDate' | 'createdDate' | 'lastViewedByMeDate' | 'modifiedByMeDate' | 'sharedWithMeDate';
export type BooleanField = 'trashed' | 'starred' | 'hidden';
export type MembershipCollection = 'parents' | 'owners' | 'writers' | 'readers';

export type QueryNode =
  | { kind: 'and' | 'or'; left: QueryNode; right: QueryNode }
  | { kind: 'not'; operand: QueryNode }
  | { kind: 'string'; field: StringField; op: '=' | '!=' | 'contains'; value: string }
  | { kind: 'date'; field: DateField; op: Exclude<ComparisonOperator, 'contains'>; value: number }
  | { kind: 'boolean'; field: BooleanField; op: '=' | '!='; value: boolean }
  | { kind: 'in'; collection: MembershipCollection; value: string }
  | { kind: 'property'; key: string; value: string; visibility: 'PRIVATE' | 'PUBLIC' | undefined }
  | { kind: 'sharedWithMe' };

/** What the evaluator needs to know about a file. Dates are epoch ms (undefined when never set). */
export interface QueryTarget {
  title: string;
  mimeType: string;
  /** Title, description and text content, lower-cased, for fullText. */
  fullText(): string;
  dates: Partial<Record<DateField, number>>;
  trashed: boolean;
  starred: boolean;
  hidden: boolean;
  parents: readonly string[];
  ownerEmails: readonly string[];
  writerEmails: readonly string[];
  readerEmails: readonly string[];
  properties: readonly { key: string; value: string; visibility: string }[];
  sharedWithMe: boolean;
}

type TokenKind = 'string' | 'number' | 'word' | 'op' | '(' | ')' | '{' | '}' | 'end';
/** One token of Drive's search language (files.list and drives.list share it; only drives.list has numbers). */
export interface Token {
  kind: TokenKind;
  text: string;
  position: number;
}

const MAX_QUERY_LENGTH = 8192;
const MAX_DEPTH = 100;
const STRING_FIELDS: Partial<Record<string, readonly string[]>> = {
  title: ['=', '!=', 'contains'],
  fullText: ['contains'],
  mimeType: ['=', '!=', 'contains'],
};
const DATE_FIELDS: readonly string[] = ['modifiedDate', 'createdDate', 'lastViewedByMeDate', 'modifiedByMeDate', 'sharedWithMeDate'];
const BOOLEAN_FIELDS: readonly string[] = ['trashed', 'starred', 'hidden'];
const COLLECTIONS: readonly string[] = ['parents', 'owners', 'writers', 'readers'];

export function tokenize(query: string): Token[] {
  if (query.length > MAX_QUERY_LENGTH) throw new QuerySyntaxError(`the query is longer than ${MAX_QUERY_LENGTH} characters`, MAX_QUERY_LENGTH);
  const tokens: Token[] = [];
  let index = 0;
  while (index < query.length) {
    const char = query[index];
    if (/\s/.test(char)) {
      index++;
      continue;
    }
    const start = index;
    if (char === "'" || char === '"') {
      // Google quotes with single quotes; double quotes are accepted too. Backslash escapes ' " and \.
      const quote = char;
      let value = '';
      index++;
      for (;;) {
        if (index >= query.length) throw new QuerySyntaxError('unterminated string', start);
        const current = query[index];
        if (current === '\\') {
          const escaped = query.at(index + 1);
          if (escaped === undefined) throw new QuerySyntaxError('unterminated string', start);
          if (escaped !== "'" && escaped !== '"' && escaped !== '\\') throw new QuerySyntaxError(`invalid escape \\${escaped}`, index);
          value += escaped;
          index += 2;
          continue;
        }
        if (current === quote) {
          index++;
          break;
        }
        value += current;
        index++;
      }
      tokens.push({ kind: 'string', text: value, position: start });
      continue;
    }
    if (char === '(' || char === ')' || char === '{' || char === '}') {
      tokens.push({ kind: char, text: char, position: start });
      index++;
      continue;
    }
    const two = query.slice(index, index + 2);
    if (two === '!=' || two === '<=' || two === '>=') {
      tokens.push({ kind: 'op', text: two, position: start });
      index += 2;
      continue;
    }
    if (char === '=' || char === '<' || char === '>') {
      tokens.push({ kind: 'op', text: char, position: start });
      index++;
      continue;
    }
    const number = /^-?\d+/.exec(query.slice(index));
    if (number) {
      tokens.push({ kind: 'number', text: number[0], position: start });
      index += number[0].length;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(query.slice(index));
    if (word) {
      tokens.push({ kind: 'word', text: word[0], position: start });
      index += word[0].length;
      continue;
    }
    throw new QuerySyntaxError(`unexpected character '${char}'`, start);
  }
  tokens.push({ kind: 'end', text: '', position: query.length });
  return tokens;
}

export function parseQuery(query: string): QueryNode {
  if (query.trim() === '') throw new QuerySyntaxError('the query is empty', 0);
  return new Parser(tokenize(query)).parse();
}

class Parser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): QueryNode {
    const node = this.or();
    const next = this.peek();
    if (next.kind !== 'end') throw new QuerySyntaxError(`unexpected '${next.text}', expected 'and', 'or' or the end of the query`, next.position);
    return node;
  }

  private peek(): Token {
    return this.tokens[this.index];
  }

  private take(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.index++;
    return token;
  }

  private isKeyword(token: Token, keyword: string): boolean {
    return token.kind === 'word' && token.text.toLowerCase() === keyword;
  }

  private expectKeyword(keyword: string, context: string): void {
    const token = this.take();
    if (!this.isKeyword(token, keyword)) throw new QuerySyntaxError(`expected '${keyword}' ${context}, found ${describe(token)}`, token.position);
  }

  private expectString(context: string): Token {
    const token = this.take();
    if (token.kind !== 'string') throw new QuerySyntaxError(`expected a quoted string ${context}, found ${describe(token)}`, token.position);
    return token;
  }

  private expectOperator(operator: string, context: string): void {
    const token = this.take();
    if (token.kind !== 'op' || token.text !== operator) throw new QuerySyntaxError(`expected '${operator}' ${context}, found ${describe(token)}`, token.position);
  }

  private or(): QueryNode {
    let node = this.and();
    while (this.isKeyword(this.peek(), 'or')) {
      this.take();
      node = { kind: 'or', left: node, right: this.and() };
    }
    return node;
  }

  private and(): QueryNode {
    let node = this.not();
    while (this.isKeyword(this.peek(), 'and')) {
      this.take();
      node = { kind: 'and', left: node, right: this.not() };
    }
    return node;
  }

  private not(): QueryNode {
    if (this.isKeyword(this.peek(), 'not')) {
      this.take();
      return { kind: 'not', operand: this.nested(() => this.not()) };
    }
    return this.primary();
  }

  private nested(parse: () => QueryNode): QueryNode {
    if (++this.depth > MAX_DEPTH) throw new QuerySyntaxError('the query is nested too deeply', this.peek().position);
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private primary(): QueryNode {
    const token = this.take();
    if (token.kind === '(') {
      const node = this.nested(() => this.or());
      const close = this.take();
      if (close.kind !== ')') throw new QuerySyntaxError(`expected ')' to close the '(' at position ${token.position}, found ${describe(close)}`, close.position);
      return node;
    }
    if (token.kind === 'string') {
      this.expectKeyword('in', `after the string ${JSON.stringify(token.text)}`);
      const collection = this.take();
      if (collection.kind !== 'word' || !COLLECTIONS.includes(collection.text)) {
        throw new QuerySyntaxError(`expected one of ${COLLECTIONS.join(', ')} after 'in', found ${describe(collection)}`, collection.position);
      }
      return { kind: 'in', collection: collection.text as MembershipCollection, value: token.text };
    }
    if (token.kind !== 'word') throw new QuerySyntaxError(`expected a search term, found ${describe(token)}`, token.position);
    const field = token.text;
    if (field === 'sharedWithMe') return { kind: 'sharedWithMe' };
    if (field === 'properties') return this.propertyTerm();
    const operator = this.take();
    const isContains = this.isKeyword(operator, 'contains');
    if (operator.kind !== 'op' && !isContains) throw new QuerySyntaxError(`expected an operator after '${field}', found ${describe(operator)}`, operator.position);
    const op = isContains ? 'contains' : operator.text;
    const allowedStringOps = STRING_FIELDS[field];
    if (allowedStringOps) {
      if (!allowedStringOps.includes(op)) throw new QuerySyntaxError(`operator '${op}' is not supported for '${field}' (use ${allowedStringOps.join(', ')})`, operator.position);
      const value = this.expectString(`after '${field} ${op}'`);
      return { kind: 'string', field: field as StringField, op: op as '=' | '!=' | 'contains', value: value.text };
    }
    if (DATE_FIELDS.includes(field)) {
      if (op === 'contains') throw new QuerySyntaxError(`operator 'contains' is not supported for '${field}'`, operator.position);
      const value = this.expectString(`after '${field} ${op}'`);
      const time = Date.parse(value.text);
      if (!/^\d{4}-\d{2}-\d{2}/.test(value.text) || Number.isNaN(time)) throw new QuerySyntaxError(`'${value.text}' is not an RFC 3339 date-time`, value.position);
      return { kind: 'date', field: field as DateField, op: op as Exclude<ComparisonOperator, 'contains'>, value: time };
    }
    if (BOOLEAN_FIELDS.includes(field)) {
      if (op !== '=' && op !== '!=') throw new QuerySyntaxError(`operator '${op}' is not supported for '${field}' (use = or !=)`, operator.position);
      const value = this.take();
      const text = value.text.toLowerCase();
      if (value.kind !== 'word' || (text !== 'true' && text !== 'false')) throw new QuerySyntaxError(`expected true or false after '${field} ${op}', found ${describe(value)}`, value.position);
      return { kind: 'boolean', field: field as BooleanField, op, value: text === 'true' };
    }
    throw new QuerySyntaxError(`unknown search field '${field}'`, token.position);
  }

  /** `properties has { key='k' and value='v' and visibility='PRIVATE' }` */
  private propertyTerm(): QueryNode {
    this.expectKeyword('has', "after 'properties'");
    const open = this.take();
    if (open.kind !== '{') throw new QuerySyntaxError(`expected '{' after 'properties has', found ${describe(open)}`, open.position);
    const found: Partial<Record<string, string>> = {};
    for (;;) {
      const name = this.take();
      if (name.kind !== 'word' || !['key', 'value', 'visibility'].includes(name.text)) {
        throw new QuerySyntaxError(`expected key, value or visibility inside 'properties has { }', found ${describe(name)}`, name.position);
      }
      if (found[name.text] !== undefined) throw new QuerySyntaxError(`'${name.text}' is given twice`, name.position);
      this.expectOperator('=', `after '${name.text}'`);
      found[name.text] = this.expectString(`after '${name.text} ='`).text;
      const next = this.take();
      if (next.kind === '}') break;
      if (!this.isKeyword(next, 'and')) throw new QuerySyntaxError(`expected 'and' or '}', found ${describe(next)}`, next.position);
    }
    if (found.key === undefined || found.value === undefined) throw new QuerySyntaxError("'properties has { }' needs both key and value", this.peek().position);
    const visibility = found.visibility;
    if (visibility !== undefined && visibility !== 'PRIVATE' && visibility !== 'PUBLIC') throw new QuerySyntaxError(`visibility must be PRIVATE or PUBLIC, not '${visibility}'`, this.peek().position);
    return { kind: 'property', key: found.key, value: found.value, visibility };
  }
}

function describe(token: Token): string {
  if (token.kind === 'end') return 'the end of the query';
  if (token.kind === 'string') return `the string ${JSON.stringify(token.text)}`;
  return `'${token.text}'`;
}

/** Whether the title starts with the term, or any word of it does (case-insensitive). */
export function titleHasWordPrefix(title: string, term: string): boolean {
  const haystack = title.toLowerCase();
  const needle = term.toLowerCase();
  const wordCharacter = /[\p{L}\p{N}]/u;
  // A term that starts with punctuation ('.txt') starts a token of its own wherever it stands.
  if (!wordCharacter.test(needle.charAt(0))) return haystack.includes(needle);
  for (let index = haystack.indexOf(needle); index !== -1; index = haystack.indexOf(needle, index + 1)) {
    if (index === 0 || !wordCharacter.test(haystack.charAt(index - 1))) return true;
  }
  return false;
}

/** Evaluates a parsed query against one file. */
export function matches(node: QueryNode, target: QueryTarget): boolean {
  switch (node.kind) {
    case 'and': return matches(node.left, target) && matches(node.right, target);
    case 'or': return matches(node.left, target) || matches(node.right, target);
    case 'not': return !matches(node.operand, target);
    case 'string': {
      if (node.field === 'fullText') return target.fullText().includes(node.value.toLowerCase());
      const actual = node.field === 'title' ? target.title : target.mimeType;
      if (node.op === 'contains') {
        // Drive matches a title term by prefix, word by word ("HelloWorld" matches 'Hello', not 'World';
        // "Hello World" matches both); mimeType contains is a plain substring match.
        return node.field === 'title' ? titleHasWordPrefix(actual, node.value) : actual.toLowerCase().includes(node.value.toLowerCase());
      }
      return node.op === '=' ? actual === node.value : actual !== node.value;
    }
    case 'date': {
      const actual = target.dates[node.field];
      if (actual === undefined) return node.op === '!=';
      switch (node.op) {
        case '=': return actual === node.value;
        case '!=': return actual !== node.value;
        case '<': return actual < node.value;
        case '<=': return actual <= node.value;
        case '>': return actual > node.value;
        case '>=': return actual >= node.value;
      }
      return false;
    }
    case 'boolean': {
      const actual = target[node.field];
      return node.op === '=' ? actual === node.value : actual !== node.value;
    }
    case 'in': {
      switch (node.collection) {
        case 'parents': return target.parents.includes(node.value);
        case 'owners': return target.ownerEmails.includes(node.value.toLowerCase());
        case 'writers': return target.writerEmails.includes(node.value.toLowerCase());
        case 'readers': return target.readerEmails.includes(node.value.toLowerCase());
      }
      return false;
    }
    case 'property':
      return target.properties.some((property) => property.key === node.key && property.value === node.value && (node.visibility === undefined || property.visibility === node.visibility));
    case 'sharedWithMe':
      return target.sharedWithMe;
  }
}

/** Rewrites `'root' in parents` to the user's real root id, so evaluation compares plain ids. */
export function resolveAliases(node: QueryNode, rootId: string): QueryNode {
  switch (node.kind) {
    case 'and':
    case 'or':
      return { kind: node.kind, left: resolveAliases(node.left, rootId), right: resolveAliases(node.right, rootId) };
    case 'not':
      return { kind: 'not', operand: resolveAliases(node.operand, rootId) };
    case 'in':
      return node.collection === 'parents' && node.value === 'root' ? { ...node, value: rootId } : node;
    default:
      return node;
  }
}

/**
 * Index hints for the planner: terms every match must satisfy (found by walking top-level `and`s only).
 * A listing can then start from a folder's children or a title bucket instead of every file.
 */
export function requiredTerms(node: QueryNode): { parentIds: string[]; titles: string[]; trashed: boolean | undefined; sharedWithMe?: boolean } {
  const hints: { parentIds: string[]; titles: string[]; trashed: boolean | undefined; sharedWithMe?: boolean } = { parentIds: [], titles: [], trashed: undefined };
  const walk = (current: QueryNode): void => {
    if (current.kind === 'and') {
      walk(current.left);
      walk(current.right);
    } else if (current.kind === 'in' && current.collection === 'parents') {
      hints.parentIds.push(current.value);
    } else if (current.kind === 'string' && current.field === 'title' && current.op === '=') {
      hints.titles.push(current.value);
    } else if (current.kind === 'sharedWithMe') {
      hints.sharedWithMe = true;
    } else if (current.kind === 'boolean' && current.field === 'trashed') {
      hints.trashed = current.op === '=' ? current.value : !current.value;
    }
  };
  walk(node);
  return hints;
}
