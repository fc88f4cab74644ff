/**
 * The Drive v2 client: one method per discovery operation, typed with the shared schemas. This class is the facade
 * over the per-resource modules (files, content, children/parents, changes, about/apps), each a set of functions
 * on a `DriveContext`; idempotency is decided per operation there, retries and auth belong to `HttpClient`.
 */
import type { Readable } from 'node:stream';
import type {
  About,
  AppList,
  Change,
  ChangeList,
  ChildList,
  ChildReference,
  DriveApp,
  DriveFile,
  FileList,
  FileMetadataInput,
  ParentList,
  ParentReference,
} from '../../shared/schemas/drive';
import type { DrivePermission, DriveProperty, PropertyInput, PropertyVisibility } from '../../shared/schemas/drive';
import type { PropertyChange, PropertyList } from '../../shared/schemas/drive/properties';
import type { PermissionId, PermissionInput, PermissionList } from '../../shared/schemas/drive/permissions';
import type { CommentInput, CommentList, CommentReply, CommentReplyInput, CommentReplyList, DriveComment } from '../../shared/schemas/drive/comments';
import type { DriveRevision, RevisionInput, RevisionList } from '../../shared/schemas/drive/revisions';
import type { LabelList, ModifyLabelsRequest, ModifyLabelsResponse } from '../../shared/schemas/drive/labels';
import type { HttpClient } from '../http';
import type { BatchResult } from '../batch';
import * as aboutApps from './about';
import * as changes from './changes';
import * as children from './children';
import * as content from './content';
import { DriveContext, IdPool } from './context';
import * as files from './files';
import * as permissions from './permissions';
import * as comments from './comments';
import * as properties from './properties';
import * as revisions from './revisions';
import * as labels from './labels';
import * as drives from './drives';
import type { SharedDrive, SharedDriveInput, SharedDriveList } from '../../shared/schemas/drive/drives';

export type { UploadType } from '../upload';
export type { ListChangesOptions } from './changes';
export type { ListChildrenOptions } from './children';
export type { Download, UpdateOptions, UploadOptions } from './content';
export type { ListFilesOptions, MetadataUpdateOptions } from './files';
export type { ListCommentsOptions, ListRepliesOptions } from './comments';
export type { ListRevisionsOptions } from './revisions';
export type { ListLabelsOptions } from './labels';
export type { DeleteDriveOptions, DriveAdminOptions, ListDrivesOptions } from './drives';
export { DriveLabelDefinitionsClient } from './labels';
export type { InsertPermissionOptions, ListPermissionsOptions, SharedDriveOptions, UpdatePermissionOptions } from './permissions';

export class DriveClient {
  private readonly drive: DriveContext;

  constructor(http: HttpClient) {
    this.drive = { http, longPoll: undefined, ids: new IdPool((count) => files.generateIds(this.drive, count)) };
  }

  // ---- about, apps ----
  about(signal?: AbortSignal): Promise<About> { return aboutApps.getAbout(this.drive, signal); }
  listApps(signal?: AbortSignal): Promise<AppList> { return aboutApps.listApps(this.drive, signal); }
  getApp(appId: string, signal?: AbortSignal): Promise<DriveApp> { return aboutApps.getApp(this.drive, appId, signal); }

  // ---- files: metadata ----
  getFile(fileId: string, options?: { signal?: AbortSignal }): Promise<DriveFile>;
  /** With `ifNoneMatch`: undefined when the file still has that etag (304). */
  getFile(fileId: string, options: { ifNoneMatch: string; signal?: AbortSignal }): Promise<DriveFile | undefined>;
  getFile(fileId: string, options: { ifNoneMatch?: string; signal?: AbortSignal } = {}): Promise<DriveFile | undefined> {
    return options.ifNoneMatch !== undefined ? files.getFile(this.drive, fileId, { ...options, ifNoneMatch: options.ifNoneMatch }) : files.getFile(this.drive, fileId, options);
  }
  listFiles(options: files.ListFilesOptions = {}): Promise<FileList> { return files.listFiles(this.drive, options); }
  /** Every file matching the options, across pages. */
  allFiles(options: Omit<files.ListFilesOptions, 'pageToken'> = {}): AsyncGenerator<DriveFile> { return files.allFiles(this.drive, options); }
  insertFolder(title: string, parentId = 'root', signal?: AbortSignal): Promise<DriveFile> { return files.insertFolder(this.drive, title, parentId, signal); }
  /** Creates a file without content (a folder, an empty file, or an empty native document); safe to retry (see files.ts). */
  insertFile(metadata: FileMetadataInput, signal?: AbortSignal): Promise<DriveFile> { return files.insertFile(this.drive, metadata, signal); }
  /** Creates a file under an id reserved with generateIds; safe to retry (see files.ts). */
  insertFileWithId(metadata: FileMetadataInput & { id: string }, signal?: AbortSignal): Promise<DriveFile> { return files.insertFileWithId(this.drive, metadata, signal); }
  /** Changes only the given fields; addParents/removeParents move the file. */
  patchFile(fileId: string, metadata: FileMetadataInput, options: files.MetadataUpdateOptions = {}): Promise<DriveFile> { return files.patchFile(this.drive, fileId, metadata, options); }
  copyFile(fileId: string, metadata: FileMetadataInput = {}, signal?: AbortSignal): Promise<DriveFile> { return files.copyFile(this.drive, fileId, metadata, signal); }
  /** Deletes for good (a folder with its descendants), skipping the trash. */
  deleteFile(fileId: string, options: { ifMatch?: string; signal?: AbortSignal } = {}): Promise<void> { return files.deleteFile(this.drive, fileId, options); }
  trashFile(fileId: string, options: { ifMatch?: string; signal?: AbortSignal } = {}): Promise<DriveFile> { return files.trashFile(this.drive, fileId, options); }
  untrashFile(fileId: string, signal?: AbortSignal): Promise<DriveFile> { return files.untrashFile(this.drive, fileId, signal); }
  /** Batched: one request per 100 files, a result per file. */
  deleteFiles(fileIds: readonly string[], signal?: AbortSignal): Promise<BatchResult<void>[]> { return files.deleteFiles(this.drive, fileIds, signal); }
  trashFiles(fileIds: readonly string[], signal?: AbortSignal): Promise<BatchResult<DriveFile>[]> { return files.trashFiles(this.drive, fileIds, signal); }
  untrashFiles(fileIds: readonly string[], signal?: AbortSignal): Promise<BatchResult<DriveFile>[]> { return files.untrashFiles(this.drive, fileIds, signal); }
  moveFiles(moves: readonly { fileId: string; addParents: readonly string[]; removeParents: readonly string[] }[], signal?: AbortSignal): Promise<BatchResult<DriveFile>[]> { return files.moveFiles(this.drive, moves, signal); }
  emptyTrash(signal?: AbortSignal): Promise<void> { return files.emptyTrash(this.drive, signal); }
  /** Deletes a shared drive's trashed items for good (its organizers). */
  emptyDriveTrash(driveId: string, signal?: AbortSignal): Promise<void> { return files.emptyTrash(this.drive, signal, driveId); }
  touchFile(fileId: string, signal?: AbortSignal): Promise<DriveFile> { return files.touchFile(this.drive, fileId, signal); }
  generateIds(count = 10, signal?: AbortSignal): Promise<string[]> { return files.generateIds(this.drive, count, signal); }

  // ---- files: content ----
  /** Replaces the metadata (PUT semantics), and the content too when `options.content` is given. */
  updateFile(fileId: string, metadata: FileMetadataInput, options: content.UpdateOptions = {}): Promise<DriveFile> { return content.updateFile(this.drive, fileId, metadata, options); }
  /** Creates a file with content. */
  uploadFile(metadata: FileMetadataInput, bytes: Buffer | Readable, options: content.UploadOptions = {}): Promise<DriveFile> { return content.uploadFile(this.drive, metadata, bytes, options); }
  /** The file's bytes as a stream (`alt=media`). Native Google documents fail with 403 fileNotDownloadable: export them. */
  download(fileId: string, options: { signal?: AbortSignal } = {}): Promise<content.Download> { return content.download(this.drive, fileId, options); }
  /** A native document converted to `mimeType` (see about().exportFormats). */
  exportFile(fileId: string, mimeType: string, signal?: AbortSignal): Promise<Buffer> { return content.exportFile(this.drive, fileId, mimeType, signal); }

  // ---- children, parents ----
  listChildren(folderId: string, options: children.ListChildrenOptions = {}): Promise<ChildList> { return children.listChildren(this.drive, folderId, options); }
  getChild(folderId: string, childId: string, signal?: AbortSignal): Promise<ChildReference> { return children.getChild(this.drive, folderId, childId, signal); }
  insertChild(folderId: string, childId: string, signal?: AbortSignal): Promise<ChildReference> { return children.insertChild(this.drive, folderId, childId, signal); }
  deleteChild(folderId: string, childId: string, signal?: AbortSignal): Promise<void> { return children.deleteChild(this.drive, folderId, childId, signal); }
  listParents(fileId: string, signal?: AbortSignal): Promise<ParentList> { return children.listParents(this.drive, fileId, signal); }
  getParent(fileId: string, parentId: string, signal?: AbortSignal): Promise<ParentReference> { return children.getParent(this.drive, fileId, parentId, signal); }
  insertParent(fileId: string, parentId: string, signal?: AbortSignal): Promise<ParentReference> { return children.insertParent(this.drive, fileId, parentId, signal); }
  deleteParent(fileId: string, parentId: string, signal?: AbortSignal): Promise<void> { return children.deleteParent(this.drive, fileId, parentId, signal); }

  // ---- changes ----
  /** The token where the user's feed (or, with `driveId`, a shared drive's) continues. */
  getStartPageToken(signal?: AbortSignal, driveId?: string): Promise<string> { return changes.getStartPageToken(this.drive, signal, driveId); }
  /** One page of changes. With `waitSeconds`, a server that offers long polling holds an empty page until something changes. */
  listChanges(options: changes.ListChangesOptions = {}): Promise<ChangeList> { return changes.listChanges(this.drive, options); }
  /** Deprecated on Google (use listChanges); kept because the spec lists it. */
  getChange(changeId: string, signal?: AbortSignal): Promise<Change> { return changes.getChange(this.drive, changeId, signal); }

  // ---- permissions (sharing) ----
  listPermissions(fileId: string, options: permissions.ListPermissionsOptions = {}): Promise<PermissionList> { return permissions.listPermissions(this.drive, fileId, options); }
  getPermission(fileId: string, permissionId: string, options: permissions.SharedDriveOptions = {}): Promise<DrivePermission> { return permissions.getPermission(this.drive, fileId, permissionId, options); }
  /** Shares a file; role owner transfers the ownership. */
  insertPermission(fileId: string, permission: PermissionInput, options: permissions.InsertPermissionOptions = {}): Promise<DrivePermission> { return permissions.insertPermission(this.drive, fileId, permission, options); }
  updatePermission(fileId: string, permissionId: string, permission: PermissionInput, options: permissions.UpdatePermissionOptions = {}): Promise<DrivePermission> { return permissions.updatePermission(this.drive, fileId, permissionId, permission, options); }
  patchPermission(fileId: string, permissionId: string, permission: PermissionInput, options: permissions.UpdatePermissionOptions = {}): Promise<DrivePermission> { return permissions.patchPermission(this.drive, fileId, permissionId, permission, options); }
  deletePermission(fileId: string, permissionId: string, options: permissions.SharedDriveOptions = {}): Promise<void> { return permissions.deletePermission(this.drive, fileId, permissionId, options); }
  getIdForEmail(email: string, signal?: AbortSignal): Promise<PermissionId> { return permissions.getIdForEmail(this.drive, email, signal); }

  // ---- comments, replies ----
  listComments(fileId: string, options: comments.ListCommentsOptions = {}): Promise<CommentList> { return comments.listComments(this.drive, fileId, options); }
  getComment(fileId: string, commentId: string, options: { includeDeleted?: boolean; signal?: AbortSignal } = {}): Promise<DriveComment> { return comments.getComment(this.drive, fileId, commentId, options); }
  insertComment(fileId: string, comment: CommentInput, signal?: AbortSignal): Promise<DriveComment> { return comments.insertComment(this.drive, fileId, comment, signal); }
  updateComment(fileId: string, commentId: string, comment: CommentInput, signal?: AbortSignal): Promise<DriveComment> { return comments.updateComment(this.drive, fileId, commentId, comment, signal); }
  patchComment(fileId: string, commentId: string, comment: CommentInput, signal?: AbortSignal): Promise<DriveComment> { return comments.patchComment(this.drive, fileId, commentId, comment, signal); }
  deleteComment(fileId: string, commentId: string, signal?: AbortSignal): Promise<void> { return comments.deleteComment(this.drive, fileId, commentId, signal); }
  listReplies(fileId: string, commentId: string, options: comments.ListRepliesOptions = {}): Promise<CommentReplyList> { return comments.listReplies(this.drive, fileId, commentId, options); }
  getReply(fileId: string, commentId: string, replyId: string, options: { includeDeleted?: boolean; signal?: AbortSignal } = {}): Promise<CommentReply> { return comments.getReply(this.drive, fileId, commentId, replyId, options); }
  insertReply(fileId: string, commentId: string, reply: CommentReplyInput, signal?: AbortSignal): Promise<CommentReply> { return comments.insertReply(this.drive, fileId, commentId, reply, signal); }
  updateReply(fileId: string, commentId: string, replyId: string, reply: CommentReplyInput, signal?: AbortSignal): Promise<CommentReply> { return comments.updateReply(this.drive, fileId, commentId, replyId, reply, signal); }
  patchReply(fileId: string, commentId: string, replyId: string, reply: CommentReplyInput, signal?: AbortSignal): Promise<CommentReply> { return comments.patchReply(this.drive, fileId, commentId, replyId, reply, signal); }
  deleteReply(fileId: string, commentId: string, replyId: string, signal?: AbortSignal): Promise<void> { return comments.deleteReply(this.drive, fileId, commentId, replyId, signal); }

  // ---- properties ----
  listProperties(fileId: string, signal?: AbortSignal): Promise<PropertyList> { return properties.listProperties(this.drive, fileId, signal); }
  getProperty(fileId: string, key: string, visibility: PropertyVisibility = 'PRIVATE', signal?: AbortSignal): Promise<DriveProperty> { return properties.getProperty(this.drive, fileId, key, visibility, signal); }
  /** Adds a property, or changes the value of the one with the same key and visibility. */
  insertProperty(fileId: string, property: PropertyInput, signal?: AbortSignal): Promise<DriveProperty> { return properties.insertProperty(this.drive, fileId, property, signal); }
  updateProperty(fileId: string, key: string, change: PropertyChange, visibility: PropertyVisibility = 'PRIVATE', signal?: AbortSignal): Promise<DriveProperty> { return properties.updateProperty(this.drive, fileId, key, change, visibility, signal); }
  patchProperty(fileId: string, key: string, change: PropertyChange, visibility: PropertyVisibility = 'PRIVATE', signal?: AbortSignal): Promise<DriveProperty> { return properties.patchProperty(this.drive, fileId, key, change, visibility, signal); }
  deleteProperty(fileId: string, key: string, visibility: PropertyVisibility = 'PRIVATE', signal?: AbortSignal): Promise<void> { return properties.deleteProperty(this.drive, fileId, key, visibility, signal); }

  // ---- revisions ----
  listRevisions(fileId: string, options: revisions.ListRevisionsOptions = {}): Promise<RevisionList> { return revisions.listRevisions(this.drive, fileId, options); }
  /** Every revision of a file, oldest first (the head last), across pages. */
  allRevisions(fileId: string, signal?: AbortSignal): Promise<DriveRevision[]> { return revisions.allRevisions(this.drive, fileId, signal); }
  getRevision(fileId: string, revisionId: string, signal?: AbortSignal): Promise<DriveRevision> { return revisions.getRevision(this.drive, fileId, revisionId, signal); }
  updateRevision(fileId: string, revisionId: string, revision: RevisionInput, signal?: AbortSignal): Promise<DriveRevision> { return revisions.updateRevision(this.drive, fileId, revisionId, revision, signal); }
  /** pinned for files with bytes; published, publishAuto, publishedOutsideDomain for Docs Editors files. */
  patchRevision(fileId: string, revisionId: string, revision: RevisionInput, signal?: AbortSignal): Promise<DriveRevision> { return revisions.patchRevision(this.drive, fileId, revisionId, revision, signal); }
  deleteRevision(fileId: string, revisionId: string, signal?: AbortSignal): Promise<void> { return revisions.deleteRevision(this.drive, fileId, revisionId, signal); }
  /** An old version's bytes (files with bytes). */
  downloadRevision(fileId: string, revisionId: string, options: { signal?: AbortSignal } = {}): Promise<content.Download> { return revisions.downloadRevision(this.drive, fileId, revisionId, options); }
  /** An old version of a Docs Editors file, exported (served by the emulator; see revisions.ts). */
  exportRevision(fileId: string, revisionId: string, mimeType: string, signal?: AbortSignal): Promise<Buffer> { return revisions.exportRevision(this.drive, fileId, revisionId, mimeType, signal); }

  // ---- labels ----
  listLabels(fileId: string, options: labels.ListLabelsOptions = {}): Promise<LabelList> { return labels.listLabels(this.drive, fileId, options); }
  /** Applies, changes or removes labels on a file, atomically. */
  modifyLabels(fileId: string, request: ModifyLabelsRequest, signal?: AbortSignal): Promise<ModifyLabelsResponse> { return labels.modifyLabels(this.drive, fileId, request, signal); }

  // ---- drives (shared drives); members are the permissions of a drive's id ----
  listDrives(options: drives.ListDrivesOptions = {}): Promise<SharedDriveList> { return drives.listDrives(this.drive, options); }
  /** Every shared drive of the user matching the options, across pages. */
  allDrives(options: Omit<drives.ListDrivesOptions, 'pageToken'> = {}): AsyncGenerator<SharedDrive> { return drives.allDrives(this.drive, options); }
  getDrive(driveId: string, options: drives.DriveAdminOptions = {}): Promise<SharedDrive> { return drives.getDrive(this.drive, driveId, options); }
  /** Creates a shared drive with the user as organizer; safe to repeat (a request id, see drives.ts). */
  insertDrive(input: SharedDriveInput & { name: string }, options: { requestId?: string; signal?: AbortSignal } = {}): Promise<SharedDrive> { return drives.insertDrive(this.drive, input, options); }
  updateDrive(driveId: string, input: SharedDriveInput, options: drives.DriveAdminOptions = {}): Promise<SharedDrive> { return drives.updateDrive(this.drive, driveId, input, options); }
  /** Deletes a shared drive that holds nothing outside its trash (organizers). */
  deleteDrive(driveId: string, options: drives.DeleteDriveOptions = {}): Promise<void> { return drives.deleteDrive(this.drive, driveId, options); }
  hideDrive(driveId: string, signal?: AbortSignal): Promise<SharedDrive> { return drives.hideDrive(this.drive, driveId, signal); }
  unhideDrive(driveId: string, signal?: AbortSignal): Promise<SharedDrive> { return drives.unhideDrive(this.drive, driveId, signal); }

  /** Whether the server announced long polling on changes.list (undefined until it answered once). */
  get supportsLongPoll(): boolean | undefined {
    return this.drive.longPoll;
  }
}
