/**
 * Desk's read-only documents (details, revisions, settings) name their account in the URI's authority, as its files
 * do: each is provided as that account (every request takes its token), or reads as Desk's refusal when that account
 * is not signed in, so a tab left open across a change of account never shows the other account's data.
 */
import type * as vscode from 'vscode';
import { AccountGate, AccountRefusedError, displayNameOf, UriAccounts } from './accounts';

export function registerAccountDocuments(
  vs: typeof vscode,
  gate: AccountGate & { readonly onDidChangeSignedIn?: vscode.Event<boolean> },
  scheme: string,
  provider: vscode.TextDocumentContentProvider,
  /** The refusal as the document's text (a comment line for JSON, a heading for markdown); the sentence by default. */
  refusal: (message: string) => string = (message) => `${message}\n`,
): vscode.Disposable {
  const accounts = new UriAccounts({ gate, t: vs.l10n.t });
  // A document that read as a refusal is read again when the accounts change: signed back in as its account, a tab
  // left open shows the content again instead of the refusal VS Code keeps for that URI.
  const refused = new Map<string, vscode.Uri>();
  const changes = new vs.EventEmitter<vscode.Uri>();
  const forwarded = provider.onDidChange?.((uri) => { changes.fire(uri); });
  const accountsChanged = gate.onDidChangeSignedIn?.(() => {
    const uris = [...refused.values()];
    refused.clear();
    for (const uri of uris) changes.fire(uri);
  });
  const wrapped: vscode.TextDocumentContentProvider = {
    onDidChange: changes.event,
    provideTextDocumentContent: async (uri, token) => {
      try {
        const content = await accounts.run(uri, 'open', displayNameOf(uri), async () => (await provider.provideTextDocumentContent(uri, token)) ?? '');
        refused.delete(uri.toString());
        return content;
      } catch (error) {
        if (!(error instanceof AccountRefusedError)) throw error;
        refused.set(uri.toString(), uri);
        return refusal(error.message);
      }
    },
  };
  const registration = vs.workspace.registerTextDocumentContentProvider(scheme, wrapped);
  return new vs.Disposable(() => {
    registration.dispose();
    forwarded?.dispose();
    accountsChanged?.dispose();
    changes.dispose();
  });
}
