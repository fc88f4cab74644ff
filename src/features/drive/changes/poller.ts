/**
 * Drive's changes.list as a source of the sync engine (core/sync/poller.ts): the change shape the Drive feature
 * reads, and the engine's types named for Drive.
 */
import type { Change, DriveFile } from '../../../shared/schemas/drive';
import { SyncOutcome, SyncPage, SyncPoller, SyncSource } from '../../../core/sync/poller';

/** One change as the poller needs it: a subset of Drive's Change resource (the shared schema's). */
export type PolledChange = Partial<Pick<Change, 'id' | 'fileId' | 'deleted' | 'modificationDate' | 'changeType'>> & { readonly file?: PolledChangeFile | undefined };

export type PolledChangeFile = Pick<DriveFile, 'id' | 'title' | 'mimeType' | 'etag' | 'version' | 'createdDate' | 'modifiedDate' | 'parents' | 'labels' | 'lastModifyingUserName' | 'shared'>;

export type ChangePage = SyncPage<PolledChange>;
export type ChangeSource = SyncSource<PolledChange>;
export type PollOutcome = SyncOutcome<PolledChange>;

/** The change poller of the Drive feature: the sync engine over Drive's change feed. */
export class ChangePoller extends SyncPoller<PolledChange> {}
