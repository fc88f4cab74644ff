/**
 * Calendar sharing: ACL rules per calendar (scope user / group / domain / default, role none … owner) and the
 * effective role a user gets from them. Writers may read the ACL, only owners change it, and nobody changes the data
 * owner's own rule. A deleted rule stays as a tombstone (role `none`) so incremental syncs report it.
 */
import type { AccessRole, AclRuleInput, ScopeType } from '../../../shared/schemas/calendar';
import { EmulatorUser, findUser } from '../../identity/users';
import { ApiError, invalid, notFound, required } from '../../core/errors';
import { checkIfMatch, combinedEtag, newEtag } from '../../core/etag';
import { higherRole, requireRole } from '../access';
import type { StoredCalendar } from '../calendars/model';
import type { CalendarService } from '../service';
import { decodeSyncToken, SyncedGroups, syncedPage } from '../sync';

export interface StoredAclRule {
  calendarId: string;
  id: string;
  scopeType: ScopeType;
  scopeValue?: string;
  role: AccessRole;
  etag: string;
  seq: number;
  deleted: boolean;
}

/** Groups of the emulator's small directory, so group-scoped rules and free/busy group expansion have members. */
export const DEMO_GROUPS: Readonly<Record<string, readonly string[]>> = {
  'team@example.com': ['alice@example.com', 'bob@example.com', 'carol@example.com'],
};

export interface AclListOptions {
  maxResults: number;
  pageToken?: string;
  showDeleted: boolean;
  syncToken?: string;
}

export interface AclPageResult {
  items: StoredAclRule[];
  etag: string;
  nextPageToken?: string;
  nextSyncToken?: string;
}

export function ruleIdOf(scopeType: ScopeType, scopeValue: string | undefined): string {
  return scopeType === 'default' ? 'default' : `${scopeType}:${scopeValue ?? ''}`;
}

export class AclModel {
  /** Each calendar's rules, with their change log for sync tokens. */
  private readonly rules: SyncedGroups<StoredAclRule>;

  constructor(private readonly service: CalendarService) {
    this.rules = new SyncedGroups(service.store.collection<StoredAclRule>('calendar.acl'), (rule) => rule.calendarId, (rule) => rule.id);
  }

  /** The effective role: the data owner is always owner; otherwise the highest role of every rule that names the user. */
  roleOf(user: EmulatorUser, calendar: StoredCalendar): AccessRole {
    if (calendar.ownerId === user.id) return 'owner';
    let role: AccessRole = 'none';
    const domain = user.email.split('@')[1];
    for (const rule of this.rulesOf(calendar.id).values()) {
      if (rule.deleted) continue;
      const matches =
        rule.scopeType === 'default' ||
        (rule.scopeType === 'user' && rule.scopeValue === user.email) ||
        (rule.scopeType === 'domain' && rule.scopeValue === domain) ||
        (rule.scopeType === 'group' && (DEMO_GROUPS[rule.scopeValue ?? ''] ?? []).includes(user.email));
      if (matches) role = higherRole(role, rule.role);
    }
    return role;
  }

  addOwnerRule(calendarId: string, email: string): void {
    this.write({ calendarId, id: ruleIdOf('user', email), scopeType: 'user', scopeValue: email, role: 'owner', etag: newEtag(), seq: 0, deleted: false });
  }

  list(user: EmulatorUser, calendarId: string, options: AclListOptions): AclPageResult {
    const calendar = this.readable(user, calendarId);
    const all = [...this.rulesOf(calendar.id).values()];
    const scope = `acl:${calendar.id}`;
    let items: StoredAclRule[];
    if (options.syncToken !== undefined) {
      const since = decodeSyncToken(options.syncToken, scope, this.service.syncFloor(scope), this.service.currentSeq());
      items = this.rules.changedSince(calendar.id, since).map((id) => this.rulesOf(calendar.id).get(id)).filter((rule): rule is StoredAclRule => rule !== undefined);
    } else {
      items = all.filter((rule) => options.showDeleted || !rule.deleted);
    }
    const page = syncedPage(items, {
      scope: `${scope}|${options.showDeleted}|${options.syncToken ?? ''}`,
      maxResults: options.maxResults,
      currentSeq: this.service.currentSeq(),
      ...(options.pageToken !== undefined ? { pageToken: options.pageToken } : {}),
    });
    return { ...page, etag: combinedEtag(all.filter((rule) => !rule.deleted).map((rule) => rule.etag)) };
  }

  get(user: EmulatorUser, calendarId: string, ruleId: string): StoredAclRule {
    const calendar = this.readable(user, calendarId);
    return this.live(calendar.id, ruleId);
  }

  /** Creates the rule for a scope, or changes the role of the rule the scope already has (as Google does). */
  insert(user: EmulatorUser, calendarId: string, body: AclRuleInput): StoredAclRule {
    const calendar = this.manageable(user, calendarId);
    if (!body.scope) throw required('scope', 'body');
    if (!body.role) throw required('role', 'body');
    const { type } = body.scope;
    let value = body.scope.value ?? undefined;
    if (type === 'default') {
      if (value) throw invalid("The scope value must be empty for scope type 'default'", 'scope.value', 'body');
      value = undefined;
    } else {
      if (!value) throw required('scope.value', 'body');
      value = value.toLowerCase();
      if (type !== 'domain' && !/^[^@\s]+@[^@\s]+$/.test(value)) throw invalid(`Invalid scope value: ${value}`, 'scope.value', 'body');
    }
    const id = ruleIdOf(type, value);
    this.refuseOwnRule(calendar, id);
    const existing = this.rulesOf(calendar.id).get(id);
    const rule: StoredAclRule = { calendarId: calendar.id, id, scopeType: type, role: body.role, etag: newEtag(), seq: existing?.seq ?? 0, deleted: false, ...(value !== undefined ? { scopeValue: value } : {}) };
    this.write(rule);
    this.service.calendarList.reconcile(calendar);
    return rule;
  }

  /** `update` needs the role; `patch` keeps it when absent. A rule's scope never changes. */
  update(user: EmulatorUser, calendarId: string, ruleId: string, body: AclRuleInput, mode: 'update' | 'patch', ifMatch?: string): StoredAclRule {
    const calendar = this.manageable(user, calendarId);
    const rule = this.live(calendar.id, ruleId);
    checkIfMatch(rule.etag, ifMatch, 'the access rule');
    if (mode === 'update' && !body.role) throw required('role', 'body');
    if (body.scope && ruleIdOf(body.scope.type, body.scope.value?.toLowerCase() ?? undefined) !== rule.id) {
      throw invalid('The scope of an access rule cannot be changed', 'scope', 'body');
    }
    this.refuseOwnRule(calendar, rule.id);
    if (body.role) rule.role = body.role;
    rule.etag = newEtag();
    this.write(rule);
    this.service.calendarList.reconcile(calendar);
    return rule;
  }

  delete(user: EmulatorUser, calendarId: string, ruleId: string, ifMatch?: string): void {
    const calendar = this.manageable(user, calendarId);
    const rule = this.live(calendar.id, ruleId);
    checkIfMatch(rule.etag, ifMatch, 'the access rule');
    this.refuseOwnRule(calendar, rule.id);
    rule.deleted = true;
    rule.role = 'none';
    rule.etag = newEtag();
    this.write(rule);
    this.service.calendarList.reconcile(calendar);
  }

  /** A deleted calendar takes its rules with it (no tombstones: the calendar's sync scope is gone). */
  dropCalendar(calendarId: string): void {
    this.rules.dropGroup(calendarId);
  }

  /** Only the data owner's own rule is protected: changing it would lock the owner out. */
  private refuseOwnRule(calendar: StoredCalendar, ruleId: string): void {
    const ownerEmail = findUser(calendar.ownerId)?.email;
    if (ownerEmail !== undefined && ruleId === ruleIdOf('user', ownerEmail)) {
      throw new ApiError(403, 'cannotChangeOwnAcl', 'Cannot change your own access level.');
    }
  }

  private readable(user: EmulatorUser, calendarId: string): StoredCalendar {
    const { calendar, role } = this.service.calendars.access(user, calendarId);
    requireRole(role, 'writer');
    return calendar;
  }

  private manageable(user: EmulatorUser, calendarId: string): StoredCalendar {
    const { calendar, role } = this.service.calendars.access(user, calendarId);
    requireRole(role, 'owner');
    return calendar;
  }

  private write(rule: StoredAclRule): void {
    this.rules.write(rule, this.service.nextSeq());
    this.service.noteChange(`acl/${rule.calendarId}`);
  }

  private rulesOf(calendarId: string): Map<string, StoredAclRule> {
    return this.rules.group(calendarId);
  }

  private live(calendarId: string, ruleId: string): StoredAclRule {
    const rule = this.rulesOf(calendarId).get(ruleId);
    if (!rule || rule.deleted) throw notFound('Not Found');
    return rule;
  }



}
