/** The Drive commands: one id → handler table over the per-resource command files, registered behind the one wrapper. */
import type * as vscode from 'vscode';
import { registerCommands } from '../../../core/commands';
import type { ContainerNode } from '../tree/treeModel';
import { contentCommands } from './content';
import { fileCommands } from './files';
import { infoCommands } from './info';
import { commandKit, DriveCommandHost } from './kit';
import { organizeCommands } from './organize';
import { trashCommands } from './trash';

export { APP_DETAILS_SCHEME, appDocument, PROPERTIES_SCHEME, propertiesDocument } from './info';
export type { DriveCommandHost } from './kit';
export { executeDropPlan } from './organize';

export interface DriveCommands {
  readonly disposables: vscode.Disposable[];
  /** Uploads files or folders (from a dialog, the OS or the Explorer) into a folder of the tree. */
  uploadUris(uris: readonly vscode.Uri[], container: ContainerNode): Promise<void>;
}

export function registerDriveCommands(host: DriveCommandHost): DriveCommands {
  const kit = commandKit(host);
  const files = fileCommands(kit);
  const content = contentCommands(kit);
  const organize = organizeCommands(kit);
  const trash = trashCommands(kit);
  const info = infoCommands(kit);

  const disposables = registerCommands(host.desk, {
    'desk.drive.refresh': files.refresh,
    'desk.drive.loadMore': files.loadMore,
    'desk.drive.open': files.open,
    'desk.drive.newFolder': files.newFolder,
    'desk.drive.copy': files.copy,
    'desk.drive.rename': files.rename,
    'desk.drive.star': files.star,
    'desk.drive.unstar': files.unstar,
    'desk.drive.touch': files.touch,
    'desk.drive.openInBrowser': files.openInBrowser,
    'desk.drive.revealFile': files.revealFile,

    'desk.drive.uploadFiles': content.uploadFiles,
    'desk.drive.uploadFolder': content.uploadFolder,
    'desk.drive.download': content.download,
    'desk.drive.export': content.export,

    'desk.drive.move': organize.move,
    'desk.drive.addParent': organize.addParent,
    'desk.drive.removeParent': organize.removeParent,
    'desk.drive.addExistingFile': organize.addExistingFile,

    'desk.drive.trash': trash.trash,
    'desk.drive.untrash': trash.untrash,
    'desk.drive.delete': trash.delete,
    'desk.drive.emptyTrash': trash.emptyTrash,

    'desk.drive.properties': info.properties,
    'desk.drive.apps': info.apps,
    'desk.drive.about': info.about,
  });
  return { disposables, uploadUris: async (uris, container) => void (await content.uploadUris(uris, container)) };
}
