/** What revision history needs from the Drive client: a Pick of it, so tests fake only these calls. */
import type { DriveClient } from '../../../api/drive';

export type RevisionsApi = Pick<DriveClient, 'allRevisions' | 'patchRevision' | 'updateRevision' | 'deleteRevision' | 'downloadRevision' | 'exportRevision' | 'updateFile' | 'getFile'>;
