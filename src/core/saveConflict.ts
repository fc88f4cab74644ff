/**
 * Save conflicts of Desk's editable file systems (desk-drive:, desk-tasks:) decided before VS Code writes.
 *
 * Whatever a FileSystemProvider's writeFile throws, VS Code 1.100 reports as "Failed to save 'x': Unable to write
 * file '<uri with its query>' (…)" with Retry / Save As… / **Revert** (textFileSaveErrorHandler). The one save
 * failure it reports without Revert, keeping the editor dirty, is its own "the content of the file is newer"
 * (FILE_MODIFIED_SINCE), raised by fileService.validateWriteFile from the stat it takes just before writeFile.
 * So Desk asks its Compare / Overwrite / Cancel question in that stat, and after Compare or Cancel answers a stat
 * that makes VS Code refuse the save that way; writeFile is then never reached with a conflict to throw.
 */
import type * as vscode from 'vscode';

/** How long a save announced by onWillSaveTextDocument waits for its stat (a save whose write never came). */
const SAVE_ANNOUNCEMENT_MS = 60_000;

/** The saves VS Code has started for documents of one scheme: their participants ran, the stat comes next. */
export class SavesUnderWay {
  private readonly started = new Map<string, number>();
  private readonly subscription: vscode.Disposable;

  constructor(vs: typeof vscode, scheme: string) {
    this.subscription = vs.workspace.onWillSaveTextDocument((event) => {
      if (event.document.uri.scheme === scheme) this.started.set(event.document.uri.toString(), Date.now());
    });
  }

  /** Whether VS Code is saving this document now; true once per save (the stat right before the write). */
  take(uri: vscode.Uri): boolean {
    const key = uri.toString();
    const at = this.started.get(key);
    this.started.delete(key);
    return at !== undefined && Date.now() - at < SAVE_ANNOUNCEMENT_MS;
  }

  dispose(): void {
    this.subscription.dispose();
    this.started.clear();
  }
}

export interface StatTimes {
  readonly mtime: number;
  readonly size: number;
}

/**
 * The stat that makes VS Code refuse a save as "the content of the file is newer": a later mtime than the one
 * the editor opened, and a size other than the opened one (VS Code compares the opened etag with one made of
 * the opened mtime and the new size) and other than the text being saved (an equal length makes VS Code read
 * the file back to compare, which would pin the other version as the one the editor holds).
 */
export function refusingStat(opened: StatTimes, current: StatTimes, savingBytes: number | undefined): StatTimes {
  let size = current.size;
  while (size === opened.size || size === savingBytes) size += 1;
  return { mtime: Math.max(current.mtime, opened.mtime + 1), size };
}

/** The bytes VS Code is about to write for an open document (utf8, as Desk's documents are). */
export function savingBytes(vs: typeof vscode, uri: vscode.Uri): number | undefined {
  const document = vs.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri.toString());
  return document ? Buffer.byteLength(document.getText(), 'utf8') : undefined;
}
