/** The one file a sharing or properties command acts on: the row clicked, the view's selection, or the Drive file in the editor. */
import { fileIdOf } from '../fs/driveFileSystem';
import type { DriveItem } from '../port';
import type { DriveNode } from '../tree/model';
import type { DriveCommandKit } from './kit';

/**
 * From the palette there may be no row: then the active editor's `desk-drive:` file is meant. Undefined (after
 * saying so) when there is neither.
 */
export async function targetFile(kit: DriveCommandKit, node?: DriveNode): Promise<DriveItem | undefined> {
  const [row] = kit.fileNodes(node);
  if (row) return row.item;
  const uri = kit.vs.window.activeTextEditor?.document.uri;
  const fileId = uri ? fileIdOf(uri) : undefined;
  if (fileId) return kit.host.api().getFile(fileId);
  void kit.vs.window.showInformationMessage(kit.t('Select a file in the Drive view, or open one from Drive, first.'));
  return undefined;
}
