/**
 * Which account a view row belongs to when several accounts are shown (core/accounts/accountRoots.ts marks the rows of each
 * account's tree). A global symbol, so a row marked in one feature bundle reads the same in another. Small on purpose:
 * the command wrapper reads it at activation.
 */
const ACCOUNT_OF_ROW = Symbol.for('desk.accountOfRow');

/** The account a view row belongs to (undefined: a row of a view showing one account, or not a row). */
export function accountOfRow(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const account = (value as { [ACCOUNT_OF_ROW]?: unknown })[ACCOUNT_OF_ROW];
  return typeof account === 'string' ? account : undefined;
}

/** Marks a row as `account`'s. */
export function markRow(row: object, account: string): void {
  if (accountOfRow(row) === account) return;
  Object.defineProperty(row, ACCOUNT_OF_ROW, { value: account, configurable: true, enumerable: false });
}
