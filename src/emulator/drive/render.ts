/** Typed rendering of stored files, changes, children and parents as Drive v2 resources. */
import {
  Change,
  ChildReference,
  DriveFile,
  DriveUser,
  FOLDER_MIME_TYPE,
  isGoogleAppsType,
  ParentReference,
} from '../../shared/schemas/drive';
import { DEMO_USERS, EmulatorUser } from '../auth/users';
import { EXPORT_FORMATS } from './content/convert';
import type { ChangeRecord } from './changes/model';
import { etagOf, StoredFile } from './files/model';

/** Turns stored records into the JSON resources of the discovery document (links use the client's base URL). */
export interface RenderContext {
  baseUrl: string;
  user: EmulatorUser;
  rootId: string;
}

const enc = encodeURIComponent;

export function fileUrl(context: RenderContext, fileId: string): string {
  return `${context.baseUrl}/drive/v2/files/${enc(fileId)}`;
}

export function driveUser(user: EmulatorUser | undefined, viewer: EmulatorUser): DriveUser {
  if (!user) return { kind: 'drive#user', displayName: 'Unknown user', isAuthenticatedUser: false };
  return { kind: 'drive#user', displayName: user.name, emailAddress: user.email, permissionId: user.id, isAuthenticatedUser: user.id === viewer.id, picture: { url: `https://example.com/avatars/${user.id}.png` } };
}

export function renderParent(context: RenderContext, fileId: string, parentId: string): ParentReference {
  return {
    kind: 'drive#parentReference',
    id: parentId,
    selfLink: `${fileUrl(context, fileId)}/parents/${enc(parentId)}`,
    parentLink: fileUrl(context, parentId),
    isRoot: parentId === context.rootId,
  };
}

export function renderChild(context: RenderContext, folderId: string, childId: string): ChildReference {
  return {
    kind: 'drive#childReference',
    id: childId,
    selfLink: `${fileUrl(context, folderId)}/children/${enc(childId)}`,
    childLink: fileUrl(context, childId),
  };
}

export function renderFile(context: RenderContext, file: StoredFile): DriveFile {
  const owner = DEMO_USERS.find((user) => user.id === file.ownerId);
  const modifier = DEMO_USERS.find((user) => user.id === file.lastModifyingUserId) ?? owner;
  const isFolder = file.mimeType === FOLDER_MIME_TYPE;
  const isNative = isGoogleAppsType(file.mimeType);
  const hasBytes = !isNative && !isFolder;
  const self = fileUrl(context, file.id);
  const resource: DriveFile = {
    kind: 'drive#file',
    id: file.id,
    etag: etagOf(file),
    selfLink: self,
    alternateLink: `${context.baseUrl}/emulator/v1/drive/open/${enc(file.id)}`,
    embedLink: `${context.baseUrl}/emulator/v1/drive/open/${enc(file.id)}?embedded=true`,
    iconLink: `${context.baseUrl}/emulator/v1/drive/icons/${enc(file.mimeType)}`,
    title: file.title,
    mimeType: file.mimeType,
    labels: { starred: file.starred, hidden: file.hidden, trashed: file.trashed, restricted: file.restricted, viewed: file.viewed, modified: file.modifiedByMeDate === file.modifiedDate },
    createdDate: iso(file.createdDate),
    modifiedDate: iso(file.modifiedDate),
    modifiedByMeDate: iso(file.modifiedByMeDate),
    version: String(file.version),
    parents: file.parents.map((parentId) => renderParent(context, file.id, parentId)),
    owners: [driveUser(owner, context.user)],
    ownerNames: owner ? [owner.name] : [],
    ownedByMe: file.ownerId === context.user.id,
    lastModifyingUser: driveUser(modifier, context.user),
    lastModifyingUserName: modifier?.name ?? 'Unknown user',
    editable: true,
    copyable: !isFolder,
    shared: false,
    explicitlyTrashed: file.explicitlyTrashed,
    quotaBytesUsed: String(hasBytes ? file.fileSize ?? 0 : 0),
    spaces: ['drive'],
    userPermission: { kind: 'drive#permission', etag: etagOf(file), id: 'me', selfLink: `${self}/permissions/me`, role: 'owner', type: 'user' },
    capabilities: {
      canEdit: true,
      canComment: true,
      canCopy: !isFolder,
      canDelete: !file.isRoot,
      canTrash: !file.isRoot,
      canUntrash: file.trashed,
      canRename: !file.isRoot,
      canDownload: !isFolder,
      canShare: !file.isRoot,
      canListChildren: isFolder,
      canAddChildren: isFolder,
      canRemoveChildren: isFolder,
      canModifyContent: !isFolder,
      canReadRevisions: hasBytes,
      canAddMyDriveParent: !file.isRoot,
      canRemoveMyDriveParent: !file.isRoot,
      canMoveItemWithinDrive: !file.isRoot,
    },
  };
  if (file.description !== undefined) resource.description = file.description;
  if (file.lastViewedByMeDate !== undefined) resource.lastViewedByMeDate = iso(file.lastViewedByMeDate);
  if (file.markedViewedByMeDate !== undefined) resource.markedViewedByMeDate = iso(file.markedViewedByMeDate);
  if (file.trashedDate !== undefined) resource.trashedDate = iso(file.trashedDate);
  if (file.originalFilename !== undefined) resource.originalFilename = file.originalFilename;
  if (file.properties.length > 0) {
    resource.properties = file.properties.map((property) => ({
      kind: 'drive#property',
      etag: `"${property.key}.${property.visibility}.${file.version}"`,
      selfLink: `${self}/properties/${enc(property.key)}?visibility=${property.visibility}`,
      key: property.key,
      value: property.value,
      visibility: property.visibility,
    }));
  }
  if (hasBytes) {
    resource.downloadUrl = `${self}?alt=media`;
    resource.webContentLink = `${self}?alt=media&source=web`;
    resource.fileSize = String(file.fileSize ?? 0);
    if (file.md5 !== undefined) resource.md5Checksum = file.md5;
    resource.headRevisionId = String(file.contentRevision || 1);
    const name = file.originalFilename ?? file.title;
    const dot = name.indexOf('.', 1);
    if (dot > 0 && dot < name.length - 1) {
      resource.fullFileExtension = name.slice(dot + 1);
      resource.fileExtension = name.slice(name.lastIndexOf('.') + 1);
    } else {
      resource.fileExtension = '';
    }
  }
  const exports = EXPORT_FORMATS[file.mimeType];
  if (exports) {
    resource.exportLinks = Object.fromEntries(exports.map((target) => [target, `${self}/export?mimeType=${enc(target)}`]));
  }
  return resource;
}

export function renderChange(context: RenderContext, record: ChangeRecord, file: StoredFile | undefined): Change {
  const change: Change = {
    kind: 'drive#change',
    id: String(record.id),
    selfLink: `${context.baseUrl}/drive/v2/changes/${record.id}`,
    fileId: record.fileId,
    deleted: record.deleted || !file,
    modificationDate: iso(record.time),
    time: iso(record.time),
    changeType: 'file',
    type: 'file',
  };
  if (file && !record.deleted) change.file = renderFile(context, file);
  return change;
}

export function iso(time: number): string {
  return new Date(time).toISOString();
}
