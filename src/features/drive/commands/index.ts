/** The Drive commands: one id → handler table over the per-resource command files, registered behind the one wrapper. */
import type * as vscode from 'vscode';
import { registerCommands } from '../../../core/commands';
import type { ContainerNode } from '../tree/treeModel';
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
  const sharing = sharingCommands(kit);
  const sharedDrives = sharedDriveCommands(kit);
  const properties = propertyCommands(kit);
  const revisions = revisionCommands(kit);
  const labels = labelCommands(kit);
  const comments = commentCommands(kit, () => host.comments());

  const disposables = registerCommands(host.desk, {
    'desk.drive.revisionHistory': revisions.revisionHistory,
    'desk.drive.openRevision': revisions.openRevision,
    'desk.drive.compareRevisionWithCurrent': revisions.compareRevisionWithCurrent,
    'desk.drive.compareRevisions': revisions.compareRevisions,
    'desk.drive.restoreRevision': revisions.restoreRevision,
    'desk.drive.pinRevision': revisions.pinRevision,
    'desk.drive.unpinRevision': revisions.unpinRevision,
    'desk.drive.publishRevision': revisions.publishRevision,
    'desk.drive.unpublishRevision': revisions.unpublishRevision,
    'desk.drive.deleteRevision': revisions.deleteRevision,

    'desk.drive.labels': labels.labels,
    'desk.drive.applyLabel': labels.applyLabel,
    'desk.drive.changeLabelFields': labels.changeLabelFields,
    'desk.drive.removeLabel': labels.removeLabel,

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

    'desk.drive.share': sharing.share,
    'desk.drive.addPeople': sharing.addPeople,
    'desk.drive.changeRole': sharing.changeRole,
    'desk.drive.removeAccess': sharing.removeAccess,
    'desk.drive.linkSharing': sharing.linkSharing,
    'desk.drive.transferOwnership': sharing.transferOwnership,

    'desk.drive.createSharedDrive': sharedDrives.create,
    'desk.drive.renameSharedDrive': sharedDrives.rename,
    'desk.drive.hideSharedDrive': sharedDrives.hide,
    'desk.drive.unhideSharedDrive': sharedDrives.unhide,
    'desk.drive.deleteSharedDrive': sharedDrives.delete,
    'desk.drive.sharedDriveMembers': sharedDrives.members,
    'desk.drive.addSharedDriveMember': sharedDrives.addMember,
    'desk.drive.changeSharedDriveMemberRole': sharedDrives.changeMemberRole,
    'desk.drive.removeSharedDriveMember': sharedDrives.removeMember,
    'desk.drive.showHiddenSharedDrives': sharedDrives.showHidden,
    'desk.drive.hideHiddenSharedDrives': sharedDrives.hideHidden,

    'desk.drive.editProperties': properties.editProperties,
    'desk.drive.addProperty': properties.addProperty,
    'desk.drive.changeProperty': properties.changeProperty,
    'desk.drive.removeProperty': properties.removeProperty,

    'desk.drive.addComment': comments.add,
    'desk.drive.createComment': comments.create,
    'desk.drive.replyComment': comments.reply,
    'desk.drive.resolveComment': comments.resolve,
    'desk.drive.reopenComment': comments.reopen,
    'desk.drive.editComment': comments.edit,
    'desk.drive.saveComment': comments.save,
    'desk.drive.cancelCommentEdit': comments.cancel,
    'desk.drive.deleteComment': comments.delete,
    'desk.drive.showComments': comments.show,
    'desk.drive.openComment': comments.open,
    'desk.drive.refreshComments': comments.refresh,
  });
  return { disposables, uploadUris: async (uris, container) => void (await content.uploadUris(uris, container)) };
}
