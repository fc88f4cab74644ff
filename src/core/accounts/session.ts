import { AsyncLocalStorage } from 'node:async_hooks';
import type * as vscode from 'vscode';
import type { TokenSource } from '../../api/http';
import { SIGNED_IN_CONTEXT_KEY } from './deskCommands';
import { DESK_SCOPES } from '../../config/scopes';
import { AUTH_PROVIDER_ID, DeskAuthenticationProvider, NotSignedInError, SignedInAccount } from '../../auth/provider';
import { AccountGate, normalizeAccount } from './accounts';
import { Disposable } from '../disposable';

/** One sign-in covers every Desk service (DESK_SCOPES); a service asks for its own subset of them. */
export { AUTH_PROVIDER_ID, NotSignedInError, SIGNED_IN_CONTEXT_KEY };
export type { SignedInAccount };

/** Context key: more than one account is signed in (views show one root per account). */
export const SEVERAL_ACCOUNTS_CONTEXT_KEY = 'desk:severalAccounts';

export type SessionProvider = Pick<DeskAuthenticationProvider, 'listSessions' | 'accessTokenFor' | 'onDidChangeSessions' | 'createSession'>
  & Partial<Pick<DeskAuthenticationProvider, 'listAccounts'>>;

/**
 * Whether the user is signed in (the `desk:signedIn` context key for welcome views and menus), and bearer
 * tokens for the HTTP pipeline. The signed-in check reads stored sessions only: no network, no browser.
 */
export class DeskSession extends Disposable implements AccountGate {
  private readonly changeEmitter: vscode.EventEmitter<boolean>;
  /** Fires false at sign-out, true at sign-in and when another account takes the place of the one shown. */
  readonly onDidChangeSignedIn: vscode.Event<boolean>;
  private signedInValue: boolean | undefined;
  /** The signed-in accounts' e-mail addresses (normalized) as the last check found them. */
  private accountsValue: readonly string[] = [];
  /** The same accounts with their names (for the views' account roots). */
  private profilesValue: readonly SignedInAccount[] = [];
  private readonly accountsEmitter: vscode.EventEmitter<readonly SignedInAccount[]>;
  /** Fires when an account is added beside the others or one of several signs out (after the first check). */
  readonly onDidChangeAccounts: vscode.Event<readonly SignedInAccount[]>;
  /** The account the requests of the operation under way are for (runAs): their tokens come from its session only. */
  private readonly requestAccount = new AsyncLocalStorage<string>();
  private checking: Promise<boolean> | undefined;

  constructor(private readonly vs: typeof vscode, private readonly provider: SessionProvider) {
    super();
    this.changeEmitter = this._register(new vs.EventEmitter<boolean>());
    this.onDidChangeSignedIn = this.changeEmitter.event;
    this.accountsEmitter = this._register(new vs.EventEmitter<readonly SignedInAccount[]>());
    this.onDidChangeAccounts = this.accountsEmitter.event;
    this._register(provider.onDidChangeSessions(() => void this.check()));
  }

  /** The last known state; `isSignedIn()` looks it up the first time. */
  get signedIn(): boolean {
    return this.signedInValue ?? false;
  }

  async isSignedIn(): Promise<boolean> {
    return this.signedInValue ?? this.check();
  }

  /** Looks the sessions up again (after activation, sign-in, sign-out, a backend change) and updates the context key. */
  check(): Promise<boolean> {
    this.checking ??= this.lookUp().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  /**
   * Bearer tokens for `scopes`, refreshed when near expiry; throws NotSignedInError rather than prompting.
   * Desk owns the provider, so it reads its sessions there directly: VS Code's per-extension access
   * prompts are for other extensions borrowing an account. Requests asked together share one lookup.
   */
  tokenSource(scopes: readonly string[] = DESK_SCOPES): TokenSource {
    return (options) => this.provider.accessTokenFor(scopes, { ...options, account: this.requestAccount.getStore() });
  }

  /**
   * Runs `work` as `account`: every request it makes (however deep, through any client) takes that account's token,
   * and fails with AccountNotSignedInError, sending nothing, when that account has no session.
   */
  runAs<T>(account: string, work: () => Promise<T>): Promise<T> {
    return this.requestAccount.run(normalizeAccount(account), work);
  }

  /** The signed-in accounts' e-mail addresses, read from the stored sessions now (no network). */
  async signedInAccounts(): Promise<readonly string[]> {
    try {
      return [...new Set((await this.provider.listSessions()).map((session) => normalizeAccount(session.account.label)))];
    } catch {
      return [];
    }
  }

  /** The signed-in accounts with their names, in the order they signed in, as the last check found them. */
  get accounts(): readonly SignedInAccount[] {
    return this.profilesValue;
  }

  /** Whether `account` (an e-mail) is among the accounts signed in. */
  isSignedInAs(account: string): boolean {
    return this.profilesValue.some((profile) => profile.email === account);
  }

  /**
   * Whose something is, for status items and notifications: with several accounts signed in, the name (else e-mail)
   * of `account` (default: the operation's account, else the first); undefined with one account, so it reads as today.
   */
  whose(account?: string): string | undefined {
    if (this.profilesValue.length <= 1) return undefined;
    const email = account === undefined ? this.requestAccount.getStore() ?? this.currentAccount : normalizeAccount(account);
    const profile = this.profilesValue.find((candidate) => candidate.email === email);
    return profile ? profile.name ?? profile.email : email;
  }

  /** The account of the operation under way (runAs: a row's or a document's), if any. */
  get operationAccount(): string | undefined {
    return this.requestAccount.getStore();
  }

  /**
   * The account a command acts in, for the URIs it opens: the account of the row or document it runs on (runAs),
   * else the first signed in; NotSignedInError when none is signed in.
   */
  viewAccount(): string {
    const account = this.requestAccount.getStore() ?? this.currentAccount;
    if (!account) throw new NotSignedInError(this.vs.l10n.t);
    return account;
  }

  /** viewAccount(), after the first look at the stored sessions (a row drawn from the view cache can be clicked before it). */
  async viewAccountNow(): Promise<string> {
    await this.isSignedIn();
    return this.viewAccount();
  }

  /** The e-mail address of the account Desk's views show (the first signed in) as the last check found it. */
  get currentAccount(): string | undefined {
    return this.accountsValue[0];
  }

  /** The signed-in account's id (the first session with every Desk scope), undefined when signed out; no network. */
  async account(): Promise<string | undefined> {
    try {
      return (await this.provider.listSessions()).find((session) => DESK_SCOPES.every((scope) => session.scopes.includes(scope)))?.account.id;
    } catch {
      return undefined;
    }
  }

  /** Runs the provider's browser sign-in for every Desk scope; returns the account's label. */
  async signIn(): Promise<string> {
    const session = await this.provider.createSession(DESK_SCOPES);
    await this.check();
    return session.account.label;
  }

  /**
   * The account a command not run on a row acts in: the only one, or the one the user picks when several are signed
   * in (undefined when they close the picker). Inside runAs, that account without asking.
   */
  async chooseAccount(placeHolder?: string): Promise<string | undefined> {
    const operation = this.requestAccount.getStore();
    if (operation) return operation;
    await this.isSignedIn();
    const accounts = this.profilesValue;
    if (accounts.length <= 1) return accounts[0]?.email ?? this.viewAccount();
    const pick = await this.vs.window.showQuickPick(
      accounts.map((account) => ({ label: account.name ?? account.email, description: account.name ? account.email : undefined, email: account.email })),
      { placeHolder: placeHolder ?? this.vs.l10n.t('Which account?') },
    );
    return pick?.email;
  }

  /** The signed-in accounts with their names, read from the stored sessions now (no network). */
  private async signedInProfiles(): Promise<readonly SignedInAccount[]> {
    if (!this.provider.listAccounts) return (await this.signedInAccounts()).map((email) => ({ email }));
    try {
      return await this.provider.listAccounts();
    } catch {
      return [];
    }
  }

  private async lookUp(): Promise<boolean> {
    const profiles = await this.signedInProfiles();
    const accounts = profiles.map((profile) => profile.email);
    const listChanged = accounts.length !== this.accountsValue.length || accounts.some((account, index) => account !== this.accountsValue[index]);
    this.profilesValue = profiles;
    const signedIn = accounts.length > 0;
    // Another account in place of the one shown (signed out and in within one look, or another window): to the views
    // that is a new sign-in, so everything they keep of the old account goes.
    const switched = signedIn && this.signedInValue === true && accounts[0] !== this.accountsValue[0];
    this.accountsValue = accounts;
    await this.vs.commands.executeCommand('setContext', SIGNED_IN_CONTEXT_KEY, signedIn);
    if (listChanged || this.signedInValue === undefined) await this.vs.commands.executeCommand('setContext', SEVERAL_ACCOUNTS_CONTEXT_KEY, accounts.length > 1);
    const known = this.signedInValue !== undefined;
    if (signedIn !== this.signedInValue || switched) {
      this.signedInValue = signedIn;
      if (known) this.changeEmitter.fire(signedIn);
    }
    if (known && listChanged) this.accountsEmitter.fire(profiles);
    return signedIn;
  }
}
