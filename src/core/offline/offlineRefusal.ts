/**
 * Actions that affect other people (sharing, permissions, members, invitations, watch channels) are refused while
 * Desk is offline: not kept for later (the people they touch would learn of them at an unexpected moment, and the
 * user should decide again with the current state in front of them) and not sent.
 */
import type { DeskContext } from '../deskContext';

type OfflineDesk = Pick<DeskContext, 'vs' | 'connectivity'>;

/** True (and the user told why) when Desk is offline: the caller then does nothing. */
export function refusedOffline(desk: OfflineDesk): boolean {
  // A desk without the offline parts (some tests' fakes) counts as online.
  const connectivity = desk.connectivity as DeskContext['connectivity'] | undefined;
  if (connectivity === undefined || connectivity.online) return false;
  void desk.vs.window.showWarningMessage(desk.vs.l10n.t('Desk is offline: this affects other people, so it is not kept for later. Try again when the connection is back.'));
  return true;
}

/** The command table with the handlers named in `ids` refused while offline (see refusedOffline). */
export function refuseOffline<T extends Readonly<Record<string, ((...args: never[]) => unknown) | undefined>>>(desk: OfflineDesk, table: T, ids: readonly (keyof T)[]): T {
  const guarded: Record<string, unknown> = { ...table };
  for (const id of ids) {
    const handler = table[id];
    if (!handler) continue;
    guarded[id as string] = (...args: never[]): unknown => (refusedOffline(desk) ? undefined : handler(...args));
  }
  return guarded as T;
}
