/** Who may do what to a Drive file: roles from the owner, explicit grants and folders above, and the index of grants per user. */
import { DEMO_USERS, EmulatorUser, findUser } from '../../identity/users';
import { ApiError } from '../../core/errors';
import { addTo, removeFrom } from '../../core/multimap';

/** Drive's roles, weakest first. v2 spells commenter as reader + additionalRoles ['commenter']; the emulator stores 'commenter'. */
export const ROLES = ['reader', 'commenter', 'writer', 'fileOrganizer', 'organizer', 'owner'] as const;
export type Role = (typeof ROLES)[number];
export const GRANTEE_TYPES = ['user', 'group', 'domain', 'anyone'] as const;
export type GranteeType = (typeof GRANTEE_TYPES)[number];

/** What a caller wants to do; each maps to the weakest role that allows it (see `allows`). */
export type Capability = 'read' | 'comment' | 'write' | 'share' | 'trash' | 'delete' | 'own';

/** An explicit grant on a file or a shared drive (the owner's permission is implied by `ownerId`). */
export interface StoredPermission {
  id: string;
  type: GranteeType;
  role: Exclude<Role, 'owner'>;
  emailAddress?: string;
  domain?: string;
  /** anyone/domain: reachable by link only, not found by search. */
  withLink?: boolean;
  /** Epoch ms after which the grant no longer counts (user and group grants). */
  expirationDate?: number;
  createdDate: number;
  /** Who granted it (the file's `sharingUser` for the grantee). */
  grantedBy?: string;
}

/** The part of a file the access rules read. */
export interface Securable {
  id: string;
  ownerId: string;
  parents: readonly string[];
  permissions?: StoredPermission[];
  writersCanShare?: boolean;
  /** Set on files in a shared drive: the drive's members hold roles on every item. */
  driveId?: string;
}

/** The emulator's one demo group: every demo user is a member (so group grants can be tried out). */
export const DEMO_GROUPS: Readonly<Record<string, readonly string[]>> = {
  'team@example.com': DEMO_USERS.map((user) => user.email),
};
export const DEMO_DOMAIN = 'example.com';

export function rank(role: Role | undefined): number {
  return role === undefined ? 0 : ROLES.indexOf(role) + 1;
}

export function stronger(a: Role | undefined, b: Role | undefined): Role | undefined {
  return rank(a) >= rank(b) ? a : b;
}

/** Whether a grant names this user (directly, through the demo group, the domain, or anyone). */
export function granteeIncludes(permission: StoredPermission, user: EmulatorUser, now: number): boolean {
  if (permission.expirationDate !== undefined && permission.expirationDate <= now) return false;
  switch (permission.type) {
    case 'user': return permission.emailAddress === user.email;
    case 'group': return (DEMO_GROUPS[permission.emailAddress ?? ''] ?? []).includes(user.email);
    case 'domain': return user.email.endsWith(`@${permission.domain ?? ''}`);
    case 'anyone': return true;
  }
}

/** Demo users a grant reaches directly (user and group grants): they see the file as shared with them. */
export function directGrantees(permission: StoredPermission): EmulatorUser[] {
  if (permission.type === 'user') {
    const user = findUser(permission.emailAddress ?? '');
    return user ? [user] : [];
  }
  if (permission.type === 'group') return DEMO_USERS.filter((user) => (DEMO_GROUPS[permission.emailAddress ?? ''] ?? []).includes(user.email));
  return [];
}

/** Whether `role` (with the file's writersCanShare and whether it sits in a shared drive) allows `capability`. */
export function allows(role: Role | undefined, capability: Capability, file: { writersCanShare?: boolean; driveId?: string }): boolean {
  const level = rank(role);
  switch (capability) {
    case 'read': return level >= rank('reader');
    case 'comment': return level >= rank('commenter');
    case 'write': return level >= rank('writer');
    case 'share':
      if (file.driveId !== undefined) return level >= rank('writer') && (level >= rank('fileOrganizer') || file.writersCanShare !== false);
      return level >= rank('owner') || (level >= rank('writer') && file.writersCanShare !== false);
    // In My Drive only the owner trashes or deletes; in a shared drive content managers trash and organizers delete.
    case 'trash': return file.driveId !== undefined ? level >= rank('fileOrganizer') : level >= rank('owner');
    case 'delete': return file.driveId !== undefined ? level >= rank('organizer') : level >= rank('owner');
    case 'own': return level >= rank('owner');
  }
}

export function insufficientPermissions(message = 'The user does not have sufficient permissions for this file.'): ApiError {
  return new ApiError(403, 'insufficientFilePermissions', message);
}

/**
 * The grant index and role arithmetic over files: a user's role on a file is the strongest of ownership, the
 * file's own grants and the roles inherited from every parent folder (an owner of a folder edits what others
 * put in it; organizers of a shared drive keep their role on its items). Roles are computed on demand with a
 * per-call memo, so a listing costs one look at each file's own grants plus one per distinct parent.
 */
export class AccessIndex {
  /** Files granted directly to a demo user (user and group grants): "shared with me", the change feed. */
  private readonly byGrantee = new Map<string, Set<string>>();

  constructor(
    private readonly lookup: (id: string) => Securable | undefined,
    private readonly now: () => number,
    /** The role a user holds on a shared drive as a member (undefined outside shared drives). */
    private readonly driveRole: (user: EmulatorUser, driveId: string) => Role | undefined = () => undefined,
  ) {}

  index(file: Securable): void {
    for (const permission of file.permissions ?? []) for (const user of directGrantees(permission)) addTo(this.byGrantee, user.id, file.id);
  }

  unindex(file: Securable): void {
    for (const permission of file.permissions ?? []) for (const user of directGrantees(permission)) removeFrom(this.byGrantee, user.id, file.id);
  }

  /** Ids of files granted directly to the user (their "shared with me", before checking expiry or ownership). */
  grantedTo(userId: string): ReadonlySet<string> {
    return this.byGrantee.get(userId) ?? EMPTY;
  }

  /** The user's role on the file, or undefined when they cannot see it. */
  roleOf(user: EmulatorUser, file: Securable, memo: Map<string, Role | undefined> = new Map()): Role | undefined {
    if (file.ownerId === user.id) return 'owner';
    if (memo.has(file.id)) return memo.get(file.id);
    memo.set(file.id, undefined);
    let best: Role | undefined = file.driveId !== undefined ? this.driveRole(user, file.driveId) : undefined;
    const time = this.now();
    for (const permission of file.permissions ?? []) if (granteeIncludes(permission, user, time)) best = stronger(best, permission.role);
    for (const parentId of file.parents) {
      if (rank(best) >= rank('owner')) break;
      const parent = this.lookup(parentId);
      if (!parent) continue;
      let inherited = this.roleOf(user, parent, memo);
      // A folder's owner edits what others put in it; ownership itself is not inherited.
      if (inherited === 'owner') inherited = 'writer';
      best = stronger(best, inherited);
    }
    memo.set(file.id, best);
    return best;
  }

  /** Whether the file or a folder above it carries any grant (the file is `shared`). */
  isShared(file: Securable, seen: Set<string> = new Set()): boolean {
    if (file.driveId !== undefined) return true;
    if ((file.permissions?.length ?? 0) > 0) return true;
    for (const parentId of file.parents) {
      if (seen.has(parentId)) continue;
      seen.add(parentId);
      const parent = this.lookup(parentId);
      if (parent && this.isShared(parent, seen)) return true;
    }
    return false;
  }

  /** Demo users who see the file through ownership, membership or user/group/domain grants (those whose change feed it enters). */
  audience(file: Securable): EmulatorUser[] {
    return DEMO_USERS.filter((user) => {
      const role = this.roleOfIgnoringAnyone(user, file, new Map());
      return role !== undefined;
    });
  }

  private roleOfIgnoringAnyone(user: EmulatorUser, file: Securable, memo: Map<string, boolean>): true | undefined {
    if (file.ownerId === user.id) return true;
    if (memo.has(file.id)) return memo.get(file.id) ? true : undefined;
    memo.set(file.id, false);
    let found = file.driveId !== undefined && this.driveRole(user, file.driveId) !== undefined;
    const time = this.now();
    if (!found) found = (file.permissions ?? []).some((permission) => permission.type !== 'anyone' && granteeIncludes(permission, user, time));
    if (!found) {
      for (const parentId of file.parents) {
        const parent = this.lookup(parentId);
        if (parent && this.roleOfIgnoringAnyone(user, parent, memo)) {
          found = true;
          break;
        }
      }
    }
    memo.set(file.id, found);
    return found ? true : undefined;
  }
}

const EMPTY: ReadonlySet<string> = new Set();
