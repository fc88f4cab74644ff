/**
 * Shared drives (no HTTP): create with a request id, get, list and search, rename and restrict, hide and unhide per
 * user, delete when empty; membership (the permissions of a drive's top folder) with organizer-only management; the
 * `changeType: drive` records of the change feed. The items live in the files model, owned by the drive.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { DriveRestrictions, SharedDriveInput } from '../../../shared/schemas/drive/drives';
import { DEMO_USERS, EmulatorUser } from '../../identity/users';
import { ApiError, forbidden, invalid, required } from '../../core/errors';
import { offsetPage } from '../../core/paging';
import type { Collection, Store } from '../../store/store';
import type { DriveAccess, DriveDirectory, DriveMember } from '../files/drives';
import { driveOwnerId, isDriveRoot } from '../files/drives';
export type { DriveAccess } from '../files/drives';
import type { DriveModel, Garbage, StoredFile } from '../files/model';
import { newFolderRecord } from '../files/records';
import { deleteTrees } from '../files/removal';
import { granteeIncludes, insufficientPermissions, Role, StoredPermission, stronger } from '../permissions/access';
import { matchesDrive, parseDriveQuery } from './query';

export interface StoredDrive {
  id: string;
  name: string;
  createdDate: number;
  themeId: string;
  colorRgb: string;
  /** A file of the drive (or the user's) cropped as the background; write-only on Drive. */
  backgroundImageFileId?: string;
  restrictions: Required<DriveRestrictions>;
  /** Member grants (user and group); the permissions of the drive's top folder. */
  members: StoredPermission[];
  /** Users who hid the drive from their default view. */
  hiddenBy: string[];
  version: number;
}


/** The emulator's drive themes (about.driveThemes on Drive): a theme sets the colour and background. */
export const DRIVE_THEMES: readonly { id: string; colorRgb: string }[] = [
  { id: 'abacus', colorRgb: '#2d7d9a' },
  { id: 'bok_choy', colorRgb: '#5f8a3c' },
  { id: 'clover', colorRgb: '#0f9d58' },
  { id: 'coffee', colorRgb: '#795548' },
  { id: 'lemon', colorRgb: '#f4b400' },
  { id: 'mountains', colorRgb: '#4285f4' },
];

const DEFAULT_RESTRICTIONS: Required<DriveRestrictions> = {
  adminManagedRestrictions: false,
  copyRequiresWriterPermission: false,
  domainUsersOnly: false,
  driveMembersOnly: false,
  sharingFoldersRequiresOrganizerPermission: false,
};

/** Shared drive ids look like Google's: `0A`, eleven characters, `Uk9PVA`. */
export function newDriveId(): string {
  return `0A${randomBytes(9).toString('base64url').slice(0, 11)}Uk9PVA`;
}

function driveNotFound(driveId: string): ApiError {
  return new ApiError(404, 'notFound', `Shared drive not found: ${driveId}`, { location: 'driveId', locationType: 'parameter' });
}

export class DrivesModel implements DriveDirectory {
  private readonly drives: Collection<StoredDrive>;
  /** `${userId}\0${requestId}` → the drive that request created (drives.insert is idempotent per user and request id). */
  private readonly requests: Collection<{ driveId: string }>;

  constructor(store: Store, private readonly files: DriveModel, private readonly now: () => number) {
    this.drives = store.collection<StoredDrive>('drive.sharedDrives');
    this.requests = store.collection<{ driveId: string }>('drive.driveRequests');
    files.drives = this;
  }

  // ---- what the files model asks (DriveDirectory) ----

  roleOf(user: EmulatorUser, driveId: string): Role | undefined {
    const drive = this.drives.get(driveId);
    if (!drive) return undefined;
    let best: Role | undefined;
    const time = this.now();
    for (const member of drive.members) if (granteeIncludes(member, user, time)) best = stronger(best, member.role);
    return best;
  }

  memberDrives(user: EmulatorUser): string[] {
    return [...this.drives.values()].filter((drive) => this.roleOf(user, drive.id) !== undefined).map((drive) => drive.id);
  }

  restrictions(driveId: string): DriveRestrictions | undefined {
    return this.drives.get(driveId)?.restrictions;
  }

  members(driveId: string): readonly StoredPermission[] {
    return this.drives.get(driveId)?.members ?? [];
  }

  // ---- drives ----

  /** The drive if the user is a member (or asks as an administrator); otherwise 404, as Drive answers non-members. */
  get(user: EmulatorUser, driveId: string, access: DriveAccess = {}): StoredDrive {
    const drive = this.drives.get(driveId);
    if (!drive || (!access.admin && this.roleOf(user, driveId) === undefined)) throw driveNotFound(driveId);
    return drive;
  }

  isHiddenFor(drive: StoredDrive, user: EmulatorUser): boolean {
    return drive.hiddenBy.includes(user.id);
  }

  /**
   * Creates a shared drive with the user as its organizer. A repeat of the same user's request id does not make a
   * second drive: while the first exists, it is Drive's 409 teamDriveAlreadyExists.
   */
  insert(user: EmulatorUser, requestId: string | undefined, input: SharedDriveInput): StoredDrive {
    if (requestId === undefined || requestId === '') throw required('requestId');
    if (input.name === undefined || input.name.trim() === '') throw required('name', 'body');
    if (input.colorRgb !== undefined || input.backgroundImageFile !== undefined) {
      throw invalid('colorRgb and backgroundImageFile can only be set with drives.update.', input.colorRgb !== undefined ? 'colorRgb' : 'backgroundImageFile', 'body');
    }
    const key = `${user.id}\0${requestId}`;
    const earlier = this.requests.get(key);
    if (earlier && this.drives.has(earlier.driveId)) throw new ApiError(409, 'teamDriveAlreadyExists', 'A shared drive with this request ID already exists.', { location: 'requestId', locationType: 'parameter' });
    let id = newDriveId();
    while (this.files.exists(id)) id = newDriveId();
    const theme = input.themeId !== undefined ? themeById(input.themeId) : (DRIVE_THEMES[createHash('sha1').update(id).digest()[0] as number % DRIVE_THEMES.length] as { id: string; colorRgb: string });
    const time = this.now();
    const drive: StoredDrive = {
      id,
      name: input.name,
      createdDate: time,
      themeId: theme.id,
      colorRgb: theme.colorRgb,
      restrictions: { ...DEFAULT_RESTRICTIONS, ...definedOnly(input.restrictions ?? {}) },
      members: [{ id: user.id, type: 'user', role: 'organizer', emailAddress: user.email, createdDate: time, grantedBy: user.id }],
      hiddenBy: [],
      version: 1,
    };
    const root = newFolderRecord(id, driveOwnerId(id), input.name, user.id, time);
    root.driveId = id;
    this.files.table.save(root);
    this.drives.set(id, drive);
    this.requests.set(key, { driveId: id });
    this.announce(drive, [user]);
    return drive;
  }

  /** The user's drives (every drive of the domain for an administrator), filtered by `q`, oldest first. */
  list(user: EmulatorUser, options: { q?: string | undefined; maxResults: number; pageToken?: string | undefined; admin?: boolean }): { drives: StoredDrive[]; nextPageToken?: string } {
    const query = options.q !== undefined && options.q.trim() !== '' ? parseDriveQuery(options.q) : undefined;
    const visible = [...this.drives.values()]
      .filter((drive) => options.admin || this.roleOf(user, drive.id) !== undefined)
      .filter((drive) => !query || matchesDrive(query, {
        name: drive.name,
        hidden: this.isHiddenFor(drive, user),
        memberCount: drive.members.length,
        organizerCount: drive.members.filter((member) => member.role === 'organizer').length,
        createdDate: drive.createdDate,
      }))
      .sort((a, b) => a.createdDate - b.createdDate || a.id.localeCompare(b.id));
    const scope = `drives:${user.id}:${options.admin ? 'admin' : 'member'}:${options.q ?? ''}`;
    const page = offsetPage(visible, { scope, maxResults: options.maxResults, ...(options.pageToken !== undefined ? { pageToken: options.pageToken } : {}) });
    return { drives: page.items, ...(page.nextPageToken !== undefined ? { nextPageToken: page.nextPageToken } : {}) };
  }

  /** Renames, re-themes or restricts a drive (organizers; administrators with admin access). */
  update(user: EmulatorUser, driveId: string, input: SharedDriveInput, access: DriveAccess = {}): StoredDrive {
    const drive = this.requireOrganizer(user, driveId, access);
    if (input.themeId !== undefined && (input.colorRgb !== undefined || input.backgroundImageFile !== undefined)) {
      throw invalid('themeId cannot be set together with colorRgb or backgroundImageFile.', 'themeId', 'body');
    }
    if (input.name !== undefined && input.name.trim() === '') throw invalid('The name of a shared drive cannot be empty.', 'name', 'body');
    const theme = input.themeId !== undefined ? themeById(input.themeId) : undefined;
    if (input.backgroundImageFile !== undefined) this.files.get(user, input.backgroundImageFile.id);
    const restrictions = definedOnly(input.restrictions ?? {});
    const changesRestrictions = Object.entries(restrictions).some(([name, value]) => drive.restrictions[name as keyof DriveRestrictions] !== value);
    if (changesRestrictions && (drive.restrictions.adminManagedRestrictions || restrictions.adminManagedRestrictions !== undefined) && !access.admin) {
      throw forbidden('Only a domain administrator can change restrictions the administrator manages.', 'insufficientAdministratorPrivileges');
    }
    if (input.name !== undefined) drive.name = input.name;
    if (theme) {
      drive.themeId = theme.id;
      drive.colorRgb = theme.colorRgb;
      delete drive.backgroundImageFileId;
    }
    if (input.colorRgb !== undefined) drive.colorRgb = input.colorRgb.toLowerCase();
    if (input.backgroundImageFile !== undefined) drive.backgroundImageFileId = input.backgroundImageFile.id;
    drive.restrictions = { ...drive.restrictions, ...restrictions };
    drive.version += 1;
    this.drives.set(drive.id, drive);
    if (input.name !== undefined) this.renameRoot(user, drive);
    this.announce(drive, this.memberUsers(drive));
    return drive;
  }

  /** Hides or shows the drive in the user's default view (each member's own choice). */
  setHidden(user: EmulatorUser, driveId: string, hidden: boolean): StoredDrive {
    const drive = this.get(user, driveId);
    if (hidden === this.isHiddenFor(drive, user)) return drive;
    drive.hiddenBy = hidden ? [...drive.hiddenBy, user.id] : drive.hiddenBy.filter((id) => id !== user.id);
    this.drives.set(drive.id, drive);
    this.announce(drive, [user]);
    return drive;
  }

  /**
   * Deletes a drive for good: organizers, only when nothing in it is outside its trash (Drive's 403
   * cannotDeleteResourceWithChildren); an administrator may take the items with it (allowItemDeletion).
   */
  delete(user: EmulatorUser, driveId: string, options: { allowItemDeletion?: boolean; admin?: boolean } = {}): Garbage {
    const drive = this.requireOrganizer(user, driveId, options);
    if (!options.allowItemDeletion && this.hasLiveItems(drive.id)) throw forbidden('This resource cannot be deleted because it has children.', 'cannotDeleteResourceWithChildren');
    const members = this.memberUsers(drive);
    // Items go first, while the membership that tells who saw them still stands.
    const root = this.files.peek(drive.id);
    const garbage = root && isDriveRoot(root) ? deleteTrees(this.files, user, [root]) : { blobIds: [] };
    this.drives.delete(drive.id);
    for (const [key, request] of this.requests.entries()) if (request.driveId === drive.id) this.requests.delete(key);
    for (const member of members) this.files.feed.record(member.id, drive.id, true, { changeType: 'drive', driveId: drive.id });
    return garbage;
  }

  /** files.emptyTrash?driveId=: the drive's trashed items, for good (organizers). */
  emptyTrash(user: EmulatorUser, driveId: string): Garbage {
    const drive = this.requireOrganizer(user, driveId, {});
    const trashed = this.items(drive.id).filter((file) => file.trashed);
    return deleteTrees(this.files, user, trashed);
  }

  // ---- membership: the permissions of the drive's top folder ----

  /** Adds a member or changes a member's role (organizers only; a drive always keeps an organizer). */
  setMember(user: EmulatorUser, driveId: string, member: DriveMember, access: DriveAccess = {}): void {
    const drive = this.requireOrganizer(user, driveId, access);
    const existing = drive.members.find((candidate) => candidate.id === member.id);
    if (existing?.role === 'organizer' && member.role !== 'organizer' && this.organizerCount(drive) === 1) {
      throw forbidden('A shared drive must keep at least one organizer.', 'cannotUpdatePermission');
    }
    const before = this.memberUsers(drive);
    const time = this.now();
    const grant: StoredPermission = { id: member.id, type: member.type, role: member.role, emailAddress: member.emailAddress.toLowerCase(), createdDate: existing?.createdDate ?? time, grantedBy: existing?.grantedBy ?? user.id };
    drive.members = [...drive.members.filter((candidate) => candidate.id !== member.id), grant];
    drive.version += 1;
    this.drives.set(drive.id, drive);
    this.announceMembership(drive, before);
  }

  removeMember(user: EmulatorUser, driveId: string, permissionId: string, access: DriveAccess = {}): void {
    const drive = this.requireOrganizer(user, driveId, access);
    const existing = drive.members.find((candidate) => candidate.id === permissionId);
    if (!existing) throw new ApiError(404, 'notFound', `Permission not found: ${permissionId}.`, { location: 'permissionId', locationType: 'parameter' });
    if (existing.role === 'organizer' && this.organizerCount(drive) === 1) throw forbidden('A shared drive must keep at least one organizer.', 'cannotDeletePermission');
    const before = this.memberUsers(drive);
    drive.members = drive.members.filter((candidate) => candidate.id !== permissionId);
    drive.version += 1;
    this.drives.set(drive.id, drive);
    this.announceMembership(drive, before);
  }

  // ---- internals ----

  private requireOrganizer(user: EmulatorUser, driveId: string, access: DriveAccess): StoredDrive {
    const drive = this.get(user, driveId, access);
    if (!access.admin && this.roleOf(user, driveId) !== 'organizer') throw insufficientPermissions('The user does not have sufficient permissions for this shared drive: only its organizers (managers) may do this.');
    return drive;
  }

  private items(driveId: string): StoredFile[] {
    return [...this.files.table.ownedBy(driveOwnerId(driveId))].map((id) => this.files.peek(id)).filter((file): file is StoredFile => file !== undefined && !isDriveRoot(file));
  }

  private hasLiveItems(driveId: string): boolean {
    return this.items(driveId).some((file) => !file.trashed);
  }

  private organizerCount(drive: StoredDrive): number {
    return drive.members.filter((member) => member.role === 'organizer').length;
  }

  private memberUsers(drive: StoredDrive): EmulatorUser[] {
    return DEMO_USERS.filter((candidate) => this.roleOf(candidate, drive.id) !== undefined);
  }

  /** The drive's top folder carries its name. */
  private renameRoot(user: EmulatorUser, drive: StoredDrive): void {
    const root = this.files.peek(drive.id);
    if (!root || root.title === drive.name) return;
    this.files.mutateFile(root, (target) => {
      target.title = drive.name;
      target.modifiedDate = this.now();
      target.lastModifyingUserId = user.id;
      target.version += 1;
    });
    this.files.recordChange(root, user);
  }

  /** A `changeType: drive` record in each user's feed. */
  private announce(drive: StoredDrive, users: readonly EmulatorUser[]): void {
    for (const user of users) this.files.feed.record(user.id, drive.id, false, { changeType: 'drive', driveId: drive.id });
  }

  /**
   * Members hear of a change of membership; those who left, that the drive is gone. Only members: an administrator
   * who manages a drive without being in it (useDomainAdminAccess) gets nothing in her own feed.
   */
  private announceMembership(drive: StoredDrive, before: readonly EmulatorUser[]): void {
    const after = this.memberUsers(drive);
    const left = before.filter((user) => !after.some((member) => member.id === user.id));
    this.announce(drive, after);
    for (const user of left) this.files.feed.record(user.id, drive.id, true, { changeType: 'drive', driveId: drive.id });
  }
}

function themeById(themeId: string): { id: string; colorRgb: string } {
  const theme = DRIVE_THEMES.find((candidate) => candidate.id === themeId);
  if (!theme) throw invalid(`Unknown themeId: ${themeId}. Known themes: ${DRIVE_THEMES.map((candidate) => candidate.id).join(', ')}`, 'themeId', 'body');
  return theme;
}

function definedOnly(restrictions: DriveRestrictions): DriveRestrictions {
  return Object.fromEntries(Object.entries(restrictions).filter(([, value]) => value !== undefined)) as DriveRestrictions;
}
