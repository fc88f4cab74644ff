import type * as vscode from 'vscode';

/**
 * Just enough of the `vscode` API for the authentication provider and the tree providers to run under plain mocha:
 * an EventEmitter, Uri.parse, env.asExternalUri/openExternal, window.withProgress, TreeItem and its friends, l10n.t,
 * and an in-memory SecretStorage that fires onDidChange like VS Code's (share one between two providers to play two
 * windows).
 */
type Listener<T> = (event: T) => unknown;

export class FakeEventEmitter<T> {
  private listeners: Listener<T>[] = [];
  readonly event = (listener: Listener<T>): { dispose(): void } => {
    this.listeners.push(listener);
    return { dispose: () => { this.listeners = this.listeners.filter((candidate) => candidate !== listener); } };
  };
  fire(event: T): void {
    for (const listener of [...this.listeners]) listener(event);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class FakeSecretStorage {
  readonly values = new Map<string, string>();
  private readonly changes = new FakeEventEmitter<{ key: string }>();
  readonly onDidChange = this.changes.event;

  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
    this.changes.fire({ key });
  }
  async delete(key: string): Promise<void> {
    if (this.values.delete(key)) this.changes.fire({ key });
  }
}

class FakeTreeItem {
  id?: string;
  description?: string;
  contextValue?: string;
  iconPath?: unknown;
  tooltip?: unknown;
  command?: unknown;
  checkboxState?: unknown;
  accessibilityInformation?: unknown;
  constructor(readonly label: string, readonly collapsibleState: number) {}
}

class FakeThemeIcon {
  constructor(readonly id: string) {}
}

class FakeMarkdownString {
  constructor(public value: string = '') {}

  /** As vscode's: the text is escaped, so what the user wrote never reads as markdown. */
  appendText(text: string): this {
    this.value += text.replace(/[\\`*_{}[\]()#+\-.!<>|~]/g, '\\$&');
    return this;
  }

  appendMarkdown(markdown: string): this {
    this.value += markdown;
    return this;
  }
}

export interface FakeUri {
  readonly scheme: string;
  readonly authority: string;
  readonly path: string;
  toString(skipEncoding?: boolean): string;
}

export function fakeUri(text: string): FakeUri {
  const url = new URL(text);
  return { scheme: url.protocol.replace(/:$/, ''), authority: url.host, path: url.pathname, toString: () => text };
}

export interface FakeVscodeOptions {
  asExternalUri?: (uri: FakeUri) => FakeUri | Promise<FakeUri>;
  openExternal?: (uri: FakeUri) => Promise<boolean>;
  /** What `vs.authentication.getSession` answers (createTokenSource asks it). */
  getSession?: (providerId: string, scopes: readonly string[]) => Promise<vscode.AuthenticationSession | undefined>;
  /** Cancels the progress notification's token once this promise settles. */
  cancelWhen?: Promise<unknown>;
}

export function fakeVscode(options: FakeVscodeOptions = {}): typeof vscode {
  const fake = {
    EventEmitter: FakeEventEmitter,
    TreeItem: FakeTreeItem,
    ThemeIcon: FakeThemeIcon,
    MarkdownString: FakeMarkdownString,
    TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    TreeItemCheckboxState: { Unchecked: 0, Checked: 1 },
    l10n: { t: (message: string, ...args: unknown[]) => message.replace(/\{(\d+)\}/g, (_match, index: string) => String(args[Number(index)])) },
    Uri: { parse: fakeUri },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    env: {
      asExternalUri: async (uri: FakeUri) => (options.asExternalUri ? options.asExternalUri(uri) : uri),
      openExternal: options.openExternal ?? (async () => false),
    },
    window: {
      withProgress: async <R>(_options: unknown, task: (progress: { report(): void }, token: unknown) => Promise<R>): Promise<R> => {
        const cancellation = new FakeEventEmitter<void>();
        let cancelled = false;
        void options.cancelWhen?.then(() => { cancelled = true; cancellation.fire(); });
        const token = { get isCancellationRequested() { return cancelled; }, onCancellationRequested: cancellation.event };
        return task({ report: () => undefined }, token);
      },
    },
    authentication: {
      getSession: async (providerId: string, scopes: readonly string[]) => options.getSession?.(providerId, scopes),
    },
  };
  return fake as unknown as typeof vscode;
}
