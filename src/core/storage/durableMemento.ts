/**
 * Writes to VS Code's globalState that are not silently lost. The extension host applies every change of the
 * extension's global state that the workbench reports by replacing its whole in-memory copy, and the workbench
 * reports this window's own writes too: the echo of an earlier write (of any key) that arrives before a later
 * update has been sent takes that update away, and what is sent then is the echoed copy, while update()'s
 * promise still resolves. Read back after the write (the echo of our own write arrives before its answer), and
 * written again when it did not stick. No vscode import: the Memento shape is enough.
 */

/** The part of a vscode.Memento a durable write needs. */
export interface WritableMemento {
  /** What is stored under `key` (undefined: nothing), as JSON gave it back: the reader checks its shape. */
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

/** Attempts before giving up; each lost write needs another write of some key to race it, so one retry is usually enough. */
const MAX_ATTEMPTS = 5;

/** Updates `key` and checks it stuck (compared as JSON, as the memento stores it), writing again if not. */
export async function updateDurably(memento: WritableMemento, key: string, value: unknown): Promise<void> {
  const wanted = JSON.stringify(value);
  for (let attempt = 1; ; attempt++) {
    await memento.update(key, value);
    if (JSON.stringify(memento.get(key)) === wanted || attempt >= MAX_ATTEMPTS) return;
  }
}
