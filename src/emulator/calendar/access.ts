/** Calendar access roles: their order, the checks every operation makes, and Google's errors when they fail. */
import type { AccessRole } from '../../shared/schemas/calendar';
import { ApiError, notFound } from '../core/errors';

const RANK: Readonly<Record<AccessRole, number>> = {
  none: 0,
  freeBusyReader: 1,
  reader: 2,
  writerWithoutPrivateAccess: 3,
  writer: 4,
  owner: 5,
};

export function roleRank(role: AccessRole): number {
  return RANK[role];
}

export function atLeast(role: AccessRole, minimum: AccessRole): boolean {
  return RANK[role] >= RANK[minimum];
}

export function higherRole(a: AccessRole, b: AccessRole): AccessRole {
  return RANK[a] >= RANK[b] ? a : b;
}

/** A calendar the caller cannot see at all does not exist for them (Google never confirms it exists). */
export function calendarNotFound(): ApiError {
  return notFound('Not Found');
}

/** Google's answer to a reader (or free/busy reader) who tries to change events. */
export function writerAccessRequired(): ApiError {
  return new ApiError(403, 'requiredAccessLevel', 'You need to have writer access to this calendar.');
}

/** Google's answer to a non-owner who tries to change the calendar itself or its sharing. */
export function ownerAccessRequired(): ApiError {
  return new ApiError(403, 'forbidden', 'Forbidden');
}

/** Throws the right error unless `role` reaches `minimum`; below free/busy the calendar is simply not found. */
export function requireRole(role: AccessRole, minimum: AccessRole): void {
  if (role === 'none') throw calendarNotFound();
  if (atLeast(role, minimum)) return;
  if (minimum === 'owner') throw ownerAccessRequired();
  if (minimum === 'writer' || minimum === 'writerWithoutPrivateAccess') throw writerAccessRequired();
  // A free/busy reader asking for more than times: Google hides the calendar's contents as if absent.
  throw calendarNotFound();
}

/** Roles that see private events' details (and the ACL, for writer and up). */
export function seesPrivateDetails(role: AccessRole): boolean {
  return role === 'writer' || role === 'owner';
}
