import * as z from '../zod';
import { accessRoleSchema, echoedReadOnlyFields } from './common';

/** Access control rules (`calendar#aclRule`) of a calendar and their list envelope (`calendar#acl`). */

export const SCOPE_TYPES = ['default', 'user', 'group', 'domain'] as const;
export type ScopeType = (typeof SCOPE_TYPES)[number];

export const aclRuleSchema = z.object({
  kind: z.optional(z.string()),
  etag: z.optional(z.string()),
  id: z.string(),
  role: z.optional(z.string()),
  scope: z.optional(z.object({ type: z.optional(z.string()), value: z.optional(z.string()) })),
});
export type AclRule = z.infer<typeof aclRuleSchema>;

export const aclPageSchema = z.object({
  kind: z.optional(z.string()),
  etag: z.optional(z.string()),
  nextPageToken: z.optional(z.string()),
  nextSyncToken: z.optional(z.string()),
  items: z._default(z.array(aclRuleSchema), []),
});
export type AclPage = z.infer<typeof aclPageSchema>;

export const aclRuleInputSchema = z.object({
  ...echoedReadOnlyFields,
  id: z.optional(z.nullable(z.string())),
  role: z.optional(z.nullable(accessRoleSchema)),
  scope: z.optional(z.nullable(z.object({
    type: z.enum(SCOPE_TYPES),
    // An address or domain: Drive's bound for the same (an unbounded one was stored, and made the rule's id).
    value: z.optional(z.nullable(z.string().check(z.maxLength(320)))),
  }))),
});
export type AclRuleInput = z.infer<typeof aclRuleInputSchema>;

/** What a client writes: the role, and the scope on insert (a rule's scope cannot change). */
export interface AclRuleWrite {
  role?: z.infer<typeof accessRoleSchema>;
  scope?: { type: ScopeType; value?: string };
}
