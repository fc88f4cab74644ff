/** The Drive commands: one id → handler table over the per-resource command files, registered behind the one wrapper. */
import type * as vscode from 'vscode';
import { registerCommands } from '../../../core/commands';
import type { ContainerNode } from '../tree/model';
import { commentCommands } from './comments';
import { contentCommands } from './content';
import { fileCommands } from './files';
import { infoCommands } from './info';
import { commandKit, DriveCommandHost } from './kit';
import { organizeCommands } from './organize';
import { labelCommands } from './labels';
import { propertyCommands } from './properties';
import { revisionCommands } from './revisions';
import { sharingCommands } from './sharing';
import { sharedDriveCommands } from './sharedDrives';
import { trashCommands } from './trash';
import { DRIVE_COMMAND } from '../../../config/commandIds';

export { APP_DETAILS_SCHEME, appDocument, PROPERTIES_SCHEME, propertiesDocument, registerInfoDocuments } from './info';
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
  const sharing = sharingCommands(kit);
  const sharedDrives = sharedDriveCommands(kit);
  const properties = propertyCommands(kit);
  const revisions = revisionCommands(kit);
  const labels = labelCommands(kit);
  const comments = commentCommands(kit, () => host.comments());

  const disposables = registerCommands(host.desk, {
    [DRIVE_COMMAND.revisionHistory]: revisions.revisionHistory,
    [DRIVE_COMMAND.openRevision]: revisions.openRevision,
    [DRIVE_COMMAND.compareRevisionWithCurrent]: revisions.compareRevisionWithCurrent,
    [DRIVE_COMMAND.compareRevisions]: revisions.compareRevisions,
    [DRIVE_COMMAND.restoreRevision]: revisions.restoreRevision,
    [DRIVE_COMMAND.pinRevision]: revisions.pinRevision,
    [DRIVE_COMMAND.unpinRevision]: revisions.unpinRevision,
    [DRIVE_COMMAND.publishRevision]: revisions.publishRevision,
    [DRIVE_COMMAND.unpublishRevision]: revisions.unpublishRevision,
    [DRIVE_COMMAND.deleteRevision]: revisions.deleteRevision,

    [DRIVE_COMMAND.labels]: labels.labels,
    [DRIVE_COMMAND.applyLabel]: labels.applyLabel,
    [DRIVE_COMMAND.changeLabelFields]: labels.changeLabelFields,
    [DRIVE_COMMAND.removeLabel]: labels.removeLabel,

    [DRIVE_COMMAND.refresh]: files.refresh,
    [DRIVE_COMMAND.loadMore]: files.loadMore,
    [DRIVE_COMMAND.open]: files.open,
    [DRIVE_COMMAND.newFolder]: files.newFolder,
    [DRIVE_COMMAND.copy]: files.copy,
    [DRIVE_COMMAND.rename]: files.rename,
    [DRIVE_COMMAND.star]: files.star,
    [DRIVE_COMMAND.unstar]: files.unstar,
    [DRIVE_COMMAND.touch]: files.touch,
    [DRIVE_COMMAND.openInBrowser]: files.openInBrowser,
    [DRIVE_COMMAND.revealFile]: files.revealFile,

    [DRIVE_COMMAND.uploadFiles]: content.uploadFiles,
    [DRIVE_COMMAND.uploadFolder]: content.uploadFolder,
    [DRIVE_COMMAND.download]: content.download,
    [DRIVE_COMMAND.export]: content.export,

    [DRIVE_COMMAND.move]: organize.move,
    [DRIVE_COMMAND.addParent]: organize.addParent,
    [DRIVE_COMMAND.removeParent]: organize.removeParent,
    [DRIVE_COMMAND.addExistingFile]: organize.addExistingFile,

    [DRIVE_COMMAND.trash]: trash.trash,
    [DRIVE_COMMAND.untrash]: trash.untrash,
    [DRIVE_COMMAND.delete]: trash.delete,
    [DRIVE_COMMAND.emptyTrash]: trash.emptyTrash,

    [DRIVE_COMMAND.properties]: info.properties,
    [DRIVE_COMMAND.apps]: info.apps,
    [DRIVE_COMMAND.about]: info.about,

    [DRIVE_COMMAND.share]: sharing.share,
    [DRIVE_COMMAND.addPeople]: sharing.addPeople,
    [DRIVE_COMMAND.changeRole]: sharing.changeRole,
    [DRIVE_COMMAND.removeAccess]: sharing.removeAccess,
    [DRIVE_COMMAND.linkSharing]: sharing.linkSharing,
    [DRIVE_COMMAND.transferOwnership]: sharing.transferOwnership,

    [DRIVE_COMMAND.createSharedDrive]: sharedDrives.create,
    [DRIVE_COMMAND.renameSharedDrive]: sharedDrives.rename,
    [DRIVE_COMMAND.hideSharedDrive]: sharedDrives.hide,
    [DRIVE_COMMAND.unhideSharedDrive]: sharedDrives.unhide,
    [DRIVE_COMMAND.deleteSharedDrive]: sharedDrives.delete,
    [DRIVE_COMMAND.sharedDriveMembers]: sharedDrives.members,
    [DRIVE_COMMAND.addSharedDriveMember]: sharedDrives.addMember,
    [DRIVE_COMMAND.changeSharedDriveMemberRole]: sharedDrives.changeMemberRole,
    [DRIVE_COMMAND.removeSharedDriveMember]: sharedDrives.removeMember,
    [DRIVE_COMMAND.showHiddenSharedDrives]: sharedDrives.showHidden,
    [DRIVE_COMMAND.hideHiddenSharedDrives]: sharedDrives.hideHidden,

    [DRIVE_COMMAND.editProperties]: properties.editProperties,
    [DRIVE_COMMAND.addProperty]: properties.addProperty,
    [DRIVE_COMMAND.changeProperty]: properties.changeProperty,
    [DRIVE_COMMAND.removeProperty]: properties.removeProperty,

    [DRIVE_COMMAND.addComment]: comments.add,
    [DRIVE_COMMAND.createComment]: comments.create,
    [DRIVE_COMMAND.replyComment]: comments.reply,
    [DRIVE_COMMAND.resolveComment]: comments.resolve,
    [DRIVE_COMMAND.reopenComment]: comments.reopen,
    [DRIVE_COMMAND.editComment]: comments.edit,
    [DRIVE_COMMAND.saveComment]: comments.save,
    [DRIVE_COMMAND.cancelCommentEdit]: comments.cancel,
    [DRIVE_COMMAND.deleteComment]: comments.delete,
    [DRIVE_COMMAND.showComments]: comments.show,
    [DRIVE_COMMAND.openComment]: comments.open,
    [DRIVE_COMMAND.refreshComments]: comments.refresh,
  });
  return { disposables, uploadUris: async (uris, container) => void (await content.uploadUris(uris, container)) };
}
