/** The emulator's principals: the demo accounts and a demo service account. Ids are stable so seeds and tests can name them. */
export interface EmulatorUser {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly givenName: string;
  readonly picture?: string;
  /** A service account (a robot of a project) rather than a person; absent means a user account. */
  readonly kind?: 'user' | 'serviceAccount';
  /** The IANA zone of the account (Calendar's `timezone` setting; the demo's "today" is this zone's date). UTC when absent. */
  readonly timeZone?: string;
}

export const DEMO_USERS: readonly EmulatorUser[] = [
  { id: '100000000000000000001', email: 'alice@example.com', name: 'Alice Demo', givenName: 'Alice', timeZone: 'Europe/Berlin' },
  { id: '100000000000000000002', email: 'bob@example.com', name: 'Bob Demo', givenName: 'Bob', timeZone: 'America/New_York' },
  { id: '100000000000000000003', email: 'carol@example.com', name: 'Carol Demo', givenName: 'Carol', timeZone: 'Asia/Tokyo' },
];

/**
 * Service accounts: principals of a project, not people. They get tokens like the demo users
 * (`/emulator/v1/token?user=robot@…`) but are kept apart, so per-user demo data and listings stay the people's.
 */
export const SERVICE_ACCOUNTS: readonly EmulatorUser[] = [
  { id: '110000000000000000001', email: 'robot@desk-demo.iam.gserviceaccount.com', name: 'Desk Robot', givenName: 'Robot', kind: 'serviceAccount' },
];

export function findUser(idOrEmail: string): EmulatorUser | undefined {
  const wanted = idOrEmail.toLowerCase();
  const matches = (user: EmulatorUser): boolean => user.id === idOrEmail || user.email === wanted;
  return DEMO_USERS.find(matches) ?? SERVICE_ACCOUNTS.find(matches);
}
