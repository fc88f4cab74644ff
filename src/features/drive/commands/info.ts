/** The Drive commands that show information: a file's details, the installed apps, the account and its quota. */
import type * as vscode from 'vscode';
import { errorMessage } from '../../../api/errors';
import type { AccountGate } from '../../../core/accounts/accounts';
import { registerAccountDocuments } from '../../../core/accounts/accountDocuments';
import { attempt } from '../../../core/commands';
import { writeTimestamp } from '../../../core/text/clock';
import { showDetails } from '../../../core/ui/detailsView';
import { escapeMarkdown } from '../../../core/text/markdown';
import { english, Translate } from '../../../shared/l10n';
import { isFolder, isNative } from '../../../shared/schemas/drive';
import type { DriveApi, DriveItem } from '../port';
import { formatBytes, kindLabel, WriteMoment } from '../tree/presentation';
import type { DriveNode } from '../tree/model';
import { DriveCommandPart } from './context';

export const PROPERTIES_SCHEME = 'desk-drive-properties';
export const APP_DETAILS_SCHEME = 'desk-drive-app';

/** The read-only file-details (markdown) and app-details (JSON) documents these commands open; a failure reads as such. */
export function registerInfoDocuments(vs: typeof vscode, accounts: AccountGate, api: () => DriveApi, when: WriteMoment): vscode.Disposable[] {
  const firstPathPart = (uri: vscode.Uri): string => uri.path.split('/').filter(Boolean)[0] ?? '';
  const t = vs.l10n.t;
  const document = (render: (uri: vscode.Uri) => Promise<string>, failure: (message: string) => string): vscode.TextDocumentContentProvider => ({
    provideTextDocumentContent: async (uri) => {
      try {
        return await render(uri);
      } catch (error) {
        return failure(errorMessage(error, t));
      }
    },
  });
  return [
    registerAccountDocuments(vs, accounts, PROPERTIES_SCHEME, document(
      (uri) => propertiesDocument(api(), firstPathPart(uri), { rootTitle: t('My Drive'), when, t }),
      (message) => `# ${t('Could not load the details')}\n\n${escapeMarkdown(message)}\n`,
    ), (message) => `# ${escapeMarkdown(message)}\n`),
    registerAccountDocuments(vs, accounts, APP_DETAILS_SCHEME, document((uri) => appDocument(api(), firstPathPart(uri)), (message) => `// ${message}\n`), (message) => `// ${message}\n`),
  ];
}

/** How the details page writes: the root folder's name, moments (Desk's clock) and Desk's words. */
export interface DetailsWriting {
  readonly rootTitle: string;
  readonly when: WriteMoment;
  readonly t?: Translate;
}

/**
 * The details page of a file or folder, in words: kind, size, the folders it is in (parents.list, titled where
 * readable), for a folder how many entries it holds (children.list over every page), owner, dates as Desk's clock
 * writes them, and a link to Drive.
 */
export async function propertiesDocument(api: DriveApi, fileId: string, writing: DetailsWriting): Promise<string> {
  const { rootTitle } = writing;
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
  return fileDetailsMarkdown(file, inFolders.map((folder) => folder.title ?? folder.id), childCount, writing);
}

/** The details page's markdown (pure). Text from Drive is escaped; a value Drive did not give reads "—". */
export function fileDetailsMarkdown(file: DriveItem, inFolders: readonly string[], childCount: number | undefined, writing: DetailsWriting): string {
  const t = writing.t ?? english;
  const moment = (value: string | undefined): string => escapeMarkdown(value === undefined ? '—' : writeTimestamp(value, writing.when));
  const owners = file.owners?.map((owner) => owner.displayName ?? owner.emailAddress).filter((name): name is string => Boolean(name)) ?? file.ownerNames ?? [];
  const yes = (value: boolean | undefined): string => (value ? t('Yes') : t('No'));
  const rows: Array<[string, string]> = [[t('Kind'), escapeMarkdown(kindLabel(file.mimeType, t))]];
  if (childCount !== undefined) rows.push([t('Contains'), childCount === 1 ? t('1 item') : t('{0} items', childCount)]);
  else if (!isFolder(file) && !isNative(file) && file.fileSize !== undefined) rows.push([t('Size'), formatBytes(Number(file.fileSize), t)]);
  rows.push(
    [t('In'), inFolders.length > 0 ? inFolders.map(escapeMarkdown).join(', ') : '—'],
    [t('Owner'), owners.length > 0 ? owners.map(escapeMarkdown).join(', ') : '—'],
    [t('Created'), moment(file.createdDate)],
    [t('Modified'), file.lastModifyingUserName ? t('{0} by {1}', moment(file.modifiedDate), escapeMarkdown(file.lastModifyingUserName)) : moment(file.modifiedDate)],
    [t('Starred'), yes(file.labels?.starred)],
    [t('Shared'), yes(file.shared)],
  );
  if (file.labels?.trashed) rows.push([t('In the trash'), t('Yes')]);
  const lines = [`# ${escapeMarkdown(file.title ?? file.id)}`, '', `| ${t('Field')} | ${t('Value')} |`, '|---|---|', ...rows.map(([field, value]) => `| ${field} | ${value.replace(/\|/g, '\\|')} |`), ''];
  if (file.description?.trim()) lines.push(`## ${t('Description')}`, '', escapeMarkdown(file.description), '');
  if (file.alternateLink && /^https?:/i.test(file.alternateLink)) lines.push(`[${t('Open in Google Drive')}](${encodeURI(file.alternateLink).replace(/[()]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)})`, '');
  return lines.join('\n');
}

/** An app's details document (apps.get). */
export async function appDocument(api: DriveApi, appId: string): Promise<string> {
  return `${JSON.stringify((await api.getApp(appId)).details, null, 2)}\n`;
}

export class DriveInfoCommands extends DriveCommandPart {
  /** A read-only JSON document of `scheme` for `id`, titled with `name` (a slash in it would start a folder). */
  private async showJson(scheme: string, id: string, name: string): Promise<void> {
    const uri = this.vs.Uri.from({ scheme, authority: this.desk.session.viewAccount(), path: `/${id}/${name.replace(/\//g, '∕')}.json` });
    const doc = await this.vs.workspace.openTextDocument(uri);
    await this.vs.languages.setTextDocumentLanguage(doc, 'json');
    await this.vs.window.showTextDocument(doc, { preview: true });
  }

  /** One read-only tab titled with the file's name (see core/ui/detailsView.ts): the row, the selection, or the open Drive file. */
  properties(node?: DriveNode) {
    return attempt(this.desk, async () => {
      const file = await this.context.targetFile(node);
      if (!file) return;
      const title = file.title ?? file.id;
      const uri = this.vs.Uri.from({ scheme: PROPERTIES_SCHEME, authority: this.desk.session.viewAccount(), path: `/${file.id}/${title.replace(/\//g, '∕')}.md` });
      await showDetails(this.vs, uri, title);
    }, { action: this.t('Could not show the details'), retry: true });
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
