/**
 * Saves of Drive files (desk-drive:) made while Drive cannot be reached: accepted into Desk's write queue with the
 * content and the version they were edited from, and uploaded once when Drive is back. The upload is conditional on
 * that version (If-Match): a 412 whose current content is the user's own means an earlier upload landed (nothing
 * twice); content changed elsewhere asks Compare / Overwrite / Cancel, and the user's text is never dropped silently.
 */
import { createHash } from 'node:crypto';
import type * as vscode from 'vscode';
import { GoogleApiError } from '../../../api/errors';
import type { DeskContext } from '../../../core/deskContext';
import type { DisposableLike } from '../../../core/disposable';
import { askOverwriteKept } from '../../../core/ui/saveConflict';
import type { QueuedChange, ReplayOutcome } from '../../../core/offline/writeQueue';
import type { DriveApi, DriveItem } from '../port';
import { DRIVE_SCHEME, remoteVersionParts } from './drivePath';

export const DRIVE_SAVE_CHANGE = 'drive.save';

/** Content kept in the extension's storage per save; a larger save offline fails as before (it would bloat the state). */
export const MAX_KEPT_BYTES = 5 * 1024 * 1024;

interface SaveIntent {
  readonly fileId: string;
  readonly title: string;
  readonly mimeType?: string;
  /** The version the editor read; undefined uploads without a condition. */
  readonly ifMatch?: string;
  /** The content as read at open: a 412 over the same content is a change of metadata only. */
  readonly openedMd5?: string;
  readonly contentBase64: string;
}

export interface DriveOfflineSavesHost {
  readonly desk: Pick<DeskContext, 'vs' | 'offlineQueue' | 'log' | 'session'>;
  readonly api: () => Pick<DriveApi, 'getFile' | 'updateContent'>;
  /** The upload's answer: the file system pins it (the next save's If-Match), the tree shows it. */
  readonly onUploaded: (item: DriveItem, size: number) => void;
}

export class DriveOfflineSaves {
  constructor(private readonly host: DriveOfflineSavesHost) {}

  private get vs(): typeof vscode {
    return this.host.desk.vs;
  }

  register(): DisposableLike {
    return this.host.desk.offlineQueue.registerReplayer(DRIVE_SAVE_CHANGE, (change) => this.replay(change));
  }

  /**
   * Keeps a save; false when it is too large to keep (the save then fails as it would have). A second save of the
   * same file offline replaces the first (only the last content matters, and it was edited from the same version).
   */
  async keep(item: DriveItem, bytes: Buffer, ifMatch: string | undefined, openedMd5: string | undefined): Promise<boolean> {
    if (bytes.length > MAX_KEPT_BYTES) return false;
    const queue = this.host.desk.offlineQueue;
    const earlier = queue.list().filter((change) => change.kind === DRIVE_SAVE_CHANGE && (change.intent as unknown as SaveIntent).fileId === item.id);
    const first = earlier[0]?.intent as unknown as SaveIntent | undefined;
    const intent: SaveIntent = {
      fileId: item.id,
      title: item.title ?? item.id,
      ...(item.mimeType ? { mimeType: item.mimeType } : {}),
      ...((first ? first.ifMatch : ifMatch) !== undefined ? { ifMatch: first ? first.ifMatch : ifMatch } : {}),
      ...((first ? first.openedMd5 : openedMd5) !== undefined ? { openedMd5: first ? first.openedMd5 : openedMd5 } : {}),
      contentBase64: bytes.toString('base64'),
    };
    await queue.add({ kind: DRIVE_SAVE_CHANGE, summary: this.vs.l10n.t('Save “{0}” to Drive', intent.title), intent: { ...intent } });
    for (const change of earlier) await queue.remove(change.id);
    return true;
  }

  private async replay(change: QueuedChange): Promise<ReplayOutcome> {
    const intent = change.intent as unknown as SaveIntent;
    const bytes = Buffer.from(intent.contentBase64, 'base64');
    const api = this.host.api();
    const upload = (ifMatch: string | undefined): Promise<DriveItem> => api.updateContent(intent.fileId, bytes, { ifMatch, mimeType: intent.mimeType });
    let saved: DriveItem;
    try {
      saved = await upload(intent.ifMatch);
    } catch (error) {
      if (error instanceof GoogleApiError && error.isNotFound) {
        await this.keepText(this.vs.l10n.t('“{0}” could not be saved: the file was deleted on Drive. Your text is in a new editor.', intent.title), bytes);
        return 'applied';
      }
      if (!(error instanceof GoogleApiError && error.isConflict)) throw error;
      const current = await api.getFile(intent.fileId);
      // An earlier upload of this very content landed (its answer was lost): nothing to send again.
      if (current.md5Checksum !== undefined && current.md5Checksum === md5(bytes)) {
        this.host.onUploaded(current, bytes.length);
        return 'applied';
      }
      if (intent.openedMd5 !== undefined && current.md5Checksum === intent.openedMd5) {
        saved = await upload(current.etag);
      } else {
        if (!(await this.overwriteChosen(intent, current, bytes))) return 'applied';
        saved = await upload(undefined);
      }
    }
    this.host.onUploaded(saved, bytes.length);
    this.host.desk.log.info(`Drive: replayed the save of ${intent.fileId}`);
    return 'applied';
  }

  private async overwriteChosen(intent: SaveIntent, current: DriveItem, bytes: Buffer): Promise<boolean> {
    const vs = this.vs;
    const { overwrite, choice } = await askOverwriteKept(vs, {
      message: vs.l10n.t('“{0}” was changed on Drive while you were offline.', intent.title),
      detail: vs.l10n.t('Your save was kept while Desk was offline. Compare the Drive version with yours, overwrite it with yours, or cancel (your text opens in a new editor).'),
      mine: { content: bytes.toString('utf8') },
      // The queue replays a change only while the account that kept it is the one signed in: the remote version is its.
      theirs: () => Promise.resolve(vs.Uri.from({ scheme: DRIVE_SCHEME, ...remoteVersionParts(this.host.desk.session.viewAccount(), current) })),
      diffTitle: vs.l10n.t('{0} (Drive) ↔ (yours)', intent.title),
    });
    this.host.desk.log.info(`Drive: replayed save of ${intent.fileId} met a change on Drive: ${choice}`);
    return overwrite;
  }

  private async keepText(message: string, bytes: Buffer): Promise<void> {
    void this.vs.window.showWarningMessage(message);
    const document = await this.vs.workspace.openTextDocument({ content: bytes.toString('utf8') });
    await this.vs.window.showTextDocument(document, { preview: false });
  }
}

export function md5(bytes: Buffer): string {
  return createHash('md5').update(bytes).digest('hex');
}
