/** ACL rules as `calendar#aclRule` resources (a deleted rule shows role `none`, as Google reports it in syncs). */
import type { StoredAclRule } from './model';

export function renderAclRule(rule: StoredAclRule): Record<string, unknown> {
  return {
    kind: 'calendar#aclRule',
    etag: rule.etag,
    id: rule.id,
    scope: { type: rule.scopeType, ...(rule.scopeValue !== undefined ? { value: rule.scopeValue } : {}) },
    role: rule.deleted ? 'none' : rule.role,
  };
}
