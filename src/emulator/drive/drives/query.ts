/**
 * The search language of `drives.list?q=` (Google's "Search for shared drives"): `name` (contains, =, !=), `hidden`
 * (=, !=), `memberCount` and `organizerCount` (comparisons), `createdTime` / `createdDate` (comparisons with an
 * RFC 3339 string), combined with and, or, not and parentheses. Pure: a tokenizer, a parser and an evaluator.
 */
import { invalid } from '../../core/errors';
import { QuerySyntaxError, Token, tokenize } from '../files/query';

export interface DriveQueryTarget {
  name: string;
  hidden: boolean;
  memberCount: number;
  organizerCount: number;
  createdDate: number;
}

type Op = '=' | '!=' | '<' | '<=' | '>' | '>=' | 'contains';
export type DriveQuery =
  | { kind: 'and' | 'or'; left: DriveQuery; right: DriveQuery }
  | { kind: 'not'; operand: DriveQuery }
  | { kind: 'term'; field: keyof DriveQueryTarget; op: Op; value: string | number | boolean };


const FIELDS: Record<string, { field: keyof DriveQueryTarget; ops: readonly Op[]; type: 'string' | 'boolean' | 'number' | 'date' }> = {
  name: { field: 'name', ops: ['=', '!=', 'contains'], type: 'string' },
  hidden: { field: 'hidden', ops: ['=', '!='], type: 'boolean' },
  memberCount: { field: 'memberCount', ops: ['=', '!=', '<', '<=', '>', '>='], type: 'number' },
  organizerCount: { field: 'organizerCount', ops: ['=', '!=', '<', '<=', '>', '>='], type: 'number' },
  createdTime: { field: 'createdDate', ops: ['=', '!=', '<', '<=', '>', '>='], type: 'date' },
  createdDate: { field: 'createdDate', ops: ['=', '!=', '<', '<=', '>', '>='], type: 'date' },
};

function syntax(message: string, position: number): Error {
  return invalid(`Invalid Value: ${message} at position ${position} of q`, 'q');
}

/** The same tokens as files.list's search (quoting, escapes, length limit); its syntax errors worded as drives.list's. */
function tokensOf(query: string): Token[] {
  try {
    return tokenize(query);
  } catch (error) {
    if (error instanceof QuerySyntaxError) throw syntax(error.reason, error.position);
    throw error;
  }
}

export function parseDriveQuery(query: string): DriveQuery {
  const tokens = tokensOf(query);
  let at = 0;
  const peek = (): Token => tokens[at];
  const next = (): Token => tokens[at++];
  const isWord = (text: string): boolean => peek().kind === 'word' && peek().text.toLowerCase() === text;
  const or = (): DriveQuery => {
    let left = and();
    while (isWord('or')) {
      next();
      left = { kind: 'or', left, right: and() };
    }
    return left;
  };
  const and = (): DriveQuery => {
    let left = not();
    while (isWord('and')) {
      next();
      left = { kind: 'and', left, right: not() };
    }
    return left;
  };
  const not = (): DriveQuery => {
    if (isWord('not')) {
      next();
      return { kind: 'not', operand: not() };
    }
    return primary();
  };
  const primary = (): DriveQuery => {
    const token = next();
    if (token.kind === '(') {
      const inner = or();
      if (next().kind !== ')') throw syntax("expected ')'", token.position);
      return inner;
    }
    const spec = token.kind === 'word' ? FIELDS[token.text] : undefined;
    if (!spec) throw syntax(`unknown search term '${token.text}'`, token.position);
    const opToken = next();
    const op = (opToken.kind === 'word' && opToken.text === 'contains' ? 'contains' : opToken.kind === 'op' ? opToken.text : undefined) as Op | undefined;
    if (op === undefined || !spec.ops.includes(op)) throw syntax(`operator '${opToken.text}' is not valid for ${token.text}`, opToken.position);
    const valueToken = next();
    switch (spec.type) {
      case 'string':
        if (valueToken.kind !== 'string') throw syntax(`${token.text} needs a quoted string`, valueToken.position);
        return { kind: 'term', field: spec.field, op, value: valueToken.text };
      case 'boolean':
        if (valueToken.kind !== 'word' || !['true', 'false'].includes(valueToken.text)) throw syntax(`${token.text} needs true or false`, valueToken.position);
        return { kind: 'term', field: spec.field, op, value: valueToken.text === 'true' };
      case 'number':
        if (valueToken.kind !== 'number') throw syntax(`${token.text} needs a number`, valueToken.position);
        return { kind: 'term', field: spec.field, op, value: Number(valueToken.text) };
      case 'date': {
        const time = valueToken.kind === 'string' ? Date.parse(valueToken.text) : NaN;
        if (Number.isNaN(time)) throw syntax(`${token.text} needs an RFC 3339 date-time in quotes`, valueToken.position);
        return { kind: 'term', field: spec.field, op, value: time };
      }
    }
  };
  const query_ = or();
  if (peek().kind !== 'end') throw syntax(`unexpected '${peek().text}'`, peek().position);
  return query_;
}

export function matchesDrive(query: DriveQuery, target: DriveQueryTarget): boolean {
  switch (query.kind) {
    case 'and': return matchesDrive(query.left, target) && matchesDrive(query.right, target);
    case 'or': return matchesDrive(query.left, target) || matchesDrive(query.right, target);
    case 'not': return !matchesDrive(query.operand, target);
    case 'term': {
      const actual = target[query.field];
      if (query.op === 'contains') return String(actual).toLowerCase().includes(String(query.value).toLowerCase());
      switch (query.op) {
        case '=': return actual === query.value;
        case '!=': return actual !== query.value;
        case '<': return actual < query.value;
        case '<=': return actual <= query.value;
        case '>': return actual > query.value;
        case '>=': return actual >= query.value;
      }
    }
  }
}
