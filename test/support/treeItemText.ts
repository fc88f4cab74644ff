import type * as vscode from 'vscode';

/** What a tree row's label reads: the string, or a TreeItemLabel's text ('undefined' for none, as String() wrote it). */
export function labelText(label: string | vscode.TreeItemLabel | undefined): string {
  return typeof label === 'string' ? label : String(label?.label);
}

/** What a tree row's hover reads: the string, or a MarkdownString's source ('undefined' for none). */
export function tooltipText(tooltip: string | vscode.MarkdownString | undefined): string {
  return typeof tooltip === 'string' ? tooltip : String(tooltip?.value);
}
