/** Typed rendering of stored files, changes, children and parents as Drive v2 resources. */
import {
  Change,
  ChangeList,
  ChildList,
  ChildReference,
  DriveFile,
  DriveUser,
  FileList,
  FOLDER_MIME_TYPE,
  isGoogleAppsType,
  ParentList,
  ParentReference,
} from '../../shared/schemas/drive';
import { DEMO_USERS, EmulatorUser } from '../identity/users';
import { escapeHtml } from '../core/html';
import { EXPORT_FORMATS } from './content/convert';
import type { ChangeRecord } from './changes/model';
import { etagOf, StoredFile } from './files/model';
import { allows, Role, StoredPermission } from './permissions/access';

/** How the viewer relates to a file: their role, whether it is shared, the grant that shared it with them. */
export interface FileViewer {
  roleOf(file: StoredFile): Role | undefined;
  isShared(file: StoredFile): boolean;
  /** The user or group grant that put the file in the viewer's "shared with me". */
  directGrant(file: StoredFile): StoredPermission | undefined;
  /** Extra fields other resources add to a file (labelInfo). */
  decorate?(file: StoredFile, resource: DriveFile): void;
}

/** Turns stored records into the JSON resources of the discovery document (links use the client's base URL). */
export interface RenderContext {
  baseUrl: string;
  user: EmulatorUser;
  rootId: string;
  /** Absent: the viewer owns everything (unit tests of the renderer). */
  viewer?: FileViewer;
  /** The calling app (OAuth client id): PRIVATE properties of other apps are hidden. */
  appId?: string;
}

/** v2 spells the commenter role as reader + additionalRoles ['commenter']. */
export function v2Role(role: Role): { role: string; additionalRoles?: string[] } {
  return role === 'commenter' ? { role: 'reader', additionalRoles: ['commenter'] } : { role };
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

/** A list's next page: its token and, where the list resource has one, the link that fetches it. */
export function nextPage(nextPageToken: string | undefined, link?: (token: string) => string): { nextPageToken?: string; nextLink?: string } {
  if (nextPageToken === undefined) return {};
  return { nextPageToken, ...(link ? { nextLink: link(nextPageToken) } : {}) };
}

/** files.list: one page of files; the next link repeats the query (q, orderBy, maxResults) with the page token. */
export function renderFileList(context: RenderContext, changeStamp: number, files: readonly StoredFile[], page: { nextPageToken?: string | undefined; q?: string | undefined; orderBy?: string | undefined; maxResults: number }): FileList {
  const selfLink = `${context.baseUrl}/drive/v2/files`;
  const { q, orderBy, maxResults } = page;
  return {
    kind: 'drive#fileList',
    etag: `"files-${changeStamp}"`,
    selfLink,
    incompleteSearch: false,
    items: files.map((file) => renderFile(context, file)),
    ...nextPage(page.nextPageToken, (token) => `${selfLink}?${new URLSearchParams({ ...(q ? { q } : {}), ...(orderBy ? { orderBy } : {}), maxResults: String(maxResults), pageToken: token }).toString()}`),
  };
}

/** children.list: references to one page of a folder's items; the links name the folder as the request did ('root'). */
export function renderChildList(context: RenderContext, changeStamp: number, folder: { id: string; requestedAs: string }, childIds: readonly string[], nextPageToken: string | undefined): ChildList {
  const selfLink = `${fileUrl(context, folder.requestedAs)}/children`;
  return {
    kind: 'drive#childList',
    etag: `"children-${changeStamp}"`,
    selfLink,
    items: childIds.map((childId) => renderChild(context, folder.id, childId)),
    ...nextPage(nextPageToken, (token) => `${selfLink}?pageToken=${encodeURIComponent(token)}`),
  };
}

/** parents.list: every folder the file is in (one page, as Drive answers). */
export function renderParentList(context: RenderContext, file: StoredFile): ParentList {
  return {
    kind: 'drive#parentList',
    etag: renderFile(context, file).etag,
    selfLink: `${fileUrl(context, file.id)}/parents`,
    items: file.parents.map((parentId) => renderParent(context, file.id, parentId)),
  };
}

/** changes.list: one page of the feed, up to `largestChangeId`; the last page carries the token to start from next. */
export function renderChangeList(context: RenderContext, items: Change[], page: { largestChangeId: number; nextPageToken?: string | undefined; newStartPageToken?: string | undefined }): ChangeList {
  const selfLink = `${context.baseUrl}/drive/v2/changes`;
  return {
    kind: 'drive#changeList',
    etag: `"changes-${page.largestChangeId}"`,
    selfLink,
    largestChangeId: String(page.largestChangeId),
    items,
    ...nextPage(page.nextPageToken, (token) => `${selfLink}?pageToken=${token}`),
    ...(page.newStartPageToken !== undefined ? { newStartPageToken: page.newStartPageToken } : {}),
  };
}

/** changes.getStartPageToken. */
export function renderStartPageToken(startPageToken: string): { kind: 'drive#startPageToken'; startPageToken: string } {
  return { kind: 'drive#startPageToken', startPageToken };
}

/** files.generateIds. */
export function renderGeneratedIds(space: string | undefined, ids: readonly string[]): { kind: 'drive#generatedIds'; space: string | undefined; ids: string[] } {
  return { kind: 'drive#generatedIds', space, ids: [...ids] };
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
  const role: Role = (context.viewer ? context.viewer.roleOf(file) : 'owner') ?? 'reader';
  const can = (capability: Parameters<typeof allows>[1]): boolean => allows(role, capability, file);
  const inDrive = file.driveId !== undefined;
  const driveTop = inDrive && file.id === file.driveId;
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
    owners: inDrive ? [] : [driveUser(owner, context.user)],
    ownerNames: !inDrive && owner ? [owner.name] : [],
    ownedByMe: file.ownerId === context.user.id,
    lastModifyingUser: driveUser(modifier, context.user),
    lastModifyingUserName: modifier?.name ?? 'Unknown user',
    editable: can('write'),
    copyable: !isFolder,
    shared: context.viewer ? context.viewer.isShared(file) : false,
    writersCanShare: file.writersCanShare !== false,
    explicitlyTrashed: file.explicitlyTrashed,
    quotaBytesUsed: String(hasBytes ? file.fileSize ?? 0 : 0),
    spaces: ['drive'],
    userPermission: { kind: 'drive#permission', etag: etagOf(file), id: 'me', selfLink: `${self}/permissions/me`, ...v2Role(role), type: 'user' },
    capabilities: {
      canEdit: can('write'),
      canComment: can('comment'),
      canCopy: !isFolder,
      canDelete: !file.isRoot && !driveTop && can('delete'),
      canTrash: !file.isRoot && !driveTop && can('trash'),
      canUntrash: file.trashed && can('trash'),
      canRename: !file.isRoot && !driveTop && can('write'),
      canDownload: !isFolder,
      // A shared drive's top folder is shared by managing the drive's members (organizers).
      canShare: !file.isRoot && (driveTop ? role === 'organizer' : can('share')),
      canListChildren: isFolder,
      canAddChildren: isFolder && can('write'),
      canRemoveChildren: isFolder && can('write'),
      canModifyContent: !isFolder && can('write'),
      canReadRevisions: !isFolder && can('read'),
      canChangeCopyRequiresWriterPermission: can('share'),
      canModifyLabels: can('write'),
      canReadLabels: true,
      canAddMyDriveParent: !file.isRoot && !inDrive,
      canRemoveMyDriveParent: !file.isRoot && !inDrive,
      canMoveItemWithinDrive: !file.isRoot && !driveTop && (inDrive ? can('trash') : can('write')),
      canMoveItemOutOfDrive: inDrive && !driveTop && !isFolder && role === 'organizer',
      canTrashChildren: inDrive && isFolder && can('trash'),
      canDeleteChildren: inDrive && isFolder && can('delete'),
      canReadDrive: inDrive,
    },
  };
  if (file.driveId !== undefined) {
    resource.driveId = file.driveId;
    resource.teamDriveId = file.driveId;
  }
  const grant = context.viewer?.directGrant(file);
  if (grant && file.ownerId !== context.user.id) {
    resource.sharedWithMeDate = iso(grant.createdDate);
    const sharer = DEMO_USERS.find((user) => user.id === grant.grantedBy);
    if (sharer) resource.sharingUser = driveUser(sharer, context.user);
  }
  if (file.description !== undefined) resource.description = file.description;
  if (file.lastViewedByMeDate !== undefined) resource.lastViewedByMeDate = iso(file.lastViewedByMeDate);
  if (file.markedViewedByMeDate !== undefined) resource.markedViewedByMeDate = iso(file.markedViewedByMeDate);
  if (file.trashedDate !== undefined) resource.trashedDate = iso(file.trashedDate);
  if (file.originalFilename !== undefined) resource.originalFilename = file.originalFilename;
  const properties = file.properties.filter((property) => property.visibility === 'PUBLIC' || property.appId === undefined || property.appId === context.appId);
  if (properties.length > 0) {
    resource.properties = properties.map((property) => ({
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
  context.viewer?.decorate?.(file, resource);
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
    changeType: 'file',
    type: 'file',
  };
  if (file && !record.deleted) change.file = renderFile(context, file);
  return change;
}

export function iso(time: number): string {
  return new Date(time).toISOString();
}

/** A page for alternateLink (the emulator has no Drive web UI): it names no file details. */
export function renderOpenPage(fileId: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Desk emulator</title></head><body><p>This file lives in the Desk emulator. Open it from the Desk view in VS Code.</p><p>File id: ${escapeHtml(fileId)}</p></body></html>`;
}

/** iconLink targets: a small generic icon per kind of file. */
export function renderIcon(mimeType: string): string {
  const color = mimeType === FOLDER_MIME_TYPE ? '#5f6368'
    : mimeType.endsWith('.document') ? '#4285f4'
    : mimeType.endsWith('.spreadsheet') ? '#0f9d58'
    : mimeType.endsWith('.presentation') ? '#f4b400'
    : mimeType.startsWith('image/') ? '#db4437'
    : '#9aa0a6';
  const shape = mimeType === FOLDER_MIME_TYPE ? '<path d="M1 3h5l1.5 1.5H15V13H1z"/>' : '<path d="M3 1h7l3 3v11H3z"/>';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16" fill="${color}">${shape}</svg>`;
}
