/** The Drive commands that show information: a file's properties, the installed apps, the account and its quota. */
import type * as vscode from 'vscode';
import { errorMessage } from '../../../api/errors';
import { attempt } from '../../../core/commands';
import { isFolder } from '../../../shared/schemas/drive';
import type { DriveApi } from '../port';
import { formatBytes } from '../tree/presentation';
import type { DriveNode } from '../tree/model';
import { DriveCommandPart } from './context';

export const PROPERTIES_SCHEME = 'desk-drive-properties';
export const APP_DETAILS_SCHEME = 'desk-drive-app';

/** The read-only properties and app-details documents these commands open; a failure reads as a comment line. */
export function registerInfoDocuments(vs: typeof vscode, api: () => DriveApi): vscode.Disposable[] {
  const firstPathPart = (uri: vscode.Uri): string => uri.path.split('/').filter(Boolean)[0] ?? '';
  const document = (render: (uri: vscode.Uri) => Promise<string>): vscode.TextDocumentContentProvider => ({
    provideTextDocumentContent: async (uri) => {
      try {
        return await render(uri);
      } catch (error) {
        return `// ${errorMessage(error, vs.l10n.t)}\n`;
      }
    },
  });
  return [
    vs.workspace.registerTextDocumentContentProvider(PROPERTIES_SCHEME, document((uri) => propertiesDocument(api(), firstPathPart(uri), vs.l10n.t('My Drive')))),
    vs.workspace.registerTextDocumentContentProvider(APP_DETAILS_SCHEME, document((uri) => appDocument(api(), firstPathPart(uri)))),
  ];
}

/**
 * The properties document: the file resource, the folders it is in (parents.list, titled where readable) and,
 * for a folder, how many entries it holds (children.list over every page).
 */
export async function propertiesDocument(api: DriveApi, fileId: string, rootTitle: string): Promise<string> {
  const [file, parents] = await Promise.all([api.getFile(fileId), api.listParents(fileId)]);
  const inFolders = await Promise.all(parents.map(async (parent) => ({
    id: parent.id,
    title: parent.isRoot ? rootTitle : (await api.getFile(parent.id).catch(() => undefined))?.title,
  })));
  let childCount: number | undefined;
  if (isFolder(file)) {
    childCount = 0;
    let pageToken: string | undefined;
    do {
      const page = await api.listChildren(fileId, pageToken);
      childCount += page.ids.length;
      pageToken = page.nextPageToken;
    } while (pageToken);
  }
  return `${JSON.stringify({ ...file, inFolders, ...(childCount !== undefined ? { childCount } : {}) }, null, 2)}\n`;
}

/** An app's details document (apps.get). */
export async function appDocument(api: DriveApi, appId: string): Promise<string> {
  return `${JSON.stringify((await api.getApp(appId)).details, null, 2)}\n`;
}

export class DriveInfoCommands extends DriveCommandPart {
  /** A read-only JSON document of `scheme` for `id`, titled with `name` (a slash in it would start a folder). */
  private async showJson(scheme: string, id: string, name: string): Promise<void> {
    const uri = this.vs.Uri.from({ scheme, path: `/${id}/${name.replace(/\//g, '∕')}.json` });
    const doc = await this.vs.workspace.openTextDocument(uri);
    await this.vs.languages.setTextDocumentLanguage(doc, 'json');
    await this.vs.window.showTextDocument(doc, { preview: true });
  }

  properties(node?: DriveNode) {
    return attempt(this.desk, async () => {
      const [file] = this.context.requireFiles(node) ?? [];
      if (!file) return;
      await this.showJson(PROPERTIES_SCHEME, file.item.id, file.item.title ?? file.item.id);
    }, { action: this.t('Could not show the properties'), retry: true });
  }

  apps() {
    return attempt(this.desk, async () => {
      const apps = await this.host.api().listApps();
      if (apps.length === 0) {
        void this.vs.window.showInformationMessage(this.t('No Drive apps are installed for this account.'));
        return;
      }
      const picked = await this.vs.window.showQuickPick(
        apps.map((app) => ({ label: app.name ?? app.id, description: app.shortDescription, app })),
        { placeHolder: this.t('Installed Drive apps: choose one to see its details') },
      );
      if (!picked) return;
      await this.showJson(APP_DETAILS_SCHEME, picked.app.id, picked.app.name ?? picked.app.id);
    }, { action: this.t('Could not list the Drive apps'), retry: true });
  }

  about() {
    return attempt(this.desk, async () => {
      const about = await this.host.about();
      const used = Number(about.quotaBytesUsed ?? NaN);
      const total = Number(about.quotaBytesTotal ?? NaN);
      const quota = Number.isFinite(used)
        ? Number.isFinite(total) && total > 0
          ? this.t('{0} of {1} used ({2}%)', formatBytes(used, this.t), formatBytes(total, this.t), Math.round((used / total) * 100))
          : this.t('{0} used (no limit)', formatBytes(used, this.t))
        : this.t('quota unknown');
      const account = [about.userName, about.userEmail && `<${about.userEmail}>`].filter(Boolean).join(' ');
      const trash = about.quotaBytesUsedInTrash ? this.t(', {0} in the trash', formatBytes(Number(about.quotaBytesUsedInTrash), this.t)) : '';
      await this.vs.window.showInformationMessage(this.t('Drive: {0} · {1}{2} · {3}', account || this.t('unknown account'), quota, trash, this.host.endpoints()?.kind === 'emulator' ? this.t('local emulator') : 'Google'));
    }, { action: this.t('Could not read the Drive account'), retry: true });
  }
}
