/**
 * A Drive file's revision history: a quick pick of its versions (newest first) with what each allows, and each
 * operation as its own command for the palette and the file's context menu: open an old version read-only, compare
 * it with the current content or with another version (VS Code's diff editor), restore it (an update of the file
 * with its content, confirmed), pin or unpin it, publish or unpublish it (Docs Editors files), delete it (confirmed;
 * never the current version).
 */
import type * as vscode from 'vscode';
import { isFolder } from '../../../shared/schemas/drive';
import { confirmModal } from '../../../core/ui/confirm';
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
import { DriveCommandPart } from './context';

/** A command's argument: a tree row, a document URI (editor title menu), or ids (the history picker, tests). */
export interface RevisionRef {
  readonly fileId: string;
  readonly revisionId?: string;
  /** compareRevisions: the second version. */
  readonly otherRevisionId?: string;
}
export type RevisionArg = DriveNode | vscode.Uri | RevisionRef | undefined;

type Action = 'open' | 'compare' | 'compareOther' | 'restore' | 'pin' | 'unpin' | 'publish' | 'unpublish' | 'delete';

export class DriveRevisionCommands extends DriveCommandPart {
  private api(): RevisionsApi {
    return this.host.resources();
  }

  private versionLabel(view: RevisionView): string {
    return this.t('version {0}', view.number);
  }

  private get words() {
    return { current: this.t('current'), pinned: this.t('pinned'), published: this.t('published'), publishedAuto: this.t('published, republished on change') };
  }

  private isRef(arg: RevisionArg | null): arg is RevisionRef {
    return typeof arg === 'object' && arg !== null && 'fileId' in arg && typeof arg.fileId === 'string';
  }

  private isUri(arg: RevisionArg): arg is vscode.Uri {
    return arg instanceof this.vs.Uri;
  }

  /** The file a command acts on, and a version it already names (from a ref or a version's document). */
  private async target(arg: RevisionArg): Promise<{ file: DriveItem; revisionId?: string; otherRevisionId?: string } | undefined> {
    let found: { file: DriveItem; revisionId?: string; otherRevisionId?: string } | undefined;
    const active = this.vs.window.activeTextEditor?.document.uri;
    const uri = this.isUri(arg) ? arg : arg === undefined && this.context.fileNodes().length === 0 ? active : undefined;
    if (this.isRef(arg)) {
      found = { file: await this.host.api().getFile(arg.fileId), ...(arg.revisionId ? { revisionId: arg.revisionId } : {}), ...(arg.otherRevisionId ? { otherRevisionId: arg.otherRevisionId } : {}) };
    } else if (uri?.scheme === REVISION_SCHEME) {
      const ref = parseRevisionUri(uri.path, uri.query);
      if (ref) found = { file: await this.host.api().getFile(ref.fileId), revisionId: ref.revisionId };
    } else if (uri && fileIdOf(uri)) {
      found = { file: await this.host.api().getFile(fileIdOf(uri) as string) };
    } else {
      const file = await this.context.targetFile(arg as DriveNode | undefined);
      if (file) found = { file };
    }
    if (found && isFolder(found.file)) {
      void this.vs.window.showInformationMessage(this.t('Folders have no versions: choose a file.'));
      return undefined;
    }
    return found;
  }

  private async historyOf(file: DriveItem): Promise<RevisionView[]> {
    return revisionViews(await this.api().allRevisions(file.id));
  }

  /** The version `revisionId` names, or the one the user picks among those `allowed`; undefined when none fits or the pick is dismissed. */
  private async choose(file: DriveItem, views: readonly RevisionView[], placeHolder: string, allowed: (view: RevisionView) => boolean, revisionId?: string): Promise<RevisionView | undefined> {
    if (revisionId !== undefined) {
      const named = views.find((view) => view.revision.id === revisionId);
      if (!named) throw new Error(this.t('“{0}” has no version {1} any more.', this.titleOf(file), revisionId));
      return named;
    }
    const candidates = views.filter(allowed);
    if (candidates.length === 0) {
      void this.vs.window.showInformationMessage(this.t('No version of “{0}” fits.', this.titleOf(file)));
      return undefined;
    }
    const picked = await this.vs.window.showQuickPick(candidates.map((view) => ({
      label: `$(${view.isHead ? 'circle-filled' : 'history'}) ${this.versionLabel(view)}`,
      description: revisionDescription(view, (date) => this.host.desk.clock.dateTime(date.getTime())),
      detail: revisionDetail(view, this.words, this.t),
      view,
    })), { title: this.t('Versions of “{0}”', this.titleOf(file)), placeHolder, matchOnDescription: true, matchOnDetail: true });
    return picked?.view;
  }

  private documentUri(file: DriveItem, view: RevisionView): vscode.Uri {
    const exportType = view.isDocs ? revisionTextType(view.revision) : undefined;
    if (view.isDocs && !exportType) throw new Error(this.t('This version of “{0}” cannot be read as text.', this.titleOf(file)));
    const parts = revisionUriParts({ fileId: file.id, revisionId: view.revision.id, ...(exportType ? { exportType } : {}) }, versionedTitle(file.title ?? file.id, this.versionLabel(view)));
    return this.vs.Uri.from({ scheme: REVISION_SCHEME, authority: this.desk.session.viewAccount(), ...parts });
  }

  private async open(file: DriveItem, view: RevisionView): Promise<void> {
    await this.vs.window.showTextDocument(this.documentUri(file, view), { preview: true });
  }

  private async compareWithCurrent(file: DriveItem, view: RevisionView): Promise<void> {
    await this.vs.commands.executeCommand('vscode.diff', this.documentUri(file, view), driveUri(this.vs, this.desk.session.viewAccount(), file), this.t('{0} ({1}) ↔ current', this.titleOf(file), this.versionLabel(view)));
  }

  private async compareTwo(file: DriveItem, first: RevisionView, second: RevisionView): Promise<void> {
    const [older, newer] = first.number < second.number ? [first, second] : [second, first];
    await this.vs.commands.executeCommand('vscode.diff', this.documentUri(file, older), this.documentUri(file, newer), this.t('{0} ({1}) ↔ {2}', this.titleOf(file), this.versionLabel(older), this.versionLabel(newer)));
  }

  private async restore(file: DriveItem, view: RevisionView, total: number): Promise<void> {
    if (view.isHead) {
      void this.vs.window.showInformationMessage(this.t('{0} is already the current version of “{1}”.', this.versionLabel(view), this.titleOf(file)));
      return;
    }
    const go = await confirmModal(this.vs, this.t('Restore “{0}” to {1} of {2}?', this.titleOf(file), this.versionLabel(view), total), this.t('Its content becomes the current version; the version it replaces stays in the history.'), this.t('Restore'));
    if (!go) return;
    const current = await this.host.api().getFile(file.id);
    const exportType = view.isDocs ? revisionTextType(view.revision) : undefined;
    const content = view.isDocs
      ? await this.api().exportRevision(file.id, view.revision.id, exportType ?? 'text/plain')
      : await readAll((await this.api().downloadRevision(file.id, view.revision.id)).stream);
    const contentType = exportType ?? view.revision.mimeType ?? current.mimeType;
    const updated = await this.api().updateFile(file.id, {}, { content, ifMatch: current.etag, uploadType: 'multipart', ...(contentType ? { contentType } : {}) });
    await this.context.changeEach([updated], (item) => Promise.resolve(item), { rerender: 'row' });
    this.host.notifyFileChanged(file.id);
    void this.vs.window.showInformationMessage(this.t('Restored “{0}” to {1}.', this.titleOf(file), this.versionLabel(view)));
  }

  private async setPinned(file: DriveItem, view: RevisionView, pinned: boolean): Promise<void> {
    await this.api().patchRevision(file.id, view.revision.id, { pinned });
    void this.vs.window.showInformationMessage(pinned
      ? this.t('{0} of “{1}” is pinned: Drive keeps it until you delete it.', this.versionLabel(view), this.titleOf(file))
      : this.t('{0} of “{1}” is no longer pinned: Drive may remove it 30 days after newer content.', this.versionLabel(view), this.titleOf(file)));
  }

  private async setPublished(file: DriveItem, view: RevisionView, published: boolean): Promise<void> {
    // Publishing the current version keeps publishing what follows; an older one stays as it is. The publishing
    // settings are written whole (an update), so none is left over from an earlier publication.
    const settings = published
      ? { published: true, publishAuto: view.isHead, publishedOutsideDomain: view.revision.publishedOutsideDomain ?? false }
      : { published: false, publishAuto: false, publishedOutsideDomain: false };
    const changed = await this.api().updateRevision(file.id, view.revision.id, settings);
    if (!published) {
      void this.vs.window.showInformationMessage(this.t('{0} of “{1}” is no longer published.', this.versionLabel(view), this.titleOf(file)));
      return;
    }
    const openLink = this.t('Open Published Page');
    const choice = await this.vs.window.showInformationMessage(this.t('{0} of “{1}” is published.', this.versionLabel(view), this.titleOf(file)), ...(changed.publishedLink ? [openLink] : []));
    if (choice === openLink && changed.publishedLink) await this.vs.env.openExternal(this.vs.Uri.parse(changed.publishedLink));
  }

  private async remove(file: DriveItem, view: RevisionView): Promise<void> {
    const go = await confirmModal(this.vs, this.t('Delete {0} of “{1}” for good?', this.versionLabel(view), this.titleOf(file)), this.t('Its content cannot be recovered. The current version and the other versions stay.'), this.t('Delete Version'));
    if (!go) return;
    await this.api().deleteRevision(file.id, view.revision.id);
    void this.vs.window.showInformationMessage(this.t('Deleted {0} of “{1}”.', this.versionLabel(view), this.titleOf(file)));
  }

  /** One operation on one version: resolves the file and the version (asking when not named), then runs it. */
  private async run(arg: RevisionArg, action: Action): Promise<void> {
    const found = await this.target(arg);
    if (!found) return;
    const { file } = found;
    const views = await this.historyOf(file);
    const placeHolders: Record<Action, string> = {
      open: this.t('Which version should open?'),
      compare: this.t('Which version should be compared with the current one?'),
      compareOther: this.t('Which version should be compared?'),
      restore: this.t('Which version should become the current one?'),
      pin: this.t('Which version should Drive keep forever?'),
      unpin: this.t('Which version should no longer be pinned?'),
      publish: this.t('Which version should be published?'),
      unpublish: this.t('Which version should no longer be published?'),
      delete: this.t('Which version should be deleted?'),
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
    const view = await this.choose(file, views, placeHolders[action], allowed[action], found.revisionId);
    if (!view) return;
    await this.perform(file, views, view, action, found.otherRevisionId);
  }

  private async perform(file: DriveItem, views: readonly RevisionView[], view: RevisionView, action: Action, otherRevisionId?: string): Promise<void> {
    switch (action) {
      case 'open': return this.open(file, view);
      case 'compare': return this.compareWithCurrent(file, view);
      case 'compareOther': {
        const other = await this.choose(file, views, this.t('Compare {0} with which version?', this.versionLabel(view)), (candidate) => candidate !== view, otherRevisionId);
        if (other) await this.compareTwo(file, view, other);
        return;
      }
      case 'restore': return this.restore(file, view, views.length);
      case 'pin': return this.setPinned(file, view, true);
      case 'unpin': return this.setPinned(file, view, false);
      case 'publish': return this.setPublished(file, view, true);
      case 'unpublish': return this.setPublished(file, view, false);
      case 'delete': return this.remove(file, view);
    }
  }

  /** The history picker: a version, then what to do with it (only what that version allows). */
  async revisionHistory(arg?: RevisionArg): Promise<void> {
    const found = await this.target(arg);
    if (!found) return;
    const { file } = found;
    const views = await this.historyOf(file);
    const view = await this.choose(file, views, this.t('Pick a version to open, compare, restore, pin, publish or delete'), () => true, found.revisionId);
    if (!view) return;
    const actions: { label: string; action: Action; when: boolean }[] = [
      { label: `$(go-to-file) ${this.t('Open (read-only)')}`, action: 'open', when: true },
      { label: `$(diff) ${this.t('Compare with Current')}`, action: 'compare', when: !view.isHead },
      { label: `$(diff-multiple) ${this.t('Compare with Another Version…')}`, action: 'compareOther', when: views.length > 1 },
      { label: `$(discard) ${this.t('Restore This Version…')}`, action: 'restore', when: !view.isHead },
      { label: `$(pinned) ${this.t('Keep Forever')}`, action: 'pin', when: canPin(view) && view.revision.pinned !== true },
      { label: `$(pin) ${this.t('Stop Keeping Forever')}`, action: 'unpin', when: canPin(view) && view.revision.pinned === true },
      { label: `$(globe) ${this.t('Publish')}`, action: 'publish', when: canPublish(view) && view.revision.published !== true },
      { label: `$(circle-slash) ${this.t('Unpublish')}`, action: 'unpublish', when: canPublish(view) && view.revision.published === true },
      { label: `$(trash) ${this.t('Delete This Version…')}`, action: 'delete', when: canDelete(view, views.length) },
    ];
    const picked = await this.vs.window.showQuickPick(actions.filter((entry) => entry.when), { title: this.t('“{0}”, {1}', this.titleOf(file), this.versionLabel(view)), placeHolder: this.t('What should happen to this version?') });
    if (picked) await this.perform(file, views, view, picked.action);
  }

  openRevision(arg?: RevisionArg) {
    return this.run(arg, 'open');
  }

  compareRevisionWithCurrent(arg?: RevisionArg) {
    return this.run(arg, 'compare');
  }

  compareRevisions(arg?: RevisionArg) {
    return this.run(arg, 'compareOther');
  }

  restoreRevision(arg?: RevisionArg) {
    return this.run(arg, 'restore');
  }

  pinRevision(arg?: RevisionArg) {
    return this.run(arg, 'pin');
  }

  unpinRevision(arg?: RevisionArg) {
    return this.run(arg, 'unpin');
  }

  publishRevision(arg?: RevisionArg) {
    return this.run(arg, 'publish');
  }

  unpublishRevision(arg?: RevisionArg) {
    return this.run(arg, 'unpublish');
  }

  deleteRevision(arg?: RevisionArg) {
    return this.run(arg, 'delete');
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer | string>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}
