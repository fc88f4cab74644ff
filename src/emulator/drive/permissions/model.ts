/**
 * Sharing: the permissions of a file (its owner, its own grants, and what it inherits from the folders above it),
 * inserting, changing and removing grants, and ownership transfer. Pure: no HTTP. Grants live on the file record
 * itself (one durable write per change); DriveModel indexes them per grantee.
 */
import { createHash } from 'node:crypto';
import type { PermissionInput } from '../../../shared/schemas/drive/permissions';
import { DEMO_USERS, EmulatorUser, findUser } from '../../identity/users';
import { ApiError, badRequest, forbidden, invalid, required } from '../../core/errors';
import type { DriveModel, StoredFile } from '../files/model';
import { FOLDER_MIME_TYPE } from '../../../shared/schemas/drive';
import { isDriveRoot } from '../files/drives';
import type { DriveAccess } from '../files/drives';
import { allows, DEMO_DOMAIN, DEMO_GROUPS, GranteeType, insufficientPermissions, rank, Role, StoredPermission, stronger } from './access';

/** A permission as a file shows it: the grant, its effective role, and where each part of it comes from. */
export interface PermissionView {
  id: string;
  type: GranteeType;
  role: Role;
  emailAddress?: string;
  domain?: string;
  withLink?: boolean;
  expirationDate?: number;
  /** One entry per source: the file's own grant (inherited false) or a folder's (inheritedFrom). */
  details: { role: Role; inherited: boolean; inheritedFrom?: string; permissionType: 'file' | 'member' }[];
  /** The file's own grant (undefined when the permission is only inherited). */
  own: StoredPermission | undefined;
}

export interface InsertOptions {
  transferOwnership?: boolean;
  moveToNewOwnersRoot?: boolean;
}

export interface UpdateOptions {
  transferOwnership?: boolean;
  removeExpiration?: boolean;
}

/** The permission id Drive gives an e-mail address (demo users: their account id, as about.permissionId says). */
export function permissionIdForEmail(email: string): string {
  const user = findUser(email.toLowerCase());
  if (user) return user.id;
  return digitsOf(`email:${email.toLowerCase()}`);
}

function permissionIdFor(type: GranteeType, target: string | undefined, withLink: boolean | undefined): string {
  if (type === 'anyone') return withLink ? 'anyoneWithLink' : 'anyone';
  if (type === 'domain') return `${digitsOf(`domain:${(target ?? '').toLowerCase()}`)}${withLink ? 'kw' : 'k'}`;
  return permissionIdForEmail(target ?? '');
}

function digitsOf(text: string): string {
  const hex = createHash('sha1').update(text).digest('hex').slice(0, 15);
  return `0${BigInt(`0x${hex}`).toString().padStart(19, '0')}`;
}

export class PermissionsModel {
  constructor(private readonly files: DriveModel, private readonly now: () => number) {}

  /**
   * The file whose permissions are asked for. A domain administrator asking as one (`useDomainAdminAccess`, checked by
   * the route) reaches a shared drive itself without being a member; on any other file the flag grants nothing.
   */
  fileOf(user: EmulatorUser, fileId: string, access: DriveAccess = {}): StoredFile {
    if (access.admin) {
      const candidate = this.files.peek(fileId);
      if (candidate && isDriveRoot(candidate)) return candidate;
    }
    return this.files.get(user, fileId);
  }

  /** Every permission of the file, merged per grantee (owner first, then by id). Needs read access. */
  list(user: EmulatorUser, fileId: string, access: DriveAccess = {}): PermissionView[] {
    return this.viewsOf(this.fileOf(user, fileId, access));
  }

  get(user: EmulatorUser, fileId: string, permissionId: string, access: DriveAccess = {}): PermissionView {
    const file = this.fileOf(user, fileId, access);
    const view = this.viewsOf(file).find((candidate) => candidate.id === permissionId);
    if (!view) throw new ApiError(404, 'notFound', `Permission not found: ${permissionId}.`, { location: 'permissionId', locationType: 'parameter' });
    return view;
  }

  /** The grants a file shows: its owner, its own grants, and each folder's above it (a folder owner as a writer). */
  viewsOf(file: StoredFile): PermissionView[] {
    const views = new Map<string, PermissionView>();
    const add = (permission: Omit<StoredPermission, 'createdDate'>, role: Role, source: StoredFile, own: StoredPermission | undefined, permissionType: 'file' | 'member' = 'file'): void => {
      const inherited = source.id !== file.id;
      const detail = { role, inherited, permissionType, ...(inherited ? { inheritedFrom: source.id } : {}) };
      const existing = views.get(permission.id);
      if (existing) {
        existing.role = stronger(existing.role, role) as Role;
        existing.details.push(detail);
        if (own) existing.own = own;
        return;
      }
      const view: PermissionView = { id: permission.id, type: permission.type, role, details: [detail], own };
      if (permission.emailAddress !== undefined) view.emailAddress = permission.emailAddress;
      if (permission.domain !== undefined) view.domain = permission.domain;
      if (permission.withLink !== undefined) view.withLink = permission.withLink;
      if (permission.expirationDate !== undefined) view.expirationDate = permission.expirationDate;
      views.set(permission.id, view);
    };
    const time = this.now();
    // A shared drive's members hold their roles on every item, as the permissions of its top folder.
    const driveRoot = file.driveId !== undefined ? this.files.peek(file.driveId) : undefined;
    if (driveRoot) for (const member of this.files.drives.members(driveRoot.id)) add(member, member.role, driveRoot, undefined, 'member');
    const seen = new Set<string>();
    const queue: StoredFile[] = [file];
    while (queue.length > 0) {
      const current = queue.shift() as StoredFile;
      if (seen.has(current.id)) continue;
      seen.add(current.id);
      const owner = DEMO_USERS.find((candidate) => candidate.id === current.ownerId);
      if (owner && current.driveId === undefined) {
        add({ id: owner.id, type: 'user', role: 'writer', emailAddress: owner.email }, current.id === file.id || owner.id === file.ownerId ? 'owner' : 'writer', current, undefined);
      }
      for (const permission of current.permissions ?? []) {
        if (permission.expirationDate !== undefined && permission.expirationDate <= time) continue;
        add(permission, permission.role, current, current.id === file.id ? permission : undefined);
      }
      for (const parentId of current.parents) {
        const parent = this.files.peek(parentId);
        if (parent) queue.push(parent);
      }
    }
    return [...views.values()].sort((a, b) => rank(b.role) - rank(a.role) || a.id.localeCompare(b.id));
  }

  /**
   * Shares a file. An existing grant for the same grantee takes the new role (Drive keeps one permission per
   * grantee); role owner needs transferOwnership and makes the grantee the owner, the old owner a writer.
   */
  insert(user: EmulatorUser, fileId: string, input: PermissionInput, options: InsertOptions = {}, access: DriveAccess = {}): PermissionView {
    const file = this.requireSharer(user, fileId, access);
    if (input.type === undefined) throw required('type', 'body');
    if (input.role === undefined) throw required('role', 'body');
    const role = normalizeRole(input.role, input.additionalRoles);
    const target = this.targetOf(input);
    if (isDriveRoot(file)) return this.insertMember(user, file, input, role, target, access);
    if (role === 'organizer' || role === 'fileOrganizer') {
      if (file.driveId === undefined) throw invalid(`The role ${role} is only valid for items in shared drives.`, 'role', 'body');
      if (role === 'organizer' || file.mimeType !== FOLDER_MIME_TYPE) throw invalid(`The role ${role} is only valid for a shared drive${role === 'fileOrganizer' ? ' or its folders' : ''}.`, 'role', 'body');
    }
    if (file.driveId !== undefined) this.checkDriveRestrictions(user, file, input, target);
    if (input.withLink && input.type !== 'anyone' && input.type !== 'domain') throw invalid('withLink applies to anyone and domain permissions only.', 'withLink', 'body');
    const expiration = this.expirationOf(input, role);
    if (role === 'owner') {
      if (input.type !== 'user') throw invalid('Only a user can own a file.', 'type', 'body');
      return this.transfer(user, file, target as string, options);
    }
    const id = permissionIdFor(input.type, target, input.withLink);
    const before = this.audienceTree(file);
    const existing = (file.permissions ?? []).find((permission) => permission.id === id);
    if (id === file.ownerId) return this.get(user, file.id, id);
    this.files.mutateFile(file, (changed) => {
      const permissions = (changed.permissions ?? []).filter((permission) => permission.id !== id);
      const permission: StoredPermission = { id, type: input.type as GranteeType, role: role as StoredPermission['role'], createdDate: existing?.createdDate ?? this.now(), grantedBy: existing?.grantedBy ?? user.id };
      if (input.type === 'user' || input.type === 'group') permission.emailAddress = (target as string).toLowerCase();
      if (input.type === 'domain') permission.domain = (target as string).toLowerCase();
      if (input.withLink !== undefined && (input.type === 'anyone' || input.type === 'domain')) permission.withLink = input.withLink;
      if (expiration !== undefined) permission.expirationDate = expiration;
      permissions.push(permission);
      changed.permissions = permissions;
      changed.version += 1;
    });
    this.announce(user, file, before);
    return this.get(user, file.id, id);
  }

  update(user: EmulatorUser, fileId: string, permissionId: string, input: PermissionInput, options: UpdateOptions = {}, access: DriveAccess = {}): PermissionView {
    const file = this.requireSharer(user, fileId, access);
    const view = this.get(user, file.id, permissionId, access);
    const role = input.role !== undefined ? normalizeRole(input.role, input.additionalRoles) : input.additionalRoles !== undefined && view.role === 'reader' ? 'commenter' : view.role;
    if (input.type !== undefined && input.type !== view.type) throw invalid('The type of a permission cannot change.', 'type', 'body');
    if (isDriveRoot(file)) {
      if (role === 'owner') throw forbidden('A shared drive has no owner: its organizers manage it.', 'ownerOnTeamDriveItemNotSupported');
      if (input.expirationDate !== undefined) throw forbidden('Members of a shared drive cannot have an expiration date.', 'expirationDateNotAllowedForSharedDriveMembers');
      this.files.drives.setMember(user, file.id, { id: view.id, type: view.type === 'group' ? 'group' : 'user', emailAddress: view.emailAddress ?? '', role }, access);
      return this.get(user, file.id, view.id, access);
    }
    if (!view.own && view.details.some((detail) => detail.permissionType === 'member')) throw forbidden('Shared drive members get their role on every item from the drive: change it on the drive.', 'cannotModifyInheritedTeamDrivePermission');
    if (view.id === file.ownerId && file.driveId === undefined) {
      if (role !== 'owner') throw forbidden('The owner of a file cannot be given a lesser role; transfer the ownership instead.', 'invalidOwnershipTransfer');
      return view;
    }
    if (!view.own) throw forbidden('This permission is inherited from a folder: change it there.', 'cannotModifyInheritedPermission');
    if (role === 'owner') {
      if (view.type !== 'user' || view.emailAddress === undefined) throw invalid('Only a user can own a file.', 'role', 'body');
      if (!options.transferOwnership) throw forbidden('The transferOwnership parameter must be enabled when the permission role is owner.', 'forbidden');
      return this.transfer(user, file, view.emailAddress, { transferOwnership: true });
    }
    if ((role === 'organizer' || role === 'fileOrganizer') && file.driveId === undefined) throw invalid(`The role ${role} is only valid for items in shared drives.`, 'role', 'body');
    const expiration = input.expirationDate !== undefined ? this.expirationOf({ ...input, type: view.type }, role) : undefined;
    const before = this.audienceTree(file);
    this.files.mutateFile(file, (changed) => {
      const permission = (changed.permissions ?? []).find((candidate) => candidate.id === permissionId);
      if (!permission) return;
      permission.role = role as StoredPermission['role'];
      if (expiration !== undefined) permission.expirationDate = expiration;
      if (options.removeExpiration) delete permission.expirationDate;
      changed.version += 1;
    });
    this.announce(user, file, before);
    return this.get(user, file.id, permissionId);
  }

  /** Removes a grant. The owner's permission stays; anyone may remove their own grant (leave a shared file). */
  delete(user: EmulatorUser, fileId: string, permissionId: string, access: DriveAccess = {}): void {
    const file = this.fileOf(user, fileId, access);
    if (isDriveRoot(file)) return this.files.drives.removeMember(user, file.id, permissionId, access);
    const leaving = permissionId === user.id;
    if (!leaving && !allows(this.files.roleOf(user, file), 'share', file)) throw insufficientPermissions('The user does not have sufficient permissions to change the sharing of this file.');
    const view = this.get(user, file.id, permissionId);
    if (view.id === file.ownerId && file.driveId === undefined) throw forbidden('The owner of a file cannot be removed.', 'cannotRemoveOwner');
    if (!view.own && view.details.some((detail) => detail.permissionType === 'member')) throw forbidden('Shared drive members get their role on every item from the drive: remove them from the drive.', 'cannotDeleteInheritedTeamDrivePermission');
    if (!view.own) throw forbidden('This permission is inherited from a folder: remove it there.', 'cannotDeleteInheritedPermission');
    const before = this.audienceTree(file);
    this.files.mutateFile(file, (changed) => {
      changed.permissions = (changed.permissions ?? []).filter((permission) => permission.id !== permissionId);
      changed.version += 1;
    });
    this.announce(user, file, before);
  }

  /** permissions.insert on a drive's top folder: a new member, or a new role for one (organizers; see drives/model.ts). */
  private insertMember(user: EmulatorUser, root: StoredFile, input: PermissionInput, role: Role, target: string | undefined, access: DriveAccess): PermissionView {
    if (input.type !== 'user' && input.type !== 'group') throw forbidden('A shared drive can be shared with people and groups only.', 'cannotShareTeamDriveTopFolderWithAnyoneOrDomains');
    if (role === 'owner') throw forbidden('A shared drive has no owner: make the member an organizer.', 'ownerOnTeamDriveItemNotSupported');
    if (input.expirationDate !== undefined) throw forbidden('Members of a shared drive cannot have an expiration date.', 'expirationDateNotAllowedForSharedDriveMembers');
    const email = (target as string).toLowerCase();
    const id = permissionIdFor(input.type, email, undefined);
    this.files.drives.setMember(user, root.id, { id, type: input.type, emailAddress: email, role }, access);
    return this.get(user, root.id, id, access);
  }

  /** The drive's sharing restrictions on its items: members only, the domain only, folders by organizers only. */
  private checkDriveRestrictions(user: EmulatorUser, file: StoredFile, input: PermissionInput, target: string | undefined): void {
    const restrictions = this.files.drives.restrictions(file.driveId as string);
    if (!restrictions) return;
    if (restrictions.sharingFoldersRequiresOrganizerPermission && file.mimeType === FOLDER_MIME_TYPE && this.files.roleOf(user, file) !== 'organizer') {
      throw insufficientPermissions('Only organizers can share folders in this shared drive.');
    }
    const grantee = input.type === 'user' ? findUser((target ?? '').toLowerCase()) : undefined;
    if (restrictions.driveMembersOnly && !(grantee && this.files.drives.roleOf(grantee, file.driveId as string) !== undefined)) {
      throw forbidden('Items in this shared drive can only be shared with its members.', 'teamDriveTeamMembersOnlyRestriction');
    }
    const domain = input.type === 'domain' ? target : input.type === 'anyone' ? undefined : target?.split('@')[1];
    if (restrictions.domainUsersOnly && domain?.toLowerCase() !== DEMO_DOMAIN) {
      throw forbidden(`Items in this shared drive can only be shared within ${DEMO_DOMAIN}.`, 'teamDriveDomainUsersOnlyRestriction');
    }
  }

  private requireSharer(user: EmulatorUser, fileId: string, access: DriveAccess): StoredFile {
    const file = this.fileOf(user, fileId, access);
    // A drive's members are managed by its organizers (drives/model.ts checks), or by an administrator asking as one.
    if (isDriveRoot(file)) return file;
    if (file.isRoot) throw forbidden('The root folder cannot be shared.', 'cannotShareRoot');
    const role = this.files.roleOf(user, file);
    if (!allows(role, 'share', file)) {
      const reason = rank(role) >= rank('writer') ? 'Writers cannot change the sharing of this file (writersCanShare is false).' : 'The user does not have sufficient permissions to change the sharing of this file.';
      throw insufficientPermissions(reason);
    }
    return file;
  }

  private targetOf(input: PermissionInput): string | undefined {
    switch (input.type) {
      case 'user':
      case 'group': {
        const email = input.emailAddress ?? input.value;
        if (email === undefined || email === '') throw required('emailAddress', 'body');
        if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw invalid(`Invalid email address: ${email}`, 'emailAddress', 'body');
        if (input.type === 'group' && DEMO_GROUPS[email.toLowerCase()] === undefined && findUser(email) !== undefined) throw invalid(`${email} is a user, not a group.`, 'emailAddress', 'body');
        return email;
      }
      case 'domain': {
        const domain = input.domain ?? input.value;
        if (domain === undefined || domain === '') throw required('domain', 'body');
        return domain;
      }
      default:
        return undefined;
    }
  }

  private expirationOf(input: PermissionInput, role: Role): number | undefined {
    if (input.expirationDate === undefined) return undefined;
    if (input.type !== 'user' && input.type !== 'group') throw invalid('Expiration dates apply to user and group permissions only.', 'expirationDate', 'body');
    if (role === 'owner' || role === 'organizer' || role === 'fileOrganizer') throw invalid(`A ${role} permission cannot expire.`, 'expirationDate', 'body');
    const time = Date.parse(input.expirationDate);
    if (time <= this.now()) throw badRequest('The expiration date must be in the future.');
    return time;
  }

  private transfer(user: EmulatorUser, file: StoredFile, email: string, options: InsertOptions): PermissionView {
    if (!options.transferOwnership) throw forbidden('The transferOwnership parameter must be enabled when the permission role is owner.', 'forbidden');
    if (file.driveId !== undefined) throw forbidden('Items in a shared drive have no owner.', 'teamDrivesOwnershipTransferNotSupported');
    if (!allows(this.files.roleOf(user, file), 'own', file)) throw insufficientPermissions('Only the owner can transfer the ownership of a file.');
    const newOwner = findUser(email.toLowerCase());
    if (!newOwner) throw badRequest(`Ownership can only be transferred to a user of the same domain (${email} has no account here).`);
    if (newOwner.id === file.ownerId) return this.get(user, file.id, newOwner.id);
    const before = this.audienceTree(file);
    const previousOwner = file.ownerId;
    this.files.mutateFile(file, (changed) => {
      const permissions = (changed.permissions ?? []).filter((permission) => permission.id !== newOwner.id);
      const oldOwner = DEMO_USERS.find((candidate) => candidate.id === previousOwner);
      if (oldOwner) permissions.push({ id: oldOwner.id, type: 'user', role: 'writer', emailAddress: oldOwner.email, createdDate: this.now(), grantedBy: newOwner.id });
      changed.permissions = permissions;
      changed.ownerId = newOwner.id;
      if (options.moveToNewOwnersRoot) changed.parents = [this.files.rootOf(newOwner).id];
      changed.version += 1;
    });
    this.announce(user, file, before);
    return this.get(newOwner, file.id, newOwner.id);
  }

  /** Who saw the file and what lies below it, before a change of sharing. */
  private audienceTree(file: StoredFile): Map<string, EmulatorUser[]> {
    const audiences = new Map<string, EmulatorUser[]>();
    audiences.set(file.id, this.files.access.audience(file));
    for (const descendant of this.files.descendantsOf(file.id)) audiences.set(descendant.id, this.files.access.audience(descendant));
    return audiences;
  }

  /** Records the change for everyone who saw or now sees the file (and, for a folder, each item below it). */
  private announce(user: EmulatorUser, file: StoredFile, before: Map<string, EmulatorUser[]>): void {
    for (const [id, audience] of before) {
      const target = this.files.peek(id);
      if (!target) continue;
      const after = this.files.access.audience(target);
      // Items below a folder change only for users whose access changed.
      if (id !== file.id && sameUsers(audience, after)) continue;
      this.files.recordChange(target, user, audience);
    }
  }
}

function sameUsers(a: readonly EmulatorUser[], b: readonly EmulatorUser[]): boolean {
  return a.length === b.length && a.every((user) => b.some((other) => other.id === user.id));
}

/** `commenter`, or v2's reader + additionalRoles ['commenter'], is the commenter role. */
export function normalizeRole(role: PermissionInput['role'] & string, additionalRoles: readonly string[] | undefined): Role {
  if (role === 'reader' && additionalRoles?.includes('commenter')) return 'commenter';
  return role;
}
