/** A demo account of the emulator. Ids are stable so seeds and tests can name them. */
export interface EmulatorUser {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly givenName: string;
  readonly picture?: string;
}

export const DEMO_USERS: readonly EmulatorUser[] = [
  { id: '100000000000000000001', email: 'alice@example.com', name: 'Alice Demo', givenName: 'Alice' },
  { id: '100000000000000000002', email: 'bob@example.com', name: 'Bob Demo', givenName: 'Bob' },
  { id: '100000000000000000003', email: 'carol@example.com', name: 'Carol Demo', givenName: 'Carol' },
];

export function findUser(idOrEmail: string): EmulatorUser | undefined {
  const wanted = idOrEmail.toLowerCase();
  return DEMO_USERS.find((user) => user.id === idOrEmail || user.email === wanted);
}
