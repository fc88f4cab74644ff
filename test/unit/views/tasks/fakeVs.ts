import type * as vscode from 'vscode';

/** Just enough of `vscode` for the Tasks tree provider under plain mocha. */
class FakeEventEmitter<T> {
  private listeners: Array<(event: T) => unknown> = [];
  readonly event = (listener: (event: T) => unknown): { dispose(): void } => {
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
  constructor(readonly value: string) {}
}

export function fakeVs(): typeof vscode {
  const fake = {
    EventEmitter: FakeEventEmitter,
    TreeItem: FakeTreeItem,
    ThemeIcon: FakeThemeIcon,
    MarkdownString: FakeMarkdownString,
    TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    TreeItemCheckboxState: { Unchecked: 0, Checked: 1 },
    l10n: { t: (message: string, ...args: unknown[]) => message.replace(/\{(\d+)\}/g, (_match, index: string) => String(args[Number(index)])) },
  };
  return fake as unknown as typeof vscode;
}
