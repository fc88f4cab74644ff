/**
 * What Desk remembers in global state for one account (the last text searched, the last list a TODO went to), kept
 * per account under one key: `{ "alice@example.com": … }`. A value written before Desk kept accounts (not such a
 * record) belongs to no account and is never shown.
 */
import { normalizeAccount } from '../accounts/accounts';
import { updateDurably, WritableMemento } from './durableMemento';

type PerAccount<T> = Readonly<Record<string, T>>;

function recordOf<T>(memento: Pick<WritableMemento, 'get'>, key: string): PerAccount<T> {
  const stored = memento.get<unknown>(key);
  return typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? (stored as PerAccount<T>) : {};
}

/** The value remembered for `account` under `key`, or undefined (another account's never answers). */
export function recallForAccount<T>(memento: Pick<WritableMemento, 'get'>, key: string, account: string): T | undefined {
  return recordOf<T>(memento, key)[normalizeAccount(account)];
}

/** Remembers `value` for `account` under `key`, durably; the other accounts' values stay. */
export function rememberForAccount<T>(memento: WritableMemento, key: string, account: string, value: T): Promise<void> {
  return updateDurably(memento, key, { ...recordOf<T>(memento, key), [normalizeAccount(account)]: value });
}
