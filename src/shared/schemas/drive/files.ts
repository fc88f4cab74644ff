import * as z from '../zod';
import { sharedDriveSchema } from './drives';
import { int64String } from '../int64';

/**
 * Drive v2 resources (see reference/drive.v2.discovery.json), shared by the client (src/api/drive.ts) and the
 * emulator (src/emulator/drive). Response schemas are tolerant: everything Google may omit is optional and
 * unknown fields are stripped. Request schemas (`*InputSchema`) are strict about types, since the emulator
 * answers bad input with a 400 naming the field.
 */

export const FOLDER_MIME_TYPE = 'application/vnd.google-apps.folder';
export const GOOGLE_DOC_MIME_TYPE = 'application/vnd.google-apps.document';
export const GOOGLE_SHEET_MIME_TYPE = 'application/vnd.google-apps.spreadsheet';
export const GOOGLE_SLIDES_MIME_TYPE = 'application/vnd.google-apps.presentation';
/** Every Google-native type starts with this; such files have no bytes to download, only exports. */
export const GOOGLE_APPS_MIME_PREFIX = 'application/vnd.google-apps.';

export function isFolder(file: { readonly mimeType?: string | undefined }): boolean {
  return file.mimeType === FOLDER_MIME_TYPE;
}

/** A Google-native document (not a folder): it has no bytes of its own and is exported, never downloaded. */
export function isNative(file: { readonly mimeType?: string | undefined }): boolean {
  return isGoogleAppsType(file.mimeType) && !isFolder(file);
}

/** Any `application/vnd.google-apps.*` type, folders included: what Drive stores without bytes. */
export function isGoogleAppsType(mimeType: string | undefined): boolean {
  return mimeType !== undefined && mimeType.startsWith(GOOGLE_APPS_MIME_PREFIX);
}

export const driveUserSchema = z.object({
  kind: z.optional(z.string()),
  displayName: z.optional(z.string()),
  emailAddress: z.optional(z.string()),
  permissionId: z.optional(z.string()),
  isAuthenticatedUser: z.optional(z.boolean()),
  picture: z.optional(z.object({ url: z.optional(z.string()) })),
});
export type DriveUser = z.infer<typeof driveUserSchema>;

export const parentReferenceSchema = z.object({
  kind: z.optional(z.string()),
  id: z.string(),
  selfLink: z.optional(z.string()),
  parentLink: z.optional(z.string()),
  isRoot: z.optional(z.boolean()),
});
export type ParentReference = z.infer<typeof parentReferenceSchema>;

export const parentListSchema = z.object({
  kind: z.optional(z.string()),
  etag: z.optional(z.string()),
  selfLink: z.optional(z.string()),
  items: z._default(z.array(parentReferenceSchema), []),
});
export type ParentList = z.infer<typeof parentListSchema>;

export const childReferenceSchema = z.object({
  kind: z.optional(z.string()),
  id: z.string(),
  selfLink: z.optional(z.string()),
  childLink: z.optional(z.string()),
});
export type ChildReference = z.infer<typeof childReferenceSchema>;

export const childListSchema = z.object({
  kind: z.optional(z.string()),
  etag: z.optional(z.string()),
  selfLink: z.optional(z.string()),
  nextPageToken: z.optional(z.string()),
  nextLink: z.optional(z.string()),
  items: z._default(z.array(childReferenceSchema), []),
});
export type ChildList = z.infer<typeof childListSchema>;

export const PROPERTY_VISIBILITIES = ['PRIVATE', 'PUBLIC'] as const;
export type PropertyVisibility = (typeof PROPERTY_VISIBILITIES)[number];

export const propertySchema = z.object({
  kind: z.optional(z.string()),
  etag: z.optional(z.string()),
  selfLink: z.optional(z.string()),
  key: z.string(),
  value: z.optional(z.string()),
  visibility: z.optional(z.string()),
});
export type DriveProperty = z.infer<typeof propertySchema>;

export const fileLabelsSchema = z.object({
  starred: z.optional(z.boolean()),
  hidden: z.optional(z.boolean()),
  trashed: z.optional(z.boolean()),
  restricted: z.optional(z.boolean()),
  viewed: z.optional(z.boolean()),
  modified: z.optional(z.boolean()),
});
export type FileLabels = z.infer<typeof fileLabelsSchema>;

export const permissionDetailSchema = z.object({
  permissionType: z.optional(z.string()),
  role: z.optional(z.string()),
  additionalRoles: z.optional(z.array(z.string())),
  inherited: z.optional(z.boolean()),
  inheritedFrom: z.optional(z.string()),
});
export type PermissionDetail = z.infer<typeof permissionDetailSchema>;

export const permissionSchema = z.object({
  kind: z.optional(z.string()),
  etag: z.optional(z.string()),
  id: z.optional(z.string()),
  selfLink: z.optional(z.string()),
  role: z.optional(z.string()),
  additionalRoles: z.optional(z.array(z.string())),
  type: z.optional(z.string()),
  emailAddress: z.optional(z.string()),
  domain: z.optional(z.string()),
  name: z.optional(z.string()),
  value: z.optional(z.string()),
  withLink: z.optional(z.boolean()),
  photoLink: z.optional(z.string()),
  expirationDate: z.optional(z.string()),
  deleted: z.optional(z.boolean()),
  pendingOwner: z.optional(z.boolean()),
  permissionDetails: z.optional(z.array(permissionDetailSchema)),
  teamDrivePermissionDetails: z.optional(z.array(z.object({ teamDrivePermissionType: z.optional(z.string()), role: z.optional(z.string()), inherited: z.optional(z.boolean()), inheritedFrom: z.optional(z.string()) }))),
});
export type DrivePermission = z.infer<typeof permissionSchema>;

/** A capability flag map: `canEdit`, `canTrash`, … */
export const fileCapabilitiesSchema = z.record(z.string(), z.boolean());

export const driveFileSchema = z.object({
  kind: z.optional(z.string()),
  id: z.string(),
  etag: z.optional(z.string()),
  selfLink: z.optional(z.string()),
  title: z.optional(z.string()),
  mimeType: z.optional(z.string()),
  description: z.optional(z.string()),
  labels: z.optional(fileLabelsSchema),
  createdDate: z.optional(z.string()),
  modifiedDate: z.optional(z.string()),
  modifiedByMeDate: z.optional(z.string()),
  lastViewedByMeDate: z.optional(z.string()),
  markedViewedByMeDate: z.optional(z.string()),
  trashedDate: z.optional(z.string()),
  version: z.optional(int64String),
  parents: z.optional(z.array(parentReferenceSchema)),
  downloadUrl: z.optional(z.string()),
  exportLinks: z.optional(z.record(z.string(), z.string())),
  alternateLink: z.optional(z.string()),
  webContentLink: z.optional(z.string()),
  embedLink: z.optional(z.string()),
  iconLink: z.optional(z.string()),
  fileSize: z.optional(int64String),
  md5Checksum: z.optional(z.string()),
  headRevisionId: z.optional(z.string()),
  originalFilename: z.optional(z.string()),
  fileExtension: z.optional(z.string()),
  fullFileExtension: z.optional(z.string()),
  owners: z.optional(z.array(driveUserSchema)),
  ownerNames: z.optional(z.array(z.string())),
  ownedByMe: z.optional(z.boolean()),
  lastModifyingUser: z.optional(driveUserSchema),
  lastModifyingUserName: z.optional(z.string()),
  editable: z.optional(z.boolean()),
  copyable: z.optional(z.boolean()),
  shared: z.optional(z.boolean()),
  explicitlyTrashed: z.optional(z.boolean()),
  properties: z.optional(z.array(propertySchema)),
  userPermission: z.optional(permissionSchema),
  permissions: z.optional(z.array(permissionSchema)),
  writersCanShare: z.optional(z.boolean()),
  sharedWithMeDate: z.optional(z.string()),
  sharingUser: z.optional(driveUserSchema),
  driveId: z.optional(z.string()),
  teamDriveId: z.optional(z.string()),
  labelInfo: z.optional(z.object({ labels: z.optional(z.array(z.record(z.string(), z.unknown()))) })),
  quotaBytesUsed: z.optional(int64String),
  spaces: z.optional(z.array(z.string())),
  capabilities: z.optional(fileCapabilitiesSchema),
});
export type DriveFile = z.infer<typeof driveFileSchema>;

export const fileListSchema = z.object({
  kind: z.optional(z.string()),
  etag: z.optional(z.string()),
  selfLink: z.optional(z.string()),
  nextPageToken: z.optional(z.string()),
  nextLink: z.optional(z.string()),
  incompleteSearch: z.optional(z.boolean()),
  items: z._default(z.array(driveFileSchema), []),
});
export type FileList = z.infer<typeof fileListSchema>;

const formatListSchema = z.array(z.object({ source: z.optional(z.string()), targets: z.optional(z.array(z.string())) }));

export const aboutSchema = z.object({
  kind: z.optional(z.string()),
  etag: z.optional(z.string()),
  selfLink: z.optional(z.string()),
  name: z.optional(z.string()),
  user: z.optional(driveUserSchema),
  rootFolderId: z.optional(z.string()),
  permissionId: z.optional(z.string()),
  quotaType: z.optional(z.string()),
  quotaBytesTotal: z.optional(int64String),
  quotaBytesUsed: z.optional(int64String),
  quotaBytesUsedAggregate: z.optional(int64String),
  quotaBytesUsedInTrash: z.optional(int64String),
  largestChangeId: z.optional(int64String),
  remainingChangeIds: z.optional(int64String),
  importFormats: z.optional(formatListSchema),
  exportFormats: z.optional(formatListSchema),
  maxUploadSizes: z.optional(z.array(z.object({ type: z.optional(z.string()), size: z.optional(int64String) }))),
  languageCode: z.optional(z.string()),
  canCreateDrives: z.optional(z.boolean()),
  /** The themes a shared drive can take (drives.insert/update `themeId`). */
  driveThemes: z.optional(z.array(z.object({ id: z.optional(z.string()), colorRgb: z.optional(z.string()), backgroundImageLink: z.optional(z.string()) }))),
  /** Emulator-only: changes.list honours `X-Desk-Wait` (long poll). Google never sends this. */
  deskLongPoll: z.optional(z.boolean()),
});
export type About = z.infer<typeof aboutSchema>;

export const changeSchema = z.object({
  kind: z.optional(z.string()),
  id: int64String,
  selfLink: z.optional(z.string()),
  fileId: z.optional(z.string()),
  deleted: z.optional(z.boolean()),
  file: z.optional(driveFileSchema),
  modificationDate: z.optional(z.string()),
  changeType: z.optional(z.string()),
  type: z.optional(z.string()),
  time: z.optional(z.string()),
  driveId: z.optional(z.string()),
  teamDriveId: z.optional(z.string()),
  /** changeType 'drive': the shared drive as it is now (absent when it was deleted or the user left it). */
  drive: z.optional(sharedDriveSchema),
});
export type Change = z.infer<typeof changeSchema>;

export const changeListSchema = z.object({
  kind: z.optional(z.string()),
  etag: z.optional(z.string()),
  selfLink: z.optional(z.string()),
  nextLink: z.optional(z.string()),
  largestChangeId: z.optional(int64String),
  nextPageToken: z.optional(z.string()),
  newStartPageToken: z.optional(z.string()),
  items: z._default(z.array(changeSchema), []),
});
export type ChangeList = z.infer<typeof changeListSchema>;

export const startPageTokenSchema = z.object({
  kind: z.optional(z.string()),
  startPageToken: z.string(),
});
export type StartPageToken = z.infer<typeof startPageTokenSchema>;

export const generatedIdsSchema = z.object({
  kind: z.optional(z.string()),
  space: z.optional(z.string()),
  ids: z._default(z.array(z.string()), []),
});
export type GeneratedIds = z.infer<typeof generatedIdsSchema>;

export const appSchema = z.object({
  kind: z.optional(z.string()),
  id: z.string(),
  name: z.optional(z.string()),
  objectType: z.optional(z.string()),
  shortDescription: z.optional(z.string()),
  longDescription: z.optional(z.string()),
  supportsCreate: z.optional(z.boolean()),
  supportsImport: z.optional(z.boolean()),
  supportsMultiOpen: z.optional(z.boolean()),
  supportsOfflineCreate: z.optional(z.boolean()),
  installed: z.optional(z.boolean()),
  authorized: z.optional(z.boolean()),
  useByDefault: z.optional(z.boolean()),
  hasDriveWideScope: z.optional(z.boolean()),
  productUrl: z.optional(z.string()),
  productId: z.optional(z.string()),
  openUrlTemplate: z.optional(z.string()),
  createUrl: z.optional(z.string()),
  createInFolderTemplate: z.optional(z.string()),
  primaryMimeTypes: z.optional(z.array(z.string())),
  secondaryMimeTypes: z.optional(z.array(z.string())),
  primaryFileExtensions: z.optional(z.array(z.string())),
  secondaryFileExtensions: z.optional(z.array(z.string())),
  icons: z.optional(z.array(z.object({ category: z.optional(z.string()), iconUrl: z.optional(z.string()), size: z.optional(z.number()) }))),
});
export type DriveApp = z.infer<typeof appSchema>;

export const appListSchema = z.object({
  kind: z.optional(z.string()),
  etag: z.optional(z.string()),
  selfLink: z.optional(z.string()),
  defaultAppIds: z.optional(z.array(z.string())),
  items: z._default(z.array(appSchema), []),
});
export type AppList = z.infer<typeof appListSchema>;

// ---- Request bodies (what a client may send; the emulator validates with these) ----

const MAX_TITLE = 32_767;
const MAX_DESCRIPTION = 32_767;
/** Google's published bound on the text a client gives to index a file by ("limited to 128KB in length"). */
export const MAX_INDEXABLE_TEXT = 128 * 1024;
const timestampInput = z.string().check(
  z.maxLength(64),
  z.refine((value) => /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)), { error: 'must be an RFC 3339 date-time' }),
);

export const propertyInputSchema = z.object({
  key: z.string().check(z.minLength(1), z.maxLength(124)),
  value: z.optional(z.string().check(z.maxLength(124))),
  visibility: z.optional(z.enum(PROPERTY_VISIBILITIES)),
});
export type PropertyInput = z.infer<typeof propertyInputSchema>;

/**
 * The writable part of a File for insert/update/patch/copy. Output-only fields a client echoes back (kind,
 * etag, selfLink, …) are accepted and ignored, as Google does.
 */
export const fileMetadataInputSchema = z.object({
  id: z.optional(z.string().check(z.minLength(1), z.maxLength(200), z.regex(/^[A-Za-z0-9_-]+$/, 'must contain only letters, digits, - and _'))),
  title: z.optional(z.string().check(z.maxLength(MAX_TITLE))),
  description: z.optional(z.string().check(z.maxLength(MAX_DESCRIPTION))),
  mimeType: z.optional(z.string().check(z.minLength(1), z.maxLength(255), z.regex(/^[^\s/]+\/[^\s]+$/, 'must be a MIME type like text/plain'))),
  labels: z.optional(z.object({
    starred: z.optional(z.boolean()),
    hidden: z.optional(z.boolean()),
    trashed: z.optional(z.boolean()),
    restricted: z.optional(z.boolean()),
    viewed: z.optional(z.boolean()),
  })),
  parents: z.optional(z.array(z.object({ id: z.string().check(z.minLength(1), z.maxLength(200)) })).check(z.maxLength(100))),
  properties: z.optional(z.array(propertyInputSchema).check(z.maxLength(100))),
  modifiedDate: z.optional(timestampInput),
  lastViewedByMeDate: z.optional(timestampInput),
  originalFilename: z.optional(z.string().check(z.maxLength(MAX_TITLE))),
  writersCanShare: z.optional(z.boolean()),
  /** Text `fullText` searches besides the content (Drive v2 `indexableText`). */
  indexableText: z.optional(z.object({ text: z.optional(z.string().check(z.maxLength(MAX_INDEXABLE_TEXT))) })),
});
export type FileMetadataInput = z.infer<typeof fileMetadataInputSchema>;

export const childReferenceInputSchema = z.object({ id: z.string().check(z.minLength(1), z.maxLength(200)) });
export const parentReferenceInputSchema = z.object({ id: z.string().check(z.minLength(1), z.maxLength(200)) });

/** Header the emulator puts on changes.list answers when it honours `X-Desk-Wait` (long poll). */
export const LONG_POLL_ANNOUNCE_HEADER = 'x-desk-long-poll';
/** Request header asking the emulator to hold an empty changes.list up to this many seconds (≤ 60). */
export const LONG_POLL_WAIT_HEADER = 'x-desk-wait';
export const LONG_POLL_MAX_SECONDS = 60;
