/**
 * Finds the TODO comments of a workspace folder with ripgrep, without vscode: VS Code's own bundled `rg` (its
 * path and a process runner are passed in, so tests run the real rg or a fake), the user's exclusions as
 * `--glob '!…'`, .gitignore respected (also outside a git repository, as VS Code's search does). A full scan
 * is one rg run plus one `rg --files` (which files are searched at all); an update after a change runs rg on
 * the changed files only. Never downloads anything.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { DEFAULT_KEYWORDS, parseTodo, patternsFor, TodoComment } from './todoParser';
import { appendAll } from '../../../shared/arrays';

/** Runs rg with `args` in `cwd`: its stdout and exit code (rg answers 1 for "no match", 2 for errors). */
export type RgRunner = (rgPath: string, args: readonly string[], cwd: string) => Promise<{ readonly stdout: string; readonly code: number }>;

/** One TODO comment found on disk: workspace-relative path (forward slashes), 0-based line, the parsed comment. */
export interface FoundTodo {
  readonly file: string;
  readonly line: number;
  readonly todo: TodoComment;
}

/**
 * Where a VS Code build keeps ripgrep under `appRoot` (vscode.env.appRoot): the current layout, the one from
 * when node_modules was an asar archive, and the package's old name. First existing wins.
 */
export function ripgrepCandidates(appRoot: string, platform: NodeJS.Platform = process.platform): string[] {
  const binary = platform === 'win32' ? 'rg.exe' : 'rg';
  const roots = [appRoot, path.dirname(appRoot)];
  const candidates: string[] = [];
  for (const root of roots) {
    for (const modules of ['node_modules', 'node_modules.asar.unpacked']) {
      for (const name of ['@vscode/ripgrep', 'vscode-ripgrep']) candidates.push(path.join(root, modules, name, 'bin', binary));
    }
  }
  return candidates;
}

/** The first candidate that exists (`exists` is fs.existsSync, or a fake). */
export function findRipgrep(appRoot: string, exists: (file: string) => boolean, platform: NodeJS.Platform = process.platform): string | undefined {
  return ripgrepCandidates(appRoot, platform).find((candidate) => exists(candidate));
}

/**
 * `files.exclude` and `search.exclude` as rg globs. Only patterns set to `true` count: a `{ when: … }` sibling
 * rule (hide x.js next to x.ts) cannot be said in rg, and those files are still worth searching.
 */
export function excludeGlobs(...settings: ReadonlyArray<Readonly<Record<string, unknown>> | undefined>): string[] {
  const globs = new Set<string>(['**/.git']);
  for (const setting of settings) {
    for (const [pattern, enabled] of Object.entries(setting ?? {})) {
      if (enabled !== true || pattern.trim() === '') continue;
      // VS Code's patterns are relative to the folder; rg's "./x" is not a glob it knows.
      globs.add(pattern.replace(/^\.\//, '').replace(/\/+$/, ''));
    }
  }
  return [...globs];
}

export interface ScanOptions {
  readonly rgPath: string;
  /** The workspace folder: rg's working directory, and what every path is relative to. */
  readonly root: string;
  readonly run: RgRunner;
  readonly keywords?: readonly string[];
  /** Globs to leave out (excludeGlobs of the settings). */
  readonly excludes?: readonly string[];
}

/** The flags every search shares: paths as rg prints them, NUL after each path, .gitignore honoured without git. */
function commonArgs(options: ScanOptions): string[] {
  const args = ['--no-config', '--hidden', '--no-require-git', '--no-messages', '--no-heading', '--with-filename', '--null', '--line-number', '--color', 'never', '--max-columns', '1000'];
  for (const glob of options.excludes ?? []) args.push('--glob', `!${glob}`);
  return args;
}

/** The rg arguments of a TODO search (over the folder, or over `files` given relative to it). */
export function todoSearchArgs(options: ScanOptions, files?: readonly string[]): string[] {
  const args = [...commonArgs(options), '--regexp', patternsFor(options.keywords ?? DEFAULT_KEYWORDS).rg];
  if (files) {
    args.push('--');
    appendAll(args, files);
  }
  return args;
}

/** Reads rg's `path NUL line:text` lines into TODOs (a line whose TODO is prose, not a comment, is dropped). */
export function parseRgOutput(stdout: string, keywords: readonly string[] = DEFAULT_KEYWORDS): FoundTodo[] {
  const found: FoundTodo[] = [];
  for (const record of stdout.split('\n')) {
    const nul = record.indexOf('\0');
    if (nul < 0) continue;
    const rest = record.slice(nul + 1);
    const colon = rest.indexOf(':');
    if (colon < 0) continue;
    const line = Number(rest.slice(0, colon)) - 1;
    if (!Number.isInteger(line) || line < 0) continue;
    const todo = parseTodo(rest.slice(colon + 1).replace(/\r$/, ''), keywords);
    if (todo) found.push({ file: toRelative(record.slice(0, nul)), line, todo });
  }
  return found;
}

/** rg's path (relative to the folder, maybe `./x` or with backslashes) as the index keys it. */
export function toRelative(file: string): string {
  return file.replace(/\\/g, '/').replace(/^\.\//, '');
}

async function runRg(options: ScanOptions, args: readonly string[]): Promise<string> {
  const { stdout, code } = await options.run(options.rgPath, args, options.root);
  // 1 = nothing found; 2 = some path could not be read (a file deleted meanwhile): what was found still counts.
  if (code > 2 || code < 0) throw new Error(`ripgrep exited with ${code}`);
  return stdout;
}

/** Every TODO comment of the folder. */
export async function scanWorkspace(options: ScanOptions): Promise<FoundTodo[]> {
  return parseRgOutput(await runRg(options, todoSearchArgs(options)), options.keywords);
}

/** The files rg searches at all (its ignore rules applied), relative to the folder. */
export async function listSearchedFiles(options: ScanOptions): Promise<string[]> {
  const args = ['--no-config', '--hidden', '--no-require-git', '--no-messages', '--files', '--null'];
  for (const glob of options.excludes ?? []) args.push('--glob', `!${glob}`);
  const stdout = await runRg(options, args);
  return stdout.split('\0').filter(Boolean).map((file) => toRelative(file.replace(/^\n/, '')));
}

/**
 * Whether rg would search `file` (a new file: under an ignored folder, ignored itself, or excluded?). rg
 * searches a file named on its command line whatever the ignore rules say, so two listings answer instead:
 * the walk from the root with the file as the only allowed glob (it prunes ignored folders on the way, but a
 * glob overrides ignore files for the file itself), and the file's own folder listed one level deep (which
 * applies the file's ignore rules, but not its folder's). Searched = in both.
 */
export async function isSearched(options: ScanOptions, file: string): Promise<boolean> {
  const base = ['--no-config', '--hidden', '--no-require-git', '--no-messages', '--files', '--null'];
  for (const glob of options.excludes ?? []) base.push('--glob', `!${glob}`);
  const slash = file.lastIndexOf('/');
  const folder = slash > 0 ? file.slice(0, slash) : '.';
  const listed = (stdout: string): boolean => stdout.split('\0').some((entry) => toRelative(entry.replace(/^\n/, '')) === file);
  const [walk, sibling] = await Promise.all([
    runRg(options, [...base, '--glob', `/${escapeGlob(file)}`]),
    runRg(options, [...base, '--max-depth', '1', '--', folder]),
  ]);
  return listed(walk) && listed(sibling);
}

/** A path as a glob that matches only itself. */
export function escapeGlob(file: string): string {
  return file.replace(/[*?[\]{}!\\]/g, (character) => `\\${character}`);
}

/**
 * Characters of file names per rg run: Windows refuses command lines past 32,767 characters (flags come too); Linux
 * and macOS take about 1 MB of arguments and environment (a run costs a process start, so fewer are faster).
 */
const FILE_ARGUMENT_CHARS = process.platform === 'win32' ? 16_000 : 256_000;
/** rg runs at once over the chunks of a long file list. */
const PARALLEL_RUNS = 4;

/** `files` in runs of whole names, each under `limit` characters (one name longer than that runs alone). */
export function chunkFiles(files: readonly string[], limit = FILE_ARGUMENT_CHARS): string[][] {
  const chunks: string[][] = [];
  let chunk: string[] = [];
  let chars = 0;
  for (const file of files) {
    if (chunk.length > 0 && chars + file.length + 1 > limit) {
      chunks.push(chunk);
      chunk = [];
      chars = 0;
    }
    chunk.push(file);
    chars += file.length + 1;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** The TODOs of some files (known to be searched), relative to the folder; files without any are absent. */
export async function scanFiles(options: ScanOptions, files: readonly string[]): Promise<FoundTodo[]> {
  const chunks = chunkFiles(files);
  const found: FoundTodo[] = [];
  for (let next = 0; next < chunks.length; next += PARALLEL_RUNS) {
    const outputs = await Promise.all(chunks.slice(next, next + PARALLEL_RUNS).map((chunk) => runRg(options, todoSearchArgs(options, chunk))));
    for (const stdout of outputs) appendAll(found, parseRgOutput(stdout, options.keywords));
  }
  return found;
}

/**
 * Where the marker of `taskId` is now: a fixed-string search for `task:<id>` over the folder, each hit parsed
 * so `task:ab` does not match `task:abc`. Found by the id, never by a remembered line, so moved lines and
 * renamed files do not lose it.
 */
export async function findMarker(options: ScanOptions, taskId: string): Promise<FoundTodo[]> {
  const args = [...commonArgs(options), '--fixed-strings', '--regexp', `task:${taskId}`];
  return parseRgOutput(await runRg(options, args), options.keywords).filter((found) => found.todo.taskId === taskId);
}

/** Runs rg as a child process, collecting stdout (no shell: the arguments go as they are). */
export const spawnRunner: RgRunner = (rgPath, args, cwd) => new Promise((resolve, reject) => {
  const child = spawn(rgPath, [...args], { cwd, stdio: ['ignore', 'pipe', 'ignore'], windowsHide: true });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.on('error', reject);
  child.on('close', (code) => { resolve({ stdout: Buffer.concat(chunks).toString('utf8'), code: code ?? 2 }); });
});
