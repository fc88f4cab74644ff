/**
 * TODO/FIXME comments and their task markers, as plain text (no vscode): which line is a TODO comment, what
 * its text says, which task it is linked to, and the edit that links it. The marker lives in the comment
 * itself (`TODO(task:abc123): text`) so the link travels with the file through edits, moves and commits.
 */

export type TodoKeyword = 'TODO' | 'FIXME';

/** One TODO comment found on a line; columns are 0-based UTF-16 offsets into that line. */
export interface TodoComment {
  readonly keyword: TodoKeyword;
  /** The comment's text after `TODO:` (without a closing comment marker such as `-->`), trimmed. */
  readonly text: string;
  /** The linked task's id, when the comment carries a `task:` marker. */
  readonly taskId: string | undefined;
  /** Other things in the parentheses (`TODO(alice)`), kept when the marker is added. */
  readonly tags: readonly string[];
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
 * `//` (C family, JS/TS, Go, Rust), `#` (shell, Python, Ruby, YAML), `--` (SQL, Lua, Haskell), `/*` and a
 * leading `*` inside a block comment, `<!--` (HTML, XML, Markdown), `;` (Lisp, INI) and `%` (LaTeX, Erlang).
 * The keyword must be the comment's first word: "// see the TODO list" is prose, not a TODO.
 */
const TODO_PATTERN = /(?<lead>(?:^|[^:\w/])(?:\/\/+!?|#+|--+|\/\*+|<!--|;+|%+|^\s*\*+)[ \t]*)(?<keyword>TODO|FIXME)\b(?:\((?<tags>[^()]*)\))?(?::|[ \t]|$)/;
/** A task id as Google and the emulator write them (base64url-like). */
const TASK_ID = /^[A-Za-z0-9_-]{1,100}$/;
const TASK_TAG = /^task:(.*)$/;
/** A quick pre-check before the full parse: most lines have no marker at all. */
export const MARKER_HINT = /\b(?:TODO|FIXME)\([^()]*\btask:/;

/** The TODO comment on `line`, if the line has one. */
export function parseTodo(line: string): TodoComment | undefined {
  const found = TODO_PATTERN.exec(line);
  const groups = found?.groups;
  if (!found || !groups || groups.lead === undefined || groups.keyword === undefined) return undefined;
  const keyword = groups.keyword as TodoKeyword;
  // The match may begin with the character before the opener (it rules out "http://TODO"), hence `lead`.
  const start = found.index + groups.lead.length;
  const headEnd = start + keyword.length + (groups.tags !== undefined ? groups.tags.length + 2 : 0);
  const tags: string[] = [];
  let taskId: string | undefined;
  for (const part of (groups.tags ?? '').split(',').map((piece) => piece.trim()).filter(Boolean)) {
    const tag = TASK_TAG.exec(part);
    if (tag && TASK_ID.test(tag[1] ?? '')) taskId ??= tag[1];
    else tags.push(part);
  }
  let textStart = headEnd;
  while (textStart < line.length && (line[textStart] === ':' || line[textStart] === ' ' || line[textStart] === '\t')) textStart++;
  let textEnd = line.length;
  for (const closer of ['*/', '-->']) {
    const at = line.indexOf(closer, textStart);
    if (at >= 0 && at < textEnd) textEnd = at;
  }
  while (textEnd > textStart && /\s/.test(line[textEnd - 1] ?? '')) textEnd--;
  return { keyword, text: line.slice(textStart, textEnd), taskId, tags, start, headEnd, textStart, textEnd };
}

/** The edit that links `todo` to a task: `TODO: x` → `TODO(task:ID): x`, keeping other tags (`TODO(alice, task:ID)`). */
export function markerEdit(todo: TodoComment, taskId: string): LineEdit {
  if (!TASK_ID.test(taskId)) throw new Error(`not a task id: ${taskId}`);
  const tags = [...todo.tags, `task:${taskId}`].join(', ');
  return { start: todo.start, end: todo.headEnd, text: `${todo.keyword}(${tags})` };
}

/** Applies a line edit to the line's text. */
export function applyLineEdit(line: string, edit: LineEdit): string {
  return line.slice(0, edit.start) + edit.text + line.slice(edit.end);
}

/** The line rewritten to carry the marker; a line whose TODO is already linked stays as it is. */
export function linkLine(line: string, taskId: string): string {
  const todo = parseTodo(line);
  if (!todo) throw new Error('the line has no TODO comment');
  if (todo.taskId) return line;
  // A missing colon after the keyword is added so the text stays readable: `# TODO fix` → `# TODO(task:x): fix`.
  const edit = markerEdit(todo, taskId);
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
export function findLinkedTodos(text: string, maxLines = 20000): LinkedTodo[] {
  const found: LinkedTodo[] = [];
  // Most files have no marker at all: one scan of the text, no split.
  if (!MARKER_HINT.test(text)) return found;
  const lines = text.split(/\r?\n/, maxLines);
  lines.forEach((line, index) => {
    if (!MARKER_HINT.test(line)) return;
    const todo = parseTodo(line);
    if (todo?.taskId) found.push({ line: index, taskId: todo.taskId, todo });
  });
  return found;
}

/** What becomes the task's title: the TODO's text, or a stand-in naming the place when the TODO says nothing. */
export function taskTitleFor(todo: TodoComment, place: string, maxLength = 1024): string {
  const text = todo.text.trim() || `${todo.keyword} at ${place}`;
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}
