/**
 * Desk's read-only documents (details, revisions, settings) name their account in the URI's authority, as its files
 * do: each is provided as that account (every request takes its token), or reads as Desk's refusal when that account
 * is not signed in, so a tab left open across a change of account never shows the other account's data.
 */
import type * as vscode from 'vscode';
import { AccountGate, AccountRefusedError, displayNameOf, UriAccounts } from './accounts';

export function registerAccountDocuments(
  vs: typeof vscode,
  gate: AccountGate,
  scheme: string,
  provider: vscode.TextDocumentContentProvider,
  /** The refusal as the document's text (a comment line for JSON, a heading for markdown); the sentence by default. */
  refusal: (message: string) => string = (message) => `${message}\n`,
): vscode.Disposable {
  const accounts = new UriAccounts({ gate, t: vs.l10n.t });
  const wrapped: vscode.TextDocumentContentProvider = {
    ...(provider.onDidChange ? { onDidChange: provider.onDidChange } : {}),
    provideTextDocumentContent: async (uri, token) => {
      try {
        return await accounts.run(uri, 'open', displayNameOf(uri), async () => (await provider.provideTextDocumentContent(uri, token)) ?? '');
      } catch (error) {
        if (error instanceof AccountRefusedError) return refusal(error.message);
        throw error;
      }
    },
  };
  return vs.workspace.registerTextDocumentContentProvider(scheme, wrapped);
}
