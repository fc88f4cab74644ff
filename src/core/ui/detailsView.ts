/**
 * Details of one thing (a task, an event, a book, a shelf, the Calendar settings) as ONE read-only tab titled with
 * its name: the markdown a feature's content provider writes, rendered by VS Code's own markdown engine
 * (`markdown.api.render`) into a webview panel without scripts. Where the markdown extension is missing, the
 * read-only text document opens instead. The document is still opened (it is what tests and "Find" read).
 */
import type * as vscode from 'vscode';

/** The open panels by the URI of the document they show: the same thing opens in its existing tab. */
const panels = new Map<string, vscode.WebviewPanel>();

export async function showDetails(vs: typeof vscode, uri: vscode.Uri, title: string): Promise<void> {
  const document = await vs.workspace.openTextDocument(uri);
  let html: string | undefined;
  try {
    html = await vs.commands.executeCommand<string | undefined>('markdown.api.render', document.getText());
  } catch {
    html = undefined;
  }
  if (typeof html !== 'string') {
    await vs.window.showTextDocument(document, { preview: true });
    return;
  }
  const key = uri.toString();
  let panel = panels.get(key);
  if (!panel) {
    const created = vs.window.createWebviewPanel('desk.details', title, vs.ViewColumn.Active, { enableFindWidget: true, enableScripts: false, localResourceRoots: [] });
    created.onDidDispose(() => panels.delete(key));
    panels.set(key, created);
    panel = created;
  }
  panel.title = title;
  panel.webview.html = detailsPage(html, panel.webview.cspSource, title);
  panel.reveal(undefined, false);
}

/** The page around the rendered markdown: no script may run, styles follow the VS Code theme. */
export function detailsPage(body: string, cspSource: string, title: string): string {
  const escapedTitle = title.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src https: data: ${cspSource}; style-src 'unsafe-inline' ${cspSource};">
<title>${escapedTitle}</title>
<style>
body { font-family: var(--vscode-markdown-font-family, var(--vscode-font-family)); font-size: var(--vscode-markdown-font-size, 14px); line-height: 1.5; color: var(--vscode-foreground); max-width: 56rem; padding: 0 1.5rem 2rem; }
a { color: var(--vscode-textLink-foreground); }
code { font-family: var(--vscode-editor-font-family); background: var(--vscode-textCodeBlock-background); padding: 0 0.2em; }
table { border-collapse: collapse; margin: 0.5rem 0; }
th, td { border: 1px solid var(--vscode-editorWidget-border, rgba(128, 128, 128, 0.35)); padding: 0.25rem 0.6rem; text-align: left; vertical-align: top; }
h1 { font-size: 1.6em; border-bottom: 1px solid var(--vscode-editorWidget-border, rgba(128, 128, 128, 0.35)); padding-bottom: 0.3em; }
img { max-width: 12rem; }
</style></head>
<body>${body}</body></html>`;
}
