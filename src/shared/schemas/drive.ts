import { z } from 'zod';

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

export function isFolderMimeType(mimeType: string | undefined): boolean {
  return mimeType === FOLDER_MIME_TYPE;
}

export function isNativeMimeType(mimeType: string | undefined): boolean {
  return mimeType !== undefined && mimeType.startsWith(GOOGLE_APPS_MIME_PREFIX);
}

export const driveUserSchema = z.object({
  kind: z.string().optional(),
  displayName: z.string().optional(),
  emailAddress: z.string().optional(),
  permissionId: z.string().optional(),
  isAuthenticatedUser: z.boolean().optional(),
  picture: z.object({ url: z.string().optional() }).optional(),
});
export type DriveUser = z.infer<typeof driveUserSchema>;

export const parentReferenceSchema = z.object({
  kind: z.string().optional(),
  id: z.string(),
  selfLink: z.string().optional(),
  parentLink: z.string().optional(),
  isRoot: z.boolean().optional(),
});
export type ParentReference = z.infer<typeof parentReferenceSchema>;

export const parentListSchema = z.object({
  kind: z.string().optional(),
  etag: z.string().optional(),
  selfLink: z.string().optional(),
  items: z.array(parentReferenceSchema).default([]),
});
export type ParentList = z.infer<typeof parentListSchema>;

export const childReferenceSchema = z.object({
  kind: z.string().optional(),
  id: z.string(),
  selfLink: z.string().optional(),
  childLink: z.string().optional(),
});
export type ChildReference = z.infer<typeof childReferenceSchema>;

export const childListSchema = z.object({
  kind: z.string().optional(),
  etag: z.string().optional(),
  selfLink: z.string().optional(),
  nextPageToken: z.string().optional(),
  nextLink: z.string().optional(),
  items: z.array(childReferenceSchema).default([]),
});
export type ChildList = z.infer<typeof childListSchema>;

export const PROPERTY_VISIBILITIES = ['PRIVATE', 'PUBLIC'] as const;
export type PropertyVisibility = (typeof PROPERTY_VISIBILITIES)[number];

export const propertySchema = z.object({
  kind: z.string().optional(),
  etag: z.string().optional(),
  selfLink: z.string().optional(),
  key: z.string(),
  value: z.string().optional(),
  visibility: z.string().optional(),
});
export type DriveProperty = z.infer<typeof propertySchema>;

export const fileLabelsSchema = z.object({
  starred: z.boolean().optional(),
  hidden: z.boolean().optional(),
  trashed: z.boolean().optional(),
  restricted: z.boolean().optional(),
  viewed: z.boolean().optional(),
  modified: z.boolean().optional(),
});
export type FileLabels = z.infer<typeof fileLabelsSchema>;

export const permissionSchema = z.object({
  kind: z.string().optional(),
  etag: z.string().optional(),
  id: z.string().optional(),
  selfLink: z.string().optional(),
  role: z.string().optional(),
  type: z.string().optional(),
  emailAddress: z.string().optional(),
  name: z.string().optional(),
});
export type DrivePermission = z.infer<typeof permissionSchema>;

/** A capability flag map: `canEdit`, `canTrash`, … */
export const fileCapabilitiesSchema = z.record(z.string(), z.boolean());

export const driveFileSchema = z.object({
  kind: z.string().optional(),
  id: z.string(),
  etag: z.string().optional(),
  selfLink: z.string().optional(),
  title: z.string().optional(),
  mimeType: z.string().optional(),
  description: z.string().optional(),
  labels: fileLabelsSchema.optional(),
  createdDate: z.string().optional(),
  modifiedDate: z.string().optional(),
  modifiedByMeDate: z.string().optional(),
  lastViewedByMeDate: z.string().optional(),
  markedViewedByMeDate: z.string().optional(),
  trashedDate: z.string().optional(),
  version: z.string().optional(),
  parents: z.array(parentReferenceSchema).optional(),
  downloadUrl: z.string().optional(),
  exportLinks: z.record(z.string(), z.string()).optional(),
  alternateLink: z.string().optional(),
  webContentLink: z.string().optional(),
  embedLink: z.string().optional(),
  iconLink: z.string().optional(),
  fileSize: z.string().optional(),
  md5Checksum: z.string().optional(),
  headRevisionId: z.string().optional(),
  originalFilename: z.string().optional(),
  fileExtension: z.string().optional(),
  fullFileExtension: z.string().optional(),
  owners: z.array(driveUserSchema).optional(),
  ownerNames: z.array(z.string()).optional(),
  ownedByMe: z.boolean().optional(),
  lastModifyingUser: driveUserSchema.optional(),
  lastModifyingUserName: z.string().optional(),
  editable: z.boolean().optional(),
  copyable: z.boolean().optional(),
  shared: z.boolean().optional(),
  explicitlyTrashed: z.boolean().optional(),
  properties: z.array(propertySchema).optional(),
  userPermission: permissionSchema.optional(),
  quotaBytesUsed: z.string().optional(),
  spaces: z.array(z.string()).optional(),
  capabilities: fileCapabilitiesSchema.optional(),
});
export type DriveFile = z.infer<typeof driveFileSchema>;

export const fileListSchema = z.object({
  kind: z.string().optional(),
  etag: z.string().optional(),
  selfLink: z.string().optional(),
  nextPageToken: z.string().optional(),
  nextLink: z.string().optional(),
  incompleteSearch: z.boolean().optional(),
  items: z.array(driveFileSchema).default([]),
});
export type FileList = z.infer<typeof fileListSchema>;

const formatListSchema = z.array(z.object({ source: z.string().optional(), targets: z.array(z.string()).optional() }));

export const aboutSchema = z.object({
  kind: z.string().optional(),
  etag: z.string().optional(),
  selfLink: z.string().optional(),
  name: z.string().optional(),
  user: driveUserSchema.optional(),
  rootFolderId: z.string().optional(),
  permissionId: z.string().optional(),
  quotaType: z.string().optional(),
  quotaBytesTotal: z.string().optional(),
  quotaBytesUsed: z.string().optional(),
  quotaBytesUsedAggregate: z.string().optional(),
  quotaBytesUsedInTrash: z.string().optional(),
  largestChangeId: z.string().optional(),
  remainingChangeIds: z.string().optional(),
  importFormats: formatListSchema.optional(),
  exportFormats: formatListSchema.optional(),
  maxUploadSizes: z.array(z.object({ type: z.string().optional(), size: z.string().optional() })).optional(),
  languageCode: z.string().optional(),
  canCreateDrives: z.boolean().optional(),
  /** Emulator-only: changes.list honours `X-Desk-Wait` (long poll). Google never sends this. */
  deskLongPoll: z.boolean().optional(),
});
export type About = z.infer<typeof aboutSchema>;

export const changeSchema = z.object({
  kind: z.string().optional(),
  id: z.string(),
  selfLink: z.string().optional(),
  fileId: z.string().optional(),
  deleted: z.boolean().optional(),
  file: driveFileSchema.optional(),
  modificationDate: z.string().optional(),
  changeType: z.string().optional(),
  type: z.string().optional(),
  time: z.string().optional(),
  driveId: z.string().optional(),
});
export type Change = z.infer<typeof changeSchema>;

export const changeListSchema = z.object({
  kind: z.string().optional(),
  etag: z.string().optional(),
  selfLink: z.string().optional(),
  nextLink: z.string().optional(),
  largestChangeId: z.string().optional(),
  nextPageToken: z.string().optional(),
  newStartPageToken: z.string().optional(),
  items: z.array(changeSchema).default([]),
});
export type ChangeList = z.infer<typeof changeListSchema>;

export const startPageTokenSchema = z.object({
  kind: z.string().optional(),
  startPageToken: z.string(),
});
export type StartPageToken = z.infer<typeof startPageTokenSchema>;

export const generatedIdsSchema = z.object({
  kind: z.string().optional(),
  space: z.string().optional(),
  ids: z.array(z.string()).default([]),
});
export type GeneratedIds = z.infer<typeof generatedIdsSchema>;

export const appSchema = z.object({
  kind: z.string().optional(),
  id: z.string(),
  name: z.string().optional(),
  objectType: z.string().optional(),
  shortDescription: z.string().optional(),
  longDescription: z.string().optional(),
  supportsCreate: z.boolean().optional(),
  supportsImport: z.boolean().optional(),
  supportsMultiOpen: z.boolean().optional(),
  supportsOfflineCreate: z.boolean().optional(),
  installed: z.boolean().optional(),
  authorized: z.boolean().optional(),
  useByDefault: z.boolean().optional(),
  hasDriveWideScope: z.boolean().optional(),
  productUrl: z.string().optional(),
  productId: z.string().optional(),
  openUrlTemplate: z.string().optional(),
  createUrl: z.string().optional(),
  createInFolderTemplate: z.string().optional(),
  primaryMimeTypes: z.array(z.string()).optional(),
  secondaryMimeTypes: z.array(z.string()).optional(),
  primaryFileExtensions: z.array(z.string()).optional(),
  secondaryFileExtensions: z.array(z.string()).optional(),
  icons: z.array(z.object({ category: z.string().optional(), iconUrl: z.string().optional(), size: z.number().optional() })).optional(),
});
export type DriveApp = z.infer<typeof appSchema>;

export const appListSchema = z.object({
  kind: z.string().optional(),
  etag: z.string().optional(),
  selfLink: z.string().optional(),
  defaultAppIds: z.array(z.string()).optional(),
  items: z.array(appSchema).default([]),
});
export type AppList = z.infer<typeof appListSchema>;

// ---- Request bodies (what a client may send; the emulator validates with these) ----

const MAX_TITLE = 32_767;
const MAX_DESCRIPTION = 32_767;
const timestampInput = z.string().max(64).refine((value) => /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)), {
  message: 'must be an RFC 3339 date-time',
});

export const propertyInputSchema = z.object({
  key: z.string().min(1).max(124),
  value: z.string().max(124).optional(),
  visibility: z.enum(PROPERTY_VISIBILITIES).optional(),
});
export type PropertyInput = z.infer<typeof propertyInputSchema>;

/**
 * The writable part of a File for insert/update/patch/copy. Output-only fields a client echoes back (kind,
 * etag, selfLink, …) are accepted and ignored, as Google does.
 */
export const fileMetadataInputSchema = z.object({
  id: z.string().min(1).max(200).regex(/^[A-Za-z0-9_-]+$/, 'must contain only letters, digits, - and _').optional(),
  title: z.string().max(MAX_TITLE).optional(),
  description: z.string().max(MAX_DESCRIPTION).optional(),
  mimeType: z.string().min(1).max(255).regex(/^[^\s/]+\/[^\s]+$/, 'must be a MIME type like text/plain').optional(),
  labels: z.object({
    starred: z.boolean().optional(),
    hidden: z.boolean().optional(),
    trashed: z.boolean().optional(),
    restricted: z.boolean().optional(),
    viewed: z.boolean().optional(),
  }).optional(),
  parents: z.array(z.object({ id: z.string().min(1).max(200) })).max(100).optional(),
  properties: z.array(propertyInputSchema).max(100).optional(),
  modifiedDate: timestampInput.optional(),
  lastViewedByMeDate: timestampInput.optional(),
  originalFilename: z.string().max(MAX_TITLE).optional(),
});
export type FileMetadataInput = z.infer<typeof fileMetadataInputSchema>;

export const childReferenceInputSchema = z.object({ id: z.string().min(1).max(200) });
export const parentReferenceInputSchema = z.object({ id: z.string().min(1).max(200) });

/** Header the emulator puts on changes.list answers when it honours `X-Desk-Wait` (long poll). */
export const LONG_POLL_ANNOUNCE_HEADER = 'x-desk-long-poll';
/** Request header asking the emulator to hold an empty changes.list up to this many seconds (≤ 60). */
export const LONG_POLL_WAIT_HEADER = 'x-desk-wait';
export const LONG_POLL_MAX_SECONDS = 60;
