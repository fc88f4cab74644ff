/**
 * The directory's users of the demo domain (example.com, customer C0desk01) over the store: list, get, insert,
 * update, patch, delete, undelete and makeAdmin with Google's rules (only admins change users), and each change
 * published to the channels watching the domain's users (add, delete, makeAdmin, undelete, update). No HTTP.
 */
import { createHash, randomBytes } from 'node:crypto';
import { DEMO_USERS, EmulatorUser } from '../identity/users';
import type { ChannelRegistry } from '../core/channels';
import { messageEtag } from '../core/channelDelivery';
import { ApiError, forbidden, invalid, notFound, required } from '../core/errors';
import type { Collection, Store } from '../store/store';

export const DEMO_DOMAIN = 'example.com';
export const DEMO_CUSTOMER_ID = 'C0desk01';
/** The events a users.watch may ask for (the spec's event table). */
export const USER_EVENTS = ['add', 'delete', 'makeAdmin', 'undelete', 'update'] as const;
export type UserEvent = (typeof USER_EVENTS)[number];
/** The channels of a customer's users share this resource key, whichever form or version watched them. */
export const usersResourceKey = (customerId: string): string => `directory/users/${customerId}`;

/** A directory user as the emulator stores it (times in epoch ms). */
export interface StoredDirectoryUser {
  id: string;
  primaryEmail: string;
  givenName: string;
  familyName: string;
  isAdmin: boolean;
  suspended: boolean;
  suspensionReason?: string;
  archived: boolean;
  changePasswordAtNextLogin: boolean;
  includeInGlobalAddressList: boolean;
  ipWhitelisted: boolean;
  orgUnitPath: string;
  recoveryEmail?: string;
  aliases: string[];
  /** SHA-256 of the password: never answered, only kept so an insert without one can be refused. */
  passwordSha256: string;
  creationTime: number;
  lastLoginTime?: number;
  /** Set while the user is deleted (undelete clears it). */
  deletionTime?: number;
  /** Rises on every change; the etag derives from it. */
  version: number;
}

/** The fields a caller may set (insert, update, patch); anything else in the body is ignored as Google's read-only fields are. */
export interface DirectoryUserInput {
  primaryEmail?: string;
  name?: { givenName?: string; familyName?: string };
  password?: string;
  suspended?: boolean;
  archived?: boolean;
  changePasswordAtNextLogin?: boolean;
  includeInGlobalAddressList?: boolean;
  ipWhitelisted?: boolean;
  orgUnitPath?: string;
  recoveryEmail?: string;
}

export interface UserListOptions {
  customerId: string;
  showDeleted: boolean;
  orderBy: 'email' | 'givenName' | 'familyName';
  descending: boolean;
  query?: string;
  maxResults: number;
  pageToken?: string;
}

export function userEtag(user: StoredDirectoryUser): string {
  return `"${createHash('sha1').update(`${user.id}:${user.version}`).digest('base64url').slice(0, 27)}"`;
}

const MAX_NAME = 60;

/** Domain-wide admin rights of the demo service account (Google lets an admin role be assigned to a service account). */
const ADMIN_SERVICE_ACCOUNTS: ReadonlySet<string> = new Set(['robot@desk-demo.iam.gserviceaccount.com']);

export class DirectoryModel {
  private readonly users: Collection<StoredDirectoryUser>;

  constructor(store: Store, private readonly now: () => number, private readonly channels: ChannelRegistry) {
    this.users = store.collection<StoredDirectoryUser>('directory.users');
    // The people who can sign in are always in the directory; alice administers the domain.
    for (const [index, demo] of DEMO_USERS.entries()) {
      if (this.users.has(demo.id)) continue;
      const [givenName, ...rest] = demo.name.split(' ');
      this.users.set(demo.id, {
        id: demo.id,
        primaryEmail: demo.email,
        givenName: givenName ?? demo.givenName,
        familyName: rest.join(' ') || 'Demo',
        isAdmin: index === 0,
        suspended: false,
        archived: false,
        changePasswordAtNextLogin: false,
        includeInGlobalAddressList: true,
        ipWhitelisted: false,
        orgUnitPath: '/',
        aliases: [],
        passwordSha256: sha256(randomBytes(16).toString('hex')),
        creationTime: Date.parse('2024-01-15T09:00:00Z'),
        lastLoginTime: Date.parse('2026-01-05T08:30:00Z'),
        version: 1,
      });
    }
  }

  /** The customer a domain belongs to (the emulator knows one domain and one customer). */
  customerOfDomain(domain: string): string {
    if (domain.toLowerCase() !== DEMO_DOMAIN) throw notFound('Domain not found.');
    return DEMO_CUSTOMER_ID;
  }

  /** `my_customer` stands for the caller's own customer. */
  customer(customer: string): string {
    if (customer === 'my_customer' || customer === DEMO_CUSTOMER_ID) return DEMO_CUSTOMER_ID;
    throw notFound('Resource Not Found: customer');
  }

  /** Whether the caller administers the domain (an admin user, not deleted or suspended, or an admin service account). */
  isAdmin(caller: EmulatorUser): boolean {
    if (caller.kind === 'serviceAccount') return ADMIN_SERVICE_ACCOUNTS.has(caller.email);
    const record = this.users.get(caller.id);
    return record !== undefined && record.isAdmin && record.deletionTime === undefined && !record.suspended;
  }

  requireAdmin(caller: EmulatorUser): void {
    if (!this.isAdmin(caller)) throw forbidden('Not Authorized to access this resource/api');
  }

  /** A live user by id, primary email or alias; 404 for an unknown or deleted one. */
  find(userKey: string): StoredDirectoryUser {
    const wanted = userKey.toLowerCase();
    const byId = this.users.get(userKey);
    const found = byId ?? [...this.users.values()].find((user) => user.primaryEmail === wanted || user.aliases.includes(wanted));
    if (!found || found.deletionTime !== undefined) throw notFound('Resource Not Found: userKey');
    return found;
  }

  list(options: UserListOptions): { users: StoredDirectoryUser[]; nextPageToken?: string } {
    if (options.customerId !== DEMO_CUSTOMER_ID) throw notFound('Resource Not Found: customer');
    const filter = options.query ? queryFilter(options.query) : (): boolean => true;
    const key = (user: StoredDirectoryUser): string => (options.orderBy === 'email' ? user.primaryEmail : options.orderBy === 'givenName' ? user.givenName.toLowerCase() : user.familyName.toLowerCase());
    const matching = [...this.users.values()]
      .filter((user) => (user.deletionTime !== undefined) === options.showDeleted && filter(user))
      .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id < b.id ? -1 : 1));
    if (options.descending) matching.reverse();
    let start = 0;
    if (options.pageToken !== undefined) {
      start = Number(Buffer.from(options.pageToken, 'base64url').toString('utf8').replace(/^users:/, ''));
      if (!/^[A-Za-z0-9_-]+$/.test(options.pageToken) || !Number.isSafeInteger(start) || start < 0) throw invalid('Invalid page token', 'pageToken');
    }
    const page = matching.slice(start, start + options.maxResults);
    const next = start + options.maxResults;
    return next < matching.length ? { users: page, nextPageToken: Buffer.from(`users:${next}`, 'utf8').toString('base64url') } : { users: page };
  }

  insert(caller: EmulatorUser, input: DirectoryUserInput): StoredDirectoryUser {
    this.requireAdmin(caller);
    if (!input.primaryEmail) throw required('primaryEmail', 'body');
    if (!input.name?.givenName) throw required('name.givenName', 'body');
    if (!input.name.familyName) throw required('name.familyName', 'body');
    if (!input.password) throw required('password', 'body');
    const email = this.checkedEmail(input.primaryEmail);
    if (this.emailTaken(email)) throw new ApiError(409, 'duplicate', 'Entity already exists.');
    const time = this.now();
    const user: StoredDirectoryUser = {
      id: newUserId(),
      primaryEmail: email,
      givenName: checkedName(input.name.givenName, 'name.givenName'),
      familyName: checkedName(input.name.familyName, 'name.familyName'),
      isAdmin: false,
      suspended: input.suspended ?? false,
      archived: input.archived ?? false,
      changePasswordAtNextLogin: input.changePasswordAtNextLogin ?? false,
      includeInGlobalAddressList: input.includeInGlobalAddressList ?? true,
      ipWhitelisted: input.ipWhitelisted ?? false,
      orgUnitPath: checkedOrgUnit(input.orgUnitPath ?? '/'),
      aliases: [],
      passwordSha256: sha256(checkedPassword(input.password)),
      creationTime: time,
      version: 1,
    };
    if (input.recoveryEmail !== undefined) user.recoveryEmail = input.recoveryEmail;
    this.users.set(user.id, user);
    this.publish(user, 'add');
    return user;
  }

  /** update (replace: absent settable fields return to their defaults) or patch (only given fields change). */
  modify(caller: EmulatorUser, userKey: string, input: DirectoryUserInput, mode: 'update' | 'patch'): StoredDirectoryUser {
    this.requireAdmin(caller);
    const user = this.find(userKey);
    // Validate everything before changing anything: a 400 leaves the user as it was.
    const email = input.primaryEmail !== undefined ? this.checkedEmail(input.primaryEmail) : undefined;
    if (email !== undefined && email !== user.primaryEmail && this.emailTaken(email)) throw new ApiError(409, 'duplicate', 'Entity already exists.');
    const givenName = input.name?.givenName !== undefined ? checkedName(input.name.givenName, 'name.givenName') : undefined;
    const familyName = input.name?.familyName !== undefined ? checkedName(input.name.familyName, 'name.familyName') : undefined;
    const orgUnitPath = input.orgUnitPath !== undefined ? checkedOrgUnit(input.orgUnitPath) : undefined;
    const password = input.password !== undefined ? checkedPassword(input.password) : undefined;
    if (email !== undefined && email !== user.primaryEmail) {
      // The old address stays reachable as an alias, as Google keeps it after a rename.
      if (!user.aliases.includes(user.primaryEmail)) user.aliases.push(user.primaryEmail);
      user.primaryEmail = email;
    }
    if (givenName !== undefined) user.givenName = givenName;
    if (familyName !== undefined) user.familyName = familyName;
    if (orgUnitPath !== undefined) user.orgUnitPath = orgUnitPath;
    if (password !== undefined) user.passwordSha256 = sha256(password);
    const replace = mode === 'update';
    if (input.suspended !== undefined || replace) user.suspended = input.suspended ?? false;
    if (!user.suspended) delete user.suspensionReason;
    else user.suspensionReason ??= 'ADMIN';
    if (input.archived !== undefined || replace) user.archived = input.archived ?? false;
    if (input.changePasswordAtNextLogin !== undefined || replace) user.changePasswordAtNextLogin = input.changePasswordAtNextLogin ?? false;
    if (input.includeInGlobalAddressList !== undefined || replace) user.includeInGlobalAddressList = input.includeInGlobalAddressList ?? true;
    if (input.ipWhitelisted !== undefined || replace) user.ipWhitelisted = input.ipWhitelisted ?? false;
    if (input.recoveryEmail !== undefined) user.recoveryEmail = input.recoveryEmail;
    user.version += 1;
    this.users.set(user.id, user);
    this.publish(user, 'update');
    return user;
  }

  delete(caller: EmulatorUser, userKey: string): void {
    this.requireAdmin(caller);
    const user = this.find(userKey);
    if (user.id === caller.id) throw new ApiError(400, 'invalid', 'An administrator cannot delete their own account.');
    user.deletionTime = this.now();
    user.version += 1;
    this.users.set(user.id, user);
    this.publish(user, 'delete');
  }

  /** Restores a deleted user (by its immutable id, as Google requires), optionally into another org unit. */
  undelete(caller: EmulatorUser, userKey: string, orgUnitPath: string | undefined): void {
    this.requireAdmin(caller);
    const user = this.users.get(userKey);
    if (!user || user.deletionTime === undefined) throw notFound('Resource Not Found: userKey');
    if ([...this.users.values()].some((other) => other.id !== user.id && other.deletionTime === undefined && other.primaryEmail === user.primaryEmail)) {
      throw new ApiError(409, 'duplicate', 'Entity already exists.');
    }
    if (orgUnitPath !== undefined) user.orgUnitPath = checkedOrgUnit(orgUnitPath);
    delete user.deletionTime;
    user.version += 1;
    this.users.set(user.id, user);
    this.publish(user, 'undelete');
  }

  /** Grants or revokes super-admin status; a change of it is the `makeAdmin` event. */
  makeAdmin(caller: EmulatorUser, userKey: string, status: boolean): void {
    this.requireAdmin(caller);
    const user = this.find(userKey);
    if (user.isAdmin === status) return;
    if (!status && user.id === caller.id) throw new ApiError(400, 'invalid', 'An administrator cannot revoke their own admin status.');
    user.isAdmin = status;
    user.version += 1;
    this.users.set(user.id, user);
    this.publish(user, 'makeAdmin');
  }

  /** Sends the event to every channel on the customer's users that asked for it; each message has its own etag. */
  private publish(user: StoredDirectoryUser, event: UserEvent): void {
    const etag = userEtag(user);
    this.channels.publish(usersResourceKey(DEMO_CUSTOMER_ID), event, {
      body: (channel, number) => ({ kind: 'admin#directory#user', id: user.id, etag: messageEtag(channel.id, number, etag), primaryEmail: user.primaryEmail }),
    });
  }

  private checkedEmail(raw: string): string {
    const email = raw.trim().toLowerCase();
    const found = /^[a-z0-9._%+'-]{1,64}@([a-z0-9.-]+)$/.exec(email);
    if (!found) throw invalid('Invalid Input: primary_user_email', 'primaryEmail', 'body');
    if (found[1] !== DEMO_DOMAIN) throw new ApiError(400, 'invalid', `Invalid Input: the domain ${found[1] ?? ''} does not belong to this customer`, { location: 'primaryEmail', locationType: 'body' });
    return email;
  }

  private emailTaken(email: string): boolean {
    return [...this.users.values()].some((user) => user.deletionTime === undefined && (user.primaryEmail === email || user.aliases.includes(email)));
  }
}

/** A small part of Google's user query language: `email:`, `givenName:`, `familyName:`, `isAdmin=`, `isSuspended=`, or a bare prefix. */
function queryFilter(query: string): (user: StoredDirectoryUser) => boolean {
  const clauses = query.trim().split(/\s+/).filter(Boolean).map((clause) => {
    const found = /^(email|givenName|familyName|isAdmin|isSuspended|name)([:=])'?([^']*)'?$/.exec(clause);
    if (!found) {
      const prefix = clause.toLowerCase();
      return (user: StoredDirectoryUser): boolean => [user.primaryEmail, user.givenName.toLowerCase(), user.familyName.toLowerCase()].some((value) => value.startsWith(prefix));
    }
    const [, field, operator, rawValue] = found as unknown as [string, string, string, string];
    const value = rawValue.toLowerCase().replace(/\*$/, '');
    const text = (actual: string): boolean => (operator === '=' ? actual.toLowerCase() === value : actual.toLowerCase().startsWith(value));
    switch (field) {
      case 'email': return (user: StoredDirectoryUser): boolean => text(user.primaryEmail);
      case 'givenName': return (user: StoredDirectoryUser): boolean => text(user.givenName);
      case 'familyName': return (user: StoredDirectoryUser): boolean => text(user.familyName);
      case 'name': return (user: StoredDirectoryUser): boolean => text(`${user.givenName} ${user.familyName}`);
      case 'isAdmin': return (user: StoredDirectoryUser): boolean => String(user.isAdmin) === value;
      default: return (user: StoredDirectoryUser): boolean => String(user.suspended) === value;
    }
  });
  return (user) => clauses.every((clause) => clause(user));
}

function checkedName(value: string, field: string): string {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > MAX_NAME) throw invalid(`Invalid Input: ${field}`, field, 'body');
  return trimmed;
}

function checkedOrgUnit(value: string): string {
  if (!value.startsWith('/') || value.length > 1024) throw invalid('Invalid Input: orgUnitPath', 'orgUnitPath', 'body');
  return value;
}

function checkedPassword(value: string): string {
  if (value.length < 8 || value.length > 100) throw invalid('Invalid Password: a password must have 8 to 100 characters', 'password', 'body');
  return value;
}

function newUserId(): string {
  // Google's user ids are 21-digit numbers.
  return `1${Array.from(randomBytes(20), (byte) => String(byte % 10)).join('')}`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
