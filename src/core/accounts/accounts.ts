/**
 * Whose data a Desk URI names: the account in its authority (`desk-drive://alice@example.com/My Drive/…`), and the
 * gate every Desk file system passes before it reads or writes, so an editor of one account never reaches another's.
 */
import { hasMark, markInstance } from '../../shared/crossBundle';
import { english, Translate } from '../../shared/l10n';
import { normalizeAccount } from '../../auth/accountName';

// Defined beside the authentication provider, which compares accounts too (auth/ does not import core/).
export { normalizeAccount };

/** The account a URI's authority names (an e-mail address), or undefined for a path-only URI. */
export function accountOfUri(uri: { readonly authority: string }): string | undefined {
  const authority = uri.authority.trim();
  return authority.includes('@') ? normalizeAccount(authority) : undefined;
}

/** What a Desk file system was asked to do, for the refusal's words. */
export type AccountAction = 'open' | 'save' | 'create' | 'delete' | 'rename' | 'copy';

/**
 * The account's session is not signed in (or the URI names none): nothing was sent. The message is the one the
 * editor shows, in Desk's words.
 */
export class AccountRefusedError extends Error {
  /** Holds across feature bundles (see shared/crossBundle.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasMark(value, 'AccountRefusedError');
  }

  /**
   * `nobodySignedIn`: no account at all is signed in (a workspace reopened signed out), as opposed to another
   * account in place of this one; the Explorer's notice then asks to sign in, whoever the folders belong to.
   */
  constructor(message: string, readonly account: string | undefined, readonly nobodySignedIn = false) {
    super(message);
    this.name = 'AccountRefusedError';
    markInstance(this, 'AccountRefusedError');
  }
}

/** "Sign in as alice@example.com to save groceries.txt." */
export function signInAsMessage(account: string, action: AccountAction, name: string, t: Translate = english): string {
  switch (action) {
    case 'save': return t('Sign in as {0} to save {1}.', account, name);
    case 'create': return t('Sign in as {0} to create {1}.', account, name);
    case 'delete': return t('Sign in as {0} to delete {1}.', account, name);
    case 'rename': return t('Sign in as {0} to rename or move {1}.', account, name);
    case 'copy': return t('Sign in as {0} to copy {1}.', account, name);
    case 'open': return t('Sign in as {0} to open {1}.', account, name);
  }
}

/** A path-only URI (a document or workspace folder from before Desk named accounts) whose account Desk cannot know. */
export function noAccountMessage(name: string, t: Translate = english): string {
  return t('“{0}” does not say which Google account it belongs to (it was opened before Desk named accounts). Open it again from Desk\'s view, or remove the workspace folder and add it again.', name);
}

/** The sessions side of the gate (DeskSession implements it). */
export interface AccountGate {
  /** The signed-in accounts (normalized e-mail addresses); reads the stored sessions, no network. */
  signedInAccounts(): Promise<readonly string[]>;
  /** Runs `work` with every request's token taken from this account's session (refused when it has none). */
  runAs<T>(account: string, work: () => Promise<T>): Promise<T>;
}

export interface UriAccountsOptions {
  readonly gate: AccountGate;
  /** The account a path-only URI was added as (a workspace folder Desk recorded), when Desk knows it. */
  readonly legacyAccount?: (uri: { readonly scheme: string; readonly path: string }) => string | undefined;
  readonly t?: Translate;
}

/** The account a URI is for, resolved once per operation, and the operation run in it or refused. */
export class UriAccounts {
  constructor(private readonly options: UriAccountsOptions) {}

  /** The URI's account: its authority, else what Desk recorded for a path-only URI; undefined when neither says. */
  accountOf(uri: { readonly scheme: string; readonly authority: string; readonly path: string }): string | undefined {
    const named = accountOfUri(uri);
    if (named) return named;
    const legacy = this.options.legacyAccount?.(uri);
    return legacy ? normalizeAccount(legacy) : undefined;
  }

  /**
   * Runs `work` as the URI's account when that account is signed in; otherwise throws AccountRefusedError with
   * Desk's sentence (`name` is what the user knows the document or folder by) and sends nothing.
   */
  async run<T>(uri: { readonly scheme: string; readonly authority: string; readonly path: string }, action: AccountAction, name: string, work: (account: string) => Promise<T>): Promise<T> {
    const t = this.options.t ?? english;
    const account = this.accountOf(uri);
    if (!account) throw new AccountRefusedError(noAccountMessage(name, t), undefined);
    const signedIn = await this.options.gate.signedInAccounts();
    if (!signedIn.includes(account)) throw new AccountRefusedError(signInAsMessage(account, action, name, t), account, signedIn.length === 0);
    return this.options.gate.runAs(account, () => work(account));
  }
}

/** The last path segment of a URI, decoded as VS Code gives it: what a tab shows. */
export function displayNameOf(uri: { readonly path: string }, fallback = '/'): string {
  const segments = uri.path.split('/').filter((segment) => segment.length > 0);
  return segments[segments.length - 1] ?? fallback;
}
