/**
 * TODO/FIXME comments and their task markers, as plain text (no vscode): which line is a TODO comment, what
 * its text says, which task it is linked to, and the edit that links it. The marker lives in the comment
 * itself (`TODO(task:abc123): text`) so the link travels with the file through edits, moves and commits. A marker
 * written while several accounts were signed in names whose task it is after the id
 * (`TODO(task:abc123/bob@example.com)`); a marker without one is the first (or only) signed-in account's.
 */
import { english, Translate } from '../../../shared/l10n';
import { lowerBound } from '../../../shared/sorted';

/** A trigger word (`desk.todo.keywords`); the defaults are TODO and FIXME. */
export type TodoKeyword = string;

export const DEFAULT_KEYWORDS: readonly string[] = ['TODO', 'FIXME'];

/** One TODO comment found on a line; columns are 0-based UTF-16 offsets into that line. */
export interface TodoComment {
  readonly keyword: TodoKeyword;
  /** The comment's text after `TODO:` (without a closing comment marker such as `-->`), trimmed. */
  readonly text: string;
  /** The linked task's id, when the comment carries a `task:` marker. */
  readonly taskId: string | undefined;
  /** Whose task it is, when the marker names an account (`task:abc123/bob@example.com`). */
  readonly taskAccount?: string | undefined;
  /** Other things in the parentheses (`TODO(alice)`), kept when the marker is added. */
  readonly tags: readonly string[];
  /** Where the comment opener (`//`, `#`, `<!--`…) starts: what removing the comment removes from. */
  readonly commentStart: number;
  /** The opener itself, to tell a line comment from a block comment that may go on below. */
  readonly opener: string;
  /** Where the keyword starts. */
  readonly start: number;
  /** Where the keyword and its parentheses end (what `markerEdit` replaces is start..headEnd). */
  readonly headEnd: number;
  /** Where the comment's text starts and ends on the line. */
  readonly textStart: number;
  readonly textEnd: number;
}

/** A replacement within one line. */
export interface LineEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * Comment openers of the common languages, each followed by optional spaces and the keyword:
 * `//` (C family, JS/TS, Go, Rust, Java, C#, Swift, Kotlin, PHP), `#` (shell, Python, Ruby, YAML, TOML, R,
 * Perl, Dockerfile, Makefile), `--` (SQL, Lua, Haskell, Ada), `/*` and a leading `*` inside a block comment
 * (C family, CSS), `<!--` (HTML, XML, Markdown, Vue), `;` (Lisp, Clojure, INI, assembly), `%` (LaTeX, Erlang,
 * MATLAB), `(*` (OCaml, F#, Pascal) and `{-` (Haskell, Elm block comments).
 * The keyword must be the comment's first word: "// see the TODO list" is prose, not a TODO.
 */
const OPENERS = String.raw`\/\/+!?|#+|--+|\/\*+|<!--|;+|%+|\(\*+|\{-|^\s*\*+`;
/**
 * A match never starts in the middle of a run of one opener character (`#####`, `-----`, `;;;;`, `%%%%`): it would
 * fail exactly as the start one character earlier did, after scanning the rest of the run again. Without this a
 * line of 100,000 `#` took 11 s (quadratic); same matches, now linear.
 */
const NOT_INSIDE_A_RUN = String.raw`(?!(?<=#)##|(?<=-)--|(?<=;);;|(?<=%)%%)`;
/** Openers of block comments: a line holding only the start of one cannot simply be deleted. */
const BLOCK_OPENERS: ReadonlyArray<readonly [RegExp, string]> = [[/^\/\*/, '*/'], [/^<!--/, '-->'], [/^\(\*/, '*)'], [/^\{-/, '-}']];
const CLOSERS = ['*/', '-->', '*)', '-}'];
/** A task id as Google and the emulator write them (base64url-like). */
const TASK_ID = /^[A-Za-z0-9_-]{1,100}$/;
const TASK_TAG = /^task:(.*)$/;
/** The account after a task id: an e-mail address (`task:abc123/bob@example.com`). */
const TASK_ACCOUNT = /^[^\s/(),@]+@[^\s/(),@]+$/;
/** What a trigger word may look like (a word, so it can sit in a regular expression and an rg pattern as is). */
const KEYWORD = /^[A-Za-z_][A-Za-z0-9_-]{0,31}$/;

/** The usable trigger words of a setting's value (bad entries dropped; the defaults when none is left). */
export function normalizeKeywords(value: unknown): readonly string[] {
  if (!Array.isArray(value)) return DEFAULT_KEYWORDS;
  const words = [...new Set(value.filter((word): word is string => typeof word === 'string' && KEYWORD.test(word.trim())).map((word) => word.trim()))];
  return words.length > 0 ? words : DEFAULT_KEYWORDS;
}

interface Patterns {
  readonly todo: RegExp;
  readonly hint: RegExp;
  /** The same words for ripgrep (Rust regex syntax; keywords are plain words, so it is the same text). */
  readonly rg: string;
}

const patternCache = new Map<string, Patterns>();

/** The regular expressions for a set of trigger words (built once per set). */
export function patternsFor(keywords: readonly string[] = DEFAULT_KEYWORDS): Patterns {
  const key = keywords.join('|');
  let patterns = patternCache.get(key);
  if (!patterns) {
    const words = normalizeKeywords(keywords).join('|');
    patterns = {
      todo: new RegExp(String.raw`(?<pre>^|${NOT_INSIDE_A_RUN}[^:\w/])(?<opener>${OPENERS})(?<gap>[ \t]*)(?<keyword>${words})\b(?:\((?<tags>[^()]*)\))?(?::|[ \t]|$)`),
      hint: new RegExp(String.raw`\b(?:${words})\([^()]*\btask:`),
      rg: String.raw`\b(?:${words})\b`,
    };
    patternCache.set(key, patterns);
  }
  return patterns;
}

/** A quick pre-check before the full parse: most lines have no marker at all. */
export const MARKER_HINT = patternsFor(DEFAULT_KEYWORDS).hint;

/** The TODO comment on `line`, if the line has one. */
export function parseTodo(line: string, keywords: readonly string[] = DEFAULT_KEYWORDS): TodoComment | undefined {
  const found = patternsFor(keywords).todo.exec(line);
  // A group that took no part in the match is absent (TypeScript types them all as there).
  const groups = found?.groups as Partial<Record<string, string>> | undefined;
  if (!found || !groups || groups.opener === undefined || groups.keyword === undefined) return undefined;
  const keyword = groups.keyword;
  // The match may begin with the character before the opener (it rules out "http://TODO"), hence `pre`.
  const openerAt = found.index + (groups.pre ?? '').length;
  // The ` * ` opener of a block comment's inner line includes its indentation: the comment starts at the star.
  const commentStart = openerAt + (groups.opener.length - groups.opener.trimStart().length);
  const start = openerAt + groups.opener.length + (groups.gap ?? '').length;
  const headEnd = start + keyword.length + (groups.tags !== undefined ? groups.tags.length + 2 : 0);
  const tags: string[] = [];
  let taskId: string | undefined;
  let taskAccount: string | undefined;
  for (const part of (groups.tags ?? '').split(',').map((piece) => piece.trim()).filter(Boolean)) {
    const tag = TASK_TAG.exec(part);
    // `id/account`, the account optional.
    const parts: readonly (string | undefined)[] = (tag?.[1] ?? '').split('/');
    const [id = '', account, ...rest] = parts;
    if (tag && TASK_ID.test(id) && rest.length === 0 && (account === undefined || TASK_ACCOUNT.test(account))) {
      if (taskId === undefined) {
        taskId = id;
        taskAccount = account?.toLowerCase();
      }
    } else tags.push(part);
  }
  let textStart = headEnd;
  while (textStart < line.length && (line[textStart] === ':' || line[textStart] === ' ' || line[textStart] === '\t')) textStart++;
  let textEnd = line.length;
  for (const closer of CLOSERS) {
    const at = line.indexOf(closer, textStart);
    if (at >= 0 && at < textEnd) textEnd = at;
  }
  while (textEnd > textStart && /\s/.test(line[textEnd - 1] ?? '')) textEnd--;
  return { keyword, text: line.slice(textStart, textEnd), taskId, ...(taskAccount === undefined ? {} : { taskAccount }), tags, commentStart, opener: groups.opener.trim(), start, headEnd, textStart, textEnd };
}

/**
 * The edit that links `todo` to a task: `TODO: x` → `TODO(task:ID): x`, keeping other tags (`TODO(alice, task:ID)`);
 * with `account` (several signed in), `TODO(task:ID/bob@example.com): x`.
 */
export function markerEdit(todo: TodoComment, taskId: string, account?: string): LineEdit {
  if (!TASK_ID.test(taskId)) throw new Error(`not a task id: ${taskId}`);
  if (account !== undefined && !TASK_ACCOUNT.test(account)) throw new Error(`not an account: ${account}`);
  const tags = [...todo.tags, `task:${taskId}${account === undefined ? '' : `/${account}`}`].join(', ');
  return { start: todo.start, end: todo.headEnd, text: `${todo.keyword}(${tags})` };
}

/** Applies a line edit to the line's text. */
export function applyLineEdit(line: string, edit: LineEdit): string {
  return line.slice(0, edit.start) + edit.text + line.slice(edit.end);
}

/** The line rewritten to carry the marker; a line whose TODO is already linked stays as it is. */
export function linkLine(line: string, taskId: string, keywords: readonly string[] = DEFAULT_KEYWORDS, account?: string): string {
  const todo = parseTodo(line, keywords);
  if (!todo) throw new Error('the line has no TODO comment');
  if (todo.taskId) return line;
  // A missing colon after the keyword is added so the text stays readable: `# TODO fix` → `# TODO(task:x): fix`.
  const edit = markerEdit(todo, taskId, account);
  const needsColon = line[todo.headEnd] !== ':' && todo.text !== '';
  return applyLineEdit(line, needsColon ? { ...edit, end: todo.textStart, text: `${edit.text}: ` } : edit);
}

/** A linked TODO found in a document: its 0-based line, the task, and where the marker sits. */
export interface LinkedTodo {
  readonly line: number;
  readonly taskId: string;
  readonly todo: TodoComment;
}

/** Every linked TODO in `text` (for decorations); lines without a marker cost one cheap regex test. */
export function findLinkedTodos(text: string, maxLines = 20000, keywords: readonly string[] = DEFAULT_KEYWORDS): LinkedTodo[] {
  const found: LinkedTodo[] = [];
  const hint = patternsFor(keywords).hint;
  // Most files have no marker at all: one scan of the text, no split.
  if (!hint.test(text)) return found;
  const lines = text.split(/\r?\n/, maxLines);
  lines.forEach((line, index) => {
    if (!hint.test(line)) return;
    const todo = parseTodo(line, keywords);
    if (todo?.taskId) found.push({ line: index, taskId: todo.taskId, todo });
  });
  return found;
}

/** What becomes the task's title: the TODO's text, or a stand-in naming the place when the TODO says nothing. */
export function taskTitleFor(todo: TodoComment, place: string, maxLength = 1024, t: Translate = english): string {
  const text = todo.text.trim() || t('{0} at {1}', todo.keyword, place);
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

/** Every TODO comment of a text, linked or not, with its 0-based line (for open documents with unsaved changes). */
export function findTodos(text: string, keywords: readonly string[] = DEFAULT_KEYWORDS, maxLines = 100000): Array<{ readonly line: number; readonly todo: TodoComment }> {
  const found: Array<{ line: number; todo: TodoComment }> = [];
  const quick = new RegExp(patternsFor(keywords).rg);
  if (!quick.test(text)) return found;
  text.split(/\r?\n/, maxLines).forEach((line, index) => {
    if (!quick.test(line)) return;
    const todo = parseTodo(line, keywords);
    if (todo) found.push({ line: index, todo });
  });
  return found;
}

/** The head of a TODO written back with other tags: `TODO`, `TODO(alice)`. */
function head(keyword: string, tags: readonly string[]): string {
  return tags.length > 0 ? `${keyword}(${tags.join(', ')})` : keyword;
}

/** The edit that takes the task marker out and keeps the TODO: `TODO(alice, task:x): a` → `TODO(alice): a`. */
export function unlinkEdit(todo: TodoComment): LineEdit | undefined {
  if (!todo.taskId) return undefined;
  return { start: todo.start, end: todo.headEnd, text: head(todo.keyword, todo.tags) };
}

/**
 * The edit that marks a finished TODO as done and keeps it as a record: `TODO(task:x): a` → `DONE(task:x): a`.
 * DONE is no trigger word (unless someone makes it one), so the line leaves the TODO list.
 */
export function doneEdit(todo: TodoComment, word = 'DONE'): LineEdit {
  const tags = todo.taskId ? [...todo.tags, `task:${todo.taskId}`] : [...todo.tags];
  return { start: todo.start, end: todo.headEnd, text: head(word, tags) };
}

/** How a TODO comment is removed: the whole line when the comment is all there is, else a span of the line. */
export type RemovalEdit = { readonly kind: 'line' } | { readonly kind: 'span'; readonly start: number; readonly end: number };

/**
 * Removing the comment: its whole line when nothing but the comment is on it, the comment (and the spaces
 * before it) when it trails code. A block comment that goes on below (`/* TODO: x` without its closer) is not
 * removed, since that would break the comment: undefined, and the caller rewrites it instead.
 */
export function removalEdit(line: string, todo: TodoComment): RemovalEdit | undefined {
  const block = BLOCK_OPENERS.find(([pattern]) => pattern.test(todo.opener));
  let end = line.length;
  if (block) {
    const closer = line.indexOf(block[1], todo.headEnd);
    if (closer < 0) return undefined;
    end = closer + block[1].length;
  }
  const before = line.slice(0, todo.commentStart);
  const after = line.slice(end);
  if (before.trim() === '' && after.trim() === '') return { kind: 'line' };
  // Code after a closed block comment stays; the spaces around the comment collapse to those before it.
  if (after.trim() !== '') {
    let spanEnd = end;
    while (spanEnd < line.length && (line[spanEnd] === ' ' || line[spanEnd] === '\t')) spanEnd++;
    return { kind: 'span', start: todo.commentStart, end: spanEnd };
  }
  let start = todo.commentStart;
  while (start > 0 && (line[start - 1] === ' ' || line[start - 1] === '\t')) start--;
  return { kind: 'span', start, end: line.length };
}

/** The `Source:` line a task created from a TODO carries in its notes: the file (workspace-relative) it came from. */
export const SOURCE_PREFIX = 'Source: ';

/** The notes of a task created from a TODO at `place` (`src/a.ts:12`), with a link a browser or VS Code opens. */
export function sourceNotes(place: string, link: string): string {
  return `${SOURCE_PREFIX}${place}\n${link}`;
}

/** The workspace-relative path (and line, when written) in a task's `Source:` line, if it has one. */
export function sourceOf(notes: string | undefined): { readonly path: string; readonly line: number | undefined } | undefined {
  // What /^Source: (.+?)(?::(\d+))?\s*$/m gives, in two linear steps: that form rescanned the trailing spaces at
  // each character it tried (100 KB of spaces after "Source: a" took 9 s).
  const rest = /^Source: (.+)$/m.exec(notes ?? '')?.[1];
  if (rest === undefined) return undefined;
  const kept = rest.trimEnd();
  if (kept === '') return { path: rest.slice(0, 1), line: undefined };
  const found = /^(.+?)(?::(\d+))?$/.exec(kept);
  if (!found?.[1]) return undefined;
  return { path: found[1], line: found[2] ? Number(found[2]) : undefined };
}

/**
 * The notes without the `Source:` line and the link under it: what the hover over the TODO itself shows (the user is
 * at the source; a machine path such as file:///tmp/… tells them nothing).
 */
export function withoutSource(notes: string | undefined): string | undefined {
  if (notes === undefined) return undefined;
  return notes.replace(/^Source: .*(?:\r?\n[a-z][a-z0-9+.-]*:\/\/\S*)?\s*(?:\r?\n|$)/m, '').trim() || undefined;
}

/** The notes with the `Source:` line pointing at a new place (after the file was renamed or the lines moved). */
export function withSource(notes: string, place: string): string {
  return /^Source: .*$/m.test(notes) ? notes.replace(/^Source: .*$/m, `${SOURCE_PREFIX}${place}`) : `${SOURCE_PREFIX}${place}\n${notes}`;
}

/** The smallest edit that turns `before` into `after` (one line): cursors elsewhere on the line stay put. */
export function minimalEdit(before: string, after: string): LineEdit {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let tail = 0;
  while (tail < before.length - start && tail < after.length - start && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  return { start, end: before.length - tail, text: after.slice(start, after.length - tail) };
}

/**
 * The line in `lines` that still holds the TODO last seen at `line` with `text`: the same line when nothing
 * moved, else the nearest one with the same unlinked TODO (the user typed meanwhile).
 */
export function relocateTodo(lineAt: (line: number) => string, lineCount: number, line: number, matches: (todo: TodoComment) => boolean, keywords: readonly string[] = DEFAULT_KEYWORDS): number | undefined {
  for (let distance = 0; distance < lineCount; distance++) {
    for (const candidate of distance === 0 ? [line] : [line - distance, line + distance]) {
      if (candidate < 0 || candidate >= lineCount) continue;
      const found = parseTodo(lineAt(candidate), keywords);
      if (found && matches(found)) return candidate;
    }
  }
  return undefined;
}

/** Finds moved TODOs of one unchanging document: the answers of relocateTodo for many TODOs, with no more than one parse of each line. */
export interface TodoLocator {
  /** The nearest line with an unlinked TODO of this keyword and text (relocateTodo's answer for that test). */
  unlinked(line: number, todo: Pick<TodoComment, 'keyword' | 'text'>): number | undefined;
  /** The nearest line with the TODO linked to `taskId`. */
  linked(line: number, taskId: string): number | undefined;
}

/**
 * A TodoLocator over a document. A TODO still on its line costs that line's parse; the first one that moved indexes
 * the whole document once. relocateTodo parses the whole document for each TODO that is gone: 70 ms per TODO over
 * 100,000 lines, so a thousand selected TODOs after a checkout held the extension host over a minute.
 */
export function todoLocator(lineAt: (line: number) => string, lineCount: number, keywords: readonly string[] = DEFAULT_KEYWORDS): TodoLocator {
  const unlinkedKey = (todo: Pick<TodoComment, 'keyword' | 'text'>): string => `${todo.keyword}\0${todo.text}`;
  let index: { readonly unlinked: Map<string, number[]>; readonly linked: Map<string, number[]> } | undefined;
  const indexed = (): NonNullable<typeof index> => {
    if (index) return index;
    index = { unlinked: new Map(), linked: new Map() };
    for (let line = 0; line < lineCount; line++) {
      const todo = parseTodo(lineAt(line), keywords);
      if (!todo) continue;
      const [map, key] = todo.taskId ? [index.linked, todo.taskId] : [index.unlinked, unlinkedKey(todo)];
      const lines = map.get(key);
      if (lines) lines.push(line);
      else map.set(key, [line]);
    }
    return index;
  };
  const at = (line: number): TodoComment | undefined => (line >= 0 && line < lineCount ? parseTodo(lineAt(line), keywords) : undefined);
  return {
    unlinked(line, wanted) {
      const here = at(line);
      if (here && !here.taskId && here.keyword === wanted.keyword && here.text === wanted.text) return line;
      return nearest(indexed().unlinked.get(unlinkedKey(wanted)), line, lineCount);
    },
    linked(line, taskId) {
      if (at(line)?.taskId === taskId) return line;
      return nearest(indexed().linked.get(taskId), line, lineCount);
    },
  };
}

/** The line of the ascending `lines` nearest to `line`, the earlier on a tie, within relocateTodo's reach (under `lineCount` away). */
function nearest(lines: readonly number[] | undefined, line: number, lineCount: number): number | undefined {
  if (!lines) return undefined;
  const low = lowerBound(lines, (candidate) => candidate < line);
  // Either may be past an end of `lines`.
  const around: readonly (number | undefined)[] = lines;
  const after = around[low];
  const before = around[low - 1];
  const best = before !== undefined && (after === undefined || line - before <= after - line) ? before : after;
  return best !== undefined && Math.abs(best - line) < lineCount ? best : undefined;
}
