/** The Drive commands that show information: a file's properties, the installed apps, the account and its quota. */
import type * as vscode from 'vscode';
import { errorMessage } from '../../../api/errors';
import { attempt } from '../../../core/commands';
import { isFolder } from '../../../shared/schemas/drive';
import type { DriveApi } from '../port';
import { formatBytes } from '../tree/presentation';
import type { DriveNode } from '../tree/model';
import type { DriveCommandKit } from './kit';

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

export function infoCommands(kit: DriveCommandKit) {
  const { host, vs, t } = kit;
  const desk = host.desk;

  return {
    properties: (node?: DriveNode) =>
      attempt(desk, async () => {
        const [file] = kit.requireFiles(node) ?? [];
        if (!file) return;
        const uri = vs.Uri.from({ scheme: PROPERTIES_SCHEME, path: `/${file.item.id}/${(file.item.title ?? file.item.id).replace(/\//g, '∕')}.json` });
        const doc = await vs.workspace.openTextDocument(uri);
        await vs.languages.setTextDocumentLanguage(doc, 'json');
        await vs.window.showTextDocument(doc, { preview: true });
      }, { action: t('Could not show the properties'), retry: true }),

    apps: () =>
      attempt(desk, async () => {
        const apps = await host.api().listApps();
        if (apps.length === 0) {
          void vs.window.showInformationMessage(t('No Drive apps are installed for this account.'));
          return;
        }
        const picked = await vs.window.showQuickPick(
          apps.map((app) => ({ label: app.name ?? app.id, description: app.shortDescription, app })),
          { placeHolder: t('Installed Drive apps: choose one to see its details') },
        );
        if (!picked) return;
        const uri = vs.Uri.from({ scheme: APP_DETAILS_SCHEME, path: `/${picked.app.id}/${(picked.app.name ?? picked.app.id).replace(/\//g, '∕')}.json` });
        const doc = await vs.workspace.openTextDocument(uri);
        await vs.languages.setTextDocumentLanguage(doc, 'json');
        await vs.window.showTextDocument(doc, { preview: true });
      }, { action: t('Could not list the Drive apps'), retry: true }),

    about: () =>
      attempt(desk, async () => {
        const about = await host.about();
        const used = Number(about.quotaBytesUsed ?? NaN);
        const total = Number(about.quotaBytesTotal ?? NaN);
        const quota = Number.isFinite(used)
          ? Number.isFinite(total) && total > 0
            ? t('{0} of {1} used ({2}%)', formatBytes(used, t), formatBytes(total, t), Math.round((used / total) * 100))
            : t('{0} used (no limit)', formatBytes(used, t))
          : t('quota unknown');
        const account = [about.userName, about.userEmail && `<${about.userEmail}>`].filter(Boolean).join(' ');
        const trash = about.quotaBytesUsedInTrash ? t(', {0} in the trash', formatBytes(Number(about.quotaBytesUsedInTrash), t)) : '';
        await vs.window.showInformationMessage(t('Drive: {0} · {1}{2} · {3}', account || t('unknown account'), quota, trash, host.endpoints()?.kind === 'emulator' ? t('local emulator') : 'Google'));
      }, { action: t('Could not read the Drive account'), retry: true }),
  };
}
