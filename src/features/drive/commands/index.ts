/**
 * The Drive commands as one id → handler table behind the one wrapper, over the per-resource command parts (each a
 * class over `DriveCommandContext`, as in the other features). The parts reach past the narrow port only through
 * `host.resources()`, each resource's own Pick of the client.
 */
import type * as vscode from 'vscode';
import { editorAccount, registerCommands } from '../../../core/commands';
import { accountOfRow } from '../../../core/accounts/rowAccount';
import { refuseOffline } from '../../../core/offline/offlineRefusal';
import { DRIVE_COMMAND } from '../../../config/commandIds';
import type { DriveCommentEntry } from '../comments/threads';
import { trashInExplorer } from '../explorer/trash';
import { addToWorkspace } from '../explorer/workspaceFolders';
import { RevisionDocuments } from '../revisions/documents';
import { REVISION_SCHEME } from '../revisions/history';
import { registerAccountDocuments } from '../../../core/accounts/accountDocuments';
import type { DropPlan } from '../tree/dragAndDrop';
import type { CommentNode } from '../comments/nodes';
import type { ContainerNode, DriveNode, LoadMoreNode } from '../tree/model';
import { CommentArg, DriveCommentCommands } from './comments';
import { DriveContentCommands } from './content';
import { DriveCommandContext, DriveCommandHost } from './context';
import { DriveFileCommands } from './files';
import { DriveInfoCommands, registerInfoDocuments } from './info';
import { DriveLabelCommands } from './labels';
import { DriveOrganizeCommands } from './organize';
import { DrivePropertyCommands } from './properties';
import { DriveRevisionCommands, RevisionArg } from './revisions';
import { SharedDriveCommands } from './sharedDrives';
import { DriveSharingCommands } from './sharing';
import { DriveTrashCommands } from './trash';

export { APP_DETAILS_SCHEME, appDocument, PROPERTIES_SCHEME, propertiesDocument } from './info';
export type { DriveCommandHost, DriveResourcesApi } from './context';

/** What VS Code passes a tree command: the clicked row, and all selected rows when several are. */
type Rows = [node?: DriveNode, nodes?: DriveNode[]];

/** Commands that change who can see or do what: refused offline, never kept for later (core/offline/offlineRefusal.ts). */
export const DRIVE_AFFECTS_OTHERS = [
  DRIVE_COMMAND.share, DRIVE_COMMAND.addPeople, DRIVE_COMMAND.changeRole, DRIVE_COMMAND.removeAccess, DRIVE_COMMAND.linkSharing, DRIVE_COMMAND.transferOwnership,
  DRIVE_COMMAND.addSharedDriveMember, DRIVE_COMMAND.changeSharedDriveMemberRole, DRIVE_COMMAND.removeSharedDriveMember,
] as const;

export class DriveCommands {
  readonly files: DriveFileCommands;
  readonly content: DriveContentCommands;
  readonly organize: DriveOrganizeCommands;
  readonly trash: DriveTrashCommands;
  readonly info: DriveInfoCommands;
  readonly sharing: DriveSharingCommands;
  readonly sharedDrives: SharedDriveCommands;
  readonly properties: DrivePropertyCommands;
  readonly revisions: DriveRevisionCommands;
  readonly labels: DriveLabelCommands;
  readonly comments: DriveCommentCommands;
  /** Old versions, opened read-only (revisions.ts). */
  private readonly revisionDocuments: RevisionDocuments;

  constructor(private readonly host: DriveCommandHost) {
    const context = new DriveCommandContext(host);
    this.files = new DriveFileCommands(context);
    this.content = new DriveContentCommands(context);
    this.organize = new DriveOrganizeCommands(context);
    this.trash = new DriveTrashCommands(context);
    this.info = new DriveInfoCommands(context);
    this.sharing = new DriveSharingCommands(context);
    this.sharedDrives = new SharedDriveCommands(context);
    this.properties = new DrivePropertyCommands(context);
    this.revisions = new DriveRevisionCommands(context);
    this.labels = new DriveLabelCommands(context);
    this.comments = new DriveCommentCommands(context);
    this.revisionDocuments = new RevisionDocuments(host.desk.vs, () => host.resources());
  }

  /** The commands, and the read-only documents they open: old versions, properties and app details (info.ts). */
  register(): vscode.Disposable[] {
    const { files, content, organize, trash, info, sharing, sharedDrives, properties, revisions, labels, comments } = this;
    const vs = this.host.desk.vs;
    const documents = [registerAccountDocuments(vs, this.host.desk.session, REVISION_SCHEME, this.revisionDocuments), ...registerInfoDocuments(vs, this.host.desk.session, () => this.host.api(), (ms) => this.host.desk.clock.dateTime(ms))];
    return [...documents, ...registerCommands(this.host.desk, refuseOffline(this.host.desk, {
      [DRIVE_COMMAND.revisionHistory]: (arg?: RevisionArg) => revisions.revisionHistory(arg),
      [DRIVE_COMMAND.openRevision]: (arg?: RevisionArg) => revisions.openRevision(arg),
      [DRIVE_COMMAND.compareRevisionWithCurrent]: (arg?: RevisionArg) => revisions.compareRevisionWithCurrent(arg),
      [DRIVE_COMMAND.compareRevisions]: (arg?: RevisionArg) => revisions.compareRevisions(arg),
      [DRIVE_COMMAND.restoreRevision]: (arg?: RevisionArg) => revisions.restoreRevision(arg),
      [DRIVE_COMMAND.pinRevision]: (arg?: RevisionArg) => revisions.pinRevision(arg),
      [DRIVE_COMMAND.unpinRevision]: (arg?: RevisionArg) => revisions.unpinRevision(arg),
      [DRIVE_COMMAND.publishRevision]: (arg?: RevisionArg) => revisions.publishRevision(arg),
      [DRIVE_COMMAND.unpublishRevision]: (arg?: RevisionArg) => revisions.unpublishRevision(arg),
      [DRIVE_COMMAND.deleteRevision]: (arg?: RevisionArg) => revisions.deleteRevision(arg),

      [DRIVE_COMMAND.labels]: (node?: DriveNode) => labels.labels(node),
      [DRIVE_COMMAND.applyLabel]: (node?: DriveNode) => labels.applyLabel(node),
      [DRIVE_COMMAND.changeLabelFields]: (node?: DriveNode) => labels.changeLabelFields(node),
      [DRIVE_COMMAND.removeLabel]: (node?: DriveNode) => labels.removeLabel(node),

      [DRIVE_COMMAND.refresh]: (node?: DriveNode) => { files.refresh(node); },
      [DRIVE_COMMAND.loadMore]: (node: LoadMoreNode) => files.loadMore(node),
      [DRIVE_COMMAND.open]: (node?: DriveNode) => files.open(node),
      [DRIVE_COMMAND.newFolder]: (node?: DriveNode) => files.newFolder(node),
      [DRIVE_COMMAND.newFile]: (node?: DriveNode) => files.newFile(node),
      [DRIVE_COMMAND.copy]: (...rows: Rows) => files.copy(...rows),
      [DRIVE_COMMAND.rename]: (node?: DriveNode) => files.rename(node),
      [DRIVE_COMMAND.star]: (...rows: Rows) => files.star(...rows),
      [DRIVE_COMMAND.unstar]: (...rows: Rows) => files.unstar(...rows),
      [DRIVE_COMMAND.touch]: (...rows: Rows) => files.touch(...rows),
      [DRIVE_COMMAND.openInBrowser]: (node?: DriveNode) => files.openInBrowser(node),
      [DRIVE_COMMAND.revealFile]: (fileId: string, options?: { open?: boolean }) => files.revealFile(fileId, options),

      [DRIVE_COMMAND.uploadFiles]: (node?: DriveNode) => content.uploadFiles(node),
      [DRIVE_COMMAND.uploadFolder]: (node?: DriveNode) => content.uploadFolder(node),
      [DRIVE_COMMAND.download]: (...rows: Rows) => content.download(...rows),
      [DRIVE_COMMAND.export]: (node?: DriveNode) => content.export(node),

      [DRIVE_COMMAND.move]: (...rows: Rows) => organize.move(...rows),
      [DRIVE_COMMAND.addParent]: (node?: DriveNode) => organize.addParent(node),
      [DRIVE_COMMAND.removeParent]: (node?: DriveNode) => organize.removeParent(node),
      [DRIVE_COMMAND.addExistingFile]: (node?: DriveNode) => organize.addExistingFile(node),

      [DRIVE_COMMAND.trash]: (...rows: Rows) => trash.trash(...rows),
      [DRIVE_COMMAND.untrash]: (...rows: Rows) => trash.untrash(...rows),
      [DRIVE_COMMAND.delete]: (...rows: Rows) => trash.delete(...rows),
      [DRIVE_COMMAND.emptyTrash]: (node?: DriveNode) => trash.emptyTrash(node),

      [DRIVE_COMMAND.properties]: (node?: DriveNode) => info.properties(node),
      [DRIVE_COMMAND.apps]: () => info.apps(),
      [DRIVE_COMMAND.about]: () => info.about(),

      [DRIVE_COMMAND.share]: (node?: DriveNode) => sharing.share(node),
      [DRIVE_COMMAND.addPeople]: (node?: DriveNode) => sharing.addPeople(node),
      [DRIVE_COMMAND.changeRole]: (node?: DriveNode) => sharing.changeRole(node),
      [DRIVE_COMMAND.removeAccess]: (node?: DriveNode) => sharing.removeAccess(node),
      [DRIVE_COMMAND.linkSharing]: (node?: DriveNode) => sharing.linkSharing(node),
      [DRIVE_COMMAND.transferOwnership]: (node?: DriveNode) => sharing.transferOwnership(node),

      [DRIVE_COMMAND.createSharedDrive]: () => sharedDrives.create(),
      [DRIVE_COMMAND.renameSharedDrive]: (node?: DriveNode) => sharedDrives.rename(node),
      [DRIVE_COMMAND.hideSharedDrive]: (node?: DriveNode) => sharedDrives.hide(node),
      [DRIVE_COMMAND.unhideSharedDrive]: (node?: DriveNode) => sharedDrives.unhide(node),
      [DRIVE_COMMAND.deleteSharedDrive]: (node?: DriveNode) => sharedDrives.delete(node),
      [DRIVE_COMMAND.sharedDriveMembers]: (node?: DriveNode) => sharedDrives.members(node),
      [DRIVE_COMMAND.addSharedDriveMember]: (node?: DriveNode) => sharedDrives.addMember(node),
      [DRIVE_COMMAND.changeSharedDriveMemberRole]: (node?: DriveNode) => sharedDrives.changeMemberRole(node),
      [DRIVE_COMMAND.removeSharedDriveMember]: (node?: DriveNode) => sharedDrives.removeMember(node),
      [DRIVE_COMMAND.showHiddenSharedDrives]: () => sharedDrives.showHidden(),
      [DRIVE_COMMAND.hideHiddenSharedDrives]: () => sharedDrives.hideHidden(),

      [DRIVE_COMMAND.editProperties]: (node?: DriveNode) => properties.editProperties(node),
      [DRIVE_COMMAND.addProperty]: (node?: DriveNode) => properties.addProperty(node),
      [DRIVE_COMMAND.changeProperty]: (node?: DriveNode) => properties.changeProperty(node),
      [DRIVE_COMMAND.removeProperty]: (node?: DriveNode) => properties.removeProperty(node),

      [DRIVE_COMMAND.addComment]: () => comments.add(),
      [DRIVE_COMMAND.createComment]: (reply: vscode.CommentReply) => comments.create(reply),
      [DRIVE_COMMAND.replyComment]: (arg?: CommentArg) => comments.reply(arg),
      [DRIVE_COMMAND.resolveComment]: (arg?: CommentArg) => comments.resolve(arg),
      [DRIVE_COMMAND.reopenComment]: (arg?: CommentArg) => comments.reopen(arg),
      [DRIVE_COMMAND.editComment]: (arg?: CommentArg) => comments.edit(arg),
      [DRIVE_COMMAND.saveComment]: (entry: DriveCommentEntry) => comments.save(entry),
      [DRIVE_COMMAND.cancelCommentEdit]: (entry: DriveCommentEntry) => { comments.cancel(entry); },
      [DRIVE_COMMAND.deleteComment]: (arg?: CommentArg) => comments.delete(arg),
      [DRIVE_COMMAND.showComments]: (node?: DriveNode) => comments.show(node),
      [DRIVE_COMMAND.openComment]: (node: CommentNode) => comments.open(node),
      [DRIVE_COMMAND.refreshComments]: (arg?: CommentArg) => comments.refresh(arg),

      [DRIVE_COMMAND.addToWorkspace]: (node?: DriveNode) => addToWorkspace(vs, this.host.desk.session.viewAccount(), this.host.desk.extensionContext.globalState, node),
      [DRIVE_COMMAND.trashInExplorer]: (clicked?: vscode.Uri, selected?: vscode.Uri[]) => trashInExplorer(vs, clicked, selected),
        }, DRIVE_AFFECTS_OTHERS), {
      // From the palette with several accounts signed in: the selected row's account, else the active Drive
      // document's (the file a command acts on is one of those), else these ask which account.
      askAccount: [DRIVE_COMMAND.newFolder, DRIVE_COMMAND.newFile, DRIVE_COMMAND.uploadFiles, DRIVE_COMMAND.uploadFolder, DRIVE_COMMAND.createSharedDrive, DRIVE_COMMAND.emptyTrash,
        DRIVE_COMMAND.apps, DRIVE_COMMAND.about, DRIVE_COMMAND.addExistingFile, DRIVE_COMMAND.showHiddenSharedDrives, DRIVE_COMMAND.addToWorkspace],
      followAccount: [DRIVE_COMMAND.copy, DRIVE_COMMAND.rename, DRIVE_COMMAND.star, DRIVE_COMMAND.unstar, DRIVE_COMMAND.touch, DRIVE_COMMAND.openInBrowser, DRIVE_COMMAND.download,
        DRIVE_COMMAND.export, DRIVE_COMMAND.move, DRIVE_COMMAND.addParent, DRIVE_COMMAND.removeParent, DRIVE_COMMAND.trash, DRIVE_COMMAND.untrash, DRIVE_COMMAND.delete,
        DRIVE_COMMAND.properties, DRIVE_COMMAND.share, DRIVE_COMMAND.addPeople, DRIVE_COMMAND.changeRole, DRIVE_COMMAND.removeAccess, DRIVE_COMMAND.linkSharing,
        DRIVE_COMMAND.transferOwnership, DRIVE_COMMAND.renameSharedDrive, DRIVE_COMMAND.hideSharedDrive, DRIVE_COMMAND.unhideSharedDrive, DRIVE_COMMAND.deleteSharedDrive,
        DRIVE_COMMAND.sharedDriveMembers, DRIVE_COMMAND.addSharedDriveMember, DRIVE_COMMAND.changeSharedDriveMemberRole, DRIVE_COMMAND.removeSharedDriveMember,
        DRIVE_COMMAND.editProperties, DRIVE_COMMAND.addProperty, DRIVE_COMMAND.changeProperty, DRIVE_COMMAND.removeProperty, DRIVE_COMMAND.addComment, DRIVE_COMMAND.showComments],
      clearAccount: () => accountOfRow(this.host.treeView.selection[0]) ?? editorAccount(vs),
    })];
  }

  /** Another account or backend: the versions read so far are not theirs. */
  reset(): void {
    this.revisionDocuments.reset();
  }

  /** Uploads files or folders (from a dialog, the OS or the Explorer) into a folder of the tree. */
  async uploadUris(uris: readonly vscode.Uri[], container: ContainerNode): Promise<void> {
    await this.content.uploadUris(uris, container);
  }

  /** Drag and drop in the tree. */
  drop(plan: DropPlan): Promise<void> {
    return this.organize.drop(plan);
  }
}
