/** Drive v2 permissions (sharing): responses tolerant, inputs strict, shared by the client and the emulator. */
import * as z from '../zod';
import { permissionSchema } from './files';

export { permissionSchema } from './files';
export type { DrivePermission, PermissionDetail } from './files';

/** Roles a request may name; v2 also spells commenter as reader + additionalRoles ['commenter']. */
export const PERMISSION_ROLES = ['owner', 'organizer', 'fileOrganizer', 'writer', 'commenter', 'reader'] as const;
export const PERMISSION_TYPES = ['user', 'group', 'domain', 'anyone'] as const;

export const permissionListSchema = z.object({
  kind: z.optional(z.string()),
  etag: z.optional(z.string()),
  selfLink: z.optional(z.string()),
  nextPageToken: z.optional(z.string()),
  items: z._default(z.array(permissionSchema), []),
});
export type PermissionList = z.infer<typeof permissionListSchema>;

export const permissionIdSchema = z.object({
  kind: z.optional(z.string()),
  id: z.string(),
});
export type PermissionId = z.infer<typeof permissionIdSchema>;

const timestampInput = z.string().check(
  z.maxLength(64),
  z.refine((value) => /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)), { error: 'must be an RFC 3339 date-time' }),
);

/**
 * permissions.insert / update / patch bodies. `value` is v2's older spelling of the e-mail address or domain;
 * output-only fields a client echoes back are accepted and ignored.
 */
export const permissionInputSchema = z.object({
  role: z.optional(z.enum(PERMISSION_ROLES)),
  type: z.optional(z.enum(PERMISSION_TYPES)),
  additionalRoles: z.optional(z.array(z.enum(['commenter'])).check(z.maxLength(1))),
  emailAddress: z.optional(z.string().check(z.maxLength(320), z.regex(/^[^\s@]+@[^\s@]+$/, 'must be an e-mail address'))),
  value: z.optional(z.string().check(z.maxLength(320))),
  domain: z.optional(z.string().check(z.maxLength(253), z.regex(/^[A-Za-z0-9.-]+$/, 'must be a domain name'))),
  withLink: z.optional(z.boolean()),
  expirationDate: z.optional(timestampInput),
});
export type PermissionInput = z.infer<typeof permissionInputSchema>;
