/**
 * Several accounts signed in at once: a view shows one root per account (name, e-mail), each holding that account's
 * tree as the view shows it for one account. The first account's tree is the feature's own (with its view cache);
 * every other account gets a tree of its own, made on first use, whose every call runs as that account (runAs), so
 * each request takes that account's token. One account signed in: the feature's tree is shown as it is, unchanged.
 *
 * A row knows its account (core/accounts/rowAccount.ts): the command wrapper
 * (core/commands.ts) runs a command on a row as that row's account, and `accountScoped` makes the feature's code
 * reach the tree of the account the operation runs as.
 */
import type * as vscode from 'vscode';
import type { SignedInAccount } from '../../auth/provider';
import { normalizeAccount } from './accounts';
import { accountOfRow, markRow } from './rowAccount';

export { accountOfRow };

/** The root row of one account. */
export class AccountRootNode {
  readonly kind = 'account';
  constructor(readonly account: SignedInAccount) {
    markRow(this, account.email);
  }

  get id(): string {
    return `account/${this.account.email}`;
  }
}

/** What the roots need of DeskSession. */
export interface AccountRootsSession {
  readonly accounts: readonly SignedInAccount[];
  readonly onDidChangeAccounts: vscode.Event<readonly SignedInAccount[]>;
  readonly operationAccount: string | undefined;
  runAs<T>(account: string, work: () => Promise<T>): Promise<T>;
}

type Tree<T> = vscode.TreeDataProvider<T> & { dispose(): unknown };

export interface AccountRootsOptions<T> {
  readonly session: AccountRootsSession;
  /** The feature's own tree: the first account's. */
  readonly primary: vscode.TreeDataProvider<T>;
  /** A tree for another account (no view cache: the cache holds the first account's rows). */
  readonly create: (account: string) => Tree<T>;
  /** The tree of an account that signed out was disposed. */
  readonly onRemoved?: (account: string) => void;
  /** The icon of an account's root. */
  readonly icon?: string;
}

/**
 * The view's data provider: the first account's tree alone, or one root per account. Every node handed to VS Code
 * from another account's tree is marked with its account.
 */
export class AccountRootsProvider<T extends object> implements vscode.TreeDataProvider<T | AccountRootNode>, vscode.Disposable {
  private readonly changeEmitter: vscode.EventEmitter<T | AccountRootNode | undefined>;
  readonly onDidChangeTreeData: vscode.Event<T | AccountRootNode | undefined>;
  private readonly extra = new Map<string, { readonly tree: Tree<T>; readonly subscription: vscode.Disposable | undefined }>();
  private readonly roots = new Map<string, AccountRootNode>();
  private readonly disposables: { dispose(): unknown }[] = [];

  constructor(private readonly vs: typeof vscode, private readonly options: AccountRootsOptions<T>) {
    this.changeEmitter = new vs.EventEmitter<T | AccountRootNode | undefined>();
    this.onDidChangeTreeData = this.changeEmitter.event;
    this.disposables.push(this.changeEmitter);
    const primaryChanges = options.primary.onDidChangeTreeData?.((node) => { this.forward(this.firstAccount(), node); });
    if (primaryChanges) this.disposables.push(primaryChanges);
    this.disposables.push(options.session.onDidChangeAccounts(() => { this.accountsChanged(); }));
  }

  dispose(): void {
    for (const { tree, subscription } of this.extra.values()) {
      subscription?.dispose();
      tree.dispose();
    }
    this.extra.clear();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }

  /** More than one account signed in: the view shows account roots. */
  get several(): boolean {
    return this.options.session.accounts.length > 1;
  }

  /** The tree of `account` (the feature's own for the first), made on first use; undefined when it is not signed in. */
  treeOf(account: string): vscode.TreeDataProvider<T> | undefined {
    const email = normalizeAccount(account);
    const accounts = this.options.session.accounts;
    if (accounts[0]?.email === email) return this.options.primary;
    if (!accounts.some((candidate) => candidate.email === email)) return undefined;
    let entry = this.extra.get(email);
    if (!entry) {
      const tree = this.options.create(email);
      entry = { tree, subscription: tree.onDidChangeTreeData?.((node) => { this.forward(email, node); }) };
      this.extra.set(email, entry);
    }
    return entry.tree;
  }

  /** The trees of the other accounts made so far (for a refresh of everything). */
  otherTrees(): readonly vscode.TreeDataProvider<T>[] {
    return [...this.extra.values()].map((entry) => entry.tree);
  }

  /** The root row of `account` (several accounts signed in). */
  rootOf(account: string): AccountRootNode | undefined {
    const profile = this.options.session.accounts.find((candidate) => candidate.email === normalizeAccount(account));
    if (!profile) return undefined;
    const known = this.roots.get(profile.email);
    if (known && known.account.name === profile.name) return known;
    const root = new AccountRootNode(profile);
    this.roots.set(profile.email, root);
    return root;
  }

  async getChildren(element?: T | AccountRootNode): Promise<Array<T | AccountRootNode>> {
    if (!this.several) {
      if (element instanceof AccountRootNode) return [];
      return (await this.options.primary.getChildren(element)) ?? [];
    }
    if (!element) return this.options.session.accounts.flatMap((account) => this.rootOf(account.email) ?? []);
    const account = element instanceof AccountRootNode ? element.account.email : this.ownerOf(element);
    const tree = this.treeOf(account);
    if (!tree) return [];
    const children = (await this.as(account, async () => tree.getChildren(element instanceof AccountRootNode ? undefined : element))) ?? [];
    for (const child of children) markRow(child, account);
    return children;
  }

  async getTreeItem(element: T | AccountRootNode): Promise<vscode.TreeItem> {
    const vs = this.vs;
    if (element instanceof AccountRootNode) {
      const { account } = element;
      const item = new vs.TreeItem(account.name ?? account.email, vs.TreeItemCollapsibleState.Expanded);
      item.id = element.id;
      if (account.name) item.description = account.email;
      item.tooltip = account.name ? `${account.name} <${account.email}>` : account.email;
      item.iconPath = new vs.ThemeIcon(this.options.icon ?? 'account');
      item.contextValue = 'desk-account';
      return item;
    }
    if (!this.several) return this.options.primary.getTreeItem(element);
    const account = this.ownerOf(element);
    const tree = this.treeOf(account) ?? this.options.primary;
    const item = await this.as(account, async () => tree.getTreeItem(element));
    // One row id per account: the same list or folder id can be shown under two accounts (shared files).
    if (item.id !== undefined) item.id = `${account}/${item.id}`;
    return item;
  }

  async resolveTreeItem(item: vscode.TreeItem, element: T | AccountRootNode, token: vscode.CancellationToken): Promise<vscode.TreeItem | undefined> {
    if (element instanceof AccountRootNode) return item;
    const account = this.ownerOf(element);
    const tree = (this.several ? this.treeOf(account) : undefined) ?? this.options.primary;
    if (!tree.resolveTreeItem) return item;
    return (await this.as(account, async () => tree.resolveTreeItem?.(item, element, token))) ?? item;
  }

  getParent(element: T | AccountRootNode): T | AccountRootNode | undefined {
    if (element instanceof AccountRootNode) return undefined;
    const account = this.ownerOf(element);
    const tree = (this.several ? this.treeOf(account) : undefined) ?? this.options.primary;
    // VS Code's ProviderResult: a tree may answer null for a row at the top.
    const parent = tree.getParent?.(element) as T | null | undefined;
    if (parent !== undefined && parent !== null) {
      if (this.several) markRow(parent, account);
      return parent;
    }
    return this.several ? this.rootOf(account) : undefined;
  }

  /** The account a row belongs to: marked when handed out; an unmarked row is the first account's. */
  ownerOf(element: T): string {
    return accountOfRow(element) ?? this.firstAccount();
  }

  private firstAccount(): string {
    return this.options.session.accounts[0]?.email ?? '';
  }

  /** Runs a call of another account's tree as that account; the first account's runs as the views always did. */
  private as<R>(account: string, work: () => Promise<R>): Promise<R> {
    return account === this.firstAccount() || account === '' ? work() : this.options.session.runAs(account, work);
  }

  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- what TreeDataProvider.onDidChangeTreeData fires
  private forward(account: string, node: T | undefined | null | void | T[]): void {
    if (Array.isArray(node)) {
      for (const one of node) this.forward(account, one);
      return;
    }
    if (!this.several) {
      this.changeEmitter.fire(node ?? undefined);
      return;
    }
    if (node) markRow(node, account);
    this.changeEmitter.fire(node ?? this.rootOf(account));
  }

  /** An account signed in beside the others, or one of several signed out: trees of accounts gone go too. */
  private accountsChanged(): void {
    const others = new Set(this.options.session.accounts.slice(1).map((account) => account.email));
    for (const [email, entry] of this.extra) {
      if (others.has(email)) continue;
      entry.subscription?.dispose();
      entry.tree.dispose();
      this.extra.delete(email);
      this.options.onRemoved?.(email);
    }
    this.roots.clear();
    this.changeEmitter.fire(undefined);
  }
}

/**
 * The feature's tree as its code sees it: the tree of the account the operation runs as (a command on another
 * account's row, runAs), else the first account's. Methods are bound to the tree chosen at the moment they are read.
 * `broadcast` methods called outside an account's operation (a refresh of everything) run on every account's tree.
 */
export function accountScoped<T extends object>(primary: T, roots: { treeOf(account: string): unknown; otherTrees(): readonly unknown[] }, session: Pick<AccountRootsSession, 'operationAccount'>, broadcast: readonly (keyof T & string)[] = []): T {
  const chosen = (): T => {
    const account = session.operationAccount;
    const tree = account ? roots.treeOf(account) : undefined;
    return (tree as T | undefined) ?? primary;
  };
  return new Proxy(primary, {
    get(_target, property) {
      const target = chosen();
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (typeof property === 'string' && (broadcast as readonly string[]).includes(property) && session.operationAccount === undefined) {
        return (...args: unknown[]) => {
          for (const other of roots.otherTrees()) (Reflect.get(other as object, property) as (...values: unknown[]) => unknown).apply(other, args);
          return method.apply(target, args);
        };
      }
      return method.bind(target);
    },
  });
}
