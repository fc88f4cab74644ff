/** Drive v2 shared drives (the `drives` resource): responses tolerant, inputs strict, shared by the client and the emulator. */
import * as z from '../zod';

/** drives.list: default page 10, at most 100 (reference/drive.v2.discovery.json). */
export const DRIVES_PAGE_DEFAULT = 10;
export const DRIVES_PAGE_MAX = 100;
/** Google's limit on a shared drive's name. */
export const MAX_DRIVE_NAME = 128;
/** The roles a shared drive's member may hold, weakest first (v2 spells commenter as reader + additionalRoles). */
export const DRIVE_MEMBER_ROLES = ['reader', 'commenter', 'writer', 'fileOrganizer', 'organizer'] as const;
export type DriveMemberRole = (typeof DRIVE_MEMBER_ROLES)[number];

export const driveCapabilitiesSchema = z.record(z.string(), z.boolean());

export const driveRestrictionsSchema = z.object({
  adminManagedRestrictions: z.optional(z.boolean()),
  copyRequiresWriterPermission: z.optional(z.boolean()),
  domainUsersOnly: z.optional(z.boolean()),
  driveMembersOnly: z.optional(z.boolean()),
  sharingFoldersRequiresOrganizerPermission: z.optional(z.boolean()),
});
export type DriveRestrictions = z.infer<typeof driveRestrictionsSchema>;

export const sharedDriveSchema = z.object({
  kind: z.optional(z.string()),
  id: z.string(),
  name: z.optional(z.string()),
  createdDate: z.optional(z.string()),
  hidden: z.optional(z.boolean()),
  colorRgb: z.optional(z.string()),
  themeId: z.optional(z.string()),
  backgroundImageLink: z.optional(z.string()),
  orgUnitId: z.optional(z.string()),
  capabilities: z.optional(driveCapabilitiesSchema),
  restrictions: z.optional(driveRestrictionsSchema),
});
export type SharedDrive = z.infer<typeof sharedDriveSchema>;

export const sharedDriveListSchema = z.object({
  kind: z.optional(z.string()),
  nextPageToken: z.optional(z.string()),
  items: z._default(z.array(sharedDriveSchema), []),
});
export type SharedDriveList = z.infer<typeof sharedDriveListSchema>;

/**
 * drives.insert / drives.update bodies. Output-only fields a client echoes back (kind, id, capabilities, …) are
 * accepted and ignored, as Google does; `hidden` is changed through hide/unhide, not here.
 */
export const sharedDriveInputSchema = z.object({
  name: z.optional(z.string().check(z.maxLength(MAX_DRIVE_NAME))),
  themeId: z.optional(z.string().check(z.maxLength(100))),
  colorRgb: z.optional(z.string().check(z.regex(/^#[0-9A-Fa-f]{6}$/, 'must be an RGB hex string like #0f9d58'))),
  backgroundImageFile: z.optional(z.object({
    id: z.string().check(z.minLength(1), z.maxLength(200)),
    xCoordinate: z.number(),
    yCoordinate: z.number(),
    width: z.number(),
  })),
  restrictions: z.optional(driveRestrictionsSchema),
});
export type SharedDriveInput = z.infer<typeof sharedDriveInputSchema>;

/**
 * The deprecated v2 `teamdrives` resource's bodies: a shared drive under its old names (`teamMembersOnly` for
 * `driveMembersOnly`); no `hidden`. Only the emulator serves it (Desk's client uses `drives`).
 */
export const teamDriveInputSchema = z.object({
  ...sharedDriveInputSchema.shape,
  restrictions: z.optional(z.object({
    adminManagedRestrictions: z.optional(z.boolean()),
    copyRequiresWriterPermission: z.optional(z.boolean()),
    domainUsersOnly: z.optional(z.boolean()),
    teamMembersOnly: z.optional(z.boolean()),
    sharingFoldersRequiresOrganizerPermission: z.optional(z.boolean()),
  })),
});
export type TeamDriveInput = z.infer<typeof teamDriveInputSchema>;

export interface TeamDrive {
  kind: 'drive#teamDrive';
  id: string;
  name: string;
  createdDate: string;
  themeId: string;
  colorRgb: string;
  backgroundImageLink: string;
  capabilities: Record<string, boolean>;
  restrictions: Record<string, boolean>;
}

export interface TeamDriveList {
  kind: 'drive#teamDriveList';
  items: TeamDrive[];
  nextPageToken?: string;
}
