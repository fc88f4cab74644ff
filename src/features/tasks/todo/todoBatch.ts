/**
 * A batch of changed paths (a save, a branch switch of thousands of files) applied to the TODO index in time
 * linear in the batch, without vscode: deleted paths leave the index in one pass, new folders and new files are
 * checked against one listing of the searched files per workspace folder (not two ripgrep walks per file), and
 * the files are searched with as few rg runs as the command line allows, their TODOs grouped by file once.
 */
import type { TodoIndex } from './todoIndex';
import { FoundTodo, listSearchedFiles, ScanOptions, scanFiles } from './todoScan';

export type PathKind = 'missing' | 'file' | 'directory';

/** One changed path: its workspace folder, its path relative to it, its index key and its path on disk. */
export interface BatchEntry<F> {
  readonly folder: F;
  readonly relative: string;
  readonly key: string;
  readonly path: string;
}

/** What the batch needs of the workspace (the view passes VS Code's; tests pass their own). */
export interface BatchHost<F> {
  /** How rg searches the folder (undefined: not searched, e.g. without rg). */
  options(folder: F): ScanOptions | undefined;
  keyOf(folder: F, relative: string): string;
  kindOf(path: string): PathKind;
  /** The open documents with unsaved changes, by index key: their text, read when asked. */
  dirtyTexts(): ReadonlyMap<string, () => string>;
  todosInText(key: string, text: string): FoundTodo[];
}

interface Place<F> {
  readonly folder: F;
  readonly relative: string;
  readonly key: string;
  /** Found in a listing of the searched files (so rg searches it: no check needed). */
  readonly listed?: boolean;
}

/** Applies the batch to the index; answers whether the index changed. */
export async function applyBatch<F>(index: TodoIndex, entries: readonly BatchEntry<F>[], host: BatchHost<F>): Promise<boolean> {
  let changed = false;
  const files: Place<F>[] = [];
  const directories: Place<F>[] = [];
  const deleted = new Set<string>();
  // Read once per loop (neither awaits inside, so each sees the documents as a per-file lookup would).
  let dirty = host.dirtyTexts();
  for (const entry of entries) {
    const place = { folder: entry.folder, relative: entry.relative, key: entry.key };
    if (dirty.has(entry.key)) {
      files.push(place);
      continue;
    }
    const kind = host.kindOf(entry.path);
    if (kind === 'missing') deleted.add(entry.key);
    else (kind === 'directory' ? directories : files).push(place);
  }
  // A deleted folder takes its files with it.
  if (deleted.size > 0) {
    for (const file of index.files()) if (underAny(file, deleted)) changed = index.removeFile(file) || changed;
  }
  // The searched files of each folder, listed at most once per batch (new folders, new files).
  const listings = new Map<F, Promise<string[]>>();
  const listing = (folder: F, options: ScanOptions): Promise<string[]> => {
    let listed = listings.get(folder);
    if (!listed) {
      listed = listSearchedFiles(options);
      listings.set(folder, listed);
    }
    return listed;
  };
  // A folder that appeared or changed: the watcher may report it without the files made in it (they can be
  // written before it watches the new folder), so its searched files are listed and each one scanned.
  for (const [folder, inFolder] of groupByFolder(directories)) {
    const options = host.options(folder);
    if (!options) continue;
    const relatives = new Set(inFolder.map((directory) => directory.relative));
    const keys = new Set(inFolder.map((directory) => directory.key));
    const inside = new Set<string>();
    for (const relative of await listing(folder, options)) {
      if (!underAny(relative, relatives, false)) continue;
      const key = host.keyOf(folder, relative);
      inside.add(key);
      files.push({ folder, relative, key, listed: true });
    }
    for (const file of index.files()) if (underAny(file, keys, false) && !inside.has(file)) changed = index.removeFile(file) || changed;
  }
  // Unsaved documents count as the editor has them; the rest is read from disk, each file once (first report wins).
  const onDisk = new Map<F, Map<string, Place<F>>>();
  dirty = host.dirtyTexts();
  for (const place of files) {
    const text = dirty.get(place.key);
    if (text !== undefined) {
      changed = index.setFile(place.key, host.todosInText(place.key, text())) || changed;
      continue;
    }
    let queued = onDisk.get(place.folder);
    if (!queued) {
      queued = new Map();
      onDisk.set(place.folder, queued);
    }
    if (!queued.has(place.key)) queued.set(place.key, place);
  }
  for (const [folder, queued] of onDisk) {
    const options = host.options(folder);
    if (!options) continue;
    const places = [...queued.values()];
    // rg searches a file named on its command line even when ignored: files the last scan did not search
    // (new, or ignored) are kept only if the folder's listing has them.
    // The listing (a walk of the whole folder) and the search run at once: the batch waits for the longer, not both.
    const unknown = places.some((place) => !place.listed && index.isSearched(place.key) === false);
    const listed = unknown ? listing(folder, options) : undefined;
    const scanning = scanFiles(options, places.map((place) => place.relative));
    // Both awaited together: a failed listing leaves no search unobserved (and the reverse).
    const [listedFiles, foundFiles] = await Promise.all([listed, scanning]);
    const searchedNow = listedFiles ? new Set(listedFiles) : undefined;
    const searched = places.filter((place) => place.listed || index.isSearched(place.key) !== false || searchedNow?.has(place.relative) === true);
    const found = groupByFile(foundFiles);
    for (const place of searched) {
      changed = index.setFile(place.key, (found.get(place.relative) ?? []).map((item) => ({ ...item, file: place.key }))) || changed;
    }
  }
  return changed;
}

/** Whether `path` is one of `folders` (when `self` counts) or inside one: its ancestors looked up, not the set walked. */
function underAny(path: string, folders: ReadonlySet<string>, self = true): boolean {
  if (self && folders.has(path)) return true;
  for (let slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
    if (folders.has(path.slice(0, slash))) return true;
  }
  return false;
}

function groupByFolder<F>(places: readonly Place<F>[]): Map<F, Place<F>[]> {
  const groups = new Map<F, Place<F>[]>();
  for (const place of places) {
    const group = groups.get(place.folder);
    if (group) group.push(place);
    else groups.set(place.folder, [place]);
  }
  return groups;
}

function groupByFile(found: readonly FoundTodo[]): Map<string, FoundTodo[]> {
  const groups = new Map<string, FoundTodo[]>();
  for (const item of found) {
    const group = groups.get(item.file);
    if (group) group.push(item);
    else groups.set(item.file, [item]);
  }
  return groups;
}
