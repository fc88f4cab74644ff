/**
 * What Desk remembers in global state for one account (the last text searched, the last list a TODO went to), kept
 * per account under one key: `{ "alice@example.com": … }`. A value written before Desk kept accounts (not such a
 * record) belongs to no account and is never shown.
 */
import { normalizeAccount } from '../accounts/accounts';
import { updateDurably, WritableMemento } from './durableMemento';

type PerAccount = Readonly<Partial<Record<string, unknown>>>;

function recordOf(memento: Pick<WritableMemento, 'get'>, key: string): PerAccount {
  const stored = memento.get(key);
  return typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? (stored as PerAccount) : {};
}

/** The value remembered for `account` under `key`, or undefined (another account's never answers); the caller checks its shape. */
export function recallForAccount(memento: Pick<WritableMemento, 'get'>, key: string, account: string): unknown {
  return recordOf(memento, key)[normalizeAccount(account)];
}

/** Remembers `value` for `account` under `key`, durably; the other accounts' values stay. */
export function rememberForAccount(memento: WritableMemento, key: string, account: string, value: unknown): Promise<void> {
  return updateDurably(memento, key, { ...recordOf(memento, key), [normalizeAccount(account)]: value });
}
