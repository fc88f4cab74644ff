/**
 * The public libraries (other users' public shelves) the user added to the Bookshelves view, remembered in globalState
 * per backend and signed-in account, so each account of each backend keeps its own list. No vscode beyond the Memento
 * type: unit-testable with a Map.
 */
import type * as vscode from 'vscode';
import { english, Translate } from '../../shared/l10n';
import { updateDurably } from '../../core/storage/durableMemento';

const KEY_PREFIX = 'desk.books.publicLibraries/';

/** Google's user ids are decimal numbers (the Books API answers 404 to anything else). */
export function isBooksUserId(text: string): boolean {
  return /^\d{1,40}$/.test(text.trim());
}

/**
 * The user id in what was typed: the id itself, or a library's web address with its `uid` (books.google.com/books?uid=…,
 * the form the prompt shows). Undefined for anything else.
 */
export function booksUserIdIn(text: string): string | undefined {
  const trimmed = text.trim();
  if (isBooksUserId(trimmed)) return trimmed;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
  } catch {
    return undefined;
  }
  const uid = url.searchParams.get('uid') ?? undefined;
  return /(^|\.)(books|play)\.google\.[a-z.]+$/i.test(url.hostname) && uid !== undefined && isBooksUserId(uid) ? uid.trim() : undefined;
}

export class PublicLibraries {
  private owners: string[] = [];
  private key: string | undefined;

  /** `t` (vscode.l10n.t) words the error of an add while signed out. */
  constructor(private readonly memento: Pick<vscode.Memento, 'get' | 'update'>, private readonly t: Translate = english) {}

  /** Switches to the list of `account` on `backend` (undefined account: signed out, an empty list). */
  use(backend: string, account: string | undefined): void {
    this.key = account ? `${KEY_PREFIX}${backend}|${account}` : undefined;
    const stored = this.key ? this.memento.get<unknown>(this.key) : undefined;
    this.owners = Array.isArray(stored) ? stored.filter((value): value is string => typeof value === 'string' && isBooksUserId(value)) : [];
  }

  get account(): string | undefined {
    return this.key?.slice(this.key.indexOf('|') + 1);
  }

  list(): readonly string[] {
    return this.owners;
  }

  has(userId: string): boolean {
    return this.owners.includes(userId);
  }

  /** Adds at the end; false when it was there already. */
  async add(userId: string): Promise<boolean> {
    const id = userId.trim();
    if (!this.key) throw new Error(this.t('Sign in before adding a public library'));
    if (this.owners.includes(id)) return false;
    this.owners = [...this.owners, id];
    await updateDurably(this.memento, this.key, this.owners);
    return true;
  }

  async remove(userId: string): Promise<boolean> {
    if (!this.key || !this.owners.includes(userId)) return false;
    this.owners = this.owners.filter((owner) => owner !== userId);
    await updateDurably(this.memento, this.key, this.owners);
    return true;
  }
}
