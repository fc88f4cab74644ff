/**
 * A Drive file's revision history: a quick pick of its versions (newest first) with what each allows, and each
 * operation as its own command for the palette and the file's context menu: open an old version read-only, compare
 * it with the current content or with another version (VS Code's diff editor), restore it (an update of the file
 * with its content, confirmed), pin or unpin it, publish or unpublish it (Docs Editors files), delete it (confirmed;
 * never the current version).
 */
import type * as vscode from 'vscode';
import { isFolder } from '../../../shared/schemas/drive';
import { confirmModal } from '../../../core/confirm';
import { driveUri, fileIdOf } from '../fs/driveFileSystem';
import type { DriveItem } from '../port';
import {
  canDelete,
  canPin,
  canPublish,
  parseRevisionUri,
  revisionDescription,
  revisionDetail,
  revisionTextType,
  revisionUriParts,
  RevisionView,
  revisionViews,
  REVISION_SCHEME,
  versionedTitle,
} from '../revisions/history';
import type { RevisionsApi } from '../revisions/port';
import type { DriveNode } from '../tree/model';
import type { DriveCommandKit } from './kit';
import { targetFile } from './target';

/** A command's argument: a tree row, a document URI (editor title menu), or ids (the history picker, tests). */
export interface RevisionRef {
  readonly fileId: string;
  readonly revisionId?: string;
  /** compareRevisions: the second version. */
  readonly otherRevisionId?: string;
}
type RevisionArg = DriveNode | vscode.Uri | RevisionRef | undefined;

type Action = 'open' | 'compare' | 'compareOther' | 'restore' | 'pin' | 'unpin' | 'publish' | 'unpublish' | 'delete';

export function revisionCommands(kit: DriveCommandKit) {
  const { host, vs, t } = kit;
  const api = (): RevisionsApi => host.resources();
  const titleOf = (file: DriveItem): string => file.title ?? file.id;
  const versionLabel = (view: RevisionView): string => t('version {0}', view.number);
  const words = { current: t('current'), pinned: t('pinned'), published: t('published'), publishedAuto: t('published, republished on change') };

  const isRef = (arg: RevisionArg): arg is RevisionRef => typeof arg === 'object' && arg !== null && 'fileId' in arg && typeof arg.fileId === 'string';
  const isUri = (arg: RevisionArg): arg is vscode.Uri => arg instanceof vs.Uri;

  /** The file a command acts on, and a version it already names (from a ref or a version's document). */
  async function target(arg: RevisionArg): Promise<{ file: DriveItem; revisionId?: string; otherRevisionId?: string } | undefined> {
    let found: { file: DriveItem; revisionId?: string; otherRevisionId?: string } | undefined;
    const active = vs.window.activeTextEditor?.document.uri;
    const uri = isUri(arg) ? arg : arg === undefined && kit.fileNodes().length === 0 ? active : undefined;
    if (isRef(arg)) {
      found = { file: await host.api().getFile(arg.fileId), ...(arg.revisionId ? { revisionId: arg.revisionId } : {}), ...(arg.otherRevisionId ? { otherRevisionId: arg.otherRevisionId } : {}) };
    } else if (uri?.scheme === REVISION_SCHEME) {
      const ref = parseRevisionUri(uri.path, uri.query);
      if (ref) found = { file: await host.api().getFile(ref.fileId), revisionId: ref.revisionId };
    } else if (uri && fileIdOf(uri)) {
      found = { file: await host.api().getFile(fileIdOf(uri) as string) };
    } else {
      const file = await targetFile(kit, arg as DriveNode | undefined);
      if (file) found = { file };
    }
    if (found && isFolder(found.file)) {
      void vs.window.showInformationMessage(t('Folders have no versions: choose a file.'));
      return undefined;
    }
    return found;
  }

  async function historyOf(file: DriveItem): Promise<RevisionView[]> {
    return revisionViews(await api().allRevisions(file.id));
  }

  /** The version `revisionId` names, or the one the user picks among those `allowed`; undefined when none fits or the pick is dismissed. */
  async function choose(file: DriveItem, views: readonly RevisionView[], placeHolder: string, allowed: (view: RevisionView) => boolean, revisionId?: string): Promise<RevisionView | undefined> {
    if (revisionId !== undefined) {
      const named = views.find((view) => view.revision.id === revisionId);
      if (!named) throw new Error(t('“{0}” has no version {1} any more.', titleOf(file), revisionId));
      return named;
    }
    const candidates = views.filter(allowed);
    if (candidates.length === 0) {
      void vs.window.showInformationMessage(t('No version of “{0}” fits.', titleOf(file)));
      return undefined;
    }
    const picked = await vs.window.showQuickPick(candidates.map((view) => ({
      label: `$(${view.isHead ? 'circle-filled' : 'history'}) ${versionLabel(view)}`,
      description: revisionDescription(view, (date) => host.desk.clock.dateTime(date.getTime())),
      detail: revisionDetail(view, words, t),
      view,
    })), { title: t('Versions of “{0}”', titleOf(file)), placeHolder, matchOnDescription: true, matchOnDetail: true });
    return picked?.view;
  }

  function documentUri(file: DriveItem, view: RevisionView): vscode.Uri {
    const exportType = view.isDocs ? revisionTextType(view.revision) : undefined;
    if (view.isDocs && !exportType) throw new Error(t('This version of “{0}” cannot be read as text.', titleOf(file)));
    const parts = revisionUriParts({ fileId: file.id, revisionId: view.revision.id, ...(exportType ? { exportType } : {}) }, versionedTitle(titleOf(file), versionLabel(view)));
    return vs.Uri.from({ scheme: REVISION_SCHEME, ...parts });
  }

  async function open(file: DriveItem, view: RevisionView): Promise<void> {
    await vs.window.showTextDocument(documentUri(file, view), { preview: true });
  }

  async function compareWithCurrent(file: DriveItem, view: RevisionView): Promise<void> {
    await vs.commands.executeCommand('vscode.diff', documentUri(file, view), driveUri(vs, file), t('{0} ({1}) ↔ current', titleOf(file), versionLabel(view)));
  }

  async function compareTwo(file: DriveItem, first: RevisionView, second: RevisionView): Promise<void> {
    const [older, newer] = first.number < second.number ? [first, second] : [second, first];
    await vs.commands.executeCommand('vscode.diff', documentUri(file, older), documentUri(file, newer), t('{0} ({1}) ↔ {2}', titleOf(file), versionLabel(older), versionLabel(newer)));
  }

  async function restore(file: DriveItem, view: RevisionView, total: number): Promise<void> {
    if (view.isHead) {
      void vs.window.showInformationMessage(t('{0} is already the current version of “{1}”.', versionLabel(view), titleOf(file)));
      return;
    }
    const go = await confirmModal(vs, t('Restore “{0}” to {1} of {2}?', titleOf(file), versionLabel(view), total), t('Its content becomes the current version; the version it replaces stays in the history.'), t('Restore'));
    if (!go) return;
    const current = await host.api().getFile(file.id);
    const exportType = view.isDocs ? revisionTextType(view.revision) : undefined;
    const content = view.isDocs
      ? await api().exportRevision(file.id, view.revision.id, exportType ?? 'text/plain')
      : await readAll((await api().downloadRevision(file.id, view.revision.id)).stream);
    const contentType = exportType ?? view.revision.mimeType ?? current.mimeType;
    const updated = await api().updateFile(file.id, {}, { content, ifMatch: current.etag, uploadType: 'multipart', ...(contentType ? { contentType } : {}) });
    await kit.changeEach([updated], async (item) => item, { rerender: 'row' });
    host.notifyFileChanged(file.id);
    void vs.window.showInformationMessage(t('Restored “{0}” to {1}.', titleOf(file), versionLabel(view)));
  }

  async function setPinned(file: DriveItem, view: RevisionView, pinned: boolean): Promise<void> {
    await api().patchRevision(file.id, view.revision.id, { pinned });
    void vs.window.showInformationMessage(pinned
      ? t('{0} of “{1}” is pinned: Drive keeps it until you delete it.', versionLabel(view), titleOf(file))
      : t('{0} of “{1}” is no longer pinned: Drive may remove it 30 days after newer content.', versionLabel(view), titleOf(file)));
  }

  async function setPublished(file: DriveItem, view: RevisionView, published: boolean): Promise<void> {
    // Publishing the current version keeps publishing what follows; an older one stays as it is. The publishing
    // settings are written whole (an update), so none is left over from an earlier publication.
    const settings = published
      ? { published: true, publishAuto: view.isHead, publishedOutsideDomain: view.revision.publishedOutsideDomain ?? false }
      : { published: false, publishAuto: false, publishedOutsideDomain: false };
    const changed = await api().updateRevision(file.id, view.revision.id, settings);
    if (!published) {
      void vs.window.showInformationMessage(t('{0} of “{1}” is no longer published.', versionLabel(view), titleOf(file)));
      return;
    }
    const openLink = t('Open Published Page');
    const choice = await vs.window.showInformationMessage(t('{0} of “{1}” is published.', versionLabel(view), titleOf(file)), ...(changed.publishedLink ? [openLink] : []));
    if (choice === openLink && changed.publishedLink) await vs.env.openExternal(vs.Uri.parse(changed.publishedLink));
  }

  async function remove(file: DriveItem, view: RevisionView): Promise<void> {
    const go = await confirmModal(vs, t('Delete {0} of “{1}” for good?', versionLabel(view), titleOf(file)), t('Its content cannot be recovered. The current version and the other versions stay.'), t('Delete Version'));
    if (!go) return;
    await api().deleteRevision(file.id, view.revision.id);
    void vs.window.showInformationMessage(t('Deleted {0} of “{1}”.', versionLabel(view), titleOf(file)));
  }

  /** One operation on one version: resolves the file and the version (asking when not named), then runs it. */
  async function run(arg: RevisionArg, action: Action): Promise<void> {
    const found = await target(arg);
    if (!found) return;
    const { file } = found;
    const views = await historyOf(file);
    const placeHolders: Record<Action, string> = {
      open: t('Which version should open?'),
      compare: t('Which version should be compared with the current one?'),
      compareOther: t('Which version should be compared?'),
      restore: t('Which version should become the current one?'),
      pin: t('Which version should Drive keep forever?'),
      unpin: t('Which version should no longer be pinned?'),
      publish: t('Which version should be published?'),
      unpublish: t('Which version should no longer be published?'),
      delete: t('Which version should be deleted?'),
    };
    const allowed: Record<Action, (view: RevisionView) => boolean> = {
      open: () => true,
      compare: (view) => !view.isHead,
      compareOther: () => views.length > 1,
      restore: (view) => !view.isHead,
      pin: (view) => canPin(view) && view.revision.pinned !== true,
      unpin: (view) => canPin(view) && view.revision.pinned === true,
      publish: (view) => canPublish(view) && view.revision.published !== true,
      unpublish: (view) => canPublish(view) && view.revision.published === true,
      delete: (view) => canDelete(view, views.length),
    };
    const view = await choose(file, views, placeHolders[action], allowed[action], found.revisionId);
    if (!view) return;
    await perform(file, views, view, action, found.otherRevisionId);
  }

  async function perform(file: DriveItem, views: readonly RevisionView[], view: RevisionView, action: Action, otherRevisionId?: string): Promise<void> {
    switch (action) {
      case 'open': return open(file, view);
      case 'compare': return compareWithCurrent(file, view);
      case 'compareOther': {
        const other = await choose(file, views, t('Compare {0} with which version?', versionLabel(view)), (candidate) => candidate !== view, otherRevisionId);
        if (other) await compareTwo(file, view, other);
        return;
      }
      case 'restore': return restore(file, view, views.length);
      case 'pin': return setPinned(file, view, true);
      case 'unpin': return setPinned(file, view, false);
      case 'publish': return setPublished(file, view, true);
      case 'unpublish': return setPublished(file, view, false);
      case 'delete': return remove(file, view);
    }
  }

  /** The history picker: a version, then what to do with it (only what that version allows). */
  async function revisionHistory(arg?: RevisionArg): Promise<void> {
    const found = await target(arg);
    if (!found) return;
    const { file } = found;
    const views = await historyOf(file);
    const view = await choose(file, views, t('Pick a version to open, compare, restore, pin, publish or delete'), () => true, found.revisionId);
    if (!view) return;
    const actions: { label: string; action: Action; when: boolean }[] = [
      { label: `$(go-to-file) ${t('Open (read-only)')}`, action: 'open', when: true },
      { label: `$(diff) ${t('Compare with Current')}`, action: 'compare', when: !view.isHead },
      { label: `$(diff-multiple) ${t('Compare with Another Version…')}`, action: 'compareOther', when: views.length > 1 },
      { label: `$(discard) ${t('Restore This Version…')}`, action: 'restore', when: !view.isHead },
      { label: `$(pinned) ${t('Pin (Keep Forever)')}`, action: 'pin', when: canPin(view) && view.revision.pinned !== true },
      { label: `$(pin) ${t('Unpin')}`, action: 'unpin', when: canPin(view) && view.revision.pinned === true },
      { label: `$(globe) ${t('Publish')}`, action: 'publish', when: canPublish(view) && view.revision.published !== true },
      { label: `$(circle-slash) ${t('Unpublish')}`, action: 'unpublish', when: canPublish(view) && view.revision.published === true },
      { label: `$(trash) ${t('Delete This Version…')}`, action: 'delete', when: canDelete(view, views.length) },
    ];
    const picked = await vs.window.showQuickPick(actions.filter((entry) => entry.when), { title: t('“{0}”, {1}', titleOf(file), versionLabel(view)), placeHolder: t('What should happen to this version?') });
    if (picked) await perform(file, views, view, picked.action);
  }

  return {
    revisionHistory,
    openRevision: (arg?: RevisionArg) => run(arg, 'open'),
    compareRevisionWithCurrent: (arg?: RevisionArg) => run(arg, 'compare'),
    compareRevisions: (arg?: RevisionArg) => run(arg, 'compareOther'),
    restoreRevision: (arg?: RevisionArg) => run(arg, 'restore'),
    pinRevision: (arg?: RevisionArg) => run(arg, 'pin'),
    unpinRevision: (arg?: RevisionArg) => run(arg, 'unpin'),
    publishRevision: (arg?: RevisionArg) => run(arg, 'publish'),
    unpublishRevision: (arg?: RevisionArg) => run(arg, 'unpublish'),
    deleteRevision: (arg?: RevisionArg) => run(arg, 'delete'),
  };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer | string>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}
